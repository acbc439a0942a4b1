import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initInstance } from '../../../src/main/core/instance/init';
import { resolveInstance } from '../../../src/main/core/instance/paths';
import { loadTable } from '../../../src/main/core/table/load';
import { AppFailure } from '../../../src/shared/result';
import { makeTestDir, removeTestDir } from './testDir';

let root: string;
beforeAll(async () => {
  root = await makeTestDir('init');
});
afterAll(async () => removeTestDir(root));

const mode = async (p: string): Promise<number> => (await stat(p)).mode & 0o777;

describe('initInstance', () => {
  it('creates a private instance whose starter table loads with one profile "assistant"', async () => {
    const paths = resolveInstance({ HOME: join(root, 'home1'), ANGELIA_STATE_DIR: join(root, 'state1') });
    const result = await initInstance(paths);
    for (const dir of [paths.stateDir, paths.workspace, paths.compiledDir, paths.cacheRoot, paths.logsDir]) {
      expect(await mode(dir)).toBe(0o700);
    }
    expect(result.profileDir).toBe(join(paths.workspace, 'profiles', 'assistant'));
    expect(await readFile(join(result.profileDir, 'CLAUDE.md'), 'utf8')).toContain('# Assistant');

    const text = await readFile(paths.tableFile, 'utf8');
    expect(parse(text)).toMatchObject({ profiles: { assistant: { cwd: 'profiles/assistant', permission_mode: 'default', sandbox: true } } });
    const lines = text.split('\n');
    for (const field of ['cwd', 'permission_mode', 'sandbox', 'add_dirs', 'model', 'effort', 'bin']) {
      const at = lines.findIndex((l) => l.startsWith(`${field} = `) || l.startsWith(`# ${field} = `));
      expect(at, `${field} is in the starter table`).toBeGreaterThan(0);
      expect(lines[at - 1], `a comment line explains ${field}`).toMatch(/^# \S/);
    }
    const table = await loadTable(paths.tableFile, { home: paths.home });
    expect(Object.keys(table.profiles)).toEqual(['assistant']);
    expect(table.profiles.assistant).toMatchObject({ cwd: result.profileDir, permissionMode: 'default', sandbox: true, backend: 'codex' });
    expect(table.defaults).toEqual({
      permissionTimeoutMinutes: 10,
      turnStallMinutes: 60,
      idleExitMinutes: 30,
      warmAgents: 3,
      warmMemoryMb: 1024,
      capabilities: [],
      deny: [],
    });
  });

  it('refuses to overwrite an existing table and changes nothing', async () => {
    const paths = resolveInstance({ HOME: join(root, 'home2'), ANGELIA_STATE_DIR: join(root, 'state2') });
    await initInstance(paths);
    await writeFile(paths.tableFile, '# mine\n');
    const err = await initInstance(paths).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppFailure);
    expect((err as AppFailure).app).toMatchObject({ code: 'instance-exists', where: paths.tableFile });
    expect(await readFile(paths.tableFile, 'utf8')).toBe('# mine\n');
  });

  it('writes an absolute cwd when ANGELIA_CONFIG puts the table outside the workspace', async () => {
    const paths = resolveInstance({
      HOME: join(root, 'home3'),
      ANGELIA_STATE_DIR: join(root, 'state3'),
      ANGELIA_CONFIG: join(root, 'elsewhere', 'my table.toml'),
    });
    const result = await initInstance(paths);
    const data = parse(await readFile(paths.tableFile, 'utf8')) as { profiles: { assistant: { cwd: string } } };
    expect(data.profiles.assistant.cwd).toBe(result.profileDir);
    const table = await loadTable(paths.tableFile, { home: paths.home });
    expect(table.profiles.assistant!.cwd).toBe(result.profileDir);
  });
});
