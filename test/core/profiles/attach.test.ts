/**
 * `chats:attach` in the core: names made safe, files written into `<cwd>/.inbox/` mode 600 and never
 * over another, a `.inbox` that is a link or not a folder refused, size and encoding checked.
 */
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { lstat, mkdir, readdir, readFile, realpath, rename, symlink, unlink, writeFile } from 'node:fs/promises';
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
  const e = await p.then(
    () => null,
    (x: unknown) => x,
  );
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
    expect(await failure(attachFile(cwd, 'a.txt', b64('x')))).toMatchObject({
      code: 'attach-inbox',
      message: expect.stringContaining('is a symbolic link') as unknown,
    });
    expect(await readdir(elsewhere)).toEqual([]);

    const other = join(root, 'other');
    await mkdir(other);
    await writeFile(join(other, '.inbox'), 'a file');
    expect(await failure(attachFile(other, 'a.txt', b64('x')))).toMatchObject({
      code: 'attach-inbox',
      message: expect.stringContaining('is not a folder') as unknown,
    });
  });

  it('refuses more than 25 MiB and text that is not base64', async () => {
    expect(() => decodeAttachment('A'.repeat(Math.ceil((MAX_ATTACH_BYTES + 3) / 3) * 4))).toThrow(/at most 25 MiB/);
    expect(decodeAttachment(b64('x'.repeat(1000))).length).toBe(1000);
    expect(await failure(attachFile(cwd, 'a.txt', 'not base64!'))).toMatchObject({ code: 'attach-not-base64' });
  });
});

/** Every file below `dir` (links not followed), as paths relative to it. */
async function filesBelow(dir: string, rel = ''): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(join(dir, rel), { withFileTypes: true })) {
    const r = rel ? join(rel, e.name) : e.name;
    if (e.isDirectory()) out.push(...(await filesBelow(dir, r)));
    else if (e.isFile()) out.push(r);
  }
  return out;
}

// The agent owns its folder: it can swap `.inbox` for a link to a folder it cannot write while the
// owner's attachments go in (a tester measured 4 of ~200 written there before the descriptor check).
describe('attaching while the agent swaps .inbox for a link', () => {
  // Two ways to swap: move the folder away and plant a link (the name is missing for a moment), and
  // rename a ready link over the name (it never is). Says "go" once it runs.
  const SWAPPER = `
    const fs = require('node:fs');
    const [inbox, hold, target] = process.argv.slice(1);
    const link = inbox + '-link';
    const t = (f) => { try { f(); } catch {} };
    process.stdout.write('go\\n');
    for (;;) {
      t(() => fs.renameSync(inbox, hold));
      t(() => fs.symlinkSync(target, inbox));
      t(() => fs.unlinkSync(inbox));
      t(() => fs.renameSync(hold, inbox));
      t(() => fs.symlinkSync(target, link));
      t(() => fs.renameSync(inbox, hold));
      t(() => fs.renameSync(link, inbox));
      t(() => fs.unlinkSync(inbox));
      t(() => fs.renameSync(hold, inbox));
    }`;

  // Linux creates through a descriptor of `.inbox`: nothing can land elsewhere. The portable check
  // (macOS) creates by path and removes what landed elsewhere by path, looking where `.inbox` leads:
  // when the swapper wins that race too, an EMPTY file may stay behind (the error says so); no byte of
  // the owner's file is ever written anywhere but the real `.inbox`.
  it.each([
    ['the folder descriptor (Linux)', true],
    ['the portable check (macOS)', false],
  ])('200 attaches with %s: each lands in the real .inbox or fails with attach-inbox; none outside', async (_, procFd) => {
    const target = join(root, 'not-the-agents');
    await mkdir(target);
    const inbox = join(cwd, '.inbox');
    const hold = join(cwd, '.inbox-real');
    await mkdir(inbox, { mode: 0o700 });
    const realInbox = join(await realpath(cwd), '.inbox');
    const swapper = spawn(process.execPath, ['-e', SWAPPER, inbox, hold, target], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise((resolve) => swapper.stdout.once('data', resolve));
    const landed: string[] = [];
    const failed: string[] = [];
    try {
      for (let batch = 0; batch < 20; batch++) {
        const results = await Promise.allSettled(
          Array.from({ length: 10 }, (_, i) => attachFile(cwd, `f${batch}-${i}.txt`, b64(`data ${batch}-${i}`), { procFd })),
        );
        for (const r of results) {
          if (r.status === 'fulfilled') landed.push(r.value);
          else {
            expect(r.reason, String(r.reason)).toBeInstanceOf(AppFailure);
            expect((r.reason as AppFailure).app.code).toBe('attach-inbox');
            failed.push((r.reason as AppFailure).app.message);
          }
        }
      }
    } finally {
      const exited = new Promise((resolve) => swapper.once('exit', resolve));
      swapper.kill('SIGKILL');
      await exited;
    }
    expect(landed.length + failed.length).toBe(200);
    // Nothing in the folder the agent cannot write, whatever the swapper's timing was.
    const outside = await readdir(target);
    if (procFd) expect(outside).toEqual([]);
    for (const f of outside) expect(statSync(join(target, f)).size, f).toBe(0);
    // Put the real folder back where the swapper left it, then count: every file reported attached is
    // in the profile's folder, and no other file is.
    for (const l of [inbox, `${inbox}-link`]) if ((await lstat(l).catch(() => null))?.isSymbolicLink()) await unlink(l);
    if (await lstat(hold).catch(() => null)) {
      if (!(await lstat(inbox).catch(() => null))) await rename(hold, inbox);
    }
    for (const p of landed) expect(p.startsWith(`${realInbox}/`), p).toBe(true);
    const names = new Set(landed.map((p) => p.slice(realInbox.length + 1)));
    const files = await filesBelow(cwd);
    const strays: string[] = [];
    for (const f of files) {
      const file = f.replace(/^\.inbox(-real)?\//, '');
      if (!names.has(file)) {
        strays.push(f);
        // Never any of the owner's data: nothing is written before the check.
        expect(statSync(join(cwd, f)).size, f).toBe(0);
        continue;
      }
      expect(await readFile(join(cwd, f), 'utf8')).toBe(`data ${file.slice(1, -4)}`);
    }
    expect(files.length - strays.length).toBe(landed.length);
    if (procFd) expect(strays).toEqual([]);
    // Each empty file left behind was reported by a failed attach.
    expect(outside.length + strays.length).toBeLessThanOrEqual(failed.filter((m) => m.includes('it could not be removed safely')).length);
  });
});
