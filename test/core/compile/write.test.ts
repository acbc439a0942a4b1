import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { guardFileSchema, guardPath } from '../../../src/main/core/compile/guardFile';
import { launchReasons } from '../../../src/main/core/launch/check';
import { recordPath, recordSchema } from '../../../src/main/core/compile/record';
import { compileCheck, compileWrite, planProfiles } from '../../../src/main/core/compile/write';
import { AppFailure } from '../../../src/shared/result';
import { removeTestDir } from '../instance/testDir';
import { makeFullInstance, type FullInstance } from './fullInstance';

let inst: FullInstance | null = null;
afterEach(async () => {
  if (inst) await removeTestDir(inst.root);
  inst = null;
});

async function setup(): Promise<FullInstance> {
  inst = await makeFullInstance('write');
  return inst;
}

const settingsOf = async (i: FullInstance, p: string) =>
  JSON.parse(await readFile(join(i.profileDir(p), '.claude/settings.json'), 'utf8')) as {
    permissions: { deny: string[]; additionalDirectories?: string[] };
    [k: string]: unknown;
  };

describe('compileWrite', () => {
  it('refuses without profile names', async () => {
    const i = await setup();
    const e = await compileWrite(i.table, [], i.facts).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(AppFailure);
    expect((e as AppFailure).app).toMatchObject({ code: 'compile-names', fix: 'name them, e.g. angelia compile --write coder' });
  });

  it('writes the guard file of the shared contract (mode 600, folder 700) holding every deny rule of settings.json', async () => {
    const i = await setup();
    await compileWrite(i.table, ['coder', 'writer'], i.facts);
    const file = guardPath(i.paths.stateDir, 'coder');
    expect(file).toBe(join(i.paths.stateDir, 'compiled', 'coder.json'));
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(join(i.paths.stateDir, 'compiled'))).mode & 0o777).toBe(0o700);
    const raw = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    expect(Object.keys(raw)).toEqual([
      'version',
      'profile',
      'cwd',
      'backend',
      'deny',
      'codexSandbox',
      'write',
      'readOnly',
      'mcp',
      'bin',
      'read',
      'env',
      'compiledAt',
    ]);
    const guard = guardFileSchema.parse(raw);
    expect(guard).toMatchObject({ version: 1, profile: 'coder', cwd: i.profileDir('coder'), backend: 'codex', codexSandbox: true, readOnly: false, bin: null });
    // What runs outside the sandbox, as compiled: the MCP servers given, with their definitions.
    expect(guard.mcp).toEqual(['github {"command":"npx","args":["-y","@modelcontextprotocol/server-github"],"url":null,"env":["GITHUB_TOKEN"]}']);
    // What it may read beyond its folders, as compiled: the starter set (no read_dirs) and its skills, with their secrets.
    expect(guard.read).toEqual(expect.arrayContaining([join(i.home, '.local/bin'), join(i.home, '.cargo/bin'), join(i.home, 'secret/mfa.key')]));
    expect(guard.deny).toEqual((await settingsOf(i, 'coder')).permissions.deny);
    expect(guard.deny).toEqual(expect.arrayContaining([`Read(${join(i.home, '.ssh')}/**)`, `Edit(${i.profileDir('coder')}/.claude/**)`, 'mcp__userdocs']));
    expect(guard.deny).not.toContain('mcp__github');
    expect((await settingsOf(i, 'writer')).permissions.deny).toEqual(expect.arrayContaining(['mcp__github', `Read(${join(i.home, 'secret/mfa.key')})`]));
    for (const p of ['coder', 'writer']) expect(await launchReasons(i.paths.stateDir, i.table.profiles[p]!)).toEqual([]);
  });

  it('records readOnly only for a sandboxed plan-mode profile (sandbox = false has full access in every mode)', async () => {
    const i = await setup();
    const coder = i.table.profiles.coder!;
    const withCoder = (over: Partial<typeof coder>) => ({ ...i.table, profiles: { ...i.table.profiles, coder: { ...coder, ...over } } });
    const readOnly = async () => guardFileSchema.parse(JSON.parse(await readFile(guardPath(i.paths.stateDir, 'coder'), 'utf8'))).readOnly;
    await compileWrite(withCoder({ permissionMode: 'plan' }), ['coder'], i.facts);
    expect(await readOnly()).toBe(true);
    expect(await launchReasons(i.paths.stateDir, { ...coder, permissionMode: 'default' })).toMatchObject([{ kind: 'mode-loosened' }]);
    await compileWrite(withCoder({ permissionMode: 'plan', sandbox: false }), ['coder'], i.facts);
    expect(await readOnly()).toBe(false);
    // From full access to a sandbox in default mode is a tightening: nothing about the mode is refused.
    expect((await launchReasons(i.paths.stateDir, { ...coder, permissionMode: 'default' })).filter((r) => r.kind === 'mode-loosened')).toEqual([]);
  });

  it('writes the compiled record (.claude/angelia-compiled.json) and creates _common/', async () => {
    const i = await setup();
    await rm(join(i.paths.workspace, '_common'), { recursive: true });
    await compileWrite(i.table, ['coder'], i.facts);
    const record = recordSchema.parse(JSON.parse(await readFile(recordPath(i.profileDir('coder')), 'utf8')));
    expect(record).toMatchObject({
      version: 1,
      backend: 'codex',
      links: { checkout: join(i.paths.workspace, '_capabilities/skills/checkout'), mfa: join(i.paths.workspace, '_capabilities/skills/mfa') },
      mcpServers: ['github'],
      additionalDirectories: [join(i.home, 'projects/site'), join(i.paths.workspace, '_common')],
      blockLines: expect.arrayContaining(['- tests: run `npm test` when a change is finished.']),
    });
    expect(record.deny).toEqual((await settingsOf(i, 'coder')).permissions.deny);
    expect((await stat(join(i.paths.workspace, '_common'))).isDirectory()).toBe(true);
  });

  it('keeps the other keys and hand-written rules of settings.json, with a .bak of the previous version', async () => {
    const i = await setup();
    const before = { theme: 'dark', permissions: { allow: ['Bash(ls)'], deny: ['Read(/hand/**)'] } };
    await mkdir(join(i.profileDir('coder'), '.claude'), { recursive: true });
    await writeFile(join(i.profileDir('coder'), '.claude/settings.json'), JSON.stringify(before));
    await compileWrite(i.table, ['coder'], i.facts);
    const after = await settingsOf(i, 'coder');
    expect(after.theme).toBe('dark');
    expect(after.permissions).toMatchObject({ allow: ['Bash(ls)'] });
    expect(after.permissions.deny[0]).toBe('Read(/hand/**)');
    expect(await readFile(join(i.profileDir('coder'), '.claude/settings.json.bak'), 'utf8')).toBe(JSON.stringify(before));
    // A later compile that no longer wants a rule removes it, and never the hand-written one.
    const table = { ...i.table, profiles: { ...i.table.profiles, coder: { ...i.table.profiles.coder!, denied: [] } } };
    const [p] = await planProfiles(table, ['coder'], i.facts);
    expect(p!.lines).toContainEqual({ kind: '-', text: `deny Read(${join(i.home, 'vault')}/**)` });
    await compileWrite(table, ['coder'], i.facts);
    const again = await settingsOf(i, 'coder');
    expect(again.permissions.deny).toContain('Read(/hand/**)');
    expect(again.permissions.deny).not.toContain(`Read(${join(i.home, 'vault')}/**)`);
  });

  it('a settings.json that does not parse refuses the profile: nothing written', async () => {
    const i = await setup();
    await mkdir(join(i.profileDir('coder'), '.claude'), { recursive: true });
    await writeFile(join(i.profileDir('coder'), '.claude/settings.json'), '{ not json');
    const e = await compileWrite(i.table, ['coder'], i.facts).catch((x: unknown) => x);
    expect((e as AppFailure).app.message).toContain('fix it by hand first');
    expect(await readFile(join(i.profileDir('coder'), '.claude/settings.json'), 'utf8')).toBe('{ not json');
    expect(await stat(guardPath(i.paths.stateDir, 'coder')).catch((x: NodeJS.ErrnoException) => x.code)).toBe('ENOENT');
  });
});

describe('compileCheck', () => {
  it('skips profiles never compiled, says up to date after a write, and finds drift', async () => {
    const i = await setup();
    expect((await compileCheck(i.table, [], i.facts)).map((r) => r.status)).toEqual(['skipped', 'skipped', 'skipped', 'skipped']);
    await compileWrite(i.table, ['coder', 'vault'], i.facts);
    expect((await compileCheck(i.table, [], i.facts)).map((r) => [r.profile, r.status])).toEqual([
      ['coder', 'up to date'],
      ['writer', 'skipped'],
      ['vault', 'up to date'],
      ['planner', 'skipped'],
    ]);
    const s = await settingsOf(i, 'vault');
    s.permissions.deny = s.permissions.deny.filter((r) => !r.includes('.ssh'));
    await writeFile(join(i.profileDir('vault'), '.claude/settings.json'), JSON.stringify(s));
    const [vault] = await compileCheck(i.table, ['vault'], i.facts);
    expect(vault!.status).toBe('differs');
    expect(vault!.plan.lines).toContainEqual({ kind: '+', text: `deny Read(${join(i.home, '.ssh')}/**)` });
  });
});
