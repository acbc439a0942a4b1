/**
 * The no-follow writer for files inside a profile's folder (docs/security-model.md). The agent can write
 * its own folder, so any name there may be a link it planted (to `~/.ssh/config`, say), a hard link, or
 * a FIFO meant to hang the writer. Every path is rebuilt from the REAL path of the profile's folder;
 * every folder below it must be a plain folder (not a link); the file is opened with O_NOFOLLOW (plus
 * O_NOFOLLOW_ANY on macOS) and O_NONBLOCK and must be a plain file with one link; the new content goes
 * to a fresh temp file (O_EXCL|O_NOFOLLOW) renamed over the old name (atomic; rename replaces the
 * name, never follows it), and the previous content is kept as `<file>.bak` the same way. The opens
 * and the temp-and-rename are instance/noFollow.ts's; this module adds the folder walk and the errors.
 */
import { lstat, mkdir, rename, symlink, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { AppFailure } from '../../../shared/result';
import { isLinkError, readNoFollow as readOpen, tempNameBeside, writeNoFollow } from '../instance/noFollow';

function refuse(path: string, why: string): AppFailure {
  return new AppFailure({
    code: 'unsafe-path',
    message: `compile refuses to write ${path}: ${why}`,
    where: path,
    fix: 'replace it with a plain file (or folder) by hand, then compile again',
  });
}

/**
 * `<realCwd>/<rel>` after checking that every folder between them is a plain folder (created, mode
 * 755, when `create` and missing). `rel` uses `/` and must not climb (`..`). Throws AppFailure
 * `unsafe-path` for a link or a non-folder on the way.
 */
export async function safeParent(realCwd: string, rel: string, create: boolean): Promise<string> {
  const parts = rel.split('/');
  if (parts.some((p) => p === '' || p === '.' || p === '..')) throw new Error(`not a plain relative path: ${rel}`);
  let dir = realCwd;
  for (const part of parts.slice(0, -1)) {
    dir = join(dir, part);
    let s = await lstat(dir).catch((e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? null : Promise.reject(e)));
    if (s === null && create) {
      await mkdir(dir, { mode: 0o755 });
      s = await lstat(dir);
    }
    if (s === null) throw refuse(join(realCwd, rel), `${dir} does not exist`);
    if (s.isSymbolicLink()) throw refuse(join(realCwd, rel), `${dir} is a link`);
    if (!s.isDirectory()) throw refuse(join(realCwd, rel), `${dir} is not a folder`);
  }
  return join(realCwd, rel);
}

/**
 * Reads the file at `path` without following a link and without blocking on a FIFO. Null when it does
 * not exist. Throws AppFailure `unsafe-path` when it is a link, not a plain file, or has another hard
 * link.
 */
export async function readNoFollow(path: string): Promise<Buffer | null> {
  const read = await readOpen(path, { oneLink: true, anyLink: true });
  switch (read.kind) {
    case 'ok':
      return read.data;
    case 'missing':
      return null;
    case 'open-failed':
      if (isLinkError(read.code)) throw refuse(path, 'it is a link');
      throw read.error;
    case 'not-file':
      throw refuse(path, 'it is not a plain file');
    case 'links':
      throw refuse(path, `it has ${read.st.nlink} hard links (its content is shared with another file)`);
    case 'too-large':
    case 'grew':
      throw refuse(path, 'it changed while it was read');
  }
}

/**
 * Writes `data` to a fresh temp file beside `path` (opened O_CREAT|O_EXCL|O_NOFOLLOW, plus
 * O_NOFOLLOW_ANY on macOS, with `mode`, synced) and renames it over `path`: atomic, and a symbolic link
 * at `path` is replaced, never followed. `tmp` names the temp file (default
 * `<path>.angelia-<pid>-<hex>.tmp`). Throws the fs error; the temp file is removed on failure.
 */
export async function replaceAtomically(path: string, data: string | Buffer, mode: number, tmp = tempNameBeside(path)): Promise<void> {
  await writeNoFollow(path, data, { mode, tmp, anyLink: true });
}

/**
 * Makes sure `dir` is a plain folder of Angelia's own (docs/security-model.md: Angelia's own setup never
 * follows a link it did not make): created with `mode` when missing (its parent must exist), never
 * through a link. Throws AppFailure `unsafe-path` "<dir> is not a plain folder (a symbolic link, not
 * followed | a file | …); Angelia keeps <what> there" when something else is there; the fs error else.
 */
export async function ensurePlainFolder(dir: string, mode: number, what: string): Promise<void> {
  let s = await lstat(dir).catch((e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? null : Promise.reject(e)));
  if (s === null) {
    // mkdir never follows a link at its last component: a link made in between fails with EEXIST.
    await mkdir(dir, { mode }).catch((e: NodeJS.ErrnoException) => (e.code === 'EEXIST' ? undefined : Promise.reject(e)));
    s = await lstat(dir);
  }
  if (s.isDirectory()) return;
  throw new AppFailure({
    code: 'unsafe-path',
    message: `${dir} is not a plain folder (${s.isSymbolicLink() ? 'a symbolic link, not followed' : s.isFile() ? 'a file' : 'not a folder'}); Angelia keeps ${what} there`,
    where: dir,
    fix: 'remove it (Angelia creates the folder itself), then try again',
  });
}

/** Options of `safeWrite`. */
export interface SafeWriteOptions {
  /** Mode of the file written (the plan passes the existing file's mode, or 644 for a new file). */
  mode: number;
  /** Keep the previous content as `<file>.bak` (default true). */
  backup?: boolean;
  /** Create missing folders on the way (mode 755). */
  createDirs?: boolean;
}

/**
 * Writes `text` to `<realCwd>/<rel>` with the checks of the module comment. Returns the absolute path
 * written. Throws AppFailure `unsafe-path` (a link, a hard link, a FIFO or a folder in the way) or the
 * fs error.
 */
export async function safeWrite(realCwd: string, rel: string, text: string, options: SafeWriteOptions): Promise<string> {
  const path = await safeParent(realCwd, rel, options.createDirs ?? false);
  const previous = await readNoFollow(path);
  if (previous !== null && (options.backup ?? true)) await replaceAtomically(`${path}.bak`, previous, options.mode);
  await replaceAtomically(path, text, options.mode);
  return path;
}

/**
 * Creates or replaces the link `<realCwd>/<rel>` with text `target`, atomically (temp link + rename).
 * `expect` says what must be there now: nothing (`absent`) or a link (`link`). Throws AppFailure
 * `unsafe-path` when something else is there.
 */
export async function safeLink(realCwd: string, rel: string, target: string, expect: 'absent' | 'link'): Promise<string> {
  const path = await safeParent(realCwd, rel, true);
  const now = await lstat(path).catch(() => null);
  if (expect === 'absent' && now !== null) throw refuse(path, 'something appeared there since the plan');
  if (expect === 'link' && !now?.isSymbolicLink()) throw refuse(path, 'it is no longer a link');
  const tmp = tempNameBeside(path);
  await symlink(target, tmp);
  try {
    await rename(tmp, path);
  } catch (e) {
    await unlink(tmp).catch(() => undefined);
    throw e;
  }
  return path;
}

/** Removes the link `<realCwd>/<rel>`; refuses (AppFailure `unsafe-path`) when it is not a link. */
export async function safeUnlink(realCwd: string, rel: string): Promise<void> {
  const path = await safeParent(realCwd, rel, false);
  const now = await lstat(path).catch(() => null);
  if (now === null) return;
  if (!now.isSymbolicLink()) throw refuse(path, 'it is no longer a link');
  await unlink(path);
}
