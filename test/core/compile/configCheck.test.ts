import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { configFindings } from '../../../src/main/core/compile/configCheck';
import type { CompileFacts } from '../../../src/main/core/compile/facts';
import { snapshotProfile, type ProfileSnapshot } from '../../../src/main/core/compile/snapshot';
import { compileWrite } from '../../../src/main/core/compile/write';
import type { LoadedTable } from '../../../src/main/core/table/load';
import { removeTestDir } from '../instance/testDir';
import { makeFullInstance, type FullInstance } from './fullInstance';

let inst: FullInstance | null = null;
afterEach(async () => {
  if (inst) await removeTestDir(inst.root);
  inst = null;
});

async function setup(): Promise<FullInstance> {
  inst = await makeFullInstance('cfgcheck');
  return inst;
}

async function findings(i: FullInstance, table: LoadedTable = i.table, facts: CompileFacts = i.facts) {
  const snaps: Record<string, ProfileSnapshot> = {};
  for (const p of Object.values(table.profiles)) snaps[p.name] = await snapshotProfile(table, p, facts);
  return configFindings(table, facts, snaps, { PATH: process.env.PATH });
}

const forProfile = (list: Array<{ path: PropertyKey[] }>, name: string) => list.filter((w) => w.path[1] === name);

describe('check-config findings: key path and fix on each', () => {
  it('a profile never compiled', async () => {
    const i = await setup();
    const f = await findings(i);
    expect(forProfile(f.warnings, 'coder')).toEqual([
      { path: ['profiles', 'coder'], message: expect.stringContaining('never compiled'), fix: 'run angelia compile coder --write' },
    ]);
    expect(f.errors).toEqual([]);
  });

  it('floor drift: settings.json lacks a current deny rule (the floor grew: a new user MCP server)', async () => {
    const i = await setup();
    await compileWrite(i.table, ['coder'], i.facts);
    expect(forProfile((await findings(i)).warnings, 'coder')).toEqual([]);
    const facts = { ...i.facts, userMcpServers: ['userdocs', 'newserver'] };
    expect(forProfile((await findings(i, i.table, facts)).warnings, 'coder')).toEqual([
      {
        path: ['profiles', 'coder'],
        message: expect.stringContaining('.claude/settings.json lacks 1 of the current deny rules (e.g. mcp__newserver)'),
        fix: 'run angelia compile coder --write',
      },
    ]);
  });

  it("self-deny: a settings.json rule that covers the profile's own folder", async () => {
    const i = await setup();
    await compileWrite(i.table, ['coder'], i.facts);
    const file = join(i.profileDir('coder'), '.claude/settings.json');
    const s = JSON.parse(await readFile(file, 'utf8')) as { permissions: { deny: string[] } };
    s.permissions.deny.push(`Read(${join(i.paths.workspace, 'profiles')}/**)`);
    await writeFile(file, JSON.stringify(s));
    expect(forProfile((await findings(i)).warnings, 'coder')).toEqual([
      {
        path: ['profiles', 'coder'],
        message: expect.stringContaining(`denies Read(${join(i.paths.workspace, 'profiles')}/**), which covers the profile's own folder`),
        fix: `remove Read(${join(i.paths.workspace, 'profiles')}/**) from ${file}`,
      },
    ]);
  });

  it('a Codex executable that cannot be found', async () => {
    const i = await setup();
    const table = { ...i.table, profiles: { ...i.table.profiles, coder: { ...i.table.profiles.coder!, bin: join(i.root, 'no-codex') } } };
    expect(forProfile((await findings(i, table)).warnings, 'coder')).toContainEqual({
      path: ['profiles', 'coder', 'bin'],
      message: expect.stringContaining('the Codex executable cannot be found'),
      fix: 'point bin at the codex executable, or remove bin to use the bundled one',
    });
  });

  it('a lifted floor entry (add_dirs holding a credential folder)', async () => {
    const i = await setup();
    const table = { ...i.table, profiles: { ...i.table.profiles, coder: { ...i.table.profiles.coder!, addDirs: [join(i.home, '.ssh')] } } };
    expect(forProfile((await findings(i, table)).warnings, 'coder')).toContainEqual({
      path: ['profiles', 'coder', 'add_dirs', 0],
      message: expect.stringContaining('lifts the floor entry'),
      fix: 'remove it from add_dirs unless the agent must hold that credential',
    });
  });

  it('a launch that cannot be built is an error: an allowed MCP capability named like a user-level server', async () => {
    const i = await setup();
    const f = await findings(i, i.table, { ...i.facts, userMcpServers: ['github'] });
    expect(f.errors).toEqual([
      {
        path: ['profiles', 'coder'],
        message: expect.stringContaining('has the name of an MCP server in your Codex config'),
        fix: expect.stringContaining('rename [capabilities.github]'),
      },
    ]);
  });

  it('a read_dir in a Codex home is an error naming read_dirs[i] (the notes folder beside it is not)', async () => {
    const i = await setup();
    const table = {
      ...i.table,
      profiles: {
        ...i.table.profiles,
        coder: { ...i.table.profiles.coder!, readDirs: [join(i.home, 'notes'), join(i.paths.codexHome, 'sessions')], readDirsStarter: false },
      },
    };
    expect((await findings(i, table)).errors).toEqual([
      {
        path: ['profiles', 'coder', 'read_dirs', 1],
        message: expect.stringContaining("lies in Codex's home") as unknown,
        fix: 'remove it from read_dirs',
      },
    ]);
  });
});
