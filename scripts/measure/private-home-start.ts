/**
 * Agent start time under a compiled launch (docs/security-model.md "What it costs"), for one or more
 * checkouts of Angelia alternated in one process: plan the launch as a chat does (planLaunch), spawn the
 * pinned `codex app-server`, `initialize`, `thread/start`, then one turn in which a scripted model runs
 * `echo hi`. Every run gets a fresh instance under `.angelia-test/` (HOME, state, CODEX_HOME).
 * Usage: REPOS=/path/before,/path/after N=12 npx tsx scripts/measure/private-home-start.ts
 * (each checkout needs its node_modules; a `git worktree` of an older commit with a link to this one's
 * node_modules will do). Prints the median and every run of each phase, in ms.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type * as LaunchPlan from '../../src/main/core/launch/plan';
import type * as CodexHome from '../../src/main/demo/codexHome';
import type * as Scripted from '../../src/main/demo/scriptedModel';
import type * as Paths from '../../src/main/core/instance/paths';
import type * as Load from '../../src/main/core/table/load';
import type * as Bare from '../../test/fixtures/bareCodex';
import type * as Compiled from '../../test/fixtures/compiled';
import { performance } from 'node:perf_hooks';
import { rm } from 'node:fs/promises';

const N = Number(process.env.N ?? 7);
const REPOS = (process.env.REPOS ?? process.cwd()).split(',');
/** The modules a run uses, typed as this checkout's (another checkout's must offer the same calls). */
type Mods = typeof LaunchPlan & typeof CodexHome & typeof Scripted & typeof Paths & typeof Load & typeof Bare & typeof Compiled;
const mods: Record<string, Mods> = {};
for (const REPO of REPOS) {
  const parts = await Promise.all(
    [
      'src/main/core/launch/plan.ts',
      'src/main/demo/codexHome.ts',
      'src/main/demo/scriptedModel.ts',
      'src/main/core/instance/paths.ts',
      'src/main/core/table/load.ts',
      'test/fixtures/bareCodex.ts',
      'test/fixtures/compiled.ts',
    ].map((f) => import(`${REPO}/${f}`) as Promise<object>),
  );
  mods[REPO] = Object.assign({}, ...parts) as Mods;
}
const all: Record<string, number[][]> = Object.fromEntries(REPOS.map((r) => [r, []]));
for (let n = 0; n < N; n++)
  for (const REPO of n % 2 ? [...REPOS].reverse() : REPOS) {
    const { planLaunch, freshDir, writeOfflineCodexHome, startScriptedModel, resolveInstance, loadTable, BareCodex, runTurn, writeCompiled } = mods[REPO]!;
    const rows = all[REPO]!;
    const root = await freshDir('bench-start');
    const home = join(root, 'home');
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      HOME: home,
      ANGELIA_STATE_DIR: join(home, '.angelia'),
      CODEX_HOME: join(root, 'codex-home'),
      RUST_LOG: 'warn',
    };
    delete env.ANGELIA_CONFIG;
    const paths = resolveInstance(env);
    for (const p of ['coder', 'other']) await mkdir(join(paths.workspace, 'profiles', p), { recursive: true });
    for (const d of ['.ssh', '.config/gh', '.local/bin', '.cargo/bin']) await mkdir(join(home, d), { recursive: true });
    const model = await startScriptedModel();
    await writeOfflineCodexHome(paths.codexHome, { modelBaseUrl: model.baseUrl });
    await writeFile(paths.tableFile, '[profiles.coder]\ncwd = "profiles/coder"\npermission_mode = "default"\n[profiles.other]\ncwd = "profiles/other"\n');
    const table = await loadTable(paths.tableFile, { home, env });
    await writeCompiled(paths, table);
    const t0 = performance.now();
    const plan = await planLaunch({ table, profile: 'coder', chatId: 'coder', paths, env });
    const t1 = performance.now();
    const codex = BareCodex.spawn({
      bin: plan.spawn.bin,
      args: plan.spawn.args.slice(0, -1),
      cwd: plan.spawn.cwd,
      env: plan.spawn.env,
      codexHome: paths.codexHome,
    });
    await codex.initialize();
    const t2 = performance.now();
    const started = await codex.request<{ thread: { id: string } }>('thread/start', plan.threadParams);
    const t3 = performance.now();
    model.enqueue({ exec: { cmd: 'echo hi', login: false } }, { message: 'done' });
    const turn = await runTurn(codex, started.thread.id, 'run');
    const t4 = performance.now();
    if (turn.status !== 'completed') throw new Error('turn ' + turn.status);
    rows.push([t1 - t0, t2 - t1, t3 - t2, t4 - t3]);
    await codex.close();
    await model.close();
    await rm(root, { recursive: true, force: true });
  }
for (const REPO of REPOS) {
  const rows = all[REPO]!;
  const med = (i: number): number => {
    const v = rows.map((r) => r[i]!).sort((a, b) => a - b);
    return v[Math.floor(v.length / 2)]!;
  };
  const fmt = (i: number): string => `median ${med(i).toFixed(0)} ms [${rows.map((r) => r[i]!.toFixed(0)).join(', ')}]`;
  console.log(JSON.stringify({ repo: REPO, n: N }));
  console.log('plan      ', fmt(0));
  console.log('spawn+init', fmt(1));
  console.log('thread/start', fmt(2));
  console.log('first turn (one command)', fmt(3));
}
