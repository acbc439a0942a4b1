/**
 * Surgical edits of the table text (a TOML parse/stringify round trip would drop comments and turn
 * inline tables into full tables): one field toggled changes exactly one line, comments and key order
 * survive, a rename touches only the header, a new profile is appended, defaults do not churn the file,
 * backslash paths become literal strings, relative paths are refused.
 */
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import type { ProfileDraft } from '../../../src/shared/contract';
import { AppFailure, type AppError } from '../../../src/shared/result';
import { draftFromRaw, rawProfile } from '../../../src/main/core/profiles/draft';
import { draftPathProblems, draftToRaw, editTableText } from '../../../src/main/core/profiles/tableEdit';

const FILE = '/t/angelia.toml';

/** A table as a user writes it: a comment, a trailing comment, a deny kept, one flag. */
const USER_TABLE = [
  '# Agent A — do not allow ~/.ssh',
  '[defaults]',
  'permission_timeout_minutes = 10   # baseline',
  '',
  '[profiles.a]',
  'cwd = "~/agents/a"   # home of a',
  'permission_mode = "default"',
  'sandbox = true',
  'add_dirs = [',
  '  "~/projects/site", # the site',
  ']',
  '',
  '# B keeps to itself',
  '[profiles.b]',
  'cwd = "/srv/b"',
  'isolated = true',
  '',
].join('\n');

function draftOf(text: string, name: string): ProfileDraft {
  return draftFromRaw(name, rawProfile(text, name, FILE));
}

function edit(text: string, draft: ProfileDraft, original: string | null = draft.name): string {
  return editTableText(text, { draft, original }, FILE);
}

/** Line indexes where two texts differ (same number of lines required). */
function changedLines(a: string, b: string): number[] {
  const x = a.split('\n');
  const y = b.split('\n');
  expect(y.length).toBe(x.length);
  return x.flatMap((line, i) => (line === y[i] ? [] : [i]));
}

function failure(f: () => unknown): AppError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(AppFailure);
    return (e as AppFailure).app;
  }
  throw new Error('must fail');
}

describe('surgical edits', () => {
  it('toggling one field changes exactly that line, byte for byte', () => {
    const out = edit(USER_TABLE, { ...draftOf(USER_TABLE, 'a'), sandbox: false });
    expect(out).toBe(USER_TABLE.replace('sandbox = true', 'sandbox = false'));
    expect(changedLines(USER_TABLE, out)).toEqual([7]);
  });

  it('saving an unchanged draft leaves the text identical (defaults left out stay out)', () => {
    const draft = draftOf(USER_TABLE, 'b');
    expect(draft).toMatchObject({ permission_mode: 'acceptEdits', sandbox: true, isolated: true, add_dirs: [], model: null });
    expect(edit(USER_TABLE, draft)).toBe(USER_TABLE);
    expect(edit(USER_TABLE, draftOf(USER_TABLE, 'a'))).toBe(USER_TABLE);
  });

  it('keeps comments and key order when a list grows and a field is added', () => {
    const out = edit(USER_TABLE, { ...draftOf(USER_TABLE, 'a'), add_dirs: ['~/projects/site', '/srv/data'], model: 'gpt-5.5' });
    expect(out).toBe(USER_TABLE.replace('  "~/projects/site", # the site\n]', '  "~/projects/site", # the site\n  "/srv/data",\n]\nmodel = "gpt-5.5"'));
    expect(parse(out)).toMatchObject({ profiles: { a: { add_dirs: ['~/projects/site', '/srv/data'], model: 'gpt-5.5' } } });
  });

  it('adds keys after the last key of a section, also at the end of a file without a final newline, and renames at once', () => {
    const text = '[profiles.z]\ncwd = "/z" # home';
    expect(edit(text, { ...draftOf(text, 'z'), name: 'zz', effort: 'high' }, 'z')).toBe('[profiles.zz]\ncwd = "/z" # home\neffort = "high"\n');
  });

  it('edits a profile written as an inline table (patch alone), keeping the rest', () => {
    const text = '# mine\nprofiles = { q = { cwd = "/q" } }\n';
    const out = edit(text, { ...draftOf(text, 'q'), sandbox: false });
    expect(out.startsWith('# mine\n')).toBe(true);
    expect(parse(out)).toEqual({ profiles: { q: { cwd: '/q', sandbox: false } } });
  });

  it('keeps a field set to its default when the table had it, and leaves a default out when it did not', () => {
    const withDefault = USER_TABLE.replace('sandbox = true', 'sandbox = true\nunsafe_ok = false');
    expect(edit(withDefault, draftOf(withDefault, 'a'))).toBe(withDefault);
    expect(draftToRaw({ ...draftOf(USER_TABLE, 'b'), shared_write: false, accept_from: [] }, { cwd: '/srv/b', isolated: true })).toEqual({
      cwd: '/srv/b',
      isolated: true,
    });
  });

  it('removes a field set to null (only its line) and a field back to its default when asked', () => {
    const text = USER_TABLE.replace('sandbox = true', 'sandbox = true\nmodel = "gpt-5.5"');
    const out = edit(text, { ...draftOf(text, 'a'), model: null });
    expect(out).toBe(USER_TABLE);
  });

  it('renames a profile by its header alone', () => {
    const out = edit(USER_TABLE, { ...draftOf(USER_TABLE, 'a'), name: 'alpha' }, 'a');
    expect(out).toBe(USER_TABLE.replace('[profiles.a]', '[profiles.alpha]'));
    expect(changedLines(USER_TABLE, out)).toEqual([4]);
  });

  it('appends a new profile as its own section; paths stay as typed', () => {
    const draft: ProfileDraft = {
      ...draftOf(USER_TABLE, 'b'),
      name: 'c',
      cwd: '~/agents/c',
      isolated: false,
      add_dirs: ['~/x'],
      permission_mode: 'acceptEdits',
    };
    const out = edit(USER_TABLE, draft, null);
    expect(out).toBe(`${USER_TABLE}\n[profiles.c]\ncwd = "~/agents/c"\npermission_mode = "acceptEdits"\nadd_dirs = ["~/x"]\n`);
    expect(parse(out)).toMatchObject({ profiles: { c: { cwd: '~/agents/c', add_dirs: ['~/x'] } } });
  });

  it('writes a backslash path as a literal string, and keeps a spelling the user wrote', () => {
    const out = edit(USER_TABLE, { ...draftOf(USER_TABLE, 'a'), add_dirs: ['~/projects/site', '/srv/share\\Users\\me'] });
    expect(out).toContain(`  '/srv/share\\Users\\me',\n`);
    expect((parse(out) as { profiles: { a: { add_dirs: string[] } } }).profiles.a.add_dirs[1]).toBe('/srv/share\\Users\\me');
    const typed = USER_TABLE.replace('cwd = "/srv/b"', 'cwd = "/srv/b\\\\x"');
    expect(edit(typed, { ...draftOf(typed, 'b'), isolated: false })).toBe(typed.replace('isolated = true', 'isolated = false'));
    const fresh = edit(USER_TABLE, { ...draftOf(USER_TABLE, 'b'), name: 'w', cwd: '/srv/w\\in', isolated: false }, null);
    expect(fresh).toContain(`[profiles.w]\ncwd = '/srv/w\\in'\n`);
  });

  it('refuses unknown and duplicate names and a table that is not TOML, naming where', () => {
    expect(failure(() => edit(USER_TABLE, { ...draftOf(USER_TABLE, 'a'), name: 'b' }, 'a'))).toMatchObject({
      code: 'profile-exists',
      where: `${FILE}: profiles.b`,
    });
    expect(failure(() => edit(USER_TABLE, { ...draftOf(USER_TABLE, 'a'), name: 'zed' }, 'zed'))).toMatchObject({
      code: 'profile-unknown',
      where: `${FILE}: profiles.zed`,
    });
    expect(failure(() => edit(USER_TABLE, { ...draftOf(USER_TABLE, 'a') }, null))).toMatchObject({ code: 'profile-exists' });
    expect(failure(() => edit('[profiles.a]\ncwd = "C:\\Users"\n', { ...draftOf(USER_TABLE, 'a') }))).toMatchObject({
      code: 'table-syntax',
      where: expect.stringMatching(/^\/t\/angelia\.toml:2:\d+$/) as unknown,
    });
  });
});

describe('paths typed in the editor', () => {
  it('refuses a relative cwd or add_dir with a fix-it, and takes absolute, ~ and ~/…', () => {
    const draft = draftOf(USER_TABLE, 'a');
    const problems = draftPathProblems({ ...draft, cwd: 'agents/a', add_dirs: ['~/ok', 'src/secret', '/abs'] }, rawProfile(USER_TABLE, 'a', FILE));
    expect(problems).toEqual([
      {
        path: ['profiles', 'a', 'cwd'],
        message: '"agents/a" is a relative path; the editor takes only absolute paths or ~/…',
        fix: expect.stringMatching(/^use ~\/… or an absolute path/) as unknown,
      },
      {
        path: ['profiles', 'a', 'add_dirs', 1],
        message: '"src/secret" is a relative path; the editor takes only absolute paths or ~/…',
        fix: expect.stringMatching(/^use ~\/… or an absolute path/) as unknown,
      },
    ]);
    expect(draftPathProblems({ ...draft, cwd: '~' }, null)).toEqual([]);
  });

  it('says when a path looks like a Windows one', () => {
    const [p] = draftPathProblems({ ...draftOf(USER_TABLE, 'a'), add_dirs: ['C:\\Users\\me\\proj'] }, null);
    expect(p?.message).toContain('looks like a Windows path');
  });

  it('lets a relative path the table already had through (the loader resolves it)', () => {
    const text = USER_TABLE.replace('cwd = "/srv/b"', 'cwd = "profiles/b"');
    expect(draftPathProblems(draftOf(text, 'b'), rawProfile(text, 'b', FILE))).toEqual([]);
  });
});
