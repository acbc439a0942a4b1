/**
 * A scratch workspace for table tests: `<root>/ws` with profile folders `a`, `b`, `c`, skill folders
 * under `_capabilities/skills`, and a fake home. `load(text)` writes the text as a table in the
 * workspace and loads it; `loadError(text)` returns the AppError it fails with.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { loadTable, type LoadedTable } from '../../../src/main/core/table/load';
import { AppFailure, type AppError } from '../../../src/shared/result';
import { makeTestDir } from '../instance/testDir';

/** The scratch workspace. */
export interface TestWorkspace {
  root: string;
  home: string;
  ws: string;
  load(text: string): Promise<LoadedTable>;
  loadError(text: string): Promise<AppError & { file: string }>;
}

/** Creates the workspace (call `removeTestDir(root)` after). */
export async function makeWorkspace(label: string): Promise<TestWorkspace> {
  const root = await makeTestDir(label);
  const home = join(root, 'home');
  const ws = join(root, 'ws');
  for (const d of ['profiles/a', 'profiles/b', 'profiles/c', '_capabilities/skills/good', '_capabilities/skills/bare', 'shared-dir'])
    await mkdir(join(ws, d), { recursive: true });
  await writeFile(join(ws, '_capabilities/skills/good/SKILL.md'), '---\nname: good\n---\n');
  await mkdir(join(home, 'skills', 'outside'), { recursive: true });
  await writeFile(join(home, 'skills', 'outside', 'SKILL.md'), '---\nname: outside\n---\n');
  let n = 0;
  const write = async (text: string): Promise<string> => {
    const file = join(ws, `t${++n}.toml`);
    await writeFile(file, text);
    return file;
  };
  return {
    root,
    home,
    ws,
    load: async (text) => loadTable(await write(text), { home, env: {} }),
    async loadError(text) {
      const file = await write(text);
      const e = await loadTable(file, { home, env: {} }).then(
        () => null,
        (x: unknown) => x,
      );
      expect(e, 'the table must not load').toBeInstanceOf(AppFailure);
      return { ...(e as AppFailure).app, file };
    },
  };
}
