/**
 * What the profile editor, the table review and "Add this folder" decide by themselves: folder checks
 * as the table loader makes them, the draft's own problems (held to the contract's schema), where each problem is
 * shown, what Save changes, the folder a refused command offers, and the drop limit. Also the fake
 * core's comment-keeping table pretend the UI tests rely on.
 */
import { describe, expect, it } from 'vitest';
import { PermissionMode, ProfileDraft } from '../../src/shared/contract';
import { attachRefusal, MAX_ATTACH_BYTES } from '../../src/renderer/src/api/attach';
import { alreadyGiven, folderFor, folderToOffer, refusedPath } from '../../src/renderer/src/features/profiles/addFolder';
import {
  draftChanges,
  fieldOfIssue,
  fieldOfWhere,
  folderProblem,
  indexOfIssue,
  indexOfWhere,
  joinPath,
  knownCapabilities,
  localIssues,
  MODES,
  newDraft,
  showValue,
} from '../../src/renderer/src/features/profiles/draft';
import { placeIssues } from '../../src/renderer/src/features/profiles/issues';
import { originLabel } from '../../src/renderer/src/features/policy/PolicyTable';
import { verdict } from '../../src/renderer/src/features/policy/ProbeTable';
import { bannerLine, keyPath } from '../../src/renderer/src/features/table/describe';
import { editSection, renderTable } from '../fixtures/fakeCore/tableText';

const draft = (over: Partial<ProfileDraft> = {}): ProfileDraft => ({ ...newDraft('demo', '/p/demo'), ...over });

describe('folder fields (as the table loader checks them)', () => {
  it('accepts absolute paths, ~/… and relative paths (the loader resolves those against the table folder)', () => {
    for (const ok of ['/home/u/x', '/', '~', '~/notes', '/a b/c', 'profiles/assistant', './data', '../shared']) expect(folderProblem(ok, '/t')).toBeNull();
  });

  it("refuses patterns and empty values with the loader's fix; warns about ~name and spaces", () => {
    expect(folderProblem('/p/demo/**/*.env')).toEqual({
      level: 'error',
      message: "/p/demo/**/*.env contains * ? [ or ], which Codex's sandbox reads as a pattern, so its rules would not hold",
      fix: 'rename the folder without those characters',
      fixValue: null,
    });
    expect(folderProblem('data[1]', '/t')?.message).toBe(
      "/t/data[1] contains * ? [ or ], which Codex's sandbox reads as a pattern, so its rules would not hold",
    );
    expect(folderProblem('~bob/x', '/t')).toMatchObject({ level: 'warning', fixValue: null });
    expect(folderProblem('  ')).toMatchObject({ level: 'error', message: 'a folder is needed here' });
    expect(folderProblem(' /p/x ')).toMatchObject({ level: 'warning', fixValue: '/p/x' });
  });

  it('joins and folds paths', () => {
    expect(joinPath('/a/b', '../c/./d')).toBe('/a/c/d');
    expect(joinPath('~', 'x')).toBe('~/x');
    expect(joinPath('~/a', '..')).toBe('~');
    expect(joinPath('/', '../..')).toBe('/');
  });
});

describe("the draft's own problems", () => {
  it('agree with the contract schema on what it refuses (name, empty folders)', () => {
    const cases: Partial<ProfileDraft>[] = [
      {},
      { name: '' },
      { name: 'two words' },
      { name: 'x'.repeat(65) },
      { name: 'ok_name-2' },
      { cwd: '' },
      { add_dirs: [''] },
    ];
    for (const c of cases) {
      const d = draft(c);
      const schemaFields = ProfileDraft.safeParse(d).success ? [] : (ProfileDraft.safeParse(d).error?.issues.map((i) => String(i.path[0])) ?? []);
      const ours = new Set(localIssues(d).map((i) => i.field));
      for (const f of schemaFields) expect(ours.has(f as keyof ProfileDraft), `${JSON.stringify(c)}: ${f}`).toBe(true);
    }
  });

  it('locate each problem by field and row, with a fix-it where one can be guessed', () => {
    const issues = localIssues(draft({ name: 'my profile', add_dirs: ['/ok', 'rel', ' /sp '] }));
    expect(issues.map((i) => [i.field, i.index, i.level, i.fixValue])).toEqual([
      ['name', null, 'error', 'my-profile'],
      ['add_dirs', 2, 'warning', '/sp'],
    ]);
    expect(issues[1]?.path).toEqual(['profiles', 'my profile', 'add_dirs', '2']);
    expect(localIssues(draft({ bin: 'codex' }))[0]).toMatchObject({ field: 'bin', level: 'error', message: '"codex" is not a full path', fixValue: null });
    expect(localIssues(draft())).toEqual([]);
  });

  it('offers every mode of the contract, each with its sentence', () => {
    expect([...MODES].sort()).toEqual([...PermissionMode.options].sort());
  });
});

describe('where a problem is shown', () => {
  it('names the field of a profile issue, or none for other sections', () => {
    expect(fieldOfIssue({ path: ['profiles', 'demo', 'add_dirs', '2'] })).toBe('add_dirs');
    expect(indexOfIssue({ path: ['profiles', 'demo', 'add_dirs', '2'] })).toBe(2);
    expect(fieldOfIssue({ path: ['profiles', 'demo'] })).toBe('name');
    expect(fieldOfIssue({ path: ['profiles', 'demo', 'sanbox'] })).toBeNull();
    expect(fieldOfIssue({ path: ['capabilities', 'git', 'run'] })).toBeNull();
  });

  it('reads the field and row of a save error\'s "where"', () => {
    expect(fieldOfWhere('profiles.demo.add_dirs[1]')).toBe('add_dirs');
    expect(indexOfWhere('profiles.demo.add_dirs[1]')).toBe(1);
    expect(indexOfWhere('profiles."my-x".add_dirs.3')).toBe(3);
    expect(fieldOfWhere('angelia.toml (profiles.demo.cwd)')).toBe('cwd');
    expect(fieldOfWhere('capabilities.git')).toBeNull();
    expect(fieldOfWhere(undefined)).toBeNull();
  });

  it('places local, preview and save problems next to their fields', () => {
    const placed = placeIssues(
      localIssues(draft({ add_dirs: ['rel '] })),
      {
        errors: [{ path: ['capabilities', 'x'], message: 'unknown kind', fix: 'kind = "skill"' }],
        warnings: [{ path: ['profiles', 'demo', 'sandbox'], message: 'no sandbox', fix: 'turn it on' }],
      },
      { code: 'invalid', message: 'cwd is not a folder', where: 'profiles.demo.cwd' },
    );
    expect(placed.byField.add_dirs?.[0]).toMatchObject({ level: 'warning', index: 0, fixValue: 'rel' });
    expect(placed.byField.sandbox?.[0]).toMatchObject({ level: 'warning', message: 'no sandbox' });
    expect(placed.byField.cwd?.[0]).toMatchObject({ level: 'error', message: 'Not saved: cwd is not a folder' });
    expect(placed.general.map((g) => g.message)).toEqual(['unknown kind']);
  });
});

describe('what Save changes', () => {
  it('lists the changed fields of an edit', () => {
    expect(draftChanges(draft(), draft({ add_dirs: ['/x'], sandbox: false }))).toEqual([
      { field: 'sandbox', before: 'true', after: 'false' },
      { field: 'add_dirs', before: '[]', after: '["/x"]' },
    ]);
    expect(draftChanges(draft(), draft())).toEqual([]);
  });

  it('lists name, folder and every field off its default for a new profile', () => {
    expect(draftChanges(null, draft({ permission_mode: 'plan' })).map((c) => c.field)).toEqual(['name', 'cwd', 'permission_mode']);
  });

  it('shows table values in one line', () => {
    expect([showValue(undefined), showValue('a'), showValue(['a', 1]), showValue({ k: true }), showValue('*')]).toEqual([
      '(not set)',
      '"a"',
      '["a", 1]',
      '{ k = true }',
      '"*"',
    ]);
  });

  it('offers the capability names it knows', () => {
    expect(knownCapabilities(draft({ deny: ['web'], capabilities: ['git'] }), ['cwd', 'capability:notes', 'capability:git'])).toEqual(['git', 'notes', 'web']);
  });
});

describe('"Add this folder to the profile" from a refused command', () => {
  const profile = { cwd: '/p/demo', addDirs: ['/h/shared'] };

  it('finds the refused path in the usual messages', () => {
    expect(refusedPath("touch: cannot touch '/h/other/notes.txt': Permission denied", '/p/demo')).toEqual({ path: '/h/other/notes.txt', isFolder: false });
    expect(refusedPath('mkdir: cannot create directory ‘/h/new’: Read-only file system', '/p/demo')?.path).toBe('/h/new');
    expect(refusedPath("PermissionError: [Errno 1] Operation not permitted: '/h/data/x.csv'", '/p/demo')?.path).toBe('/h/data/x.csv');
    expect(refusedPath('bash: /etc/hosts: Permission denied', '/p/demo')?.path).toBe('/etc/hosts');
    expect(refusedPath("ls: cannot open directory '/h/secret': Permission denied", '/p/demo')).toEqual({ path: '/h/secret', isFolder: true });
    expect(refusedPath("cp: cannot create regular file '../out/x': Permission denied", '/p/demo/sub')?.path).toBe('/p/demo/out/x');
    expect(refusedPath('all good\nexit 1', '/p/demo')).toBeNull();
    expect(refusedPath('Permission denied', '/p/demo')).toBeNull();
  });

  it('offers the folder it needs, not the root, and not one the profile already gives', () => {
    expect(folderFor({ path: '/h/other/notes.txt', isFolder: false })).toBe('/h/other');
    expect(folderFor({ path: '/h/secret', isFolder: true })).toBe('/h/secret');
    expect(folderFor({ path: '/etc', isFolder: false })).toBeNull();
    expect(alreadyGiven('/h/shared/notes', profile)).toBe(true);
    expect(alreadyGiven('/h/sharedx', profile)).toBe(false);
    expect(folderToOffer("touch: cannot touch '/h/other/n.txt': Permission denied", '/p/demo', profile)).toBe('/h/other');
    expect(folderToOffer("touch: cannot touch '/p/demo/.git/x': Permission denied", '/p/demo', profile)).toBeNull();
  });
});

describe('labels', () => {
  it('table paths, banner lines, origins and verdicts', () => {
    expect(keyPath(['profiles', 'my profile', 'add_dirs', '0'])).toBe('profiles."my profile".add_dirs[0]');
    expect(keyPath([])).toBe('(top level)');
    expect(bannerLine(1, false)).toContain('1 change waits');
    expect(bannerLine(3, true)).toContain('does not load');
    expect([originLabel('capability:git'), originLabel('floor'), originLabel('something')]).toEqual(['capability git', 'always (floor)', 'something']);
    expect([verdict(true), verdict(false), verdict(null)]).toEqual(['pass', 'FAIL', 'not run']);
  });

  it('refuses a dropped file over 25 MB before reading it', () => {
    expect(attachRefusal('a.txt', MAX_ATTACH_BYTES)).toBeNull();
    expect(attachRefusal('big.bin', MAX_ATTACH_BYTES + 1)).toBe('big.bin is 25.1 MB; files over 25 MB are refused');
  });
});

describe("the fake core's comment-keeping table", () => {
  it('changes only the edited keys and keeps comments, trailing comments and order', () => {
    const before = `${renderTable([draft({ add_dirs: ['/a'] })])}`.replace('add_dirs = ["/a"]', 'add_dirs = ["/a"]   # shared data');
    const after = editSection(before, 'demo', draft({ add_dirs: ['/a', '/b'], model: 'gpt-5.1' }));
    expect(after).toContain('add_dirs = ["/a", "/b"]   # shared data');
    expect(after).toContain('# The demo profile.');
    expect(after).toContain("# Angelia's table.");
    const lines = (t: string) => t.split('\n');
    expect(lines(after).filter((l) => !lines(before).includes(l))).toEqual(['add_dirs = ["/a", "/b"]   # shared data', 'model = "gpt-5.1"']);
    const renamed = editSection(after, 'demo', draft({ name: 'coder', add_dirs: ['/a', '/b'], model: 'gpt-5.1' }));
    expect(renamed).toContain('[profiles.coder]');
    expect(renamed).not.toContain('[profiles.demo]');
  });
});
