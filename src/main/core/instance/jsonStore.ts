/**
 * The one discipline for Angelia's JSON state files (docs/architecture.md, "State files"): each file has a
 * zod schema its reader checks, every write is atomic (write-file-atomic: a temp file renamed over, so a
 * reader sees the old content or the new one, never a part), a file people may have to repair keeps the
 * version it replaces as `<file>.bak`, and every read-modify-write runs under a cross-process lock, so two
 * Angelia processes on one state folder (`angelia serve` and `angelia run`, two chats starting at once)
 * never write back a copy that lacks the other's change.
 *
 * The lock is proper-lockfile's: a folder `<file>.lock` made with mkdir (atomic), whose mtime its holder
 * refreshes while it holds it ("maintained"); a lock not refreshed for `staleMs` is taken over. A lock
 * left as a regular FILE `<file>.lock` holding `{pid, host, at}` is the format Angelia used before; it
 * is still honoured (waited for while live) and taken over when stale: its process is gone (same host),
 * it holds no readable record for more than a moment, or it is older than `staleMs`.
 *
 * Reading never locks (writes are atomic renames). The zod import is type-only: the schemas come from
 * the callers, so this module adds no parse library to a caller that has none.
 */
import { lstatSync, mkdirSync, readFileSync, statSync, unlinkSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import lockfile from 'proper-lockfile';
import writeFileAtomic from 'write-file-atomic';
import type { ZodType, core } from 'zod';
import { asWriteError } from './writeError';

/** A lock older than this (ms) without a refresh is taken over (a write takes milliseconds). */
export const STATE_LOCK_STALE_MS = 10_000;
/** How long (ms) a change waits for another process's lock before failing with a `JsonLockError`. */
export const STATE_LOCK_WAIT_MS = 15_000;
/** A legacy lock file with no readable record is stale after this long (ms): its writer died between create and write. */
const LEGACY_EMPTY_STALE_MS = 2_000;

/**
 * What reading a state file gave. `ok`: the checked data, the raw text and the file's signature (inode,
 * size, mtime in ns, taken before the read: a write landing in between makes it stale). `missing`: no
 * such file. `unreadable`: an fs error other than ENOENT. `not-json`: JSON.parse failed. `invalid`: JSON
 * of the wrong shape (zod's issues; the first names the field path).
 */
export type JsonRead<T> =
  | { kind: 'ok'; data: T; raw: string; sig: string }
  | { kind: 'missing' }
  | { kind: 'unreadable'; error: Error }
  | { kind: 'not-json'; error: Error }
  | { kind: 'invalid'; issues: core.$ZodIssue[] };

/** inode, size and mtime (ns) of `file`, or null when it is missing: changes on every write or rename over it. */
export function fileSignature(file: string): string | null {
  try {
    const st = statSync(file, { bigint: true });
    return `${st.ino}:${st.size}:${st.mtimeNs}`;
  } catch {
    return null;
  }
}

/** Parses and checks `raw` against `schema` (the pure half of the readers). */
export function parseJson<T>(raw: string, schema: ZodType<T>, sig = ''): JsonRead<T> {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (e) {
    return { kind: 'not-json', error: e as Error };
  }
  const checked = schema.safeParse(json);
  return checked.success ? { kind: 'ok', data: checked.data, raw, sig } : { kind: 'invalid', issues: checked.error.issues };
}

/** Reads `file` and checks it against `schema` (see `JsonRead`). Never throws. */
export function readJsonSync<T>(file: string, schema: ZodType<T>): JsonRead<T> {
  const sig = fileSignature(file) ?? '';
  let raw: string;
  try {
    raw = readFileSync(file, 'utf8');
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? { kind: 'missing' } : { kind: 'unreadable', error: e as Error };
  }
  return parseJson(raw, schema, sig);
}

/** As `readJsonSync`, without blocking the thread. Never rejects. */
export async function readJson<T>(file: string, schema: ZodType<T>): Promise<JsonRead<T>> {
  const sig = fileSignature(file) ?? '';
  let raw: string;
  try {
    raw = await readFile(file, 'utf8');
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? { kind: 'missing' } : { kind: 'unreadable', error: e as Error };
  }
  return parseJson(raw, schema, sig);
}

/** Options of the writers. */
export interface JsonWriteOptions {
  /** File mode (default 0o600: private); the `.bak` gets the same. */
  mode?: number;
  /** fsync the new file before the rename (default true). State that only has to outlive an Angelia process, not the OS, passes false. */
  fsync?: boolean;
  /** Text of the version being replaced, written first to `<file>.bak` (atomically, not fsynced). */
  backup?: string;
  /** Create the file's folder (mode 700) when missing (default true). */
  mkdir?: boolean;
}

/** The text every state file holds: `JSON.stringify(value, null, 2)` and a newline. */
export function jsonText(value: unknown): string {
  return JSON.stringify(value, null, 2) + '\n';
}

/**
 * Writes `value` to `file` atomically (see `JsonWriteOptions`). Throws a WriteError naming `file` and the
 * cause in words (writeError.ts: the disk is full, the folder not writable …; errno `code` kept); the file
 * is then as it was and no temp file is left (write-file-atomic removes its own).
 */
export function writeJsonSync(file: string, value: unknown, opts: JsonWriteOptions = {}): void {
  const mode = opts.mode ?? 0o600;
  try {
    if (opts.mkdir !== false) mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    if (opts.backup !== undefined) writeFileAtomic.sync(`${file}.bak`, opts.backup, { mode, fsync: false });
    writeFileAtomic.sync(file, jsonText(value), { mode, fsync: opts.fsync ?? true });
  } catch (e) {
    throw asWriteError(file, e);
  }
}

/** As `writeJsonSync`, without blocking the thread. */
export async function writeJson(file: string, value: unknown, opts: JsonWriteOptions = {}): Promise<void> {
  const mode = opts.mode ?? 0o600;
  try {
    if (opts.mkdir !== false) mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    if (opts.backup !== undefined) await writeFileAtomic(`${file}.bak`, opts.backup, { mode, fsync: false });
    await writeFileAtomic(file, jsonText(value), { mode, fsync: opts.fsync ?? true });
  } catch (e) {
    throw asWriteError(file, e);
  }
}

/** The record a legacy lock file holds. */
export interface LockHolder {
  pid: number;
  host: string;
  at: string;
}

/**
 * A lock that could not be taken. `timeout`: another holder kept it past the wait (`holder`: its record
 * when it is a legacy lock file that has one, else null). `failed`: the lock cannot be created at all
 * (`cause`: the fs error, e.g. EACCES on the folder).
 */
export class JsonLockError extends Error {
  constructor(
    readonly kind: 'timeout' | 'failed',
    readonly lock: string,
    readonly holder: LockHolder | null,
    cause?: unknown,
  ) {
    super(kind === 'timeout' ? `${lock} stays locked` : `cannot create the lock ${lock}: ${(cause as Error)?.message ?? 'unknown error'}`, { cause });
    this.name = 'JsonLockError';
  }
}

/** Options of the lock. */
export interface LockOptions {
  /** ms; default `STATE_LOCK_WAIT_MS`. */
  waitMs?: number;
  /** ms (at least 2000, proper-lockfile's floor); default `STATE_LOCK_STALE_MS`. */
  staleMs?: number;
}

/** `<file>.lock`: the lock of `file`. */
export function lockPath(file: string): string {
  return `${file}.lock`;
}

/** True when a process with this pid exists (EPERM: it exists but is someone else's). */
function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A legacy lock file's record (null when it holds none), its age and inode. */
function readLegacy(lock: string): { record: LockHolder | null; ageMs: number; ino: number } {
  const st = lstatSync(lock);
  let record: LockHolder | null = null;
  try {
    const r = JSON.parse(readFileSync(lock, 'utf8')) as Partial<LockHolder>;
    if (typeof r.pid === 'number' && typeof r.host === 'string') record = { pid: r.pid, host: r.host, at: String(r.at ?? '') };
  } catch {
    record = null;
  }
  return { record, ageMs: Date.now() - st.mtimeMs, ino: st.ino };
}

/**
 * Judges a legacy lock FILE at `lock`: 'gone' (nothing there, or it was stale and is now removed),
 * 'dir' (proper-lockfile's folder: its own staleness rule applies) or the live holder's record (null
 * when it has none yet).
 */
function legacyLock(lock: string, staleMs: number): 'gone' | 'dir' | { holder: LockHolder | null } {
  let held: ReturnType<typeof readLegacy>;
  try {
    if (lstatSync(lock).isDirectory()) return 'dir';
    held = readLegacy(lock);
  } catch {
    return 'gone';
  }
  const { record, ageMs } = held;
  const dead = record !== null && record.host === hostname() && record.pid !== process.pid && !pidAlive(record.pid);
  if (!(dead || (record === null && ageMs > LEGACY_EMPTY_STALE_MS) || ageMs > staleMs)) return { holder: record };
  try {
    // Removed only if it is still the same file that was judged stale.
    if (readLegacy(lock).ino === held.ino) unlinkSync(lock);
  } catch {
    /* another process took it over first */
  }
  return 'gone';
}

const sleepCell = new Int32Array(new SharedArrayBuffer(4));
/** Blocks this thread for `ms` (the synchronous stores wait for a lock this way). */
function sleepSync(ms: number): void {
  Atomics.wait(sleepCell, 0, 0, ms);
}

function lockOptions(lock: string, staleMs: number): lockfile.LockOptions {
  return {
    lockfilePath: lock,
    realpath: false,
    stale: Math.max(2_000, staleMs),
    // A compromised lock (its folder removed or refreshed by another process) must not throw from a
    // timer; the holder's write is atomic either way, and the next change re-reads the file.
    onCompromised: () => undefined,
  };
}

/**
 * One attempt: the release function when `lock` was taken, or the live holder (a legacy record or null).
 * Throws `JsonLockError('failed')` for an fs error other than "held".
 */
function tryLockSync(file: string, lock: string, staleMs: number): (() => void) | { holder: LockHolder | null } {
  const legacy = legacyLock(lock, staleMs);
  if (typeof legacy === 'object') return legacy;
  try {
    const release = lockfile.lockSync(file, lockOptions(lock, staleMs));
    return () => {
      try {
        release();
      } catch {
        /* already released or taken over */
      }
    };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ELOCKED') return { holder: null };
    // A legacy file that appeared between the judgement and mkdir: judged again on the next attempt.
    if ((e as NodeJS.ErrnoException).code === 'ENOTDIR') return { holder: null };
    throw new JsonLockError('failed', lock, null, e);
  }
}

/**
 * Runs `fn` holding the lock of `file` (`<file>.lock`), creating the folder (mode 700) when missing.
 * Waits (polling, 5–50 ms, blocking the thread) while another process holds it; takes over a stale one.
 * Throws `JsonLockError` (`timeout` after `waitMs`, `failed` when it cannot be created) and what `fn` throws.
 */
export function withLockSync<T>(file: string, fn: () => T, opts: LockOptions = {}): T {
  const lock = lockPath(file);
  const waitMs = opts.waitMs ?? STATE_LOCK_WAIT_MS;
  const staleMs = opts.staleMs ?? STATE_LOCK_STALE_MS;
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const deadline = Date.now() + waitMs;
  for (let attempt = 0; ; attempt++) {
    const got = tryLockSync(file, lock, staleMs);
    if (typeof got === 'function') {
      try {
        return fn();
      } finally {
        got();
      }
    }
    if (Date.now() > deadline) throw new JsonLockError('timeout', lock, got.holder);
    sleepSync(Math.min(50, 5 * (attempt + 1)));
  }
}

/** As `withLockSync`, for an async `fn`: waits without blocking the thread; the lock is refreshed while `fn` runs. */
export async function withLock<T>(file: string, fn: () => Promise<T>, opts: LockOptions = {}): Promise<T> {
  const lock = lockPath(file);
  const waitMs = opts.waitMs ?? STATE_LOCK_WAIT_MS;
  const staleMs = opts.staleMs ?? STATE_LOCK_STALE_MS;
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const deadline = Date.now() + waitMs;
  for (let attempt = 0; ; attempt++) {
    const legacy = legacyLock(lock, staleMs);
    let holder: LockHolder | null = null;
    if (typeof legacy === 'object') holder = legacy.holder;
    else {
      let release: (() => Promise<void>) | null = null;
      try {
        release = await lockfile.lock(file, lockOptions(lock, staleMs));
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code !== 'ELOCKED' && code !== 'ENOTDIR') throw new JsonLockError('failed', lock, null, e);
      }
      if (release) {
        try {
          return await fn();
        } finally {
          await release().catch(() => undefined);
        }
      }
    }
    if (Date.now() > deadline) throw new JsonLockError('timeout', lock, holder);
    await new Promise((r) => setTimeout(r, Math.min(50, 5 * (attempt + 1))));
  }
}

/** Options of `updateJsonSync`. */
export interface UpdateOptions<T> extends LockOptions, Omit<JsonWriteOptions, 'backup'> {
  /** Keep the version replaced as `<file>.bak` (default false). */
  backup?: boolean;
  /** The base when the file is missing (without it a missing file throws an Error naming it). */
  initial?: () => T;
  /** Turns a read that is not `ok` nor `missing` into the error to throw (default: an Error naming the file). */
  failure?: (read: Exclude<JsonRead<T>, { kind: 'ok' } | { kind: 'missing' }>) => Error;
}

/** What `updateJsonSync`'s change decides: the value to return, and whether to write `data` (default true). */
export interface Change<R> {
  result: R;
  write?: boolean;
}

/**
 * A read-modify-write of `file` under its lock: re-reads it (so another process's change is the base),
 * applies `change` to the checked data (it may mutate it), and writes the data atomically unless the
 * change says `write: false`; with `backup`, the text replaced is kept as `<file>.bak`. Returns the
 * change's result and the data written. Throws `JsonLockError`, the `failure` of a bad read (nothing is
 * written then), the fs error of the write, and what `change` throws (nothing written).
 */
export function updateJsonSync<T, R>(file: string, schema: ZodType<T>, change: (data: T) => Change<R>, opts: UpdateOptions<T> = {}): { result: R; data: T } {
  return withLockSync(
    file,
    () => {
      const read = readJsonSync(file, schema);
      let data: T;
      if (read.kind === 'ok') data = read.data;
      else if (read.kind === 'missing' && opts.initial) data = opts.initial();
      else if (read.kind === 'missing') throw new Error(`${file} does not exist`);
      else throw opts.failure ? opts.failure(read) : new Error(`${file} cannot be used: ${read.kind}`);
      const out = change(data);
      if (out.write !== false) {
        writeJsonSync(file, data, { mode: opts.mode, fsync: opts.fsync, mkdir: false, backup: opts.backup && read.kind === 'ok' ? read.raw : undefined });
      }
      return { result: out.result, data };
    },
    opts,
  );
}
