/**
 * Codex's own state on the real Linux sandbox of the pinned Codex (0.169.0). Codex keeps every thread
 * of every profile in SQLite files in its home (`state_5.sqlite`: ids, folders, first messages;
 * `thread_history_1.sqlite`: the messages; `logs_2.sqlite`), which a clone tester read from inside an
 * agent before the launch scan of floor.ts `codexHomeScanRules` denied them. Since HOME became private
 * by default nothing of a Codex home is granted but the skills (docs/security-model.md "Codex's home"):
 * the scan's deny entries remain for escalated commands only. Every probe runs `codex sandbox <the
 * launch's -c flags> -- sh -c …` in the profile's folder, with a fake HOME and the launch facts of a
 * start; both `~/.codex` and `CODEX_HOME` are covered, a `-wal` created after the launch included, the
 * global AGENTS.md and shell snapshots too (Codex reads AGENTS.md itself), while skills stay readable.
 */
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchFacts } from '../../src/main/core/launch/plan';
import { ensureCacheDirs } from '../../src/main/core/launch/prepare';
import { compileCodexLaunch, type CodexLaunch } from '../../src/main/core/compile/codexProfile';
import { resolveInstance, type InstancePaths } from '../../src/main/core/instance/paths';
import { loadTable } from '../../src/main/core/table/load';
import { pinnedCodexBin } from '../fixtures/bareCodexClient';
import { makeTestDir, removeTestDir } from '../core/instance/testDir';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

const SECRET = 'CODEX-SECRET-93af';
let root = '';
let home = '';
let paths: InstancePaths;
let launch: CodexLaunch;
let cwd = '';

/** Private entries of a Codex home, relative to it. */
const PRIVATE = [
  'state_5.sqlite',
  'state_5.sqlite-wal',
  'thread_history_1.sqlite',
  'logs_2.sqlite',
  'log/codex-tui.log',
  'rules/default.rules',
  'installation_id',
  'AGENTS.md',
  'shell_snapshots/snap.sh',
];
/** What commands may read there: skills (their scripts run in commands). */
const READABLE = ['skills/notes/SKILL.md'];

function sh(script: string): Promise<Run> {
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, CODEX_HOME: paths.codexHome, RUST_LOG: 'warn', ...launch.env };
  return new Promise((resolve) => {
    execFile(
      pinnedCodexBin(),
      ['sandbox', ...launch.codexArgs.slice(0, -1), '--', 'sh', '-c', script],
      { cwd, env, timeout: 60_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
      },
    );
  });
}

const catEach = (dir: string, rels: string[]): string =>
  rels.map((rel) => `cat '${join(dir, rel)}' 2>/dev/null | grep -q . && echo 'OPEN ${rel}'`).join('; ') + '; true';

beforeAll(async () => {
  root = await makeTestDir('sbx-codexhome');
  home = join(root, 'home');
  paths = resolveInstance({ HOME: home, ANGELIA_STATE_DIR: join(home, '.angelia'), CODEX_HOME: join(root, 'codex-home') });
  cwd = join(paths.workspace, 'profiles', 'coder');
  await mkdir(cwd, { recursive: true });
  for (const dir of [paths.codexHome, join(home, '.codex')]) {
    for (const rel of [...PRIVATE.filter((r) => r !== 'state_5.sqlite-wal'), ...READABLE]) {
      await mkdir(join(dir, rel, '..'), { recursive: true });
      await writeFile(join(dir, rel), `${SECRET} ${rel}\n`);
    }
  }
  await writeFile(paths.tableFile, '[profiles.coder]\ncwd = "profiles/coder"\npermission_mode = "acceptEdits"\n');
  const table = await loadTable(paths.tableFile, { home, env: {} });
  launch = compileCodexLaunch(table, 'coder', await launchFacts(paths, 'linux'));
  await ensureCacheDirs(launch.cacheDir!);
  // Created after the launch was compiled, as Codex opens its database in WAL mode after start.
  for (const dir of [paths.codexHome, join(home, '.codex')]) await writeFile(join(dir, 'state_5.sqlite-wal'), `${SECRET} wal\n`);
});

afterAll(async () => {
  if (root) await removeTestDir(root);
});

describe("Codex's own state on the real sandbox", () => {
  it('a launch compiled without the scan (no deny entry names them) does not let the agent read them either: nothing there is granted', async () => {
    const table = await loadTable(paths.tableFile, { home, env: {} });
    const { codexHomeEntries: _dropped, ...facts } = await launchFacts(paths, 'linux');
    const saved = launch;
    launch = compileCodexLaunch(table, 'coder', facts);
    try {
      expect(Object.keys(launch.filesystem).filter((p) => p.startsWith(join(paths.codexHome, 'state_5')))).toEqual([]);
      const run = await sh(`${catEach(paths.codexHome, ['state_5.sqlite', 'thread_history_1.sqlite'])}; echo ran`);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toBe('ran\n');
    } finally {
      launch = saved;
    }
  });

  it('denies the SQLite stores, logs and rules of CODEX_HOME and ~/.codex, a -wal made after launch included', async () => {
    for (const dir of [paths.codexHome, join(home, '.codex')]) {
      const run = await sh(catEach(dir, PRIVATE));
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toBe('');
    }
  });

  it('still lets commands read skills, and run', async () => {
    const run = await sh(`${catEach(paths.codexHome, READABLE)}; echo ran`);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim().split('\n').sort()).toEqual([...READABLE.map((r) => `OPEN ${r}`), 'ran'].sort());
  });
});
