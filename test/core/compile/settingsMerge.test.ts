import { describe, expect, it } from 'vitest';
import { mergeSettings } from '../../../src/main/core/compile/settingsMerge';
import type { FileState } from '../../../src/main/core/compile/snapshot';

const file = (data: unknown, nlink = 1): FileState => ({
  state: 'file',
  text: typeof data === 'string' ? data : JSON.stringify(data, null, 2),
  nlink,
  mode: 0o644,
});
const WANT = { deny: ['Read(/h/.ssh/**)', 'Edit(/h/.ssh/**)', 'mcp__docs'], dirs: ['/w/_common'] };

describe('mergeSettings: .claude/settings.json merged, other keys kept', () => {
  it('creates the file when there is none', () => {
    const m = mergeSettings({ state: 'missing' }, WANT, null);
    expect(m.created).toBe(true);
    expect(JSON.parse(m.text!)).toEqual({ permissions: { deny: WANT.deny, additionalDirectories: WANT.dirs } });
    expect(m.addedDeny).toEqual(WANT.deny);
  });

  it('keeps every other key, hand-written rules and their order; appends what is missing', () => {
    const current = {
      model: 'x',
      hooks: { a: [1, 2] },
      permissions: { allow: ['Bash(ls)'], deny: ['Read(/mine/**)', 'mcp__docs'], defaultMode: 'plan' },
      env: { A: '1' },
    };
    const m = mergeSettings(file(current), WANT, null);
    const out = JSON.parse(m.text!) as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(['model', 'hooks', 'permissions', 'env']);
    expect(out).toEqual({
      model: 'x',
      hooks: { a: [1, 2] },
      env: { A: '1' },
      permissions: {
        allow: ['Bash(ls)'],
        deny: ['Read(/mine/**)', 'mcp__docs', 'Read(/h/.ssh/**)', 'Edit(/h/.ssh/**)'],
        defaultMode: 'plan',
        additionalDirectories: ['/w/_common'],
      },
    });
    expect(m.addedDeny).toEqual(['Read(/h/.ssh/**)', 'Edit(/h/.ssh/**)']);
    expect(m.removedDeny).toEqual([]);
  });

  it("removes only rules the previous record lists as Angelia's", () => {
    const current = {
      permissions: { deny: ['Read(/old/**)', 'Read(/hand/**)', ...WANT.deny], additionalDirectories: ['/old-dir', '/hand-dir', '/w/_common'] },
    };
    const previous = { deny: ['Read(/old/**)', ...WANT.deny], dirs: ['/old-dir', '/w/_common'] };
    const m = mergeSettings(file(current), WANT, previous);
    expect(m.removedDeny).toEqual(['Read(/old/**)']);
    expect(m.removedDirs).toEqual(['/old-dir']);
    expect(JSON.parse(m.text!).permissions).toEqual({ deny: ['Read(/hand/**)', ...WANT.deny], additionalDirectories: ['/hand-dir', '/w/_common'] });
  });

  it('changes nothing (text null) when the file already holds what compile wants', () => {
    const m = mergeSettings(file({ permissions: { deny: [...WANT.deny, 'Read(/hand/**)'], additionalDirectories: WANT.dirs } }), WANT, WANT);
    expect(m).toMatchObject({ text: null, created: false, addedDeny: [], removedDeny: [], conflicts: [] });
  });

  it('a settings.json that does not parse refuses: fix it by hand first', () => {
    const m = mergeSettings(file('{ "permissions": { "deny": [ } '), WANT, null);
    expect(m.text).toBeNull();
    expect(m.conflicts).toEqual([expect.stringMatching(/^\.claude\/settings\.json does not parse as JSON .*; fix it by hand first$/)]);
  });

  it('a deny that is not a list of strings, or a non-object, refuses', () => {
    expect(mergeSettings(file({ permissions: { deny: 'Read(/x)' } }), WANT, null).conflicts[0]).toContain(
      '"permissions.deny" is not a list of strings; fix it by hand first',
    );
    expect(mergeSettings(file('[1]'), WANT, null).conflicts[0]).toContain('is not a JSON object');
  });

  it('a link, a hard link or a folder at settings.json refuses', () => {
    expect(mergeSettings({ state: 'link', target: '/h/.ssh/config' }, WANT, null).conflicts[0]).toContain('is a link (to /h/.ssh/config)');
    expect(mergeSettings(file({}, 2), WANT, null).conflicts[0]).toContain('has 2 hard links');
    expect(mergeSettings({ state: 'other', what: 'a folder' }, WANT, null).conflicts[0]).toContain('is a folder, not a plain file');
  });

  it('a hand-written entry that contradicts a deny is a conflict, never fixed', () => {
    const current = { permissions: { allow: ['Read(/h/.ssh/**)'], deny: WANT.deny, additionalDirectories: ['/h/.ssh/keys', '/w/_common'] } };
    const m = mergeSettings(file(current), WANT, null);
    expect(m.conflicts).toEqual([
      '.claude/settings.json: permissions.allow has Read(/h/.ssh/**), which this profile denies; remove it by hand',
      '.claude/settings.json: permissions.additionalDirectories has /h/.ssh/keys, inside the denied /h/.ssh; remove it by hand',
    ]);
    expect(m.text).toBeNull();
  });
});
