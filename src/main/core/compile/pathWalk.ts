/**
 * Walking a path as the kernel does, over an injected filesystem view (lstat and readlink only), so the
 * grant check (grants.ts `checkGrants`) stays pure and can be tested on made-up trees: every symbolic link
 * of a path's existing prefix resolved, `..` applied to the real folder, each location met recorded.
 */
import { lstatSync, readlinkSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** What lies at a path, as lstat sees it (a link is never followed). */
export type EntryKind = 'dir' | 'file' | 'link' | 'other';

/** The only filesystem reads of the check: lstat and readlink. Injected so the check stays pure. */
export interface FsView {
  /** What is at `path` (not following a link there), or null when nothing is (or it cannot be read). */
  kind(path: string): EntryKind | null;
  /** The text of the symbolic link at `path`, or null. */
  readlink(path: string): string | null;
}

/** The machine's filesystem (lstatSync, readlinkSync). */
export const liveFs: FsView = {
  kind(path) {
    try {
      const s = lstatSync(path);
      return s.isSymbolicLink() ? 'link' : s.isDirectory() ? 'dir' : s.isFile() ? 'file' : 'other';
    } catch {
      return null;
    }
  },
  readlink(path) {
    try {
      return readlinkSync(path);
    } catch {
      return null;
    }
  },
};

const MAX_LINKS = 40;

/** What walking a path component by component found (`walkPath`). */
export interface Walked {
  /** The path with every link of its existing part resolved; null when its links loop (over 40). */
  real: string | null;
  /** Where each symbolic link met lies (absolute), in order. */
  links: string[];
  /** Every existing location looked at on the way (each folder, each link, the end), in order. */
  visited: string[];
}

/**
 * Walks the absolute path `abs` as the kernel does: every symbolic link of its existing prefix resolved,
 * `..` applied to the real folder; from the first missing component on the rest is appended as written.
 * Pure over `fs`.
 */
export function walkPath(abs: string, fs: FsView): Walked {
  const rest = abs.split('/').filter((s) => s !== '' && s !== '.');
  let cur = '/';
  let hops = 0;
  const links: string[] = [];
  const visited: string[] = [];
  while (rest.length > 0) {
    const seg = rest.shift()!;
    if (seg === '..') {
      cur = dirname(cur);
      continue;
    }
    const next = join(cur, seg);
    const kind = fs.kind(next);
    if (kind === null) return { real: resolve(next, ...rest), links, visited };
    visited.push(next);
    if (kind !== 'link') {
      cur = next;
      continue;
    }
    links.push(next);
    const target = fs.readlink(next);
    if (++hops > MAX_LINKS) return { real: null, links, visited };
    if (target === null) return { real: resolve(next, ...rest), links, visited };
    if (target.startsWith('/')) cur = '/';
    rest.unshift(...target.split('/').filter((s) => s !== '' && s !== '.'));
  }
  return { real: cur, links, visited };
}

/** The forms a path is compared in (the grant check compares both): as written (normalised) and real. */
export function formsOf(path: string, fs: FsView): string[] {
  const real = walkPath(resolve(path), fs).real;
  return [...new Set([resolve(path), ...(real ? [real] : [])])];
}
