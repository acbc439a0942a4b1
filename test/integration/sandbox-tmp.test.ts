/**
 * The temp folder on the real Linux sandbox of the pinned Codex (0.169.0): `/tmp` is not granted, so it
 * does not exist in any profile's sandbox (codexProfile.ts: grants only, no `:slash_tmp`; before HOME
 * became private it was read-only), and each profile's TMPDIR is its own `tmp/` in its package cache
 * (cache.ts `cacheEnv`), which no other profile can read. Before this a tester measured `/tmp` shared by
 * every profile's sandbox: an isolated profile read what another wrote there. Each probe runs `codex
 * sandbox <the launch's -c flags> -- sh -c …` in the profile's folder with the launch's environment, as
 * sandbox-state.test.ts does.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
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

let root = '';
let home = '';
let paths: InstancePaths;
const launches: Record<string, CodexLaunch> = {};
const cwds: Record<string, string> = {};
/** A name no other run uses, so the probe never meets a file of an earlier run in the real /tmp. */
const tag = `angelia-tmp-probe-${randomBytes(6).toString('hex')}`;

/** `sh -c script` in profile `name`'s folder under its launch's flags and environment. */
function sh(name: string, script: string): Promise<Run> {
  const launch = launches[name]!;
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, CODEX_HOME: paths.codexHome, RUST_LOG: 'warn', ...launch.env };
  return new Promise((resolve) => {
    execFile(
      pinnedCodexBin(),
      ['sandbox', ...launch.codexArgs.slice(0, -1), '--', 'sh', '-c', script],
      { cwd: cwds[name]!, env, timeout: 60_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
      },
    );
  });
}

beforeAll(async () => {
  root = await makeTestDir('sbx-tmp');
  home = join(root, 'home');
  paths = resolveInstance({ HOME: home, ANGELIA_STATE_DIR: join(home, '.angelia'), CODEX_HOME: join(root, 'codex-home') });
  await mkdir(paths.codexHome, { recursive: true });
  for (const name of ['alpha', 'iso']) {
    cwds[name] = join(paths.workspace, 'profiles', name);
    await mkdir(cwds[name], { recursive: true });
  }
  await writeFile(
    paths.tableFile,
    '[profiles.alpha]\ncwd = "profiles/alpha"\npermission_mode = "acceptEdits"\n[profiles.iso]\ncwd = "profiles/iso"\npermission_mode = "acceptEdits"\nisolated = true\n',
  );
  const table = await loadTable(paths.tableFile, { home, env: {} });
  const facts = await launchFacts(paths, 'linux');
  for (const name of ['alpha', 'iso']) {
    launches[name] = compileCodexLaunch(table, name, facts);
    await ensureCacheDirs(launches[name].cacheDir!);
  }
});

afterAll(async () => {
  await rm(join('/tmp', tag), { force: true });
  if (root) await removeTestDir(root);
});

describe('the temp folder on the real sandbox: /tmp is not there, TMPDIR is per profile', () => {
  it('an agent cannot write /tmp nor read what another program left there, writes its own TMPDIR (mktemp too) and its folder', async () => {
    const other = `${tag}-host`;
    await writeFile(join('/tmp', other), 'HOST-TMP-SECRET\n');
    try {
      const r = await sh(
        'alpha',
        `echo x > /tmp/${tag} && echo WROTE-SLASH-TMP; cat /tmp/${other}; ls /tmp && echo LISTED-SLASH-TMP; echo "TMPDIR=$TMPDIR"; f=$(mktemp) && echo "MKTEMP=$f"; echo y > own.txt && echo WROTE-CWD; true`,
      );
      expect(r.code).toBe(0);
      expect(r.stdout).not.toMatch(/WROTE-SLASH-TMP|HOST-TMP-SECRET|LISTED-SLASH-TMP/);
      expect(r.stderr).toMatch(/Directory nonexistent|No such file or directory/);
      expect(existsSync(join('/tmp', tag))).toBe(false);
      const tmpdir = join(launches.alpha!.cacheDir!, 'tmp');
      expect(r.stdout).toContain(`TMPDIR=${tmpdir}`);
      expect(r.stdout).toMatch(new RegExp(`MKTEMP=${tmpdir}/tmp\\.`));
      expect(r.stdout).toContain('WROTE-CWD');
    } finally {
      await rm(join('/tmp', other), { force: true });
    }
  });

  it('an isolated profile cannot read what another profile left in its temp folder, nor leave a file in /tmp for it', async () => {
    const alphaTmp = join(launches.alpha!.cacheDir!, 'tmp');
    const left = await sh('alpha', `echo ALPHA-SECRET > "$TMPDIR/${tag}" && echo LEFT`);
    expect(left.stdout).toContain('LEFT');
    const read = await sh('iso', `cat '${join(alphaTmp, tag)}' && echo READ-ALPHA; echo z > /tmp/${tag} && echo WROTE-SLASH-TMP; true`);
    expect(read.stdout).not.toContain('ALPHA-SECRET');
    expect(read.stdout).not.toContain('READ-ALPHA');
    expect(read.stdout).not.toContain('WROTE-SLASH-TMP');
    // Control: the same file is there for alpha itself.
    expect((await sh('alpha', `cat "$TMPDIR/${tag}"`)).stdout).toContain('ALPHA-SECRET');
  });
});
