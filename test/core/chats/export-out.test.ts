/**
 * `angelia export --out`: which paths are refused before anything runs (cli/commands/export.ts
 * `checkOut`), on real folders and symlinks.
 */
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkOut } from '../../../src/main/cli/commands/export';
import { freshDir } from '../../../src/main/demo/codexHome';
import { resolveInstance, type InstancePaths } from '../../../src/main/core/instance/paths';

let root = '';
let paths: InstancePaths;
let out = '';
beforeEach(async () => {
  root = await freshDir('export-out');
  paths = resolveInstance({ HOME: join(root, 'home'), ANGELIA_STATE_DIR: join(root, 'state'), CODEX_HOME: join(root, 'codex-home') });
  for (const d of [paths.home, paths.workspace, paths.privateDir, paths.codexHome, join(root, 'out')]) mkdirSync(d, { recursive: true });
  writeFileSync(paths.sessionsFile, '{"version":1,"chats":{}}');
  out = join(root, 'out');
});
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('checkOut', () => {
  it('takes a new file, relative to the working folder', () => {
    expect(checkOut('coder.jsonl', { force: false, paths, cwd: out })).toEqual({ file: join(out, 'coder.jsonl') });
  });

  it('refuses an existing file unless --force, naming the path and the fix (exit 2)', () => {
    writeFileSync(join(out, 'x.md'), 'mine');
    expect(checkOut('x.md', { force: false, paths, cwd: out })).toEqual({
      error: `--out ${join(out, 'x.md')} already exists: add --force to replace it, or pick another file name.`,
      code: 2,
    });
    expect(checkOut('x.md', { force: true, paths, cwd: out })).toEqual({ file: join(out, 'x.md') });
  });

  it('refuses any path inside the state folder, even with --force and even a new file', () => {
    for (const p of [paths.sessionsFile, join(paths.stateDir, 'new.jsonl'), join(paths.workspace, 'x.md')]) {
      const r = checkOut(p, { force: true, paths });
      expect(r).toEqual({
        error: `--out ${p} is inside Angelia's state folder ${paths.stateDir}: exporting there could overwrite Angelia's own files, so it is refused even with --force. Write outside it, e.g. --out ${join(paths.home, p.split('/').at(-1) as string)}.`,
        code: 2,
      });
    }
  });

  it('sees through symlinks: a linked folder, and a file that is a link into the state folder', () => {
    symlinkSync(paths.stateDir, join(out, 'state-link'));
    const viaFolder = checkOut(join(out, 'state-link', 'private', 'sessions.json'), { force: true, paths });
    expect(viaFolder).toMatchObject({ code: 2, error: expect.stringContaining(`(it resolves to ${paths.sessionsFile}) is inside Angelia's state folder`) });
    symlinkSync(paths.sessionsFile, join(out, 'innocent.jsonl'));
    const viaFile = checkOut(join(out, 'innocent.jsonl'), { force: true, paths });
    expect(viaFile).toMatchObject({ code: 2, error: expect.stringContaining(`(it resolves to ${paths.sessionsFile})`) });
  });

  it('refuses the table file and CODEX_HOME too', () => {
    expect(checkOut(join(paths.codexHome, 'auth.json'), { force: true, paths })).toMatchObject({
      code: 2,
      error: expect.stringContaining(`is inside CODEX_HOME ${paths.codexHome}`),
    });
    const table = join(root, 'elsewhere.toml');
    writeFileSync(table, '');
    const withTable = { ...paths, tableFile: table };
    expect(checkOut(table, { force: true, paths: withTable })).toMatchObject({ code: 2, error: expect.stringContaining(`is the table ${table}`) });
  });

  it('a folder, or a missing folder, is an error naming it', () => {
    expect(checkOut(out, { force: true, paths })).toMatchObject({ code: 2, error: expect.stringContaining(`--out ${out} is a folder`) });
    expect(checkOut(join(root, 'nope', 'x.jsonl'), { force: false, paths })).toEqual({
      error: `cannot write ${join(root, 'nope', 'x.jsonl')}: the folder ${join(root, 'nope')} does not exist. Create it, or pick another --out.`,
      code: 1,
    });
  });
});
