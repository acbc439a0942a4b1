import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveAccess } from '../../../src/main/core/table/capabilities';
import { TableFailure } from '../../../src/main/core/table/errors';
import { loadTable } from '../../../src/main/core/table/load';
import { removeTestDir } from '../instance/testDir';
import { makeWorkspace, type TestWorkspace } from './testTable';

let t: TestWorkspace;
beforeAll(async () => {
  t = await makeWorkspace('caps');
});
afterAll(async () => removeTestDir(t.root));

const CAPS = `
[capabilities.tests]
kind = "command"
run = "npm test"
when = "a change is finished"

[capabilities.good]
kind = "skill"
path = "_capabilities/skills/good"
secrets = ["~/keys/good.key", "relative/secret.txt"]

[capabilities.gh]
kind = "mcp"
command = "npx"
args = ["-y", "server-github"]
env = ["GITHUB_TOKEN"]
when = "you need issues"

[capabilities.web]
kind = "mcp"
url = "https://mcp.example.com/mcp"

[capabilities.shared]
kind = "directory"
path = "shared-dir"
when = "you share files"
`;

describe('capabilities: the four kinds, paths resolved', () => {
  it('loads every kind with paths against the table folder and ~ expanded', async () => {
    const table = await t.load(`${CAPS}\n[profiles.a]\ncwd = "profiles/a"\n`);
    expect(table.capabilities).toEqual({
      tests: { name: 'tests', kind: 'command', run: 'npm test', when: 'a change is finished' },
      good: {
        name: 'good',
        kind: 'skill',
        path: join(t.ws, '_capabilities/skills/good'),
        when: null,
        secrets: [join(t.home, 'keys/good.key'), join(t.ws, 'relative/secret.txt')],
      },
      gh: { name: 'gh', kind: 'mcp', command: 'npx', args: ['-y', 'server-github'], url: null, env: ['GITHUB_TOKEN'], when: 'you need issues', secrets: [] },
      web: { name: 'web', kind: 'mcp', command: null, args: [], url: 'https://mcp.example.com/mcp', env: [], when: null, secrets: [] },
      shared: { name: 'shared', kind: 'directory', path: join(t.ws, 'shared-dir'), when: 'you share files' },
    });
  });

  it('resolves each profile: defaults minus except, plus own; denied beats everything', async () => {
    const table = await t.load(`${CAPS}
[defaults]
capabilities = ["tests", "good"]
deny = ["gh", "shared"]

[profiles.a]
cwd = "profiles/a"

[profiles.b]
cwd = "profiles/b"
except = ["good"]
capabilities = ["gh", "web"]
deny = ["tests"]

[profiles.c]
cwd = "profiles/c"
capabilities = ["shared"]
accept_from = ["a", "b"]
answer_from = "*"
isolated = true
shared_write = true
media_tags = true
`);
    expect(table.defaults).toMatchObject({ capabilities: ['tests', 'good'], deny: ['gh', 'shared'] });
    expect(table.profiles.a).toMatchObject({ allowed: ['good', 'tests'], denied: ['gh', 'shared'] });
    expect(table.profiles.b).toMatchObject({ allowed: ['gh', 'web'], denied: ['shared', 'tests'] });
    expect(table.profiles.c).toMatchObject({
      allowed: ['good', 'shared', 'tests'],
      denied: ['gh'],
      acceptFrom: ['a', 'b'],
      answerFrom: ['*'],
      isolated: true,
      sharedWrite: true,
      mediaTags: true,
      unsafeOk: false,
    });
  });

  it('resolveAccess: a profile deny removes a default capability, a profile capability lifts a default deny', () => {
    expect(resolveAccess({ capabilities: ['x', 'y'], deny: ['z'] }, { capabilities: ['z'], except: [], deny: ['y'] })).toEqual({
      allowed: ['x', 'z'],
      denied: ['y'],
    });
  });
});

describe('load errors: each names the file, the full key path and the fix', () => {
  const profileA = '\n[profiles.a]\ncwd = "profiles/a"\n';

  it('an unknown capability name in a profile deny', async () => {
    const e = await t.loadError(`${CAPS}\n[profiles.a]\ncwd = "profiles/a"\ndeny = ["tests", "gith"]\n`);
    expect(e.where).toBe(`${e.file}: profiles.a.deny[1]`);
    expect(e.message).toContain('unknown capability "gith"');
    expect(e.fix).toBe('use one of tests, good, gh, web, shared, or define [capabilities.gith]');
  });

  it('an unknown capability name in defaults.capabilities, with a near-miss suggestion', async () => {
    const e = await t.loadError(`${CAPS}\n[defaults]\ncapabilities = ["test"]\n${profileA}`);
    expect(e.where).toBe(`${e.file}: defaults.capabilities[0]`);
    expect(e.fix).toBe('did you mean "tests"?');
  });

  it('an unknown capability name in except and in defaults.deny', async () => {
    const ex = await t.loadError(`${CAPS}\n[profiles.a]\ncwd = "profiles/a"\nexcept = ["nope"]\n`);
    expect(ex.where).toBe(`${ex.file}: profiles.a.except[0]`);
    const d = await t.loadError(`${CAPS}\n[defaults]\ndeny = ["nope"]\n${profileA}`);
    expect(d.where).toBe(`${d.file}: defaults.deny[0]`);
  });

  it('a name both given and denied in one profile', async () => {
    const e = await t.loadError(`${CAPS}\n[profiles.a]\ncwd = "profiles/a"\ncapabilities = ["gh"]\ndeny = ["gh"]\n`);
    expect(e.where).toBe(`${e.file}: profiles.a.deny[0]`);
    expect(e.message).toContain('"gh" is both given (profiles.a.capabilities) and denied');
    expect(e.fix).toBe('remove "gh" from one of profiles.a.capabilities and profiles.a.deny');
  });

  it('a name both given and denied in defaults', async () => {
    const e = await t.loadError(`${CAPS}\n[defaults]\ncapabilities = ["gh"]\ndeny = ["gh"]\n${profileA}`);
    expect(e.where).toBe(`${e.file}: defaults.deny[0]`);
    expect(e.fix).toBe('remove "gh" from one of defaults.capabilities and defaults.deny');
  });

  it('bypassPermissions without unsafe_ok on a cwd holding .env', async () => {
    await writeFile(join(t.ws, 'profiles/b/.env'), 'KEY=1');
    const e = await t.loadError('[profiles.b]\ncwd = "profiles/b"\npermission_mode = "bypassPermissions"\n');
    expect(e.where).toBe(`${e.file}: profiles.b.permission_mode`);
    expect(e.message).toContain(join(t.ws, 'profiles/b/.env'));
    expect(e.fix).toContain('unsafe_ok = true');
    const ok = await t.load('[profiles.b]\ncwd = "profiles/b"\npermission_mode = "bypassPermissions"\nunsafe_ok = true\n');
    expect(ok.profiles.b!.unsafeOk).toBe(true);
  });

  it('bypassPermissions without unsafe_ok on an add_dir holding secrets/', async () => {
    await mkdir(join(t.ws, 'shared-dir/secrets'), { recursive: true });
    const e = await t.loadError('[profiles.a]\ncwd = "profiles/a"\npermission_mode = "bypassPermissions"\nadd_dirs = ["shared-dir"]\n');
    expect(e.where).toBe(`${e.file}: profiles.a.permission_mode`);
    expect(e.message).toContain(join(t.ws, 'shared-dir/secrets'));
    expect(e.fix).toContain('acceptEdits');
  });

  it('a capability name that is not one word', async () => {
    const e = await t.loadError(`[capabilities."git hub"]\nkind = "command"\nrun = "gh"\nwhen = "x"\n${profileA}`);
    expect(e.where).toBe(`${e.file}: capabilities."git hub"`);
    expect(e.fix).toBe('rename it, e.g. [capabilities.git-hub]');
  });

  it('an unknown kind, and a missing kind', async () => {
    const e = await t.loadError(`[capabilities.x]\nkind = "plugin"\n${profileA}`);
    expect(e.where).toBe(`${e.file}: capabilities.x.kind`);
    expect(e.message).toContain('"plugin" is not allowed; it must be one of "command", "skill", "mcp", "directory"');
    expect(e.fix).toContain('use kind = one of');
    const none = await t.loadError(`[capabilities.x]\nrun = "a"\n${profileA}`);
    expect(none.where).toBe(`${none.file}: capabilities.x.kind`);
    expect(none.message).toContain('is required');
  });

  it('an unknown key in a capability gets the keys of its kind', async () => {
    const e = await t.loadError(`[capabilities.x]\nkind = "directory"\npath = "shared-dir"\nwhne = "x"\n${profileA}`);
    expect(e.where).toBe(`${e.file}: capabilities.x.whne`);
    expect(e.fix).toBe('did you mean "when"? Otherwise remove it');
  });

  it('a command capability without run', async () => {
    const e = await t.loadError(`[capabilities.x]\nkind = "command"\nwhen = "x"\n${profileA}`);
    expect(e.where).toBe(`${e.file}: capabilities.x.run`);
    expect(e.fix).toContain('run = "npm test"');
  });

  it('an mcp capability with both command and url, or neither', async () => {
    const both = await t.loadError(`[capabilities.x]\nkind = "mcp"\ncommand = "a"\nurl = "https://x.example"\n${profileA}`);
    expect(both.where).toBe(`${both.file}: capabilities.x`);
    expect(both.message).toContain('exactly one of command or url');
    const neither = await t.loadError(`[capabilities.x]\nkind = "mcp"\n${profileA}`);
    expect(neither.where).toBe(`${neither.file}: capabilities.x`);
  });

  it('an mcp env entry that is not a variable name (a value pasted in)', async () => {
    const e = await t.loadError(`[capabilities.x]\nkind = "mcp"\ncommand = "a"\nenv = ["GITHUB_TOKEN=ghp_123"]\n${profileA}`);
    expect(e.where).toBe(`${e.file}: capabilities.x.env[0]`);
    expect(e.message).toContain('never a value');
    expect(e.fix).toContain('put the values in <state>/env');
  });

  it('env names on a url server, which Codex does not pass', async () => {
    const e = await t.loadError(`[capabilities.x]\nkind = "mcp"\nurl = "https://x.example/mcp"\nenv = ["TOKEN"]\n${profileA}`);
    expect(e.where).toBe(`${e.file}: capabilities.x.env`);
    expect(e.message).toContain('only to a command server');
  });

  it('a skill path Codex would read as a pattern', async () => {
    const e = await t.loadError(`[capabilities.x]\nkind = "skill"\npath = "skills/*"\n${profileA}`);
    expect(e.where).toBe(`${e.file}: capabilities.x.path`);
    expect(e.fix).toBe('rename the folder without those characters');
  });

  it('accept_from naming a profile that does not exist', async () => {
    const e = await t.loadError('[profiles.a]\ncwd = "profiles/a"\naccept_from = ["b"]\n');
    expect(e.where).toBe(`${e.file}: profiles.a.accept_from[0]`);
    expect(e.message).toBe('profiles.a.accept_from[0]: there is no profile "b"');
    expect(e.fix).toBe('use one of a, or "*" for every profile');
  });

  it('a chat-platform field is an unknown key', async () => {
    const e = await t.loadError('[profiles.a]\ncwd = "profiles/a"\nshell = true\n');
    expect(e.where).toBe(`${e.file}: profiles.a.shell`);
    expect(e.message).toContain('unknown key');
  });

  it('keeps every problem of a table that does not load (for check-config --json)', async () => {
    const file = join(t.ws, 'many.toml');
    await writeFile(file, '[profiles.a]\ncwd = "profiles/a"\ndeny = ["x", "y"]\n');
    const e = await loadTable(file, { home: t.home, env: {} }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(TableFailure);
    expect((e as TableFailure).problems.map((p) => p.path)).toEqual([
      ['profiles', 'a', 'deny', 0],
      ['profiles', 'a', 'deny', 1],
    ]);
  });
});
