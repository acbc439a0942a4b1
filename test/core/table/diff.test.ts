import { describe, expect, it } from 'vitest';
import { diffTables, diffText, sameValue, showValue } from '../../../src/main/core/table/diff';

const base = {
  defaults: { permission_timeout_minutes: 10, turn_stall_minutes: 60 },
  profiles: { coder: { cwd: 'profiles/coder', add_dirs: ['/a'], sandbox: true } },
};

describe('diffTables: field by field, parsed values', () => {
  it('finds nothing between equal tables (key order does not matter)', () => {
    const reordered = {
      profiles: { coder: { sandbox: true, add_dirs: ['/a'], cwd: 'profiles/coder' } },
      defaults: { turn_stall_minutes: 60, permission_timeout_minutes: 10 },
    };
    expect(diffTables(base, reordered)).toEqual([]);
  });

  it('shows a changed number, an item added to a list, and a new profile', () => {
    const after = {
      defaults: { permission_timeout_minutes: 5, turn_stall_minutes: 60 },
      profiles: { coder: { cwd: 'profiles/coder', add_dirs: ['/a', '/x'], sandbox: true }, new: { cwd: 'profiles/new', sandbox: false } },
    };
    expect(diffText(diffTables(base, after))).toEqual([
      'defaults.permission_timeout_minutes: 10 → 5',
      'profiles.coder.add_dirs: + "/x"',
      'profiles.new: added',
      '    cwd = "profiles/new"',
      '    sandbox = false',
    ]);
  });

  it('shows removed items, removed fields, removed profiles, and a scalar added', () => {
    const before = { profiles: { coder: { cwd: 'c', add_dirs: ['/a', '/b'], model: 'gpt-5.5' }, old: { cwd: 'o' } } };
    const after = { profiles: { coder: { cwd: 'c', add_dirs: ['/b'], effort: 'high' } } };
    expect(diffText(diffTables(before, after))).toEqual([
      'profiles.coder.add_dirs: - "/a"',
      'profiles.coder.effort: added "high"',
      'profiles.coder.model: removed (was "gpt-5.5")',
      'profiles.old: removed',
    ]);
  });

  it('reports a list whose order alone changed, and quotes odd key names', () => {
    const changes = diffTables({ profiles: { 'a b': { add_dirs: ['/1', '/2'] } } }, { profiles: { 'a b': { add_dirs: ['/2', '/1'] } } });
    expect(changes).toEqual([{ path: ['profiles', 'a b', 'add_dirs'], kind: 'reordered', before: ['/1', '/2'], after: ['/2', '/1'] }]);
    expect(diffText(changes)).toEqual(['profiles."a b".add_dirs: order ["/1","/2"] → ["/2","/1"]']);
  });

  it('counts duplicates in a list, and compares lists of tables as a whole', () => {
    expect(diffText(diffTables({ l: ['/a'] }, { l: ['/a', '/a'] }))).toEqual(['l: + "/a"']);
    expect(diffText(diffTables({ l: [{ a: 1 }] }, { l: [{ a: 2 }] }))).toEqual(['l: [{"a":1}] → [{"a":2}]']);
  });

  it('reports a type change as old → new', () => {
    expect(diffText(diffTables({ sandbox: true }, { sandbox: 'true' }))).toEqual(['sandbox: true → "true"']);
    expect(diffText(diffTables({ t: { a: 1 } }, { t: 3 }))).toEqual(['t: {"a":1} → 3']);
  });

  it('compares dates by instant and shows them in ISO form', () => {
    const d = (s: string) => new Date(s);
    expect(sameValue(d('2024-01-01T00:00:00Z'), d('2024-01-01T00:00:00.000Z'))).toBe(true);
    expect(diffText(diffTables({ at: d('2024-01-01T00:00:00Z') }, { at: d('2024-01-02T00:00:00Z') }))).toEqual([
      'at: 2024-01-01T00:00:00.000Z → 2024-01-02T00:00:00.000Z',
    ]);
    expect(showValue(undefined)).toBe('(unset)');
  });
});
