/**
 * The no-follow file module: what a read answers for each kind of entry (table), the size cap and one
 * link, the verify hook, and the temp-and-rename write replacing a link or a FIFO without following it.
 */
import { execFileSync } from 'node:child_process';
import { linkSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNoFollow, isLinkError, openFolderNoFollow, readNoFollow, writeNoFollow } from '../../../src/main/core/instance/noFollow';
import { makeTestDir, removeTestDir } from './testDir';

let dir: string;
beforeAll(async () => {
  dir = await makeTestDir('nofollow');
  writeFileSync(join(dir, 'plain'), 'hello');
  writeFileSync(join(dir, 'empty'), '');
  writeFileSync(join(dir, 'target'), 'secret');
  symlinkSync(join(dir, 'target'), join(dir, 'link'));
  writeFileSync(join(dir, 'shared'), 'two names');
  linkSync(join(dir, 'shared'), join(dir, 'shared-2'));
  mkdirSync(join(dir, 'folder'));
  execFileSync('mkfifo', [join(dir, 'fifo')]);
});
afterAll(async () => removeTestDir(dir));

describe('readNoFollow', () => {
  it.each([
    ['plain', {}, 'ok'],
    ['empty', {}, 'ok'],
    ['none', {}, 'missing'],
    ['link', {}, 'open-failed'],
    ['folder', {}, 'not-file'],
    ['fifo', {}, 'not-file'],
    ['shared', {}, 'ok'],
    ['shared', { oneLink: true }, 'links'],
    ['plain', { maxBytes: 5 }, 'ok'],
    ['plain', { maxBytes: 4 }, 'too-large'],
  ] as const)('%s with %o: %s', async (name, opts, kind) => {
    expect((await readNoFollow(join(dir, name), opts)).kind).toBe(kind);
  });

  it('answers the bytes and the fstat of what it read; a link fails with a link error and its target is never read', async () => {
    const read = await readNoFollow(join(dir, 'plain'));
    expect(read).toMatchObject({ kind: 'ok', data: Buffer.from('hello') });
    const link = await readNoFollow(join(dir, 'link'));
    expect(link.kind === 'open-failed' && isLinkError(link.code)).toBe(true);
  });

  it('runs the verify hook on the open descriptor before any byte is read; what it throws is thrown', async () => {
    const seen: number[] = [];
    await expect(
      readNoFollow(join(dir, 'plain'), {
        verify: async (_h, st) => {
          seen.push(st.size);
          throw new Error('refused');
        },
      }),
    ).rejects.toThrow('refused');
    expect(seen).toEqual([5]);
  });
});

describe('isLinkError', () => {
  it.each([
    ['ELOOP', true],
    ['EMLINK', true],
    ['ENOENT', false],
    ['EACCES', false],
  ])('%s: %s', (code, yes) => {
    expect(isLinkError(code)).toBe(yes);
  });
});

describe('writeNoFollow', () => {
  it('replaces a link or a FIFO at the target, never writing through it; mode set exactly; no temp left', async () => {
    const sub = join(dir, 'write');
    mkdirSync(sub);
    writeFileSync(join(sub, 'victim'), 'keep');
    symlinkSync(join(sub, 'victim'), join(sub, 'out'));
    execFileSync('mkfifo', [join(sub, 'pipe')]);
    await writeNoFollow(join(sub, 'out'), 'new', { mode: 0o640 });
    await writeNoFollow(join(sub, 'pipe'), 'also new', { sync: false });
    expect(readFileSync(join(sub, 'victim'), 'utf8')).toBe('keep');
    expect(readFileSync(join(sub, 'out'), 'utf8')).toBe('new');
    expect(statSync(join(sub, 'out')).mode & 0o777).toBe(0o640);
    expect(statSync(join(sub, 'pipe')).isFile()).toBe(true);
    expect(statSync(join(sub, 'pipe')).mode & 0o777).toBe(0o600);
    expect(readdirSync(sub).sort()).toEqual(['out', 'pipe', 'victim']);
  });

  it('refuses a temp name that exists (a link planted there included) and leaves it alone', async () => {
    const sub = join(dir, 'planted');
    mkdirSync(sub);
    writeFileSync(join(sub, 'victim'), 'keep');
    symlinkSync(join(sub, 'victim'), join(sub, '.tmp'));
    await expect(writeNoFollow(join(sub, 'out'), 'x', { tmp: join(sub, '.tmp') })).rejects.toMatchObject({ code: 'EEXIST' });
    expect(readFileSync(join(sub, 'victim'), 'utf8')).toBe('keep');
    expect(readdirSync(sub).sort()).toEqual(['.tmp', 'victim']);
  });
});

describe('createNoFollow and openFolderNoFollow', () => {
  it('create never opens an existing name; a folder open refuses a link and a file', async () => {
    await expect(createNoFollow(join(dir, 'link'), 0o600)).rejects.toMatchObject({ code: 'EEXIST' });
    const h = await createNoFollow(join(dir, 'fresh'), 0o600);
    await h.close();
    expect(statSync(join(dir, 'fresh')).mode & 0o777).toBe(0o600);
    symlinkSync(join(dir, 'folder'), join(dir, 'folder-link'));
    // Linux answers ENOTDIR for a link opened O_DIRECTORY|O_NOFOLLOW, macOS ELOOP.
    await expect(openFolderNoFollow(join(dir, 'folder-link'))).rejects.toMatchObject({ code: expect.stringMatching(/^(ELOOP|ENOTDIR)$/) });
    await expect(openFolderNoFollow(join(dir, 'plain'))).rejects.toMatchObject({ code: 'ENOTDIR' });
    const f = await openFolderNoFollow(join(dir, 'folder'));
    await f.close();
  });
});
