/**
 * The project trust a launch gives Codex on its command line (compile/projectTrust.ts; docs/security-model.md
 * "The user's Codex config is never written"): only where Codex would record one (a launch that can
 * write), for the folder as written and as its real path, as one `-c projects={…}` inline table.
 */
import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'smol-toml';
import { needsProjectTrust, projectTrustFlag } from '../../../src/main/core/compile/projectTrust';
import { makeTestDir, removeTestDir } from '../instance/testDir';

let root: string;
beforeAll(async () => {
  root = await makeTestDir('project-trust');
  await mkdir(join(root, 'real', 'coder'), { recursive: true });
  await symlink(join(root, 'real'), join(root, 'link'));
});
afterAll(async () => removeTestDir(root));

/** The `projects` table a flag sets, parsed as Codex would. */
function projects(flag: string[]): unknown {
  expect(flag[0]).toBe('-c');
  const [key, value] = [flag[1]!.slice(0, flag[1]!.indexOf('=')), flag[1]!.slice(flag[1]!.indexOf('=') + 1)];
  expect(key).toBe('projects');
  return parse(`v = ${value}`).v;
}

describe('project trust on the command line', () => {
  it('is given to every launch that can write, never to a read-only one', () => {
    expect(needsProjectTrust({ sandbox: true, plan: false, readOnly: false })).toBe(true);
    expect(needsProjectTrust({ sandbox: false, plan: false, readOnly: false })).toBe(true);
    expect(needsProjectTrust({ sandbox: false, plan: true, readOnly: false })).toBe(true);
    expect(needsProjectTrust({ sandbox: true, plan: true, readOnly: false })).toBe(false);
    expect(needsProjectTrust({ sandbox: true, plan: false, readOnly: true })).toBe(false);
    expect(needsProjectTrust({ sandbox: false, plan: false, readOnly: true })).toBe(false);
  });

  it('trusts the folder as written and as its real path, a folder that is not there as written', () => {
    const real = join(root, 'real', 'coder');
    expect(projects(projectTrustFlag(real))).toEqual({ [real]: { trust_level: 'trusted' } });
    const viaLink = join(root, 'link', 'coder');
    expect(projects(projectTrustFlag(viaLink))).toEqual({ [viaLink]: { trust_level: 'trusted' }, [real]: { trust_level: 'trusted' } });
    expect(projects(projectTrustFlag('/nowhere/"odd".dir'))).toEqual({ '/nowhere/"odd".dir': { trust_level: 'trusted' } });
  });

  it('refuses a path TOML cannot hold', () => {
    expect(() => projectTrustFlag('/x/\ud800')).toThrow(expect.objectContaining({ app: expect.objectContaining({ code: 'compile-unencodable' }) }));
  });
});
