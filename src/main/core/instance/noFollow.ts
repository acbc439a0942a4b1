/**
 * Reading and writing files where something hostile may have put a link, a FIFO or a hard link: a
 * profile's folder, a chat's mailbox, a file an agent names (docs/security-model.md; docs/
 * sandbox-sockets.md). One place for the open flags and the checks every such caller shares:
 *
 * - a read opens the name once with O_NOFOLLOW (a symbolic link at the last component fails with ELOOP)
 *   and O_NONBLOCK (a FIFO cannot hang the reader), then checks what is OPEN (fstat): a regular file,
 *   with one link when asked, at most a size cap when given, and reads the bytes from that descriptor,
 *   refusing a file that grows past what fstat said;
 * - a write puts the bytes into a fresh temp name opened O_CREAT|O_EXCL|O_NOFOLLOW and renames it over
 *   the target (rename replaces a link at the target, it never follows it);
 * - on macOS, O_NOFOLLOW_ANY (`<sys/fcntl.h>`: 0x20000000) refuses a link ANYWHERE in the path, for
 *   callers whose paths are built from a real path (elsewhere it is 0: Linux has no such flag).
 *
 * The checks particular to one caller (one link, a real path inside a folder, the folder opened with
 * O_DIRECTORY) are options or a `verify` hook; each caller turns the outcome into its own error.
 */
import { randomBytes } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { open, rename, unlink, type FileHandle } from 'node:fs/promises';

/** O_NOFOLLOW_ANY of macOS (`<sys/fcntl.h>`: 0x20000000): no link anywhere in the path. 0 elsewhere. */
export const O_NOFOLLOW_ANY = process.platform === 'darwin' ? 0x20000000 : 0;

/** O_NOFOLLOW, plus O_NOFOLLOW_ANY on macOS when `anyLink` (the path must be a real path then). */
function noFollow(anyLink: boolean | undefined): number {
  return constants.O_NOFOLLOW | (anyLink ? O_NOFOLLOW_ANY : 0);
}

/** Options of `readNoFollow`. */
export interface NoFollowReadOptions {
  /** Refuse a file larger than this many bytes (by fstat, and by what is read). Default: no cap. */
  maxBytes?: number;
  /** Refuse a file with more than one hard link (its content is shared with a name elsewhere). */
  oneLink?: boolean;
  /** macOS: refuse a link anywhere in the path (O_NOFOLLOW_ANY); only for a path built from a real path. */
  anyLink?: boolean;
  /** Also O_NOCTTY (a terminal opened never becomes the controlling one). */
  noCtty?: boolean;
  /**
   * A check of the caller's on the open descriptor (its fstat given), after the kind, link and size
   * checks and before any byte is read; it throws to refuse.
   */
  verify?: (handle: FileHandle, st: Stats) => Promise<void>;
}

/**
 * What `readNoFollow` found. `ok`: the bytes and the fstat of what was read. `missing`: no such name
 * (ENOENT at open). `open-failed`: another open error (`code` and the error; ELOOP or, on macOS, EMLINK:
 * a link).
 * `not-file`: not a regular file. `links`: more than one hard link (`oneLink`). `too-large`: fstat says
 * more than `maxBytes`. `grew`: more bytes came than fstat said (or than `maxBytes`).
 */
export type NoFollowRead =
  | { kind: 'ok'; data: Buffer; st: Stats }
  | { kind: 'missing' }
  | { kind: 'open-failed'; code: string; error: Error }
  | { kind: 'not-file' | 'links' | 'too-large' | 'grew'; st: Stats };

/** True when an open error code means a symbolic link was met (ELOOP; EMLINK from O_NOFOLLOW_ANY on macOS). */
export function isLinkError(code: string): boolean {
  return code === 'ELOOP' || code === 'EMLINK';
}

/**
 * Reads the regular file at `path` through one descriptor (see the module comment and the options).
 * Answers a `NoFollowRead`; throws only what `verify` throws and read errors after the open.
 */
export async function readNoFollow(path: string, opts: NoFollowReadOptions = {}): Promise<NoFollowRead> {
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_RDONLY | noFollow(opts.anyLink) | constants.O_NONBLOCK | (opts.noCtty ? constants.O_NOCTTY : 0));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'error';
    return code === 'ENOENT' ? { kind: 'missing' } : { kind: 'open-failed', code, error: e as Error };
  }
  try {
    const st = await handle.stat();
    if (!st.isFile()) return { kind: 'not-file', st };
    if (opts.oneLink && st.nlink !== 1) return { kind: 'links', st };
    if (opts.maxBytes !== undefined && st.size > opts.maxBytes) return { kind: 'too-large', st };
    await opts.verify?.(handle, st);
    const cap = Math.min(st.size, opts.maxBytes ?? st.size);
    const buf = Buffer.alloc(cap + 1);
    let n = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buf, n, buf.length - n, n);
      if (bytesRead === 0) break;
      n += bytesRead;
      if (n >= buf.length) return { kind: 'grew', st };
    }
    return { kind: 'ok', data: buf.subarray(0, n), st };
  } finally {
    await handle.close();
  }
}

/** Options of `writeNoFollow`. */
export interface NoFollowWriteOptions {
  /** Mode of the file written (default 0o600), set exactly (chmod after the write, whatever the umask). */
  mode?: number;
  /** The temp file's path (default `<path>.angelia-<pid>-<hex>.tmp`): must be in the target's folder. */
  tmp?: string;
  /** fsync before the rename (default true). */
  sync?: boolean;
  /** macOS: refuse a link anywhere in the temp file's path (O_NOFOLLOW_ANY); only for a path built from a real path. */
  anyLink?: boolean;
}

/** `<path>.angelia-<pid>-<12 hex>.tmp`: a fresh temp name beside `path`. */
export function tempNameBeside(path: string): string {
  return `${path}.angelia-${process.pid}-${randomBytes(6).toString('hex')}.tmp`;
}

/**
 * Writes `data` to a fresh temp file (O_CREAT|O_EXCL|O_NOFOLLOW, `mode`) and renames it over `path`:
 * atomic, and a link or FIFO at `path` is replaced, never followed. Throws the fs error (EEXIST when
 * the temp name is taken); the temp file is removed on failure.
 */
export async function writeNoFollow(path: string, data: string | Buffer, opts: NoFollowWriteOptions = {}): Promise<void> {
  const mode = opts.mode ?? 0o600;
  const tmp = opts.tmp ?? tempNameBeside(path);
  const handle = await createNoFollow(tmp, mode, opts.anyLink);
  try {
    await handle.writeFile(data);
    await handle.chmod(mode);
    if (opts.sync ?? true) await handle.sync();
  } catch (e) {
    await handle.close();
    await unlink(tmp).catch(() => undefined);
    throw e;
  }
  await handle.close();
  try {
    await rename(tmp, path);
  } catch (e) {
    await unlink(tmp).catch(() => undefined);
    throw e;
  }
}

/**
 * Creates `path` for writing, never over anything (O_WRONLY|O_CREAT|O_EXCL|O_NOFOLLOW, `mode`; with
 * `anyLink`, O_NOFOLLOW_ANY on macOS). Throws the fs error: EEXIST when any entry (a link included)
 * has that name, ELOOP/ENOTDIR/ENOENT when a folder on the way is not one.
 */
export function createNoFollow(path: string, mode: number, anyLink = false): Promise<FileHandle> {
  return open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | noFollow(anyLink), mode);
}

/**
 * Opens the folder `path` itself (O_RDONLY|O_DIRECTORY|O_NOFOLLOW): a link there fails with ELOOP, a
 * file with ENOTDIR. Throws the fs error.
 */
export function openFolderNoFollow(path: string): Promise<FileHandle> {
  return open(path, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
}
