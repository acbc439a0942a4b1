/**
 * The one list of a profile's fields (src/shared/profileFields.ts) and what is derived from it: the
 * table's strict schema (same keys, same order), the fixes, the draft (contract ProfileDraft, both
 * drafts), the resolved profile's copied fields and the editor's sections.
 */
import { describe, expect, it } from 'vitest';
import { ProfileDraft } from '../../src/shared/contract';
import {
  EDITOR_SECTIONS,
  FIELD_KEYS,
  fieldDefault,
  fieldSpec,
  newProfileValues,
  PROFILE_FIELDS,
  PROFILE_FIXES,
  type FieldKey,
  type FieldKind,
} from '../../src/shared/profileFields';
import { DRAFT_FIELDS as CORE_DRAFT_FIELDS, OPTIONAL_FIELDS } from '../../src/main/core/profiles/draft';
import { copiedFields } from '../../src/main/core/table/load';
import { FIELD_FIXES, profileSchema } from '../../src/main/core/table/schema';
import { camelKey, RESOLVED_BY_HAND } from '../../src/main/core/table/types';
import { DRAFT_FIELDS as EDITOR_FIELDS, newDraft } from '../../src/renderer/src/features/profiles/draft';

/**
 * Each key of this version: its kind, its value in a draft when the table leaves it out, and whether it
 * may be null. (A new key needs no row here: the tests below hold the derived lists to PROFILE_FIELDS.)
 */
const FIELDS: ReadonlyArray<readonly [FieldKey, FieldKind, unknown, boolean]> = [
  ['cwd', 'path', null, false],
  ['backend', 'enum', 'codex', false],
  ['bin', 'text', null, true],
  ['permission_mode', 'enum', 'acceptEdits', false],
  ['sandbox', 'boolean', true, false],
  ['add_dirs', 'paths', [], false],
  ['read_dirs', 'paths', null, true],
  ['model', 'text', null, true],
  ['effort', 'enum', null, true],
  ['capabilities', 'names', [], false],
  ['except', 'names', [], false],
  ['deny', 'names', [], false],
  ['unsafe_ok', 'boolean', false, false],
  ['isolated', 'boolean', false, false],
  ['shared_write', 'boolean', false, false],
  ['accept_from', 'refs', [], false],
  ['answer_from', 'refs', [], false],
  ['media_tags', 'boolean', false, false],
  ['env', 'names', [], false],
];

describe('the fields of a profile', () => {
  it.each(FIELDS)('%s: kind %s, default %j, optional %s', (key, kind, def, optional) => {
    expect(fieldSpec(key).kind).toBe(kind);
    expect(fieldDefault(key)).toEqual(def);
    expect(fieldSpec(key).optional).toBe(optional);
    expect(OPTIONAL_FIELDS.has(key)).toBe(optional);
    expect(fieldSpec(key).label).not.toBe('');
    expect(FIELD_FIXES[key]).toBe(PROFILE_FIXES[key]);
  });

  it('are the keys of the table schema, in its order (the order "keys read here" lists)', () => {
    expect(FIELD_KEYS.slice(0, FIELDS.length)).toEqual(FIELDS.map(([k]) => k));
    expect(Object.keys(profileSchema.shape)).toEqual(FIELD_KEYS);
    expect(CORE_DRAFT_FIELDS).toEqual(FIELD_KEYS);
  });

  it('each shows in exactly one section of the editor, which lists every draft field once', () => {
    const shown = EDITOR_SECTIONS.flatMap((s) => s.fields);
    expect([...shown].sort()).toEqual([...FIELD_KEYS].sort());
    expect(EDITOR_FIELDS).toEqual(['name', ...shown]);
    expect(new Set(EDITOR_SECTIONS.map((s) => s.id)).size).toBe(EDITOR_SECTIONS.length);
  });

  it("make the contract's draft: name and every key; a new profile's values pass it", () => {
    expect(Object.keys(ProfileDraft.shape)).toEqual(['name', ...FIELD_KEYS]);
    expect(ProfileDraft.safeParse(newDraft('a', '/w/a')).success).toBe(true);
    expect(newProfileValues()).toMatchObject({ permission_mode: 'default', sandbox: true, read_dirs: null, env: [], media_tags: false, backend: 'codex' });
    expect(ProfileDraft.safeParse({ ...newDraft('a', '/w/a'), backend: 'other' }).success).toBe(false);
  });

  it('an enum offers its options; a draft takes any effort (the loader names a bad one)', () => {
    expect(PROFILE_FIELDS.permission_mode.options).toEqual(['default', 'acceptEdits', 'bypassPermissions', 'plan']);
    expect(PROFILE_FIELDS.effort.draft.safeParse('ultra').success).toBe(true);
    expect(PROFILE_FIELDS.effort.table.safeParse('ultra').success).toBe(false);
  });
});

describe('the resolved profile', () => {
  it.each([
    ['permission_mode', 'permissionMode'],
    ['shared_write', 'sharedWrite'],
    ['media_tags', 'mediaTags'],
    ['sandbox', 'sandbox'],
    ['a_b_c', 'aBC'],
  ])('names %s %s', (key, camel) => {
    expect(camelKey(key)).toBe(camel);
  });

  it('copies every key not resolved by hand, null when left out without a default', () => {
    const raw = profileSchema.parse({ cwd: '/w/a', unsafe_ok: true, model: 'gpt-5.5' });
    const copied = copiedFields(raw);
    expect(copied).toMatchObject({
      backend: 'codex',
      permissionMode: 'acceptEdits',
      sandbox: true,
      model: 'gpt-5.5',
      effort: null,
      unsafeOk: true,
      isolated: false,
      sharedWrite: false,
      mediaTags: false,
    });
    const byHand: readonly string[] = RESOLVED_BY_HAND;
    expect(Object.keys(copied)).toEqual(FIELD_KEYS.filter((k) => !byHand.includes(k)).map(camelKey));
    for (const key of RESOLVED_BY_HAND) expect(FIELD_KEYS).toContain(key);
  });
});
