import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTable, parseTableText } from '../../../src/main/core/table/load';
import { AppFailure, type AppError } from '../../../src/shared/result';
import { makeTestDir, removeTestDir } from '../instance/testDir';

let root: string;
let home: string;
let n = 0;

beforeAll(async () => {
  root = await makeTestDir('table');
  home = join(root, 'home');
  await mkdir(join(home, 'projects', 'site'), { recursive: true });
  await mkdir(join(root, 'ws', 'profiles', 'coder'), { recursive: true });
  await mkdir(join(root, 'ws', 'profiles', 'writer'), { recursive: true });
  await writeFile(join(root, 'ws', 'a-file'), 'x');
});
afterAll(async () => removeTestDir(root));

/** Writes `text` as a table in the workspace folder and returns its path. */
async function table(text: string): Promise<string> {
  const file = join(root, 'ws', `t${++n}.toml`);
  await writeFile(file, text);
  return file;
}

/** Loads `text` and returns the AppError it fails with (fails the test when it loads). */
async function loadError(text: string): Promise<AppError & { file: string }> {
  const file = await table(text);
  const e = await loadTable(file, { home, env: {} }).then(
    () => null,
    (x: unknown) => x,
  );
  expect(e, 'the table must not load').toBeInstanceOf(AppFailure);
  return { ...(e as AppFailure).app, file };
}

describe('loadTable: a valid table', () => {
  it('resolves paths, applies defaults and keeps every field', async () => {
    const file = await table(`
[defaults]
turn_stall_minutes = 0

[profiles.coder]
cwd = "profiles/coder"
permission_mode = "bypassPermissions"
add_dirs = ["~/projects/site", "~/projects/site/", "../ws/profiles/writer"]
read_dirs = ["~/projects/site", "~/notes/", "~/projects/site", "../ws/docs"]
model = "gpt-5.5"
effort = "xhigh"
bin = "~/bin/codex"

[profiles.writer]
cwd = "${join(root, 'ws', 'profiles', 'writer')}"
`);
    const t = await loadTable(file, { home, env: {} });
    expect(t.file).toBe(file);
    expect(t.defaults).toEqual({
      permissionTimeoutMinutes: 10,
      turnStallMinutes: 0,
      idleExitMinutes: 30,
      warmAgents: 3,
      warmMemoryMb: 1024,
      capabilities: [],
      deny: [],
    });
    expect(t.profiles.coder).toEqual({
      name: 'coder',
      cwd: join(root, 'ws', 'profiles', 'coder'),
      backend: 'codex',
      bin: join(home, 'bin', 'codex'),
      permissionMode: 'bypassPermissions',
      sandbox: true,
      addDirs: [join(home, 'projects', 'site'), join(root, 'ws', 'profiles', 'writer')],
      readDirs: [join(home, 'projects', 'site'), join(home, 'notes'), join(root, 'ws', 'docs')],
      readDirsStarter: false,
      model: 'gpt-5.5',
      effort: 'xhigh',
      allowed: [],
      denied: [],
      unsafeOk: false,
      isolated: false,
      sharedWrite: false,
      acceptFrom: [],
      answerFrom: [],
      mediaTags: false,
      env: [],
      notifications: 'all',
    });
    expect(t.profiles.writer).toEqual({
      name: 'writer',
      cwd: join(root, 'ws', 'profiles', 'writer'),
      backend: 'codex',
      bin: null,
      permissionMode: 'acceptEdits',
      sandbox: true,
      addDirs: [],
      model: null,
      effort: null,
      // No read_dirs: the starter set (toolchains in HOME), given where they exist (compile).
      readDirs: ['.local/bin', '.cargo/bin', '.nvm', '.pyenv', '.rustup'].map((d) => join(home, d)),
      readDirsStarter: true,
      allowed: [],
      denied: [],
      unsafeOk: false,
      isolated: false,
      sharedWrite: false,
      acceptFrom: [],
      answerFrom: [],
      mediaTags: false,
      env: [],
      notifications: 'all',
    });
    expect(t.capabilities).toEqual({});
    // read_dirs named but missing are said (not given until they exist); the starter set's are not.
    expect(t.warnings.map((w) => [w.path.join('.'), w.message])).toEqual([
      ['profiles.coder.read_dirs.1', `${join(home, 'notes')} does not exist; it is not given to the agent until it does (at its next start)`],
      ['profiles.coder.read_dirs.3', `${join(root, 'ws', 'docs')} does not exist; it is not given to the agent until it does (at its next start)`],
    ]);
  });

  it('leaves out a starter-set folder reached through a symbolic link, with a warning naming the real path', async () => {
    const linkedHome = join(root, 'linked-home');
    await mkdir(join(linkedHome, 'dotfiles', 'bin'), { recursive: true });
    await mkdir(join(linkedHome, '.local'), { recursive: true });
    await mkdir(join(linkedHome, '.cargo', 'bin'), { recursive: true });
    await symlink(join(linkedHome, 'dotfiles', 'bin'), join(linkedHome, '.local', 'bin'));
    const t = await loadTable(await table('[profiles.a]\ncwd = "profiles/coder"\n'), { home: linkedHome, env: {} });
    expect(t.profiles.a!.readDirs).toEqual(['.cargo/bin', '.nvm', '.pyenv', '.rustup'].map((d) => join(linkedHome, d)));
    expect(t.warnings).toEqual([
      {
        path: ['profiles', 'a', 'read_dirs'],
        message: `${join(linkedHome, '.local', 'bin')} (read_dirs starter set) goes through a symbolic link to ${join(linkedHome, 'dotfiles', 'bin')}, so it is not given`,
        fix: `name the real path in read_dirs, e.g. read_dirs = ["${join(linkedHome, 'dotfiles', 'bin')}"]`,
      },
    ]);
  });

  it('warns (but loads) when an add_dirs folder does not exist', async () => {
    const t = await loadTable(await table('[profiles.a]\ncwd = "profiles/coder"\nadd_dirs = ["~/nope"]\n'), { home, env: {} });
    expect(t.warnings).toEqual([
      {
        path: ['profiles', 'a', 'add_dirs', 0],
        message: expect.stringContaining(`${join(home, 'nope')} is not an existing folder`),
        fix: expect.stringContaining('mkdir -p'),
      },
    ]);
  });

  it('keeps sandbox = false as false', async () => {
    const t = await loadTable(await table('[profiles.a]\ncwd = "profiles/coder"\nsandbox = false\n'), { home, env: {} });
    expect(t.profiles.a!.sandbox).toBe(false);
  });
});

describe('loadTable: schema errors name the file, the full key path and the fix', () => {
  it('an unknown key, with its full path and a suggestion', async () => {
    const e = await loadError('[profiles.coder]\ncwd = "profiles/coder"\nsanbox = false\n');
    expect(e.code).toBe('table-invalid');
    expect(e.where).toBe(`${e.file}: profiles.coder.sanbox`);
    expect(e.message).toContain('profiles.coder.sanbox: unknown key; nothing reads it (a misspelling?)');
    expect(e.fix).toContain('did you mean "sandbox"');
  });

  it('an unknown top-level section and an unknown defaults key', async () => {
    const top = await loadError('[routes.x]\nprofile = "a"\n[profiles.a]\ncwd = "profiles/coder"\n');
    expect(top.where).toBe(`${top.file}: routes`);
    expect(top.fix).toContain('keys read here: defaults, capabilities, profiles');
    const d = await loadError('[defaults]\nidle_exit_minute = 5\n[profiles.a]\ncwd = "profiles/coder"\n');
    expect(d.where).toBe(`${d.file}: defaults.idle_exit_minute`);
    expect(d.fix).toContain('"idle_exit_minutes"');
  });

  it('a permission mode that does not exist is an error, never a fallback', async () => {
    const e = await loadError('[profiles.coder]\ncwd = "profiles/coder"\npermission_mode = "yolo"\n');
    expect(e.where).toBe(`${e.file}: profiles.coder.permission_mode`);
    expect(e.message).toContain('"yolo" is not allowed');
    expect(e.fix).toBe('use one of default, acceptEdits, bypassPermissions, plan');
  });

  it('a bad effort, a bad backend, a flag-like model', async () => {
    const effort = await loadError('[profiles.a]\ncwd = "profiles/coder"\neffort = "extreme"\n');
    expect(effort.where).toBe(`${effort.file}: profiles.a.effort`);
    expect(effort.fix).toContain('low, medium, high, xhigh, max');
    const backend = await loadError('[profiles.a]\ncwd = "profiles/coder"\nbackend = "claude-code"\n');
    expect(backend.where).toBe(`${backend.file}: profiles.a.backend`);
    const model = await loadError('[profiles.a]\ncwd = "profiles/coder"\nmodel = "--yolo"\n');
    expect(model.where).toBe(`${model.file}: profiles.a.model`);
    expect(model.message).toContain('one word that does not start with "-"');
  });

  it('a notifications value that does not exist names the file, the key and the values to use', async () => {
    const e = await loadError('[profiles.a]\ncwd = "profiles/coder"\nnotifications = "some"\n');
    expect(e.where).toBe(`${e.file}: profiles.a.notifications`);
    expect(e.fix).toContain('all, requests, none');
    const t = await loadTable(await table('[profiles.a]\ncwd = "profiles/coder"\nnotifications = "requests"\n'), { home, env: {} });
    expect(t.profiles.a?.notifications).toBe('requests');
  });

  it('a wrong type, a missing cwd, several problems at once', async () => {
    const e = await loadError('[profiles.a]\nsandbox = "no"\n[profiles.b]\ncwd = "profiles/coder"\nadd_dirs = "x"\n');
    expect(e.where).toBe(`${e.file}: profiles.a.cwd`);
    expect(e.message).toMatch(/^profiles\.a\.cwd: is required; also /);
    expect(e.message).toContain('profiles.a.sandbox: must be a boolean, not "no"');
    expect(e.message).toContain('profiles.b.add_dirs: must be an array, not "x"');
  });

  it('a long wrong value is shown by its start and its length, not whole', async () => {
    const long = 'x'.repeat(500);
    const e = await loadError(`[profiles.a]\ncwd = "profiles/coder"\nsandbox = "${long}"\n`);
    expect(e.message).toContain(`profiles.a.sandbox: must be a boolean, not "${'x'.repeat(60)}"… (500 characters)`);
    expect(e.message).not.toContain('x'.repeat(61));
  });

  it('names the expected type with the right article: an array, a table (never "a array", "a object")', async () => {
    const list = await loadError('[profiles.a]\ncwd = "profiles/coder"\nadd_dirs = "x"\ndeny = { a = 1 }\n');
    expect(list.message).toContain('profiles.a.add_dirs: must be an array, not "x"');
    expect(list.message).toContain('profiles.a.deny: must be an array, not a table');
    const table = await loadError('defaults = 3\n[profiles.a]\ncwd = "profiles/coder"\n');
    expect(table.message).toContain('defaults: must be a table, not 3');
    expect(`${list.message} ${table.message}`).not.toMatch(/\ba [aeiou]/);
  });

  it('a bad profile name', async () => {
    const e = await loadError('[profiles."my coder"]\ncwd = "profiles/coder"\n');
    expect(e.where).toBe(`${e.file}: profiles."my coder"`);
    expect(e.fix).toContain('[profiles.my-coder]');
  });

  it('a cwd that does not exist, or is a file, or looks like a glob', async () => {
    const missing = await loadError('[profiles.a]\ncwd = "~/gone"\n');
    expect(missing.where).toBe(`${missing.file}: profiles.a.cwd`);
    expect(missing.message).toContain(`${join(home, 'gone')} does not exist`);
    expect(missing.fix).toContain('mkdir -p');
    const file = await loadError('[profiles.a]\ncwd = "a-file"\n');
    expect(file.message).toContain('is not a folder');
    const glob = await loadError('[profiles.a]\ncwd = "profiles/[co]der"\nadd_dirs = ["~/x*"]\n');
    expect(glob.where).toBe(`${glob.file}: profiles.a.cwd`);
    expect(glob.message).toContain("Codex's sandbox reads as a pattern");
    expect(glob.message).toContain('profiles.a.add_dirs[0]');
    const newline = await loadError('[profiles.a]\ncwd = "profiles/coder"\nadd_dirs = ["~/x\\ny"]\n');
    expect(newline.where).toBe(`${newline.file}: profiles.a.add_dirs[0]`);
    expect(newline.message).toContain('control character');
  });

  it('a bin that is not a full path', async () => {
    const e = await loadError('[profiles.a]\ncwd = "profiles/coder"\nbin = "codex"\n');
    expect(e.where).toBe(`${e.file}: profiles.a.bin`);
  });
});

describe('loadTable: file and syntax errors', () => {
  it('a TOML syntax error gives file, line, column and the offending line (duplicate table)', async () => {
    const e = await loadError('[profiles.a]\ncwd = "profiles/coder"\n\n[profiles.a]\nsandbox = true\n');
    expect(e.code).toBe('table-syntax');
    expect(e.where).toBe(`${e.file}:4:2`);
    expect(e.message).toContain('line 4, column 2');
    expect(e.message).toContain('4 | [profiles.a]');
  });

  it('a Windows path in a basic string is reported at its line with the quoting fix', async () => {
    const e = await loadError('[profiles.a]\ncwd = "C:\\Users\\me"\n');
    expect(e.code).toBe('table-syntax');
    expect(e.where).toMatch(new RegExp(`^${e.file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2:\\d+$`));
    expect(e.message).toContain('2 | cwd = "C:\\Users\\me"');
    expect(e.fix).toContain('single quotes');
  });

  it('a missing table says how to create one', async () => {
    const e = await loadTable(join(root, 'none.toml'), { home }).catch((x: unknown) => (x as AppFailure).app);
    expect(e).toMatchObject({ code: 'table-missing', where: join(root, 'none.toml') });
    expect((e as AppError).fix).toContain('angelia init');
  });

  it('parseTableText validates without touching the disk', () => {
    expect(parseTableText('[profiles.x]\ncwd = "/nowhere"\n', '/t.toml').profiles.x).toMatchObject({
      cwd: '/nowhere',
      permission_mode: 'acceptEdits',
      sandbox: true,
    });
    expect(() => parseTableText('profiles = 3', '/t.toml')).toThrow(/profiles: must be a table/);
  });
});
