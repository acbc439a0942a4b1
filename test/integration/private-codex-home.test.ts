/**
 * Codex's home is private as a whole, present and future files alike (docs/security-model.md "Codex's
 * home"), on REAL Codex (0.169.0, Linux bubblewrap) with a scripted model. CODEX_HOME starts fresh:
 * only `auth.json` and `config.toml`. Profile A's chat runs a turn; Codex then writes A's prompt, reply
 * and command output into SQLite stores it creates (`state_5.sqlite`, `thread_history_1.sqlite` and
 * their `-wal`). Profile B's agent, started before that turn (its launch saw only the two files) and
 * after it, runs a command that searches CODEX_HOME: it reads nothing there beyond the carve-outs
 * commands need. Measured before the grants-only design: B, started first, read A's prompt and reply
 * from `thread_history_1.sqlite-wal` and `state_5.sqlite-wal`.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planLaunch } from '../../src/main/core/launch/plan';
import type { LaunchPlan } from '../../src/main/core/launch/plan';
import { freshDir, writeOfflineCodexHome } from '../../src/main/demo/codexHome';
import { startScriptedModel, type ScriptedModel } from '../../src/main/demo/scriptedModel';
import { resolveInstance, type InstancePaths } from '../../src/main/core/instance/paths';
import { loadTable, type LoadedTable } from '../../src/main/core/table/load';
import { BareCodex, runTurn } from '../fixtures/bareCodex';
import { writeCompiled } from '../fixtures/compiled';
import { removeTestDir } from '../core/instance/testDir';

const MARK = 'A-PRIVATE-7c3e';
let root = '';
let paths: InstancePaths;
let env: NodeJS.ProcessEnv;
let table: LoadedTable;
let model: ScriptedModel;
const live: BareCodex[] = [];

/** Starts the agent of `profile` as a chat plans it (launch/plan.ts), returns it and its thread. */
async function agent(profile: string, chatId: string): Promise<{ codex: BareCodex; threadId: string; plan: LaunchPlan }> {
  const plan = await planLaunch({ table, profile, chatId, paths, env });
  const codex = BareCodex.spawn({
    bin: plan.spawn.bin,
    args: plan.spawn.args.slice(0, -1),
    cwd: plan.spawn.cwd,
    env: plan.spawn.env,
    codexHome: paths.codexHome,
  });
  live.push(codex);
  await codex.initialize();
  const started = await codex.request<{ thread: { id: string } }>('thread/start', plan.threadParams);
  return { codex, threadId: started.thread.id, plan };
}

/** Runs `cmd` in the agent's sandbox (one exec step, then a message); returns what the command printed. */
async function command(a: { codex: BareCodex; threadId: string }, cmd: string): Promise<string> {
  model.enqueue({ exec: { cmd, login: false } }, { message: 'done' });
  const turn = await runTurn(a.codex, a.threadId, 'run the probe');
  expect(turn.status).toBe('completed');
  const item = turn.items.find((i) => i.type === 'commandExecution');
  expect(item, 'a command item').toBeDefined();
  return String(item!.aggregatedOutput ?? '');
}

/**
 * Lists what a command can read in CODEX_HOME: `LEAK <file>` for every file holding A's marker,
 * `READABLE <file>` for every non-empty file it can open.
 */
function probe(codexHome: string): string {
  return [
    `grep -rla ${MARK} '${codexHome}' 2>/dev/null | sed 's/^/LEAK /'`,
    `find '${codexHome}' -type f 2>/dev/null | while read -r f; do [ -s "$f" ] && head -c1 "$f" >/dev/null 2>&1 && echo "READABLE $f"; done`,
    'echo probe-done',
  ].join('; ');
}

/** The readable files a probe found outside the carve-outs: skills (`skills/`) and Codex's own helper links (`tmp/`). */
function beyondCarveOuts(output: string, codexHome: string): string[] {
  return output
    .split('\n')
    .filter(
      (l) =>
        l.startsWith('LEAK ') || (l.startsWith('READABLE ') && !['skills/', 'tmp/'].some((c) => l.slice('READABLE '.length).startsWith(join(codexHome, c)))),
    );
}

beforeAll(async () => {
  root = await freshDir('private-codexhome');
  const home = join(root, 'home');
  env = { ...process.env, HOME: home, ANGELIA_STATE_DIR: join(home, '.angelia'), CODEX_HOME: join(root, 'codex-home'), RUST_LOG: 'warn' };
  delete env.ANGELIA_CONFIG;
  paths = resolveInstance(env);
  for (const p of ['a', 'b']) await mkdir(join(paths.workspace, 'profiles', p), { recursive: true });
  model = await startScriptedModel();
  await writeOfflineCodexHome(paths.codexHome, { modelBaseUrl: model.baseUrl });
  await writeFile(join(paths.codexHome, 'auth.json'), '{"OPENAI_API_KEY":null}\n', { mode: 0o600 });
  await writeFile(paths.tableFile, '[profiles.a]\ncwd = "profiles/a"\n\n[profiles.b]\ncwd = "profiles/b"\n');
  table = await loadTable(paths.tableFile, { home, env });
  await writeCompiled(paths, table);
});

afterAll(async () => {
  await Promise.all(live.map((c) => c.close()));
  await model?.close();
  if (root) await removeTestDir(root);
});

describe("a fresh Codex home: another profile's transcripts stay private (real codex)", () => {
  it("B, started while CODEX_HOME held only auth.json and config.toml, and B started after A's turn, read nothing of it beyond the carve-outs", async () => {
    expect(execFileSync('ls', ['-A', paths.codexHome], { encoding: 'utf8' }).split('\n').filter(Boolean).sort()).toEqual(['auth.json', 'config.toml']);
    const early = await agent('b', 'b');

    const a = await agent('a', 'a');
    model.enqueue({ exec: { cmd: `echo ${MARK}-command-output`, login: false } }, { message: `${MARK}-reply` });
    const turn = await runTurn(a.codex, a.threadId, `${MARK}-prompt: run it`);
    expect(turn.status).toBe('completed');

    // Codex keeps A's turn in stores it created after B's launch (SQLite and its -wal).
    const holders = execFileSync('grep', ['-rla', MARK, paths.codexHome], { encoding: 'utf8' }).split('\n').filter(Boolean);
    expect(
      holders.some((f) => /\.sqlite(-wal)?$/.test(f)),
      holders.join(', '),
    ).toBe(true);

    const before = await command(early, probe(paths.codexHome));
    expect(before).toContain('probe-done');
    expect(beyondCarveOuts(before, paths.codexHome)).toEqual([]);

    const late = await agent('b', 'b-2');
    const after = await command(late, probe(paths.codexHome));
    expect(after).toContain('probe-done');
    expect(beyondCarveOuts(after, paths.codexHome)).toEqual([]);
  });
});
