/**
 * `read_dirs` in the profile editor and its draft (docs/security-model.md "Filesystem: private by
 * default"): left out (null) is the toolchain starter set and stays out of the table on save; a list is
 * written as given ([] included: nothing of HOME); its paths are checked like add_dirs; the renderer's
 * copy of the starter set is the schema's.
 */
import { describe, expect, it } from 'vitest';
import { draftFromRaw } from '../../../src/main/core/profiles/draft';
import { draftPathProblems, draftToRaw } from '../../../src/main/core/profiles/tableEdit';
import { READ_DIRS_STARTER } from '../../../src/main/core/table/schema';
import { localIssues, newDraft, READ_DIRS_STARTER as RENDERER_STARTER } from '../../../src/renderer/src/features/profiles/draft';

describe('read_dirs in a profile draft', () => {
  it('is null when the table leaves it out, the list when it names one', () => {
    expect(draftFromRaw('a', { cwd: '/w/a' }).read_dirs).toBeNull();
    expect(draftFromRaw('a', { cwd: '/w/a', read_dirs: ['~/notes'] }).read_dirs).toEqual(['~/notes']);
    expect(draftFromRaw('a', { cwd: '/w/a', read_dirs: [] }).read_dirs).toEqual([]);
    expect(newDraft('a', '/w/a').read_dirs).toBeNull();
  });

  it('saves null as nothing (the starter set) and a list as written, an empty one included', () => {
    const d = draftFromRaw('a', { cwd: '/w/a' });
    expect(draftToRaw(d, { cwd: '/w/a' })).toEqual({ cwd: '/w/a' });
    expect(draftToRaw({ ...d, read_dirs: ['~/notes'] }, { cwd: '/w/a' })).toEqual({ cwd: '/w/a', read_dirs: ['~/notes'] });
    expect(draftToRaw({ ...d, read_dirs: [] }, { cwd: '/w/a', read_dirs: ['~/notes'] })).toEqual({ cwd: '/w/a', read_dirs: [] });
    expect(draftToRaw({ ...d, read_dirs: null }, { cwd: '/w/a', read_dirs: ['~/notes'] })).toEqual({ cwd: '/w/a' });
  });

  it('checks each path like add_dirs, in the core and in the editor', () => {
    const d = { ...draftFromRaw('a', { cwd: '/w/a' }), read_dirs: ['~/ok', 'notes/x'] };
    expect(draftPathProblems(d, { cwd: '/w/a' }).map((p) => p.path)).toEqual([['profiles', 'a', 'read_dirs', 1]]);
    expect(
      localIssues({ ...d, read_dirs: ['~/ok', ''] })
        .filter((i) => i.field === 'read_dirs')
        .map((i) => [i.index, i.level]),
    ).toEqual([[1, 'error']]);
  });

  it("the editor's starter set is the schema's", () => {
    expect(RENDERER_STARTER).toEqual(READ_DIRS_STARTER);
  });
});
