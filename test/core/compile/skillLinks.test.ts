import { lstat, mkdir, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gatherFacts } from '../../../src/main/core/compile/gather';
import { compileWrite, planProfiles } from '../../../src/main/core/compile/write';
import type { LoadedTable } from '../../../src/main/core/table/load';
import type { AppFailure } from '../../../src/shared/result';
import { removeTestDir } from '../instance/testDir';
import { makeFullInstance, type FullInstance } from './fullInstance';

let inst: FullInstance | null = null;
afterEach(async () => {
  if (inst) await removeTestDir(inst.root);
  inst = null;
});

async function setup(): Promise<FullInstance> {
  inst = await makeFullInstance('skills');
  return inst;
}

async function plan(i: FullInstance, name: string, table: LoadedTable = i.table) {
  const [p] = await planProfiles(table, [name], i.facts);
  return p!;
}

/** The table with `profile`'s allowed list changed. */
function withAllowed(table: LoadedTable, profile: string, allowed: string[]): LoadedTable {
  return { ...table, profiles: { ...table.profiles, [profile]: { ...table.profiles[profile]!, allowed } } };
}

describe('skill links in .agents/skills', () => {
  it('links each allowed skill with a relative text when both sit in one folder below home', async () => {
    const i = await setup();
    await compileWrite(i.table, ['coder'], i.facts);
    expect(await readlink(join(i.profileDir('coder'), '.agents/skills/mfa'))).toBe('../../../../_capabilities/skills/mfa');
  });

  it('uses an absolute link text when the skill shares no folder below home with the profile', async () => {
    const i = await setup();
    const outside = join(i.root, 'elsewhere', 'mfa2');
    await mkdir(outside, { recursive: true });
    const table = {
      ...withAllowed(i.table, 'coder', ['mfa2']),
      capabilities: { ...i.table.capabilities, mfa2: { name: 'mfa2', kind: 'skill' as const, path: outside, when: null, secrets: [] } },
    };
    const p = await plan(i, 'coder', table);
    expect(p.lines).toContainEqual({ kind: '+', text: `link .agents/skills/mfa2 -> ${outside}` });
  });

  it("a non-link at the skill's name is a conflict, and --write then writes nothing at all", async () => {
    const i = await setup();
    await mkdir(join(i.profileDir('coder'), '.agents/skills/mfa'), { recursive: true });
    const p = await plan(i, 'coder');
    expect(p.conflicts).toEqual([expect.stringContaining(".agents/skills/mfa is a folder, not Angelia's link")]);
    const e = await compileWrite(i.table, ['coder', 'writer'], i.facts).catch((x: unknown) => x);
    expect((e as AppFailure).app.code).toBe('compile-conflict');
    for (const f of [
      join(i.profileDir('coder'), '.claude'),
      join(i.profileDir('writer'), '.claude'),
      join(i.paths.compiledDir, 'coder.json'),
      join(i.paths.compiledDir, 'writer.json'),
    ]) {
      expect(
        await lstat(f).then(
          () => 'exists',
          (x: NodeJS.ErrnoException) => x.code,
        ),
        f,
      ).toBe('ENOENT');
    }
  });

  it("a link elsewhere at the skill's name is a conflict", async () => {
    const i = await setup();
    await mkdir(join(i.profileDir('coder'), '.agents/skills'), { recursive: true });
    await symlink(join(i.home, '.ssh'), join(i.profileDir('coder'), '.agents/skills/mfa'));
    expect((await plan(i, 'coder')).conflicts).toEqual([
      expect.stringContaining(`.agents/skills/mfa is a link to ${join(i.home, '.ssh')}, not Angelia's link`),
    ]);
  });

  it('a skill whose folder is missing is a conflict', async () => {
    const i = await setup();
    await rm(join(i.paths.workspace, '_capabilities/skills/mfa'), { recursive: true });
    expect((await plan(i, 'coder')).conflicts).toEqual([expect.stringContaining('skill mfa: its folder')]);
  });

  it("a denied skill present in the profile's skills folder is a conflict", async () => {
    const i = await setup();
    await mkdir(join(i.profileDir('writer'), '.agents/skills/mfa'), { recursive: true });
    expect((await plan(i, 'writer')).conflicts).toEqual([
      expect.stringContaining('denied skill mfa is installed at .agents/skills/mfa (a deny rule does not stop a skill typed as /mfa)'),
    ]);
  });

  it('a denied skill installed user-wide is a conflict; other user-wide skills are a note', async () => {
    const i = await setup();
    await mkdir(join(i.paths.codexHome, 'skills', 'mfa'), { recursive: true });
    const facts = await gatherFacts(i.paths, 'linux');
    const [p] = await planProfiles(i.table, ['writer'], facts);
    expect(p!.conflicts).toEqual([expect.stringContaining(`denied skill mfa is installed user-wide at ${join(i.paths.codexHome, 'skills', 'mfa')}`)]);
    expect(p!.lines).toContainEqual({ kind: 'note', text: expect.stringContaining('not filtered: notes') });
  });

  it("a stale link recorded as Angelia's is removed; a hand-made link at another name is left alone", async () => {
    const i = await setup();
    await compileWrite(i.table, ['coder'], i.facts);
    await symlink('/somewhere', join(i.profileDir('coder'), '.agents/skills/mine'));
    const table = withAllowed(
      i.table,
      'coder',
      i.table.profiles.coder!.allowed.filter((n) => n !== 'mfa'),
    );
    const p = await plan(i, 'coder', table);
    expect(p.lines).toContainEqual({ kind: '-', text: 'link .agents/skills/mfa' });
    expect(p.conflicts).toEqual([]);
    await compileWrite(table, ['coder'], i.facts);
    expect(await readlink(join(i.profileDir('coder'), '.agents/skills/mfa')).catch((x: NodeJS.ErrnoException) => x.code)).toBe('ENOENT');
    expect(await readlink(join(i.profileDir('coder'), '.agents/skills/mine'))).toBe('/somewhere');
  });

  it('a link with the right target but another spelling is respelled', async () => {
    const i = await setup();
    await mkdir(join(i.profileDir('coder'), '.agents/skills'), { recursive: true });
    await symlink(join(i.paths.workspace, '_capabilities/skills/mfa'), join(i.profileDir('coder'), '.agents/skills/mfa'));
    const p = await plan(i, 'coder');
    expect(p.lines).toContainEqual({
      kind: '~',
      text: expect.stringMatching(/^link \.agents\/skills\/mfa -> \.\.\/\.\.\/\.\.\/\.\.\/_capabilities\/skills\/mfa \(was \//),
    });
    await compileWrite(i.table, ['coder'], i.facts);
    expect(await readlink(join(i.profileDir('coder'), '.agents/skills/mfa'))).toBe('../../../../_capabilities/skills/mfa');
  });

  it('.agents/skills that is itself a link is a conflict', async () => {
    const i = await setup();
    await mkdir(join(i.profileDir('coder'), '.agents'), { recursive: true });
    await mkdir(join(i.root, 'fake-skills'));
    await symlink(join(i.root, 'fake-skills'), join(i.profileDir('coder'), '.agents/skills'));
    await writeFile(join(i.root, 'fake-skills', 'x'), '');
    expect((await plan(i, 'coder')).conflicts).toEqual([expect.stringContaining('.agents/skills is a link')]);
  });
});
