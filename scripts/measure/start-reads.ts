/**
 * What Codex reads at a thread's start under Angelia's compiled launch, and what it costs
 * (docs/benchmarks.md "Cheaper starts"): plans a launch as a chat does (planLaunch), spawns the pinned
 * `codex app-server` with `RUST_LOG` set, `initialize`, then `thread/start` and (with RESUME=1, after one
 * turn on the scripted model) `thread/resume` on a second process. Counts the sandboxed file requests
 * Codex logs (`fs.sandbox_request` spans) and prints the wall time of each step. Variants: EXTRA holds
 * more `-c key=value` flags, `;`-separated, added before `app-server` (e.g.
 * `EXTRA='project_doc_max_bytes=0'`); WALK=1 drops the launch's own `project_root_markers = []`. Every run
 * gets a fresh instance under `.angelia-test/`.
 * Usage: N=3 EXTRA='…' RESUME=1 WALK=1 npx tsx scripts/measure/start-reads.ts
 */
import { spawn } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { planLaunch } from '../../src/main/core/launch/plan';
import { freshDir, writeOfflineCodexHome } from '../../src/main/demo/codexHome';
import { startScriptedModel } from '../../src/main/demo/scriptedModel';
import { resolveInstance } from '../../src/main/core/instance/paths';
import { loadTable } from '../../src/main/core/table/load';
import { writeCompiled } from '../../test/fixtures/compiled';

const N = Number(process.env.N ?? 3);
const EXTRA = (process.env.EXTRA ?? '')
  .split(';')
  .map((s) => s.trim())
  .filter(Boolean)
  .flatMap((kv) => ['-c', kv]);
const RESUME = process.env.RESUME === '1';
const LOG = process.env.LOG ?? 'codex_core=debug,codex_app_server=info,info';

interface Proc {
  request: (method: string, params: unknown) => Promise<Record<string, unknown>>;
  notify: (method: string, params: unknown) => void;
  lines: string[];
  waitFor: (method: string) => Promise<void>;
  close: () => Promise<void>;
}

function start(bin: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Proc {
  const child = spawn(bin, args, { cwd, env: { ...env, RUST_LOG: LOG }, stdio: ['pipe', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const pending = new Map<number, (v: Record<string, unknown>) => void>();
  const notes: string[] = [];
  let notesWaiter: (() => void) | null = null;
  let buf = '';
  let id = 1;
  child.stderr.setEncoding('utf8');
  let ebuf = '';
  child.stderr.on('data', (c: string) => {
    ebuf += c;
    const parts = ebuf.split('\n');
    ebuf = parts.pop() ?? '';
    for (const p of parts) lines.push(`${performance.now().toFixed(0)} ${p}`);
  });
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (c: string) => {
    buf += c;
    const parts = buf.split('\n');
    buf = parts.pop() ?? '';
    for (const p of parts) {
      if (!p.trim()) continue;
      const m = JSON.parse(p) as { id?: number; method?: string; result?: Record<string, unknown>; error?: unknown };
      if (m.id !== undefined && !m.method) {
        if (m.error) console.error('error', JSON.stringify(m.error));
        pending.get(m.id)?.(m.result ?? {});
      } else if (m.method && m.id !== undefined) {
        child.stdin.write(JSON.stringify({ id: m.id, result: { decision: 'decline' } }) + '\n');
      } else if (m.method) {
        notes.push(m.method);
        notesWaiter?.();
      }
    }
  });
  return {
    lines,
    request: (method, params) =>
      new Promise((resolve) => {
        const n = id++;
        pending.set(n, resolve);
        child.stdin.write(JSON.stringify({ id: n, method, params }) + '\n');
      }),
    notify: (method, params) => child.stdin.write(JSON.stringify({ method, params }) + '\n'),
    waitFor: async (method) => {
      while (!notes.includes(method)) await new Promise<void>((r) => (notesWaiter = r));
    },
    close: async () => {
      child.stdin.end();
      await new Promise((r) => child.once('exit', r));
    },
  };
}

/** Codex's log lines are coloured: the escapes (ESC [ … m) are dropped before matching. */
const ESCAPES = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');
/** The sandboxed file requests Codex logged (one `fs.sandbox_request` span opened each). */
const sandboxed = (lines: string[]): string[] => lines.filter((l) => /fs\.sandbox_request: codex_exec_server::fs_sandbox: new/.test(l.replace(ESCAPES, '')));

for (let n = 0; n < N; n++) {
  const root = await freshDir('bench-reads');
  const home = join(root, 'home');
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, ANGELIA_STATE_DIR: join(home, '.angelia'), CODEX_HOME: join(root, 'codex-home') };
  delete env.ANGELIA_CONFIG;
  const paths = resolveInstance(env);
  await mkdir(join(paths.workspace, 'profiles', 'coder'), { recursive: true });
  for (const d of ['.ssh', '.config/gh', '.local/bin', '.cargo/bin']) await mkdir(join(home, d), { recursive: true });
  const model = await startScriptedModel();
  await writeOfflineCodexHome(paths.codexHome, { modelBaseUrl: model.baseUrl });
  await writeFile(paths.tableFile, '[profiles.coder]\ncwd = "profiles/coder"\npermission_mode = "default"\n');
  const table = await loadTable(paths.tableFile, { home, env });
  await writeCompiled(paths, table);
  const plan = await planLaunch({ table, profile: 'coder', chatId: 'coder', paths, env });
  const planned = plan.spawn.args.slice(0, -1);
  // WALK=1: without the launch's `project_root_markers = []` (compile/projectRoot.ts), as launches were before it.
  const at = planned.indexOf('project_root_markers=[]');
  const base = process.env.WALK === '1' && at > 0 ? [...planned.slice(0, at - 1), ...planned.slice(at + 1)] : planned;
  const args = [...base, ...EXTRA, 'app-server'];
  const init = { clientInfo: { name: 'measure', version: '0' }, capabilities: { experimentalApi: true } };
  const t0 = performance.now();
  const a = start(plan.spawn.bin, args, plan.spawn.cwd, plan.spawn.env);
  await a.request('initialize', init);
  a.notify('initialized', {});
  const t1 = performance.now();
  const started = await a.request('thread/start', plan.threadParams);
  const t2 = performance.now();
  const threadId = (started.thread as { id: string }).id;
  console.log(`run ${n}: spawn+init ${(t1 - t0).toFixed(0)} ms, thread/start ${(t2 - t1).toFixed(0)} ms, sandboxed reads ${sandboxed(a.lines).length}`);
  if (process.env.SHOW) for (const l of sandboxed(a.lines)) console.log('  ', l.slice(0, 400));
  if (process.env.ALL) for (const l of a.lines) console.log('  ', l);
  if (RESUME) {
    model.enqueue({ message: 'hi' });
    await a.request('turn/start', { threadId, input: [{ type: 'text', text: 'hi', text_elements: [] }] });
    await a.waitFor('turn/completed');
    await a.close();
    const t3 = performance.now();
    const b = start(plan.spawn.bin, args, plan.spawn.cwd, plan.spawn.env);
    await b.request('initialize', init);
    b.notify('initialized', {});
    const t4 = performance.now();
    const { model: _m, ...resumeParams } = plan.threadParams as Record<string, unknown>;
    void _m;
    await b.request('thread/resume', { ...resumeParams, threadId });
    const t5 = performance.now();
    model.enqueue({ message: 'again' });
    await b.request('turn/start', { threadId, input: [{ type: 'text', text: 'again', text_elements: [] }] });
    await b.waitFor('item/agentMessage/delta');
    const t6 = performance.now();
    console.log(
      `       resume: spawn+init ${(t4 - t3).toFixed(0)} ms, thread/resume ${(t5 - t4).toFixed(0)} ms (sandboxed reads ${sandboxed(b.lines).length}), turn → first delta ${(t6 - t5).toFixed(0)} ms`,
    );
    await b.close();
  } else await a.close();
  await model.close();
  await rm(root, { recursive: true, force: true });
}
