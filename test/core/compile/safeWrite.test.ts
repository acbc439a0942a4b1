import { execFileSync } from 'node:child_process';
import { link, lstat, mkdir, readFile, readlink, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readNoFollow, safeLink, safeUnlink, safeWrite } from '../../../src/main/core/compile/safeWrite';
import { AppFailure } from '../../../src/shared/result';
import { makeTestDir, removeTestDir } from '../instance/testDir';

let root: string;
let n = 0;
beforeAll(async () => {
  root = await makeTestDir('safew');
});
afterAll(async () => removeTestDir(root));

/** A fresh profile folder and a "secret" file outside it. */
async function setup(): Promise<{ cwd: string; secret: string }> {
  const base = join(root, `case${++n}`);
  const cwd = join(base, 'profile');
  await mkdir(join(cwd, '.claude'), { recursive: true });
  const secret = join(base, 'secret.txt');
  await writeFile(secret, 'SECRET');
  return { cwd, secret };
}

async function refusal(p: Promise<unknown>): Promise<string> {
  const e = await p.then(
    () => null,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(AppFailure);
  expect((e as AppFailure).app.code).toBe('unsafe-path');
  return (e as AppFailure).app.message;
}

describe('the no-follow writer', () => {
  it('writes a new file, replaces an existing one atomically and keeps the previous as .bak', async () => {
    const { cwd } = await setup();
    const path = await safeWrite(cwd, '.claude/settings.json', '{"a":1}\n', { mode: 0o640 });
    expect(path).toBe(join(cwd, '.claude/settings.json'));
    expect(await readFile(path, 'utf8')).toBe('{"a":1}\n');
    expect((await stat(path)).mode & 0o777).toBe(0o640);
    await safeWrite(cwd, '.claude/settings.json', '{"a":2}\n', { mode: 0o640 });
    expect(await readFile(path, 'utf8')).toBe('{"a":2}\n');
    expect(await readFile(`${path}.bak`, 'utf8')).toBe('{"a":1}\n');
  });

  it('refuses a symlink at the name and leaves its target untouched', async () => {
    const { cwd, secret } = await setup();
    await symlink(secret, join(cwd, '.claude/settings.json'));
    expect(await refusal(safeWrite(cwd, '.claude/settings.json', 'x', { mode: 0o644 }))).toContain('it is a link');
    expect(await readFile(secret, 'utf8')).toBe('SECRET');
    expect(await readlink(join(cwd, '.claude/settings.json'))).toBe(secret);
  });

  it('refuses a hard link (its content is shared with another file)', async () => {
    const { cwd, secret } = await setup();
    await link(secret, join(cwd, 'CLAUDE.md'));
    expect(await refusal(safeWrite(cwd, 'CLAUDE.md', 'x', { mode: 0o644 }))).toContain('2 hard links');
    expect(await readFile(secret, 'utf8')).toBe('SECRET');
    expect((await stat(secret)).nlink).toBe(2);
  });

  it('refuses a FIFO without hanging', async () => {
    const { cwd } = await setup();
    execFileSync('mkfifo', [join(cwd, '.claude/settings.json')]);
    expect(await refusal(safeWrite(cwd, '.claude/settings.json', 'x', { mode: 0o644 }))).toContain('not a plain file');
    expect((await lstat(join(cwd, '.claude/settings.json'))).isFIFO()).toBe(true);
  });

  it('refuses a folder on the way that is a link', async () => {
    const { cwd } = await setup();
    const elsewhere = join(cwd, '..', 'elsewhere');
    await mkdir(elsewhere);
    await symlink(elsewhere, join(cwd, '.agents'));
    expect(await refusal(safeWrite(cwd, '.agents/skills/x', 'x', { mode: 0o644, createDirs: true }))).toContain('.agents is a link');
    expect(await refusal(safeLink(cwd, '.agents/skills/x', '/t', 'absent'))).toContain('.agents is a link');
  });

  it('readNoFollow: null for a missing file, refuses a link', async () => {
    const { cwd, secret } = await setup();
    expect(await readNoFollow(join(cwd, 'none'))).toBeNull();
    await symlink(secret, join(cwd, 'l'));
    await refusal(readNoFollow(join(cwd, 'l')));
  });

  it('links: created atomically, replaced only over a link, removed only when a link', async () => {
    const { cwd } = await setup();
    await safeLink(cwd, '.agents/skills/a', '../../target', 'absent');
    expect(await readlink(join(cwd, '.agents/skills/a'))).toBe('../../target');
    await safeLink(cwd, '.agents/skills/a', '/abs/target', 'link');
    expect(await readlink(join(cwd, '.agents/skills/a'))).toBe('/abs/target');
    expect(await refusal(safeLink(cwd, '.agents/skills/a', '/x', 'absent'))).toContain('something appeared there');
    await mkdir(join(cwd, '.agents/skills/dir'));
    expect(await refusal(safeLink(cwd, '.agents/skills/dir', '/x', 'link'))).toContain('no longer a link');
    expect(await refusal(safeUnlink(cwd, '.agents/skills/dir'))).toContain('no longer a link');
    await safeUnlink(cwd, '.agents/skills/a');
    expect(await lstat(join(cwd, '.agents/skills/a')).catch(() => null)).toBeNull();
  });
});
