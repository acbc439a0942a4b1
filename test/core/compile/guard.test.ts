import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryAudit } from '../../../src/main/core/approvals/audit';
import { Orchestrator } from '../../../src/main/core/chats/orchestrator';
import { guardPath } from '../../../src/main/core/compile/guardFile';
import { checkLaunch, launchReasons, refusalText, type GuardedProfile, type LaunchReason } from '../../../src/main/core/launch/check';
import { settingsFilePath, type FileText } from '../../../src/main/core/launch/guard';
import { resolveInstance, type InstancePaths } from '../../../src/main/core/instance/paths';
import { READ_DIRS_STARTER } from '../../../src/main/core/table/schema';
import { makeTestDir, removeTestDir } from '../instance/testDir';

const P: GuardedProfile = { name: 'coder', cwd: '/w/coder', backend: 'codex', sandbox: true, permissionMode: 'default' };
const RULES = ['Read(/h/.ssh/**)', 'Edit(/h/.ssh/**)', 'Read(/s/api.token)'];
const GUARD = {
  version: 1,
  profile: 'coder',
  cwd: '/w/coder',
  backend: 'codex',
  deny: RULES,
  codexSandbox: true,
  readOnly: false,
  compiledAt: '2025-01-01T00:00:00.000Z',
};
const G = '/s/compiled/coder.json';
const S = '/w/coder/.claude/settings.json';

const guard = (over: Record<string, unknown> = {}): FileText => ({ path: G, text: JSON.stringify({ ...GUARD, ...over }) });
const settings = (deny: unknown = RULES, extra: Record<string, unknown> = {}): FileText => ({
  path: S,
  text: JSON.stringify({ ...extra, permissions: { deny } }),
});
const kinds = (r: LaunchReason[]) => r.map((x) => x.kind);
/** The shape of the start alone (launch/check.ts `checkLaunch` without `current`). */
const launchCheck = (g: FileText, s: FileText, profile: GuardedProfile): LaunchReason[] => checkLaunch({ guard: g, settings: s, profile });

describe('launchCheck: every refusal of the launch guard (folder, backend, settings.json deny rules, sandbox off, plan mode)', () => {
  it('passes when guard, settings and profile agree (rules added since are fine)', () => {
    expect(launchCheck(guard(), settings(), P)).toEqual([]);
    expect(launchCheck(guard(), settings([...RULES, 'Read(/extra/**)'], { model: 'x' }), P)).toEqual([]);
    expect(launchCheck(guard({ codexSandbox: false }), settings(), { ...P, sandbox: false })).toEqual([]);
    // Plan mode is read-only: compiled in it, or tightened to it since, a start goes on (an old guard too).
    expect(launchCheck(guard({ readOnly: true }), settings(), { ...P, permissionMode: 'plan' })).toEqual([]);
    expect(launchCheck(guard({ readOnly: false }), settings(), { ...P, permissionMode: 'plan' })).toEqual([]);
    expect(launchCheck(guard({ readOnly: undefined }), settings(), { ...P, permissionMode: 'plan' })).toEqual([]);
  });

  const cases: Array<[string, FileText, FileText, GuardedProfile, string, RegExp]> = [
    ['never compiled (no guard file)', { path: G, text: null }, settings(), P, 'never-compiled', /never compiled/],
    [
      'guard unreadable',
      { path: G, text: null, error: 'EACCES' },
      settings(),
      P,
      'guard-invalid',
      /launch guard \/s\/compiled\/coder\.json cannot be read \(EACCES\)/,
    ],
    ['guard not JSON', { path: G, text: '{oops' }, settings(), P, 'guard-invalid', /cannot be read \(not JSON/],
    ['guard of another version', guard({ version: 2 }), settings(), P, 'guard-invalid', /cannot be read \(version: /],
    ['guard without deny', guard({ deny: undefined }), settings(), P, 'guard-invalid', /cannot be read \(deny: /],
    ['guard written for another profile', guard({ profile: 'writer' }), settings(), P, 'guard-invalid', /written for profile "writer", not "coder"/],
    ['compiled for another folder', guard({ cwd: '/w/old' }), settings(), P, 'other-folder', /compiled for another folder \(\/w\/old\)/],
    ['compiled for another backend', guard({ backend: 'claude-code' }), settings(), P, 'other-backend', /compiled for claude-code, not codex; compile again/],
    [
      'settings.json is not JSON',
      guard(),
      { path: S, text: '{"permissions":' },
      P,
      'settings-unreadable',
      /settings\.json is not valid JSON .*every deny rule in it would be dropped/,
    ],
    ['settings.json unreadable', guard(), { path: S, text: null, error: 'EACCES' }, P, 'settings-unreadable', /cannot be read \(EACCES\)/],
    [
      'settings.json deny is not a list',
      guard(),
      { path: S, text: '{"permissions":{"deny":"Read(/x)"}}' },
      P,
      'settings-unreadable',
      /permissions\.deny" that is not a list/,
    ],
    ['settings.json is an array', guard(), { path: S, text: '[]' }, P, 'settings-unreadable', /is not a JSON object/],
    [
      'sandbox turned off since compile',
      guard(),
      settings(),
      { ...P, sandbox: false },
      'sandbox-off',
      /^sandbox off: the table turned Codex's sandbox off since the last compile/,
    ],
    [
      'compiled read-only in plan mode, now default',
      guard({ readOnly: true }),
      settings(),
      P,
      'mode-loosened',
      /^permission_mode is now default, but the last compile was in plan mode \(read-only\); the profile may write its folder only after you compile again$/,
    ],
    [
      'compiled read-only in plan mode, now acceptEdits',
      guard({ readOnly: true }),
      settings(),
      { ...P, permissionMode: 'acceptEdits' },
      'mode-loosened',
      /^permission_mode is now acceptEdits, but the last compile was in plan mode/,
    ],
    [
      'a guard from before the mode was recorded, not in plan mode (fail closed)',
      guard({ readOnly: undefined }),
      settings(),
      P,
      'mode-loosened',
      /^permission_mode default: the last compile did not record whether this profile may write; compile again$/,
    ],
  ];
  for (const [name, g, s, p, kind, text] of cases) {
    it(`refuses: ${name}`, () => {
      const reasons = launchCheck(g, s, p);
      expect(kinds(reasons)).toEqual([kind]);
      expect(reasons[0]!.text).toMatch(text);
    });
  }

  it('one reason per deny rule the last compile wrote that settings.json lacks', () => {
    expect(launchCheck(guard(), settings([RULES[0]]), P)).toEqual([
      { kind: 'deny-missing', text: 'deny Edit(/h/.ssh/**)' },
      { kind: 'deny-missing', text: 'deny Read(/s/api.token)' },
    ]);
  });

  it('a missing settings.json reads as no rules: every recorded rule is missing', () => {
    expect(kinds(launchCheck(guard(), { path: S, text: null }, P))).toEqual(['deny-missing', 'deny-missing', 'deny-missing']);
    expect(kinds(launchCheck(guard(), { path: S, text: '{}' }, P))).toHaveLength(3);
  });

  it('collects several reasons: folder, backend, rules, sandbox', () => {
    const r = launchCheck(guard({ cwd: '/w/old', backend: 'pi' }), settings([]), { ...P, sandbox: false });
    expect(kinds(r)).toEqual(['other-folder', 'other-backend', 'deny-missing', 'deny-missing', 'deny-missing', 'sandbox-off']);
  });

  it('an exception inside the check refuses: "the check failed: …"', () => {
    const hostile = {
      path: S,
      get text(): string {
        throw new Error('boom');
      },
    } as unknown as FileText;
    expect(launchCheck(guard(), hostile, P)).toEqual([{ kind: 'check-failed', text: 'the check failed: boom' }]);
  });
});

describe('refusalText: the one line a chat shows', () => {
  it('never compiled', () => {
    expect(refusalText(launchCheck({ path: G, text: null }, settings(), P))).toBe('its profile was never compiled, so it has no deny rules yet');
  });
  it('"<n> of its protections were changed outside Angelia" when every reason is a deny or sandbox-off', () => {
    expect(refusalText(launchCheck(guard(), settings([]), { ...P, sandbox: false }))).toMatch(
      /^4 of its protections were changed outside Angelia: deny Read\(\/h\/\.ssh\/\*\*\); /,
    );
    expect(refusalText(launchCheck(guard(), settings(RULES.slice(1)), P))).toBe('1 of its protections was changed outside Angelia: deny Read(/h/.ssh/**)');
  });
  it('else the first reason', () => {
    expect(refusalText(launchCheck(guard({ cwd: '/w/old' }), settings([]), P))).toMatch(/^compiled for another folder/);
  });
});

describe('wired into every start (planLaunch through the orchestrator)', () => {
  let root: string;
  let paths: InstancePaths;
  let started = 0;
  const cwd = (): string => join(paths.workspace, 'profiles', 'coder');

  beforeAll(async () => {
    root = await makeTestDir('guard');
    paths = resolveInstance({ HOME: join(root, 'home'), ANGELIA_STATE_DIR: join(root, 'state'), CODEX_HOME: join(root, 'codex-home') });
    await mkdir(cwd(), { recursive: true });
    await mkdir(paths.compiledDir, { recursive: true });
    await writeFile(paths.tableFile, '[profiles.coder]\ncwd = "profiles/coder"\n');
  });
  afterAll(async () => removeTestDir(root));
  /** The read_dirs starter set of a profile without read_dirs, in this home (what a compile records). */
  const starter = (): string[] => READ_DIRS_STARTER.map((d) => join(paths.home, d.slice(2))).sort();

  async function refusal(): Promise<{ refusal: string | null; state: string; error: string }> {
    const orch = await Orchestrator.create({
      paths,
      env: { HOME: paths.home, PATH: process.env.PATH ?? '' },
      audit: memoryAudit(),
      startCodex: async () => {
        started++;
        throw new Error('must not start');
      },
    });
    const chat = orch.chat('coder');
    chat.send('hello');
    await chat.idle();
    const error = chat.transcript.all().find((i) => i.type === 'error');
    await orch.shutdown();
    return { ...chat.view(), error: error?.type === 'error' ? error.message : '' };
  }

  it('refuses a profile that was never compiled, with the fix, and starts nothing', async () => {
    const r = await refusal();
    expect(r.state).toBe('refused');
    expect(r.refusal).toBe('its profile was never compiled, so it has no deny rules yet. Fix: angelia compile --write coder');
    expect(r.error).toMatch(/^This chat's agent was not started: its profile was never compiled/);
    expect(started).toBe(0);
  });

  it('refuses when a deny rule was removed from settings.json, and when the guard cannot be read', async () => {
    const g = { ...GUARD, cwd: cwd(), deny: ['Read(/a/**)', 'Read(/b/**)'] };
    await writeFile(guardPath(paths.stateDir, 'coder'), JSON.stringify(g), { mode: 0o600 });
    await mkdir(join(cwd(), '.claude'), { recursive: true });
    await writeFile(settingsFilePath(cwd()), JSON.stringify({ permissions: { deny: ['Read(/a/**)'] } }));
    expect((await refusal()).refusal).toBe('1 of its protections was changed outside Angelia: deny Read(/b/**). Fix: angelia compile --write coder');
    expect(await launchReasons(paths.stateDir, { name: 'coder', cwd: cwd(), backend: 'codex', sandbox: true, permissionMode: 'default' })).toHaveLength(1);
    await writeFile(guardPath(paths.stateDir, 'coder'), 'not json');
    expect((await refusal()).refusal).toMatch(/^the launch guard .*coder\.json cannot be read \(not JSON/);
    expect(started).toBe(0);
  });

  it('lets the start go on when guard and settings agree (the start itself is then attempted)', async () => {
    // The guard's rules must also be ones the current compile still wants (planLaunch refuses a start
    // whose accepted table lifts a rule of the last compile), so this guard holds none of its own.
    // Likewise its folders to write: the profile's only one is `_common/`.
    await writeFile(
      guardPath(paths.stateDir, 'coder'),
      JSON.stringify({ ...GUARD, cwd: cwd(), deny: [], write: [join(paths.workspace, '_common')], read: starter() }),
      { mode: 0o600 },
    );
    await writeFile(settingsFilePath(cwd()), JSON.stringify({ permissions: { deny: ['Read(/c/**)'] } }));
    const r = await refusal();
    expect(started).toBe(1);
    expect(r.error).toMatch(/Codex did not start: must not start/);
  });

  it('refuses a start whose accepted table adds a folder to write (an add_dir) until compiled again; a guard without `write` allows none', async () => {
    const extra = join(root, 'extra');
    await mkdir(extra, { recursive: true });
    const common = join(paths.workspace, '_common');
    await writeFile(paths.tableFile, `[profiles.coder]\ncwd = "profiles/coder"\nadd_dirs = [${JSON.stringify(extra)}]\n`);
    await mkdir(paths.compiledDir, { recursive: true });
    await writeFile(paths.acceptedTable, `[profiles.coder]\ncwd = "profiles/coder"\nadd_dirs = [${JSON.stringify(extra)}]\n`);
    started = 0;
    await writeFile(guardPath(paths.stateDir, 'coder'), JSON.stringify({ ...GUARD, cwd: cwd(), deny: [], write: [common], read: starter() }), { mode: 0o600 });
    expect((await refusal()).refusal).toBe(
      `the accepted table now lets this profile write 1 folder(s) the last compile did not (${extra}); that takes effect when you compile again. Fix: angelia compile --write coder`,
    );
    await writeFile(guardPath(paths.stateDir, 'coder'), JSON.stringify({ ...GUARD, cwd: cwd(), deny: [], read: starter() }), { mode: 0o600 });
    expect((await refusal()).refusal).toMatch(/^the accepted table now lets this profile write 2 folder\(s\) the last compile did not/);
    expect(started).toBe(0);
    // Once compiled with it (the guard records it), the start goes on.
    await writeFile(guardPath(paths.stateDir, 'coder'), JSON.stringify({ ...GUARD, cwd: cwd(), deny: [], write: [common, extra].sort(), read: starter() }), {
      mode: 0o600,
    });
    await refusal();
    expect(started).toBe(1);
  });

  it('refuses a start whose accepted table names a new folder to read until compiled again; a guard from before HOME was private says so', async () => {
    const notes = join(paths.home, 'notes');
    const table = `[profiles.coder]\ncwd = "profiles/coder"\nread_dirs = ["~/notes"]\n`;
    await writeFile(paths.tableFile, table);
    await writeFile(paths.acceptedTable, table);
    const common = join(paths.workspace, '_common');
    started = 0;
    await writeFile(guardPath(paths.stateDir, 'coder'), JSON.stringify({ ...GUARD, cwd: cwd(), deny: [], write: [common], read: [] }), { mode: 0o600 });
    expect((await refusal()).refusal).toBe(
      `the accepted table now lets this profile read 1 location(s) the last compile did not (${notes}); that takes effect when you compile again. Fix: angelia compile --write coder`,
    );
    await writeFile(guardPath(paths.stateDir, 'coder'), JSON.stringify({ ...GUARD, cwd: cwd(), deny: [], write: [common] }), { mode: 0o600 });
    expect((await refusal()).refusal).toMatch(/^HOME is private by default now: an agent reads only its folders and what its profile names .*compile again/);
    expect(started).toBe(0);
    await writeFile(guardPath(paths.stateDir, 'coder'), JSON.stringify({ ...GUARD, cwd: cwd(), deny: [], write: [common], read: [notes] }), { mode: 0o600 });
    await refusal();
    expect(started).toBe(1);
  });
});
