import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTestDir } from '../instance/testDir';
import { makeWorkspace, type TestWorkspace } from './testTable';

let t: TestWorkspace;
beforeAll(async () => {
  t = await makeWorkspace('warn');
  await mkdir(join(t.ws, 'profiles/a/inner'), { recursive: true });
});
afterAll(async () => removeTestDir(t.root));

const A = '[profiles.a]\ncwd = "profiles/a"\n';

/** Loads `text` (it must load) and returns its warnings. */
async function warnings(text: string) {
  return (await t.load(text)).warnings;
}

describe('table warnings: each names the full key path and the fix, and never stops loading', () => {
  it('a skill path that does not exist', async () => {
    const w = await warnings(`[capabilities.s]\nkind = "skill"\npath = "_capabilities/skills/gone"\n${A}`);
    expect(w).toEqual([
      {
        path: ['capabilities', 's', 'path'],
        message: `${join(t.ws, '_capabilities/skills/gone')} does not exist; a skill is a folder holding SKILL.md`,
        fix: 'create the folder or correct path',
      },
    ]);
  });

  it('a directory path that does not exist', async () => {
    const w = await warnings(`[capabilities.d]\nkind = "directory"\npath = "~/nowhere"\n${A}`);
    expect(w).toEqual([
      {
        path: ['capabilities', 'd', 'path'],
        message: expect.stringContaining(`${join(t.home, 'nowhere')} does not exist`),
        fix: 'create the folder or correct path',
      },
    ]);
  });

  it('a skill folder without SKILL.md', async () => {
    const w = await warnings(`[capabilities.s]\nkind = "skill"\npath = "_capabilities/skills/bare"\n${A}`);
    expect(w).toEqual([
      { path: ['capabilities', 's', 'path'], message: expect.stringContaining('has no SKILL.md'), fix: 'add SKILL.md to the folder or correct path' },
    ]);
  });

  it('a skill kept outside the workspace', async () => {
    const w = await warnings(`[capabilities.outside]\nkind = "skill"\npath = "~/skills/outside"\n${A}`);
    expect(w).toEqual([
      {
        path: ['capabilities', 'outside', 'path'],
        message: expect.stringContaining(`is kept outside the workspace ${t.ws}`),
        fix: `move it to ${join(t.ws, '_capabilities/skills/outside')} and set path = "_capabilities/skills/outside"`,
      },
    ]);
  });

  it('one profile folder inside another', async () => {
    const w = await warnings(`${A}[profiles.inner]\ncwd = "profiles/a/inner"\n`);
    expect(w).toEqual([
      {
        path: ['profiles', 'inner', 'cwd'],
        message: expect.stringContaining(`lies inside profile a's folder ${join(t.ws, 'profiles/a')}`),
        fix: 'move one of the two folders so that neither holds the other',
      },
    ]);
  });

  it('sandbox = false runs unasked', async () => {
    const w = await warnings('[profiles.a]\ncwd = "profiles/a"\nsandbox = false\n');
    expect(w).toEqual([
      {
        path: ['profiles', 'a', 'sandbox'],
        message: expect.stringContaining('in every mode it runs commands without asking'),
        fix: "remove sandbox = false (Codex's sandbox is on by default)",
      },
    ]);
  });

  it('a directory given as a link: Codex rules the target', async () => {
    await symlink(join(t.ws, 'shared-dir'), join(t.ws, 'dir-link'));
    const w = await warnings(`[capabilities.d]\nkind = "directory"\npath = "dir-link"\n${A}`);
    expect(w).toEqual([
      {
        path: ['capabilities', 'd', 'path'],
        message: expect.stringContaining(`is a link to ${join(t.ws, 'shared-dir')}`),
        fix: `write the target itself: ${join(t.ws, 'shared-dir')}`,
      },
    ]);
  });

  it('a clean table has no warnings', async () => {
    expect(await warnings(`[capabilities.s]\nkind = "skill"\npath = "_capabilities/skills/good"\n${A}`)).toEqual([]);
  });
});
