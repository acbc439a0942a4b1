/**
 * Angelia's state folder on the real Linux sandbox of the pinned Codex (0.169.0): with the instance in
 * its default layout (the profile's folder in `<state>/workspace/profiles/<name>`), every probe runs
 * `codex sandbox <the launch's -c flags> -- sh -c …` in the profile's folder, with a fake HOME, the
 * launch facts of a start (launch/plan.ts `launchFacts`) and every folder under <repo>/.angelia-test.
 * Nothing of the state folder but workspace/ can be read: `private/` (Angelia's own files), the files
 * the floor names (also when rewritten in place after the launch), a file and a folder found there at
 * launch, and a file that appears after a launch from the next launch on (no `<state>/*` glob: floor.ts `isTransient`); the profile's own folder,
 * `_shared/` and its package cache still work. Churn in the state folder: sandbox-state-churn.test.ts;
 * files written while a command runs: sandbox-state-late.test.ts.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
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

const SECRET = 'STATE-SECRET-5d21';
let root = '';
let home = '';
let paths: InstancePaths;
let launch: CodexLaunch;
let cwd = '';

/** The private files of the state folder a probe tries to read, relative to it. */
const PRIVATE = [
  'private/sessions.json',
  'private/sessions.json.bak',
  'private/children.json',
  'private/audit.jsonl',
  'private/api.token',
  // The same files at their old top-level names (an instance from before private/), still denied by name.
  'sessions.json',
  'sessions.json.bak',
  'children.json',
  'audit.jsonl',
  'env',
  'api.token',
  'exports/chat-2026-01-01.md',
  'approvals/0b9c3e7a.json',
  'logs/angelia.log',
  'media/1f2e/photo.txt',
  'compiled/coder.json',
  'brand-new.json',
  'unknown-folder/inside.txt',
];

/** `sh -c script` in the profile's folder under the launch's flags. */
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

/** A script that cats each file and prints `OPEN <rel>` when it could. */
const catEach = (rels: string[]): string => rels.map((rel) => `cat '${join(paths.stateDir, rel)}' >/dev/null 2>&1 && echo 'OPEN ${rel}'`).join('; ') + '; true';

beforeAll(async () => {
  root = await makeTestDir('sbx-state');
  home = join(root, 'home');
  paths = resolveInstance({ HOME: home, ANGELIA_STATE_DIR: join(home, '.angelia'), CODEX_HOME: join(root, 'codex-home') });
  cwd = join(paths.workspace, 'profiles', 'coder');
  for (const d of [cwd, join(paths.workspace, 'profiles', 'other'), join(paths.workspace, '_shared'), paths.codexHome]) await mkdir(d, { recursive: true });
  for (const rel of PRIVATE) {
    await mkdir(join(paths.stateDir, rel, '..'), { recursive: true });
    await writeFile(join(paths.stateDir, rel), `${SECRET} ${rel}\n`);
  }
  await writeFile(join(paths.workspace, '_shared', 'doctrine.md'), 'DOCTRINE\n');
  await writeFile(join(cwd, 'own.txt'), 'OWN\n');
  await writeFile(paths.tableFile, '[profiles.coder]\ncwd = "profiles/coder"\npermission_mode = "acceptEdits"\n[profiles.other]\ncwd = "profiles/other"\n');
  const table = await loadTable(paths.tableFile, { home, env: {} });
  launch = compileCodexLaunch(table, 'coder', await launchFacts(paths, 'linux'));
  await ensureCacheDirs(launch.cacheDir!);
});

afterAll(async () => {
  if (root) await removeTestDir(root);
});

describe('the state folder on the real sandbox: nothing but workspace/ can be read', () => {
  it('the host reads every private file (control) and compile warns of nothing', async () => {
    for (const rel of PRIVATE) expect(await readFile(join(paths.stateDir, rel), 'utf8')).toContain(SECRET);
    expect(launch.warnings).toEqual([]);
  });

  it('no private file is readable: the named ones, and a file and a folder found at launch', async () => {
    const r = await sh(`echo alive; ${catEach(PRIVATE)}`);
    expect(r.stdout).toBe('alive\n');
    const direct = await sh(PRIVATE.map((rel) => `cat '${join(paths.stateDir, rel)}'`).join('; ') + '; true');
    expect(direct.stdout).not.toContain(SECRET);
    expect(direct.stderr).toMatch(/Permission denied|No such file or directory/);
  });

  it('a named file rewritten in place after the launch stays unreadable (a rename over it would not: sandbox-state-late.test.ts); a new name is denied from the next launch on', async () => {
    await writeFile(join(paths.stateDir, 'appeared-later.json'), `${SECRET} later\n`);
    await writeFile(join(paths.stateDir, 'sessions.json.bak'), `${SECRET} rewritten\n`);
    const r = await sh(`echo alive; ${catEach(['sessions.json.bak'])}; cat '${join(paths.stateDir, 'sessions.json.bak')}'; true`);
    expect(r.stdout).toBe('alive\n');
    expect(r.stderr).toMatch(/Permission denied/);
    const table = await loadTable(paths.tableFile, { home, env: {} });
    const next = compileCodexLaunch(table, 'coder', await launchFacts(paths, 'linux'));
    expect(next.filesystem[join(paths.stateDir, 'appeared-later.json')]).toBe('deny');
    const saved = launch;
    launch = next;
    try {
      const again = await sh(`echo alive; ${catEach(['appeared-later.json', 'sessions.json.bak'])}; true`);
      expect(again.stdout).toBe('alive\n');
    } finally {
      launch = saved;
    }
  });

  it('a private folder that did not exist at launch cannot be read once created (exports/ made later)', async () => {
    await rm(join(paths.stateDir, 'exports'), { recursive: true, force: true });
    const facts = await launchFacts(paths, 'linux');
    const table = await loadTable(paths.tableFile, { home, env: {} });
    const before = compileCodexLaunch(table, 'coder', facts);
    expect(existsSync(join(paths.stateDir, 'exports'))).toBe(false);
    expect(before.filesystem[join(paths.stateDir, 'exports')]).toBe('deny');
    await mkdir(join(paths.stateDir, 'exports'));
    await writeFile(join(paths.stateDir, 'exports', 'late.md'), `${SECRET} late export\n`);
    const saved = launch;
    launch = before;
    try {
      const r = await sh(`echo alive; ${catEach(['exports/late.md'])}; ls '${join(paths.stateDir, 'exports')}'; true`);
      expect(r.stdout).toBe('alive\n');
    } finally {
      launch = saved;
    }
  });

  it("the profile's folder reads and writes, _shared/ reads, its package cache writes, another profile's folder is denied", async () => {
    const r = await sh(
      `cat own.txt && echo new > made.txt && echo MADE; cat '${join(paths.workspace, '_shared', 'doctrine.md')}'; echo c > "$npm_config_cache/c.txt" && echo CACHED; ls '${join(paths.workspace, 'profiles', 'other')}' && echo OTHER-LISTED; true`,
    );
    expect(r.stdout).toBe('OWN\nMADE\nDOCTRINE\nCACHED\n');
    expect(await readFile(join(cwd, 'made.txt'), 'utf8')).toBe('new\n');
    expect(await readFile(join(launch.cacheDir!, 'npm', 'c.txt'), 'utf8')).toBe('c\n');
  });

  it('no private state folder can be written into', async () => {
    const r = await sh(
      ['private', 'exports', 'approvals', 'compiled', 'logs'].map((d) => `echo x > '${join(paths.stateDir, d, 'w.txt')}' && echo 'WROTE ${d}'`).join('; ') +
        '; true',
    );
    expect(r.stdout).toBe('');
    for (const d of ['private', 'exports', 'approvals', 'compiled', 'logs']) expect(existsSync(join(paths.stateDir, d, 'w.txt'))).toBe(false);
  });
});
