import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { atomicWrite } from '../../../src/main/core/instance/atomic';
import { makeTestDir, removeTestDir } from './testDir';

let dir: string;
beforeAll(async () => {
  dir = await makeTestDir('atomic');
});
afterAll(async () => removeTestDir(dir));

describe('atomicWrite', () => {
  it('writes a new private file and makes no backup when there was nothing before', async () => {
    const file = join(dir, 'new.toml');
    await atomicWrite(file, 'a = 1\n', { backup: true });
    expect(await readFile(file, 'utf8')).toBe('a = 1\n');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    await expect(stat(`${file}.bak`)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('keeps the previous version as .bak and replaces the file', async () => {
    const file = join(dir, 'table.toml');
    await writeFile(file, 'v = 1\n');
    await atomicWrite(file, 'v = 2\n', { backup: true, mode: 0o644 });
    expect(await readFile(file, 'utf8')).toBe('v = 2\n');
    expect(await readFile(`${file}.bak`, 'utf8')).toBe('v = 1\n');
    expect((await stat(file)).mode & 0o777).toBe(0o644);
    await atomicWrite(file, 'v = 3\n', { backup: true });
    expect(await readFile(`${file}.bak`, 'utf8')).toBe('v = 2\n');
  });

  it('without backup leaves no .bak', async () => {
    const file = join(dir, 'plain.json');
    await writeFile(file, '{}');
    await atomicWrite(file, '{"a":1}');
    expect(await readFile(file, 'utf8')).toBe('{"a":1}');
    await expect(stat(`${file}.bak`)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('fails with the fs error when the folder does not exist', async () => {
    await expect(atomicWrite(join(dir, 'missing', 'f'), 'x')).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
