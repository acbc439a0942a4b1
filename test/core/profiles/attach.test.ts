/**
 * `chats:attach` in the core: names made safe, files written into `<cwd>/.inbox/` mode 600 and never
 * over another, a `.inbox` that is a link or not a folder refused, size and encoding checked.
 */
import { statSync } from 'node:fs';
import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { attachFile, decodeAttachment, MAX_ATTACH_BYTES, numbered, sanitizeName } from '../../../src/main/core/profiles/attach';
import { AppFailure, type AppError } from '../../../src/shared/result';
import { makeTestDir, removeTestDir } from '../instance/testDir';

let root: string;
let cwd: string;

beforeEach(async () => {
  root = await makeTestDir('attach');
  cwd = join(root, 'coder');
  await mkdir(cwd);
});
afterEach(async () => removeTestDir(root));

async function failure(p: Promise<unknown>): Promise<AppError> {
  const e = await p.then(() => null, (x: unknown) => x);
  expect(e, 'must fail').toBeInstanceOf(AppFailure);
  return (e as AppFailure).app;
}

const b64 = (s: string): string => Buffer.from(s).toString('base64');

describe('file names', () => {
  it.each([
    ['report.pdf', 'report.pdf'],
    ['../../etc/passwd', '_._etc_passwd'],
    ['.bashrc', 'bashrc'],
    ['a\nb\u0000c\u202e.txt', 'abc.txt'],
    ['dir\\name:x.png', 'dir_name_x.png'],
    ['...', 'file'],
    ['notes..md', 'notes.md'],
    ['  .hidden .txt. ', 'hidden .txt'],
  ])('%j becomes %j', (given, safe) => {
    expect(sanitizeName(given)).toBe(safe);
  });

  it('never holds a slash, "..", a control character or a leading dot; long names keep their extension', () => {
    for (const n of ['/../x', '..\\..\\y', '\u0001.z', 'a/..', '.']) {
      const s = sanitizeName(n);
      // eslint-disable-next-line no-control-regex -- control characters are what must not appear
      expect(s).not.toMatch(/[/\\]|\.\.|^\.|[\u0000-\u001f]/);
      expect(s.length).toBeGreaterThan(0);
    }
    const long = sanitizeName(`${'é'.repeat(300)}.tar.gz`);
    expect(Buffer.byteLength(long)).toBeLessThanOrEqual(200);
    expect(long.endsWith('.gz')).toBe(true);
    expect(numbered('a.tar.gz', 2)).toBe('a.tar-2.gz');
    expect(numbered('README', 1)).toBe('README-1');
  });
});

describe('attaching', () => {
  it('writes into .inbox (folder 700, file 600) and never over an existing file', async () => {
    const first = await attachFile(cwd, 'notes.txt', b64('one'));
    expect(first).toBe(join(cwd, '.inbox', 'notes.txt'));
    expect(await readFile(first, 'utf8')).toBe('one');
    expect(statSync(first).mode & 0o777).toBe(0o600);
    expect(statSync(join(cwd, '.inbox')).mode & 0o777).toBe(0o700);
    const second = await attachFile(cwd, 'notes.txt', b64('two'));
    const third = await attachFile(cwd, 'notes.txt', b64('three'));
    expect([second, third]).toEqual([join(cwd, '.inbox', 'notes-1.txt'), join(cwd, '.inbox', 'notes-2.txt')]);
    expect(await readFile(first, 'utf8')).toBe('one');
    expect(await readFile(third, 'utf8')).toBe('three');
  });

  it('does not follow a link planted under the name it would write', async () => {
    const outside = join(root, 'outside.txt');
    await writeFile(outside, 'keep');
    await mkdir(join(cwd, '.inbox'), { mode: 0o700 });
    await symlink(outside, join(cwd, '.inbox', 'x.txt'));
    const path = await attachFile(cwd, 'x.txt', b64('new'));
    expect(path).toBe(join(cwd, '.inbox', 'x-1.txt'));
    expect(await readFile(outside, 'utf8')).toBe('keep');
  });

  it('refuses a .inbox that is a symbolic link or not a folder, writing nothing', async () => {
    const elsewhere = join(root, 'elsewhere');
    await mkdir(elsewhere);
    await symlink(elsewhere, join(cwd, '.inbox'));
    expect(await failure(attachFile(cwd, 'a.txt', b64('x')))).toMatchObject({ code: 'attach-inbox', message: expect.stringContaining('is a symbolic link') as unknown });
    expect(await readdir(elsewhere)).toEqual([]);

    const other = join(root, 'other');
    await mkdir(other);
    await writeFile(join(other, '.inbox'), 'a file');
    expect(await failure(attachFile(other, 'a.txt', b64('x')))).toMatchObject({ code: 'attach-inbox', message: expect.stringContaining('is not a folder') as unknown });
  });

  it('refuses more than 25 MiB and text that is not base64', async () => {
    expect(() => decodeAttachment('A'.repeat(Math.ceil((MAX_ATTACH_BYTES + 3) / 3) * 4))).toThrow(/at most 25 MiB/);
    expect(decodeAttachment(b64('x'.repeat(1000))).length).toBe(1000);
    expect(await failure(attachFile(cwd, 'a.txt', 'not base64!'))).toMatchObject({ code: 'attach-not-base64' });
  });
});
