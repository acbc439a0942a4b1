/**
 * The Codex home a start gives Codex (CODEX_HOME) exists before Codex starts: codex 0.169.0 refuses a
 * CODEX_HOME that does not exist, so on a new machine without `~/.codex` every `angelia run` and
 * `angelia verify` failed (found by a fresh-clone user). launch/prepare.ts `ensureCodexHome`.
 */
import { lstat, mkdir, readlink, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureCodexHome } from '../../../src/main/core/launch/prepare';
import { makeTestDir, removeTestDir } from '../instance/testDir';

let root = '';
beforeAll(async () => {
  root = await makeTestDir('codex-home');
});
afterAll(async () => {
  if (root) await removeTestDir(root);
});

describe('ensureCodexHome', () => {
  it('creates a missing Codex home, mode 700, and leaves an existing one as it is', async () => {
    const home = join(root, 'h1', '.codex');
    await mkdir(join(root, 'h1'));
    await ensureCodexHome(home);
    const s = await lstat(home);
    expect(s.isDirectory()).toBe(true);
    expect(s.mode & 0o777).toBe(0o700);
    await ensureCodexHome(home);
    expect((await lstat(home)).ino).toBe(s.ino);
  });

  it('leaves a Codex home kept behind a symbolic link as it is (never replaced, never followed to create)', async () => {
    await mkdir(join(root, 'h2', 'dotfiles'), { recursive: true });
    const home = join(root, 'h2', '.codex');
    await symlink(join(root, 'h2', 'dotfiles', 'codex'), home);
    await ensureCodexHome(home);
    expect((await lstat(home)).isSymbolicLink()).toBe(true);
    expect(await readlink(home)).toBe(join(root, 'h2', 'dotfiles', 'codex'));
    await expect(lstat(join(root, 'h2', 'dotfiles', 'codex'))).rejects.toThrow(/ENOENT/);
  });

  it('throws when its parent folder does not exist', async () => {
    await expect(ensureCodexHome(join(root, 'missing', '.codex'))).rejects.toThrow(/ENOENT/);
  });
});
