import { existsSync, statSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acceptTable, compareWithAccepted, loadAccepted, requireAccepted } from '../../../src/main/core/table/accepted';
import { diffText } from '../../../src/main/core/table/diff';
import { resolveInstance, type InstancePaths } from '../../../src/main/core/instance/paths';
import { AppFailure, type AppError } from '../../../src/shared/result';
import { makeTestDir, removeTestDir } from '../instance/testDir';

let root: string;
let paths: InstancePaths;
let opts: { home: string; env: Record<string, string> };

const TABLE = '# my table\n[profiles.coder]\ncwd = "profiles/coder"\n';

beforeEach(async () => {
  root = await makeTestDir('accepted');
  paths = resolveInstance({ HOME: join(root, 'home'), ANGELIA_STATE_DIR: join(root, 'state') });
  opts = { home: paths.home, env: {} };
  await mkdir(join(paths.workspace, 'profiles', 'coder'), { recursive: true });
  await mkdir(join(paths.workspace, 'profiles', 'new'), { recursive: true });
  await writeFile(paths.tableFile, TABLE);
});
afterEach(async () => removeTestDir(root));

async function failure(p: Promise<unknown>): Promise<AppError> {
  const e = await p.then(
    () => null,
    (x: unknown) => x,
  );
  expect(e, 'must fail').toBeInstanceOf(AppFailure);
  return (e as AppFailure).app;
}

describe('the first run', () => {
  it('takes the table as it stands: an exact copy, mode 600, paths resolved against the table folder', async () => {
    const first = await loadAccepted(paths, opts);
    expect(first.created).toBe(true);
    expect(await readFile(paths.acceptedTable, 'utf8')).toBe(TABLE);
    expect(statSync(paths.acceptedTable).mode & 0o777).toBe(0o600);
    expect(statSync(paths.compiledDir).mode & 0o777).toBe(0o700);
    expect(first.table.file).toBe(paths.tableFile);
    expect(first.table.profiles.coder?.cwd).toBe(join(paths.workspace, 'profiles', 'coder'));
    expect((await loadAccepted(paths, opts)).created).toBe(false);
  });

  it('never takes a table that does not load, and writes nothing', async () => {
    await writeFile(paths.tableFile, '[profiles.coder]\ncwd = "profiles/coder"\nsanbox = false\n');
    const e = await failure(loadAccepted(paths, opts));
    expect(e).toMatchObject({ code: 'table-invalid', where: `${paths.tableFile}: profiles.coder.sanbox` });
    expect(existsSync(paths.acceptedTable)).toBe(false);
  });
});

describe('a changed table waits', () => {
  beforeEach(async () => {
    await loadAccepted(paths, opts);
    await writeFile(paths.tableFile, `${TABLE}add_dirs = ["/x"]\n[defaults]\npermission_timeout_minutes = 5\n[profiles.new]\ncwd = "profiles/new"\n`);
  });

  it('runs on the accepted copy and reports the field-by-field diff', async () => {
    const { table } = await loadAccepted(paths, opts);
    expect(table.profiles.coder?.addDirs).toEqual([]);
    expect(Object.keys(table.profiles)).toEqual(['coder']);
    expect(table.defaults.permissionTimeoutMinutes).toBe(10);
    const cmp = await compareWithAccepted(paths, opts);
    expect(cmp).toMatchObject({ differs: true, firstRun: false, error: null });
    const lines = diffText(cmp.changes);
    // A new profile is listed with every field as loaded (defaults included), so its mode and sandbox show.
    expect(lines.slice(0, 4)).toEqual([
      'defaults.permission_timeout_minutes: 10 → 5',
      'profiles.coder.add_dirs: + "/x"',
      'profiles.new: added',
      '    cwd = "profiles/new"',
    ]);
    expect(lines).toContain('    permission_mode = "acceptEdits"');
    expect(lines).toContain('    sandbox = true');
    expect(lines.slice(4).every((l) => l.startsWith('    '))).toBe(true);
  });

  it('is refused where accepted changes are required (the compile --write hook)', async () => {
    const e = await failure(requireAccepted(paths, opts));
    expect(e).toMatchObject({ code: 'table-not-accepted', where: paths.tableFile });
    expect(e.message).toContain('3 changes');
    expect(e.fix).toContain('angelia accept');
  });

  it('is taken by acceptTable: atomic copy, previous copy kept as .bak', async () => {
    const disk = await readFile(paths.tableFile, 'utf8');
    const r = await acceptTable(paths, opts);
    expect(r.written).toBe(true);
    expect(r.changes).toHaveLength(3);
    expect(await readFile(paths.acceptedTable, 'utf8')).toBe(disk);
    expect(await readFile(`${paths.acceptedTable}.bak`, 'utf8')).toBe(TABLE);
    expect(statSync(paths.acceptedTable).mode & 0o777).toBe(0o600);
    expect((await compareWithAccepted(paths, opts)).differs).toBe(false);
    expect((await requireAccepted(paths, opts)).profiles.new).toBeDefined();
    expect(await acceptTable(paths, opts)).toMatchObject({ written: false, changes: [] });
  });
});

describe('what does not count, and what is never accepted', () => {
  beforeEach(async () => {
    await loadAccepted(paths, opts);
  });

  it('a change to comments or layout alone is no change', async () => {
    await writeFile(paths.tableFile, '[profiles.coder]   # the coder\ncwd="profiles/coder"\n\n');
    expect(await compareWithAccepted(paths, opts)).toMatchObject({ differs: false, changes: [] });
  });

  it('a schema error: the diff is shown, the table is refused naming file, field and fix, the copy is kept', async () => {
    await writeFile(paths.tableFile, `${TABLE}sanbox = false\n`);
    const cmp = await compareWithAccepted(paths, opts);
    expect(cmp.differs).toBe(true);
    expect(cmp.error).toMatchObject({ code: 'table-invalid', where: `${paths.tableFile}: profiles.coder.sanbox` });
    expect(diffText(cmp.changes)).toEqual(['profiles.coder.sanbox: added false']);
    const e = await failure(acceptTable(paths, opts));
    expect(e).toMatchObject({ code: 'table-invalid', where: `${paths.tableFile}: profiles.coder.sanbox` });
    expect(e.fix).toMatch(/did you mean "sandbox"/);
    expect(await readFile(paths.acceptedTable, 'utf8')).toBe(TABLE);
    expect(existsSync(`${paths.acceptedTable}.bak`)).toBe(false);
  });

  it('a TOML syntax error and a missing folder are refused too', async () => {
    await writeFile(paths.tableFile, '[profiles.coder\n');
    expect((await compareWithAccepted(paths, opts)).error).toMatchObject({ code: 'table-syntax' });
    expect(await failure(acceptTable(paths, opts))).toMatchObject({ code: 'table-syntax', where: `${paths.tableFile}:1:16` });
    await writeFile(paths.tableFile, '[profiles.coder]\ncwd = "profiles/gone"\n');
    expect(await failure(acceptTable(paths, opts))).toMatchObject({ code: 'table-invalid', where: `${paths.tableFile}: profiles.coder.cwd` });
    await rm(paths.tableFile);
    expect(await failure(acceptTable(paths, opts))).toMatchObject({ code: 'table-missing', where: paths.tableFile });
    expect((await compareWithAccepted(paths, opts)).differs).toBe(true);
    expect(await readFile(paths.acceptedTable, 'utf8')).toBe(TABLE);
  });

  it('an accepted copy that no longer loads is an error naming the field and "angelia accept"', async () => {
    await rm(join(paths.workspace, 'profiles', 'coder'), { recursive: true });
    const e = await failure(loadAccepted(paths, opts));
    expect(e).toMatchObject({ code: 'accepted-invalid', where: `${paths.tableFile}: profiles.coder.cwd` });
    expect(e.message).toContain(paths.acceptedTable);
    expect(e.fix).toMatch(/then run angelia accept$/);
  });
});
