/**
 * Property: the profile editor's save (core/profiles/tableEdit.ts `editTableText`, through
 * `@decimalturn/toml-patch`) on generated tables with comments and generated edits (fields changed,
 * removed, added, a rename, a new profile). The saved text parses to the intended table: the edited
 * profile reads back as the draft that was saved (`draftFromRaw`), every other profile and
 * `[defaults]` are unchanged; every comment outside the edited keys is kept. A refusal (AppFailure
 * `table-edit`) would be allowed by the contract, but none is expected on these tables: it fails too.
 */
import fc from 'fast-check';
import { parse, stringify } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { draftFromRaw, OPTIONAL_FIELDS, rawProfile, type TomlObject } from '../../src/main/core/profiles/draft';
import { editTableText } from '../../src/main/core/profiles/tableEdit';
import type { ProfileDraft } from '../../src/shared/contract';
import { EFFORTS, FIELD_KEYS, NOTIFICATION_SETTINGS, PERMISSION_MODES, type FieldKey } from '../../src/shared/profileFields';
import { fcTimeout, holds } from './support';

const FILE_NAME = 'tableEdit.property';
const FILE = '/t/angelia.toml';

const path = fc.constantFrom(
  '/srv/a',
  '~/agents/a',
  '~',
  '/srv/ü dir',
  '/srv/a#not-a-comment',
  '/srv/"quoted"',
  "/srv/it's",
  'C:\\agents\\a',
  '/srv/back\\slash',
  '/srv/\u2028',
);
const names = fc.uniqueArray(fc.constantFrom('github', 'web', 'notes'), { maxLength: 3 });

/** A valid value of each field, as the editor's draft holds it. */
const FIELD_VALUES: { [K in FieldKey]: fc.Arbitrary<unknown> } = {
  cwd: path,
  backend: fc.constant('codex'),
  bin: fc.constantFrom('/usr/local/bin/codex', '~/bin/codex'),
  permission_mode: fc.constantFrom(...PERMISSION_MODES),
  sandbox: fc.boolean(),
  add_dirs: fc.uniqueArray(path, { maxLength: 3 }),
  read_dirs: fc.uniqueArray(path, { maxLength: 3 }),
  model: fc.constantFrom('gpt-5.5', 'o3'),
  effort: fc.constantFrom(...EFFORTS),
  capabilities: names,
  except: names,
  deny: names,
  unsafe_ok: fc.boolean(),
  isolated: fc.boolean(),
  shared_write: fc.boolean(),
  accept_from: fc.constantFrom([], ['*'], ['coder'], ['coder', 'writer']),
  answer_from: fc.constantFrom([], ['*'], ['coder']),
  media_tags: fc.boolean(),
  env: fc.uniqueArray(fc.constantFrom('GITHUB_TOKEN', 'NPM_TOKEN', 'LANG'), { maxLength: 2 }),
  notifications: fc.constantFrom(...NOTIFICATION_SETTINGS),
};

/** A profile as written: its keys in order (cwd first, then some others with values). */
const profileFields = fc
  .tuple(
    FIELD_VALUES.cwd,
    fc.subarray(
      FIELD_KEYS.filter((k) => k !== 'cwd'),
      { maxLength: 6 },
    ),
  )
  .chain(([cwd, keys]) =>
    fc
      .tuple(...keys.map((k) => FIELD_VALUES[k].map((v) => [k, v] as const)))
      .map((pairs) => [['cwd', cwd] as const, ...pairs] as Array<readonly [FieldKey, unknown]>),
  );

const tableArb = fc.uniqueArray(fc.stringMatching(/^[a-z][a-z0-9_-]{0,6}$/), { minLength: 1, maxLength: 3 }).chain((profileNames) =>
  fc.record({
    profiles: fc.tuple(...profileNames.map((n) => profileFields.map((fields) => ({ name: n, fields })))),
    timeout: fc.integer({ min: 1, max: 600 }),
    trailing: fc.boolean(),
    blank: fc.boolean(),
  }),
);
type Table = typeof tableArb extends fc.Arbitrary<infer T> ? T : never;

/** `key = value` as TOML writes it (one line for every value here). */
function keyLine(key: string, value: unknown): string {
  return stringify({ [key]: value }).trim();
}

/** The table's text: a comment on every line kind (own line, after a header, after each key), each unique. */
function tableText(t: Table): string {
  const lines = ['# top comment c-top', '[defaults]', `permission_timeout_minutes = ${t.timeout} # c-defaults`];
  for (const p of t.profiles) {
    lines.push(...(t.blank ? [''] : []), `# c-before-${p.name}`, `[profiles.${p.name}] # c-header-${p.name}`);
    for (const [k, v] of p.fields) lines.push(t.trailing ? `${keyLine(k, v)} # c-${p.name}-${k}` : `# c-${p.name}-${k}\n${keyLine(k, v)}`);
  }
  return `${lines.join('\n')}\n# c-end\n`;
}

/** An edit: which profile (or a new one), the fields changed (null: removed when optional), a new name. */
const editArb = fc.record({
  target: fc.nat(),
  isNew: fc.boolean(),
  rename: fc.option(fc.stringMatching(/^[a-z][a-z0-9_-]{0,6}$/), { nil: undefined }),
  changes: fc.array(
    fc
      .constantFrom(...FIELD_KEYS)
      .chain((k) => fc.tuple(fc.constant(k), fc.oneof({ weight: 4, arbitrary: FIELD_VALUES[k] }, { weight: 1, arbitrary: fc.constant(null) }))),
    { maxLength: 5 },
  ),
});

describe('property: the editor keeps comments when it saves', () => {
  it(
    'the saved text reads back as the draft, other profiles unchanged, comments outside edited keys kept',
    () => {
      holds(
        FILE_NAME,
        'table-edit-comments',
        fc.property(tableArb, editArb, (t, e) => {
          const text = tableText(t);
          const before = parse(text) as TomlObject;
          const names = t.profiles.map((p) => p.name);
          const target = t.profiles[e.target % t.profiles.length]!;
          const original = e.isNew ? null : target.name;
          const fresh = e.rename && !names.includes(e.rename) ? e.rename : `${target.name}-x`;
          const name = e.isNew || e.rename ? fresh : target.name;
          fc.pre(!names.includes(name) || name === original);
          let draft: ProfileDraft = original ? draftFromRaw(original, rawProfile(text, original, FILE)) : draftFromRaw(name, { cwd: '/srv/new' });
          draft = { ...draft, name };
          const changed = new Set<string>();
          for (const [k, v] of e.changes) {
            if (v === null && !OPTIONAL_FIELDS.has(k)) continue;
            draft = { ...draft, [k]: v };
            changed.add(k);
          }

          const out = editTableText(text, { draft, original }, FILE);

          // The edited profile reads back as the draft; everything else is as it was.
          expect(draftFromRaw(name, rawProfile(out, name, FILE))).toEqual(draft);
          const after = parse(out) as TomlObject;
          const profilesAfter = { ...(after.profiles as TomlObject) };
          const profilesBefore = { ...(before.profiles as TomlObject) };
          delete profilesAfter[name];
          if (original) delete profilesBefore[original];
          expect(profilesAfter).toEqual(profilesBefore);
          expect(after.defaults).toEqual(before.defaults);
          expect(Object.keys(after.profiles as TomlObject)).toEqual(original ? names.map((n) => (n === original ? name : n)) : [...names, name]);
          // Comments: all but those of keys the edit changed.
          const kept = [...text.matchAll(/# (?:top comment )?(c-[^\n]*)/g)].map((m) => m[1]!);
          for (const c of kept) {
            const key = original ? c.match(new RegExp(`^c-${original}-(.+)$`))?.[1] : undefined;
            if (key !== undefined && changed.has(key)) continue;
            expect(out, `comment "${c}" kept`).toContain(`# ${c === 'c-top' ? 'top comment ' : ''}${c}`);
          }
        }),
      );
    },
    fcTimeout(40),
  );
});
