/**
 * The one rule for runtime grants (codex 0.169.0 `item/permissions/requestApproval`, and a command's
 * `additionalPermissions`): a grant never opens what the profile closes. A requested path that is,
 * holds, or lies inside one of these is never granted, whoever answers (window, notification, tray,
 * CLI, API):
 *
 * - Angelia's state folder, all of it but `<state>/workspace/**` (STATE_PUBLIC). `<state>` itself, `/`
 *   or `$HOME` hold private state, so they are refused too;
 * - each Codex home (`~/.codex`, CODEX_HOME), whole: a grant adds read or write access beyond the floor,
 *   and a write there plants what every profile's Codex loads (AGENTS.md, rules, skills);
 * - the credential floor under home (floor.ts HOME_PRIVATE_DIRS/FILES, OTHER_CLI_STORES);
 * - every `deny` entry of the profile's compiled launch (codexProfile.ts `filesystem` and `sources`):
 *   other profiles' folders, denied capabilities and their secrets, what the launch scans found;
 * - for a write, every `read` entry of the compiled launch (launch files, shared doctrine): on or inside.
 *
 * Paths are compared as normalised absolute paths (`~` and a relative path resolved, `..` folded) and
 * also with the symbolic links of their existing prefixes resolved, on both sides. Why it matters:
 * measured on codex 0.169.0 (Linux, bubblewrap) a granted `write <state>` let the agent's next command
 * create files in `<state>` (named deny entries still held for reads).
 */
import { lstatSync, readlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { RefusedAccess, RequestedAccess } from '../../../shared/contract';
import type { Access } from '../compile/facts';
import { HOME_PRIVATE_DIRS, HOME_PRIVATE_DIRS_MACOS, HOME_PRIVATE_FILES, OTHER_CLI_STORES, STATE_PUBLIC } from '../compile/floor';
import { isWithin } from '../instance/paths';

/** Why the state folder is closed, as the card says it ("never granted: Angelia's private state"). */
export const STATE_WHY = "Angelia's private state";
/** Why a Codex home is closed. */
export const CODEX_HOME_WHY = "Codex's home (every profile's login, threads and settings)";

/** A location no grant may open. */
export interface ClosedPlace {
  /** Absolute, normalised. */
  path: string;
  /** What it is, shown after "never granted: ". */
  why: string;
  /**
   * `all`: no grant reaches it, nor a path holding it. `write`: never granted for writing on or
   * inside it (a read-only entry of the profile); reading stays grantable.
   */
  closes: 'all' | 'write';
  /** Folders inside `path` that stay grantable (only `<state>/workspace`); absolute, normalised. */
  except?: string[];
}

/** What a chat checks runtime grants against: its profile's closed places and where relative paths start. */
export interface GrantFloor {
  /** `~` of a requested path. */
  home: string;
  /** The profile's folder: relative requested paths and `:project_roots` resolve against it. */
  cwd: string;
  closed: ClosedPlace[];
}

/** Inputs of `grantFloor`, all paths absolute. */
export interface GrantFloorInput {
  stateDir: string;
  home: string;
  /** CODEX_HOME (`~/.codex` is always added). */
  codexHome: string;
  /** The profile's folder. */
  cwd: string;
  platform: NodeJS.Platform;
  /** The compiled launch's filesystem entries (codexProfile.ts `CodexLaunch.filesystem`); {} without sandbox. */
  filesystem?: Readonly<Record<string, Access>>;
  /** Where each entry came from (`CodexLaunch.sources`): the reason shown for a refused path. */
  sources?: Readonly<Record<string, string>>;
}

/**
 * The closed places of one profile's launch (see the file comment), in the order a refusal names them:
 * the state folder (minus `workspace/`), the Codex homes, the credential floor, then the compiled deny
 * entries and read-only entries with their sources. Pure; never throws.
 */
export function grantFloor(input: GrantFloorInput): GrantFloor {
  const closed: ClosedPlace[] = [];
  const add = (path: string, why: string, closes: 'all' | 'write' = 'all', except?: string[]): void => {
    const p = resolve(path);
    if (!closed.some((c) => c.path === p && c.closes === closes)) closed.push({ path: p, why, closes, ...(except ? { except } : {}) });
  };
  add(input.stateDir, STATE_WHY, 'all', [resolve(input.stateDir, STATE_PUBLIC)]);
  for (const home of [join(input.home, '.codex'), input.codexHome]) add(home, CODEX_HOME_WHY);
  const homeDirs = input.platform === 'darwin' ? [...HOME_PRIVATE_DIRS, ...HOME_PRIVATE_DIRS_MACOS] : HOME_PRIVATE_DIRS;
  for (const rel of [...homeDirs, ...HOME_PRIVATE_FILES]) add(join(input.home, rel), 'credential location');
  for (const rel of OTHER_CLI_STORES) add(join(input.home, rel), "another CLI's transcripts or config");
  for (const [path, access] of Object.entries(input.filesystem ?? {})) {
    const source = input.sources?.[path] ?? 'denied by the profile';
    if (access === 'deny') add(path, source);
    else if (access === 'read') add(path, `kept read-only: ${source}`, 'write');
  }
  return { home: resolve(input.home), cwd: resolve(input.cwd), closed };
}

const MAX_LINKS = 40;

/**
 * `abs` with every symbolic link of its existing prefix resolved and `..` applied to the real folder
 * (as the kernel does); the part from the first missing (or unreadable) component on is appended
 * lexically. Null when the links loop or nest deeper than 40.
 */
function physical(abs: string): string | null {
  const rest = abs.split('/').filter((s) => s !== '' && s !== '.');
  let cur = '/';
  let links = 0;
  while (rest.length > 0) {
    const seg = rest.shift()!;
    if (seg === '..') {
      cur = dirname(cur);
      continue;
    }
    const next = join(cur, seg);
    let isLink: boolean;
    try {
      isLink = lstatSync(next).isSymbolicLink();
    } catch {
      return resolve(next, ...rest);
    }
    if (!isLink) {
      cur = next;
      continue;
    }
    if (++links > MAX_LINKS) return null;
    let target: string;
    try {
      target = readlinkSync(next);
    } catch {
      return resolve(next, ...rest);
    }
    if (target.startsWith('/')) cur = '/';
    rest.unshift(...target.split('/').filter((s) => s !== '' && s !== '.'));
  }
  return cur;
}

/** The forms a path is compared in: lexical and physical (deduplicated); null when its links loop. */
function forms(abs: string): string[] | null {
  const real = physical(abs);
  if (real === null) return null;
  return [...new Set([resolve(abs), real])];
}

const GLOB = /[*?[{]/;

/**
 * Where a requested name points, as an absolute path not yet normalised (so `..` can be applied to the
 * real folder), and whether it is a pattern (`wide`: it may match anything below that folder). Names as
 * serverRequests.ts `fileSystemPathName` gives them: a path, a glob pattern, or a special path
 * `:root`, `:slash_tmp`, `:tmpdir`, `:project_roots[/sub]` (codex 0.169.0 `FileSystemSpecialPath`).
 * A string when the name cannot be placed: the reason.
 */
function place(name: string, floor: GrantFloor, base: string): { abs: string; wide: boolean } | string {
  let raw = name;
  let wide = false;
  if (raw.startsWith(':')) {
    const m = /^:([a-z_]+)(?:\/(.*))?$/.exec(raw);
    const sub = m?.[2] ?? '';
    switch (m?.[1]) {
      case 'root': raw = `/${sub}`; break;
      case 'slash_tmp': raw = `/tmp/${sub}`; break;
      case 'tmpdir': raw = `${tmpdir()}/${sub}`; break;
      case 'project_roots': raw = `${floor.cwd}/${sub}`; break;
      default: return `a special location (${name}) Angelia cannot check`;
    }
  }
  const g = raw.search(GLOB);
  if (g >= 0) {
    // A pattern may match anything below the folder its literal part ends in.
    wide = true;
    const cut = raw.slice(0, g).lastIndexOf('/');
    raw = cut < 0 ? '.' : raw.slice(0, cut) || '/';
  }
  if (raw === '~') raw = floor.home;
  else if (raw.startsWith('~/')) raw = `${floor.home}/${raw.slice(2)}`;
  if (!raw.startsWith('/')) raw = `${base}/${raw}`;
  return { abs: raw, wide };
}

interface Prepared {
  c: ClosedPlace;
  at: string[];
  except: string[][];
}

function prepare(floor: GrantFloor): Prepared[] {
  // A closed place whose links loop is still compared lexically.
  return floor.closed.map((c) => ({ c, at: forms(c.path) ?? [c.path], except: (c.except ?? []).map((e) => forms(e) ?? [e]) }));
}

function reach(name: string, access: 'read' | 'write', floor: GrantFloor, base: string, closed: Prepared[]): string | null {
  const spot = place(name, floor, base);
  if (typeof spot === 'string') return spot;
  const mine = forms(spot.abs);
  if (mine === null) return 'a chain of symbolic links Angelia cannot follow';
  const applies = (p: Prepared): boolean => p.c.closes === 'all' || access === 'write';
  // Inside (or equal to) a closed place, and not inside one of its exceptions, in any form.
  for (const p of closed) {
    if (!applies(p)) continue;
    if (mine.some((m) => p.at.some((a) => isWithin(m, a)) && !p.except.some((e) => e.some((x) => isWithin(m, x))))) return p.c.why;
  }
  // Holds a closed place (a pattern also reaches the read-only ones below its folder).
  for (const p of closed) {
    if (!applies(p) || (p.c.closes === 'write' && !spot.wide)) continue;
    const held = p.at.find((a) => mine.some((m) => isWithin(a, m)));
    if (held !== undefined) return `it holds ${p.c.path} (${p.c.why})`;
  }
  return null;
}

/**
 * Why `name` (a requested path as serverRequests.ts names it: absolute, relative to `base`, `~/…`, a
 * glob pattern, or a special path such as `:root`) may never be granted for `access`, or null when it
 * may. Refused: a path inside (or equal to) a closed place of `floor` and not inside one of its
 * exceptions (`<state>/workspace`), a path that holds a closed place (`/`, `$HOME`, `<state>`), a
 * pattern whose folder does either, a special path Angelia cannot place (`:minimal`, unknown kinds),
 * and a path whose symbolic links loop. `base` defaults to `floor.cwd`. Reads the filesystem (lstat,
 * readlink) to resolve symbolic links; never throws.
 */
export function privateReach(name: string, access: 'read' | 'write', floor: GrantFloor, base: string = floor.cwd): string | null {
  return reach(name, access, floor, base, prepare(floor));
}

/**
 * Splits what a request asks for into what may be granted and what never is (`privateReach` for each
 * path; network is never refused). `grantable` is null when nothing is left to grant. `base`: the
 * request's folder for relative paths (default `floor.cwd`). Never throws.
 */
export function splitRequested(requested: RequestedAccess | null, floor: GrantFloor, base: string = floor.cwd): { grantable: RequestedAccess | null; refused: RefusedAccess[] } {
  if (!requested) return { grantable: null, refused: [] };
  const closed = prepare(floor);
  const refused: RefusedAccess[] = [];
  const keep = (access: 'read' | 'write'): string[] => requested[access].filter((path) => {
    const why = reach(path, access, floor, base, closed);
    if (why !== null) refused.push({ access, path, why });
    return why === null;
  });
  const write = keep('write');
  const read = keep('read');
  const grantable = read.length > 0 || write.length > 0 || requested.network ? { read, write, network: requested.network } : null;
  return { grantable, refused };
}

/** One line per refused path: `read /x (never granted: Angelia's private state)`, joined with "; ". */
export function describeRefused(refused: readonly RefusedAccess[]): string {
  return refused.map((r) => `${r.access} ${r.path} (never granted: ${r.why})`).join('; ');
}
