/**
 * A rename together with a changed value keeps the table's comments and layout (core/profiles/tableEdit.ts
 * `renameOnly`: the header is renamed first, then the values are edited). In one patch, toml-patch
 * rewrote the whole table: comments gone, the profiles as inline tables. Found by the property test
 * test/properties/tableEdit.property.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { draftFromRaw, rawProfile } from '../../../src/main/core/profiles/draft';
import { editTableText } from '../../../src/main/core/profiles/tableEdit';

const FILE = '/t/angelia.toml';
const TABLE = [
  '# the team',
  '[defaults]',
  'permission_timeout_minutes = 1 # short',
  '# the coder',
  '[profiles.x] # renamed below',
  '# its folder',
  'cwd = "/srv/a"',
  '# the writer',
  '[profiles.s]',
  'cwd = "/srv/s"',
  '',
].join('\n');

describe('rename and change at once', () => {
  it('only the header and the changed value differ', () => {
    const draft = { ...draftFromRaw('x', rawProfile(TABLE, 'x', FILE)), name: 'a', cwd: '/srv/b', sandbox: false };
    expect(editTableText(TABLE, { draft, original: 'x' }, FILE)).toBe(
      TABLE.replace('[profiles.x]', '[profiles.a]').replace('cwd = "/srv/a"', 'cwd = "/srv/b"\nsandbox = false'),
    );
  });

  it('a backslash in the new value is written as a literal string', () => {
    const draft = { ...draftFromRaw('x', rawProfile(TABLE, 'x', FILE)), name: 'a', cwd: '/srv/back\\slash' };
    expect(editTableText(TABLE, { draft, original: 'x' }, FILE)).toBe(TABLE.replace('[profiles.x]', '[profiles.a]').replace('"/srv/a"', "'/srv/back\\slash'"));
  });

  it('a longer name keeps every trailing comment on its line (toml-patch moved them)', () => {
    const text = '[profiles.o-dh] # head\ncwd = "/srv/a" # folder\nbin = "/usr/local/bin/codex" # bin\n[profiles.n] # other\ncwd = "/srv/n" # its folder\n';
    const draft = { ...draftFromRaw('o-dh', rawProfile(text, 'o-dh', FILE)), name: 'longer-name', bin: null };
    expect(editTableText(text, { draft, original: 'o-dh' }, FILE)).toBe(
      '[profiles.longer-name] # head\ncwd = "/srv/a" # folder\n[profiles.n] # other\ncwd = "/srv/n" # its folder\n',
    );
  });

  it('a rename alone touches only the header', () => {
    const draft = { ...draftFromRaw('s', rawProfile(TABLE, 's', FILE)), name: 'w' };
    expect(editTableText(TABLE, { draft, original: 's' }, FILE)).toBe(TABLE.replace('[profiles.s]', '[profiles.w]'));
  });
});
