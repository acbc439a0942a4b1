/**
 * launch/check.ts: the one list of reasons a start is refused with (the shape of the start and the
 * loosenings waiting for `angelia compile --write`), its one-line text, and the refusal it becomes.
 */
import { describe, expect, it } from 'vitest';
import {
  checkLaunch,
  currentGrants,
  launchRefusal,
  loosenings,
  refusalText,
  type CurrentGrants,
  type GuardedProfile,
  type LaunchReason,
} from '../../../src/main/core/launch/check';
import { guardFileSchema, guardPath, type GuardFile } from '../../../src/main/core/compile/guardFile';
import type { FileText } from '../../../src/main/core/launch/guard';
import { FACTS, profile, tableOf } from '../compile/fixture';

const GUARD: GuardFile = guardFileSchema.parse({
  version: 1,
  profile: 'coder',
  cwd: '/w/coder',
  backend: 'codex',
  deny: ['Read(/h/.ssh/**)', 'mcp__old'],
  codexSandbox: true,
  write: ['/w/common'],
  readOnly: false,
  mcp: [],
  bin: null,
  read: ['/h/.cargo/bin'],
  env: ['PGHOST'],
  compiledAt: '2026-11-30T00:00:00Z',
});
const SAME: CurrentGrants = { deny: ['Read(/h/.ssh/**)'], write: ['/w/common'], read: ['/h/.cargo/bin'], env: ['PGHOST'], outside: { mcp: [], bin: null } };
const GH = 'gh {"command":"npx","args":[],"url":null,"env":[]}';
const kinds = (r: LaunchReason[]) => r.map((x) => x.kind);

describe('loosenings: what the accepted table loosens since the last compile', () => {
  const cases: Array<[string, GuardFile, CurrentGrants, string[], RegExp | null]> = [
    ['nothing new (an mcp__ rule lifted is not a loosening)', GUARD, SAME, [], null],
    [
      'fewer folders, reads, names and servers',
      GUARD,
      { deny: ['Read(/h/.ssh/**)', 'Read(/more/**)'], write: [], read: [], env: [], outside: { mcp: [], bin: null } },
      [],
      null,
    ],
    [
      'a deny rule lifted',
      GUARD,
      { ...SAME, deny: [] },
      ['deny-lifted'],
      /^the accepted table now lifts 1 deny rule\(s\) of the last compile \(Read\(\/h\/\.ssh\/\*\*\)\)/,
    ],
    ['a folder to write', GUARD, { ...SAME, write: ['/w/common', '/w/extra'] }, ['write-added'], /write 1 folder\(s\) the last compile did not \(\/w\/extra\)/],
    [
      'a location to read',
      GUARD,
      { ...SAME, read: ['/h/.cargo/bin', '/h/notes'] },
      ['read-added'],
      /read 1 location\(s\) the last compile did not \(\/h\/notes\)/,
    ],
    ['a read from a guard before HOME was private', { ...GUARD, read: undefined }, SAME, ['read-added'], /^HOME is private by default now/],
    ['an env name', GUARD, { ...SAME, env: ['PGHOST', 'DATABASE_URL'] }, ['env-added'], /passes 1 environment variable\(s\) .* \(DATABASE_URL\)/],
    [
      'an MCP server',
      GUARD,
      { ...SAME, outside: { mcp: [GH], bin: null } },
      ['mcp-added'],
      /gives this profile 1 MCP server\(s\) the last compile did not \(gh\)/,
    ],
    [
      'another bin',
      GUARD,
      { ...SAME, outside: { mcp: [], bin: '/opt/codex' } },
      ['bin-changed'],
      /runs the Codex executable \/opt\/codex \(bin\), but the last compile recorded the bundled one/,
    ],
    ['outside not compared when absent', GUARD, { ...SAME, outside: undefined }, [], null],
    [
      'all at once, in order',
      GUARD,
      { deny: [], write: ['/x'], read: ['/y'], env: ['Z'], outside: { mcp: [GH], bin: '/b' } },
      ['deny-lifted', 'write-added', 'read-added', 'env-added', 'mcp-added', 'bin-changed'],
      /^the accepted table now lifts/,
    ],
  ];
  it.each(cases)('%s', (_name, guard, current, want, first) => {
    const reasons = loosenings(guard, current);
    expect(kinds(reasons)).toEqual(want);
    if (first) expect(reasons[0]!.text).toMatch(first);
  });
});

describe('checkLaunch: one list, shape first, then loosenings', () => {
  const P: GuardedProfile = { name: 'coder', cwd: '/w/coder', backend: 'codex', sandbox: true, permissionMode: 'default' };
  const g = (over: Partial<GuardFile> = {}): FileText => ({ path: '/s/compiled/coder.json', text: JSON.stringify({ ...GUARD, ...over }) });
  const s = (deny: string[]): FileText => ({ path: '/w/coder/.claude/settings.json', text: JSON.stringify({ permissions: { deny } }) });
  const cases: Array<[string, FileText, FileText, GuardedProfile, CurrentGrants | undefined, string[]]> = [
    ['allowed', g(), s(GUARD.deny), P, SAME, []],
    ['shape only: a loosening is not looked at without current', g(), s(GUARD.deny), P, undefined, []],
    ['a loosening alone', g(), s(GUARD.deny), P, { ...SAME, env: ['X'] }, ['env-added']],
    ['a missing deny rule and a loosening, shape first', g(), s([]), P, { ...SAME, write: ['/new'] }, ['deny-missing', 'deny-missing', 'write-added']],
    ['never compiled: alone', { path: '/s/compiled/coder.json', text: null }, s([]), P, { ...SAME, env: ['X'] }, ['never-compiled']],
    ['a guard of another profile: alone', g({ profile: 'other' }), s(GUARD.deny), P, { ...SAME, env: ['X'] }, ['guard-invalid']],
  ];
  it.each(cases)('%s', (_name, guard, settings, profile, current, want) => {
    expect(kinds(checkLaunch({ guard, settings, profile, current }))).toEqual(want);
  });
});

describe('refusalText and launchRefusal: the one line and the one AppFailure', () => {
  const deny = (rule: string): LaunchReason => ({ kind: 'deny-missing', text: `deny ${rule}` });
  const env: LaunchReason = { kind: 'env-added', text: 'the accepted table now passes 1 environment variable(s)' };
  const bin: LaunchReason = { kind: 'bin-changed', text: 'the accepted table now runs the Codex executable /b (bin)' };
  const cases: Array<[string, LaunchReason[], string]> = [
    ['none', [], ''],
    ['a loosening alone: its text', [env, bin], env.text],
    [
      'shape reasons before loosenings (as a start checks them)',
      [deny('Read(/a/**)'), env],
      '1 of its protections was changed outside Angelia: deny Read(/a/**)',
    ],
    ['never compiled', [{ kind: 'never-compiled', text: 'never compiled: …' }], 'its profile was never compiled, so it has no deny rules yet'],
  ];
  it.each(cases)('%s', (_name, reasons, want) => {
    expect(refusalText(reasons)).toBe(want);
  });

  it('is AppFailure refused at the guard file with the fix', () => {
    expect(launchRefusal([env], '/s', 'coder').app).toEqual({
      code: 'refused',
      message: env.text,
      where: guardPath('/s', 'coder'),
      fix: 'angelia compile --write coder',
    });
  });
});

describe('currentGrants: the guard terms of a start now', () => {
  it('is what compile records for the profile (deny, write, read, env, outside)', () => {
    const table = tableOf(profile('coder', { env: ['PGHOST'], bin: '/opt/codex' }));
    const now = currentGrants(table, table.profiles.coder!, FACTS, []);
    expect(now.env).toEqual(['PGHOST']);
    expect(now.outside).toEqual({ mcp: [], bin: '/opt/codex' });
    expect(now.deny.length).toBeGreaterThan(0);
    expect(now.deny.every((r) => /^(Read|Edit)\(|^mcp__/.test(r))).toBe(true);
  });
});
