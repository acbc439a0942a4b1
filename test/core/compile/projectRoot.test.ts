import { describe, expect, it } from 'vitest';
import { foldersAbove, projectRootFlag, rootMarkerVisible } from '../../../src/main/core/compile/projectRoot';
import type { Access } from '../../../src/main/core/compile/facts';

const FLAG = ['-c', 'project_root_markers=[]'];
const cwd = '/home/u/ws/profiles/coder';
const has =
  (...paths: string[]) =>
  (p: string): boolean =>
    paths.includes(p);

describe('foldersAbove', () => {
  it('lists the folders above, nearest first, up to /', () => {
    expect(foldersAbove('/a/b/c')).toEqual(['/a/b', '/a', '/']);
    expect(foldersAbove('/a')).toEqual(['/']);
  });
});

describe('rootMarkerVisible and projectRootFlag', () => {
  const fs = (entries: Record<string, Access>): Record<string, Access> => ({ [cwd]: 'write', ...entries });
  const cases: { name: string; fs: Record<string, Access>; exists: (p: string) => boolean; userSets?: boolean; visible: boolean; flag: string[] }[] = [
    { name: 'no marker anywhere: the flag', fs: fs({}), exists: has(), visible: false, flag: FLAG },
    { name: 'a marker above that no grant reaches: hidden by the sandbox, the flag', fs: fs({}), exists: has('/home/u/.git'), visible: false, flag: FLAG },
    {
      name: 'a marker inside a read grant above the cwd: seen, no flag',
      fs: fs({ '/home/u/ws': 'read' }),
      exists: has('/home/u/ws/.git'),
      visible: true,
      flag: [],
    },
    {
      name: 'a grant inside the marker folder makes it exist in the sandbox: no flag',
      fs: fs({ '/home/u/.git/hooks': 'read' }),
      exists: has('/home/u/.git'),
      visible: true,
      flag: [],
    },
    { name: 'a deny entry reaching it does not count: the flag', fs: fs({ '/home/u': 'deny' }), exists: has('/home/u/.git'), visible: false, flag: FLAG },
    { name: "the cwd's own .git changes nothing (the cwd is read either way): the flag", fs: fs({}), exists: has(`${cwd}/.git`), visible: false, flag: FLAG },
    { name: 'a glob entry counts as reaching everything: no flag', fs: fs({ '/home/u/*.log': 'read' }), exists: has(), visible: true, flag: [] },
    { name: "the user's Codex config names the key: no flag", fs: fs({}), exists: has(), userSets: true, visible: false, flag: [] },
    { name: "the folder's own Codex config: no flag", fs: fs({}), exists: has(`${cwd}/.codex/config.toml`), visible: false, flag: [] },
  ];
  for (const c of cases)
    it(c.name, () => {
      expect(rootMarkerVisible(cwd, c.fs, c.exists)).toBe(c.visible);
      expect(projectRootFlag(cwd, c.fs, c.exists, c.userSets === true)).toEqual(c.flag);
    });
});
