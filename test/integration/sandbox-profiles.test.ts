/**
 * The full fixture's profiles on the real Linux sandbox of codex 0.169.0, after `compileWrite`: each
 * probe runs `codex sandbox <the profile's compiled -c flags> -- sh -c …` in the profile's folder.
 * Proves the compiled profile's entries hold: launch files read-only, `_shared/` read-only without shared_write
 * and writable with it, `_common/` writable (denied when isolated), directory capabilities writable
 * when given and unreadable when denied, secrets of denied capabilities unreadable.
 */
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureCacheDirs } from '../../src/main/core/launch/prepare';
import { compileCodexLaunch } from '../../src/main/core/compile/codexProfile';
import { compileWrite } from '../../src/main/core/compile/write';
import { pinnedCodexBin } from '../fixtures/bareCodexClient';
import { removeTestDir } from '../core/instance/testDir';
import { makeFullInstance, type FullInstance } from '../core/compile/fullInstance';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

let inst: FullInstance;
beforeAll(async () => {
  inst = await makeFullInstance('sbprof', { realRuntime: true });
  await writeFile(join(inst.home, 'vault', 'v.txt'), 'VAULT');
  await writeFile(join(inst.paths.workspace, '_shared', 'doctrine.md'), 'DOCTRINE');
  await writeFile(join(inst.paths.workspace, '_common', 'c.txt'), 'COMMON');
  await compileWrite(inst.table, ['coder', 'writer', 'vault'], inst.facts);
});
afterAll(async () => removeTestDir(inst.root));

/** Runs `sh -c script` in profile's folder under its compiled flags. */
async function sh(profile: string, script: string): Promise<Run> {
  const launch = compileCodexLaunch(inst.table, profile, inst.facts);
  if (launch.cacheDir) await ensureCacheDirs(launch.cacheDir);
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: inst.home, CODEX_HOME: inst.paths.codexHome, RUST_LOG: 'warn', ...launch.env };
  return new Promise((resolve) => {
    execFile(
      pinnedCodexBin(),
      ['sandbox', ...launch.codexArgs.slice(0, -1), '--', 'sh', '-c', script],
      { cwd: inst.profileDir(profile), env, timeout: 60_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
      },
    );
  });
}

const ws = (rel: string): string => join(inst.paths.workspace, rel);

describe("the compiled profile's entries on the real sandbox", () => {
  it('launch files: .claude/settings.json and the record cannot be changed or removed', async () => {
    const r = await sh(
      'coder',
      'echo alive; echo x > .claude/settings.json; echo x > .claude/settings.local.json; rm -f .claude/angelia-compiled.json; mv .claude .c2; echo x > .agents/skills/new; true',
    );
    expect(r.stdout).toBe('alive\n');
    const settings = await readFile(join(inst.profileDir('coder'), '.claude/settings.json'), 'utf8');
    expect(JSON.parse(settings).permissions.deny.length).toBeGreaterThan(50);
    expect(await readFile(join(inst.profileDir('coder'), '.claude/angelia-compiled.json'), 'utf8')).toContain('"version": 1');
    expect(r.stderr).toMatch(/Read-only file system|Device or resource busy/);
  });

  it('without shared_write _shared/ is readable but not writable; _common/ and a given directory are writable', async () => {
    const run = await sh(
      'coder',
      `cat '${ws('_shared')}/doctrine.md'; echo; echo x > '${ws('_shared')}/new.md' && echo WROTE-SHARED; echo c > '${ws('_common')}/coder.txt' && echo WROTE-COMMON; echo s > '${join(inst.home, 'projects/site')}/site.txt' && echo WROTE-SITE`,
    );
    expect(run.stdout).toContain('DOCTRINE');
    expect(run.stdout).not.toContain('WROTE-SHARED');
    expect(run.stdout).toContain('WROTE-COMMON');
    expect(run.stdout).toContain('WROTE-SITE');
  });

  it('a denied directory capability cannot be read; a given one can be written (vault lifts the default deny)', async () => {
    const coder = await sh('coder', `cat '${join(inst.home, 'vault/v.txt')}'`);
    expect(coder.code).not.toBe(0);
    expect(coder.stdout).not.toContain('VAULT');
    const vault = await sh('vault', `cat '${join(inst.home, 'vault/v.txt')}' && echo w > '${join(inst.home, 'vault/w.txt')}' && echo WROTE`);
    expect(vault.stdout).toBe('VAULTWROTE\n');
  });

  it('isolated: _common/ cannot be read or written', async () => {
    const r = await sh('vault', `cat '${ws('_common')}/c.txt'; echo x > '${ws('_common')}/v.txt' && echo WROTE; true`);
    expect(r.stdout).not.toContain('COMMON');
    expect(r.stdout).not.toContain('WROTE');
  });

  it('shared_write: _shared/ is writable; secrets and folders of denied capabilities cannot be read', async () => {
    const r = await sh(
      'writer',
      `echo w > '${ws('_shared')}/writer.md' && echo WROTE; cat '${join(inst.home, 'secret/mfa.key')}'; cat '${ws('_capabilities/skills/mfa')}/SKILL.md'; true`,
    );
    expect(r.stdout).toContain('WROTE');
    expect(r.stdout).not.toContain('MFA');
    expect(r.stdout).not.toContain('name: mfa');
    expect(await readFile(join(ws('_shared'), 'writer.md'), 'utf8')).toBe('w\n');
  });
});
