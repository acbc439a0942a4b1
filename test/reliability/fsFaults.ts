/**
 * Disk faults injected at the fs layer Angelia's writers use (node:fs, which write-file-atomic and the audit
 * log call): we run as root, so chmod does not stop a write. `injectFsFault(code, under)` makes writes to
 * files under a folder fail: `ENOSPC` lets the open succeed and fails the first write after writing half
 * of it for real (a disk that fills mid-write); `EACCES` and `EROFS` fail the open (and a rename) of any
 * file under the folder opened for writing. The patch is on the `fs` module object, synced into its ESM
 * exports (`syncBuiltinESMExports`), and `restore()` undoes both.
 */
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { resolve, sep } from 'node:path';

/** The errno codes a test injects. */
export type FsFault = 'ENOSPC' | 'EACCES' | 'EROFS';

const ERRNO: Record<FsFault, number> = { ENOSPC: -28, EACCES: -13, EROFS: -30 };
const TEXT: Record<FsFault, string> = { ENOSPC: 'no space left on device', EACCES: 'permission denied', EROFS: 'read-only file system' };

function fault(code: FsFault, syscall: string, path?: string): NodeJS.ErrnoException {
  const e = new Error(`${code}: ${TEXT[code]}, ${syscall}${path ? ` '${path}'` : ''}`) as NodeJS.ErrnoException;
  Object.assign(e, { code, errno: ERRNO[code], syscall, ...(path ? { path } : {}) });
  return e;
}

function writes(flags: unknown): boolean {
  if (typeof flags === 'number') return (flags & (fs.constants.O_WRONLY | fs.constants.O_RDWR)) !== 0;
  return typeof flags === 'string' && /[wa+]/.test(flags);
}

type AnyFn = (...args: unknown[]) => unknown;

/** An injected fault: how many calls it failed, and `restore()`. */
export interface InjectedFault {
  hits(): number;
  restore(): void;
}

/** Makes writes under `under` fail with `code` until `restore()` (see the module comment). */
export function injectFsFault(code: FsFault, under: string): InjectedFault {
  const root = resolve(under) + sep;
  const inside = (p: unknown): p is string => typeof p === 'string' && resolve(p).startsWith(root);
  const mod = fs as unknown as Record<string, AnyFn>;
  const saved = new Map<string, AnyFn>();
  const fds = new Set<number>();
  let hits = 0;
  const patch = (name: string, make: (orig: AnyFn) => AnyFn) => {
    const orig = mod[name] as AnyFn;
    saved.set(name, orig);
    mod[name] = make(orig);
  };
  const cb = (args: unknown[]) => args[args.length - 1] as (e: unknown, v?: unknown) => void;

  patch('openSync', (orig) => (...a) => {
    if (code !== 'ENOSPC' && inside(a[0]) && writes(a[1])) throw (hits++, fault(code, 'open', a[0]));
    const fd = orig(...a) as number;
    if (inside(a[0]) && writes(a[1])) fds.add(fd);
    return fd;
  });
  patch('open', (orig) => (...a) => {
    if (code !== 'ENOSPC' && inside(a[0]) && writes(a[1])) return void (hits++, process.nextTick(cb(a), fault(code, 'open', a[0])));
    const done = cb(a);
    orig(...a.slice(0, -1), (e: unknown, fd: number) => {
      if (!e && inside(a[0]) && writes(a[1])) fds.add(fd);
      done(e, fd);
    });
  });
  for (const name of ['renameSync', 'rename'] as const) {
    patch(name, (orig) => (...a) => {
      if (code === 'ENOSPC' || !inside(a[1])) return orig(...a);
      hits++;
      if (name === 'renameSync') throw fault(code, 'rename', a[0] as string);
      process.nextTick(cb(a), fault(code, 'rename', a[0] as string));
    });
  }
  /** The first half of what a write call asked for: [buffer-or-string args, bytes]. */
  const half = (a: unknown[]): unknown[] => {
    const data = a[1];
    if (typeof data === 'string') return [a[0], data.slice(0, Math.floor(data.length / 2))];
    const buf = data as Buffer;
    const off = typeof a[2] === 'number' ? a[2] : 0;
    const len = typeof a[3] === 'number' ? a[3] : buf.length - off;
    return [a[0], buf, off, Math.floor(len / 2)];
  };
  patch('writeSync', (orig) => (...a) => {
    if (code !== 'ENOSPC' || !fds.has(a[0] as number)) return orig(...a);
    hits++;
    orig(...half(a));
    throw fault(code, 'write');
  });
  patch('write', (orig) => (...a) => {
    if (code !== 'ENOSPC' || !fds.has(a[0] as number)) return orig(...a);
    hits++;
    const done = cb(a);
    orig(...half(a), () => done(fault(code, 'write')));
  });
  syncBuiltinESMExports();
  return {
    hits: () => hits,
    restore() {
      for (const [name, orig] of saved) mod[name] = orig;
      syncBuiltinESMExports();
    },
  };
}
