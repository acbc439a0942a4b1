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
 *
 * Nor is a grant (read or write) given on a path the agent could swap for a symbolic link after the
 * answer: codex 0.169.0 resolves a granted path again when it builds the sandbox of each later command
 * (bubblewrap bind-mounts follow links), so a grant of `<cwd>/cache-dir` followed by
 * `ln -s <state>/private <cwd>/cache-dir` opened `<state>/private` (measured by a tester, Linux). Refused:
 * - a path that is, or lies inside, or whose nearest existing ancestor lies inside, a place the agent can
 *   already write or rename entries in (`GrantFloor.writable`: the compiled launch's `write` entries, its
 *   folder, `:tmpdir`, and `/tmp` (`:slash_tmp`, writable to other programs); plus every path granted
 *   for writing earlier in the chat, given by the caller). The agent's own places are refused as
 *   "already writable" (`RefusedAccess.already`): a grant there adds nothing;
 * - a write on a folder that holds such a place (the agent could then replace the place itself; Codex
 *   mounts each writable place again at every command), and a path inside another path the same
 *   request asks to write ("covered by write …", `already`: granting both would make the inner one
 *   swappable). A read-only path is not refused for holding one: codex 0.169.0 refuses to build a
 *   sandbox whose read-only path crosses a writable symbolic link (measured,
 *   test/integration/permissions-private.test.ts);
 * - a path any existing component of which is a symbolic link, system links such as `/bin` → `usr/bin`
 *   included: where a link leads cannot be pinned at answer time.
 */
import { lstatSync, readlinkSync, type Stats } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { RefusedAccess, RequestedAccess } from '../../../shared/contract';
import { expandHome } from '../../../shared/homePath';
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

/**
 * A place the agent can write or rename entries in (or another program can, for `/tmp`): a path at,
 * in, or whose nearest existing ancestor is in such a place is never granted, since it can be replaced
 * by a symbolic link after the answer (see the file comment).
 */
export interface WritablePlace {
  /** Absolute, normalised. */
  path: string;
  /** What it is ("the profile's folder", "write granted earlier in this chat"). */
  why: string;
  /** True when the agent itself can already write there (a grant adds nothing): shown "already writable". */
  own: boolean;
}

/** What a chat checks runtime grants against: its profile's closed places and where relative paths start. */
export interface GrantFloor {
  /** `~` of a requested path. */
  home: string;
  /** The profile's folder: relative requested paths and `:project_roots` resolve against it. */
  cwd: string;
  closed: ClosedPlace[];
  /** The launch's writable places (`WritablePlace`); the chat adds its earlier write grants per request. */
  writable: WritablePlace[];
  /** The Codex process's TMPDIR (Codex's `:tmpdir`); absent: Angelia's own `os.tmpdir()`. */
  tmpdir?: string;
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
  /** Folders the agent can write (`CodexLaunch.writableRoots`: cwd, add_dirs, its cache; `/` without sandbox). */
  writableRoots?: readonly string[];
  /** The Codex process's TMPDIR (its `:tmpdir`, writable under `:workspace`); null or absent: unknown. */
  tmpdir?: string | null;
}

/** Why `/tmp` is never granted (codex `:slash_tmp`; read-only to Angelia's profiles, writable to every other program). */
export const SLASH_TMP_WHY = 'the shared temporary folder, which other programs can write';
/** How an earlier write grant of the chat is named when it refuses a later path. */
export const EARLIER_GRANT_WHY = 'write granted earlier in this chat';

/**
 * The closed places of one profile's launch (see the file comment), in the order a refusal names them:
 * the state folder (minus `workspace/`), the Codex homes, the credential floor, then the compiled deny
 * entries and read-only entries with their sources; and its writable places: the profile's folder,
 * `writableRoots`, the `write` entries, Codex's TMPDIR (own: the agent writes them) and `/tmp` (not
 * own). Pure; never throws.
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
  const writable: WritablePlace[] = [];
  const put = (path: string, why: string, own = true): void => {
    const p = resolve(path);
    if (!writable.some((w) => w.path === p)) writable.push({ path: p, why, own });
  };
  put(input.cwd, "the profile's folder");
  for (const root of input.writableRoots ?? []) put(root, input.sources?.[root] ?? 'writable by the profile');
  for (const [path, access] of Object.entries(input.filesystem ?? {})) if (access === 'write') put(path, input.sources?.[path] ?? 'writable by the profile');
  if (input.tmpdir) put(input.tmpdir, "the agent's temporary folder (TMPDIR)");
  put('/tmp', SLASH_TMP_WHY, false);
  return { home: resolve(input.home), cwd: resolve(input.cwd), closed, writable, ...(input.tmpdir ? { tmpdir: resolve(input.tmpdir) } : {}) };
}

const MAX_LINKS = 40;

/** What walking a path's existing components found (see `walk`). */
interface Walked {
  /** The path with its links resolved (see `walk`); null when the links loop or nest deeper than 40. */
  real: string | null;
  /** The first symbolic link met (its real location); null when none. */
  link: string | null;
  /** The real path of the nearest existing ancestor (or the path itself when it exists). */
  existing: string;
}

/**
 * Walks `abs` component by component as the kernel does: every symbolic link of its existing prefix
 * resolved and `..` applied to the real folder; the part from the first missing (or unreadable)
 * component on is appended lexically. Also notes the first link met and the nearest existing ancestor.
 */
function walk(abs: string): Walked {
  const rest = abs.split('/').filter((s) => s !== '' && s !== '.');
  let cur = '/';
  let links = 0;
  let link: string | null = null;
  while (rest.length > 0) {
    const seg = rest.shift()!;
    if (seg === '..') {
      cur = dirname(cur);
      continue;
    }
    const next = join(cur, seg);
    let st: Stats;
    try {
      st = lstatSync(next);
    } catch {
      return { real: resolve(next, ...rest), link, existing: cur };
    }
    if (!st.isSymbolicLink()) {
      cur = next;
      continue;
    }
    link ??= next;
    if (++links > MAX_LINKS) return { real: null, link, existing: cur };
    let target: string;
    try {
      target = readlinkSync(next);
    } catch {
      return { real: resolve(next, ...rest), link, existing: cur };
    }
    if (target.startsWith('/')) cur = '/';
    rest.unshift(...target.split('/').filter((s) => s !== '' && s !== '.'));
  }
  return { real: cur, link, existing: cur };
}

/** The forms a path is compared in: lexical and physical (deduplicated); null when its links loop. */
function forms(abs: string): string[] | null {
  const real = walk(abs).real;
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
      case 'root':
        raw = `/${sub}`;
        break;
      case 'slash_tmp':
        raw = `/tmp/${sub}`;
        break;
      case 'tmpdir':
        raw = `${floor.tmpdir ?? tmpdir()}/${sub}`;
        break;
      case 'project_roots':
        raw = `${floor.cwd}/${sub}`;
        break;
      default:
        return `a special location (${name}) Angelia cannot check`;
    }
  }
  const g = raw.search(GLOB);
  if (g >= 0) {
    // A pattern may match anything below the folder its literal part ends in.
    wide = true;
    const cut = raw.slice(0, g).lastIndexOf('/');
    raw = cut < 0 ? '.' : raw.slice(0, cut) || '/';
  }
  raw = expandHome(raw, floor.home);
  if (!raw.startsWith('/')) raw = `${base}/${raw}`;
  return { abs: raw, wide };
}

interface Prepared {
  c: ClosedPlace;
  at: string[];
  except: string[][];
}

interface PreparedWritable {
  w: WritablePlace;
  at: string[];
}

interface Verdict {
  why: string;
  already?: true;
}

function prepare(floor: GrantFloor): Prepared[] {
  // A closed place whose links loop is still compared lexically.
  return floor.closed.map((c) => ({ c, at: forms(c.path) ?? [c.path], except: (c.except ?? []).map((e) => forms(e) ?? [e]) }));
}

function prepareWritable(floor: GrantFloor, granted: readonly WritablePlace[]): PreparedWritable[] {
  return [...floor.writable, ...granted].map((w) => ({ w, at: forms(w.path) ?? [w.path] }));
}

function reach(name: string, access: 'read' | 'write', floor: GrantFloor, base: string, closed: Prepared[], writable: PreparedWritable[]): Verdict | null {
  const spot = place(name, floor, base);
  if (typeof spot === 'string') return { why: spot };
  const walked = walk(spot.abs);
  if (walked.real === null) return { why: 'a chain of symbolic links Angelia cannot follow' };
  const mine = [...new Set([resolve(spot.abs), walked.real])];
  const applies = (p: Prepared): boolean => p.c.closes === 'all' || access === 'write';
  // Inside (or equal to) a closed place, and not inside one of its exceptions, in any form.
  for (const p of closed) {
    if (!applies(p)) continue;
    if (mine.some((m) => p.at.some((a) => isWithin(m, a)) && !p.except.some((e) => e.some((x) => isWithin(m, x))))) return { why: p.c.why };
  }
  // Holds a closed place (a pattern also reaches the read-only ones below its folder).
  for (const p of closed) {
    if (!applies(p) || (p.c.closes === 'write' && !spot.wide)) continue;
    const held = p.at.find((a) => mine.some((m) => isWithin(a, m)));
    if (held !== undefined) return { why: `it holds ${p.c.path} (${p.c.why})` };
  }
  // A link's target can be changed after the answer, and Codex follows it again at each command.
  if (walked.link !== null) return { why: `${walked.link} is a symbolic link: where it leads can change after the answer` };
  // In a place the agent (or, in /tmp, anyone) can write: it can become a link after the answer. A
  // pattern also matches what lies in such a place below its folder.
  const near = [...mine, walked.existing];
  for (const p of writable) {
    const inside = near.some((m) => p.at.some((a) => isWithin(m, a)));
    if (!inside && !(spot.wide && p.at.some((a) => mine.some((m) => isWithin(a, m))))) continue;
    const where = `${inside ? 'it lies in' : 'it matches paths in'} ${p.w.path} (${p.w.why})`;
    return p.w.own
      ? { why: `already writable, not granted again: ${where}`, already: true }
      : { why: `${where}, where a symbolic link could redirect the grant` };
  }
  // A write on a folder holding a writable place lets the agent replace that place with a link, and
  // Codex mounts each writable place again, following links, at every later command.
  if (access === 'write') {
    const held = writable.find((p) => p.at.some((a) => mine.some((m) => isWithin(a, m))));
    if (held) return { why: `it holds ${held.w.path} (${held.w.why}), which a symbolic link could then replace` };
  }
  return null;
}

/** The compared forms of a requested name (`place`, then lexical and physical); null when it cannot be placed or its links loop. */
function placedForms(name: string, floor: GrantFloor, base: string): string[] | null {
  const spot = place(name, floor, base);
  return typeof spot === 'string' ? null : forms(spot.abs);
}

/**
 * Why `name` (a requested path as serverRequests.ts names it: absolute, relative to `base`, `~/…`, a
 * glob pattern, or a special path such as `:root`) may never be granted for `access`, or null when it
 * may. Refused: a path inside (or equal to) a closed place of `floor` and not inside one of its
 * exceptions (`<state>/workspace`), a path that holds a closed place (`/`, `$HOME`, `<state>`), a
 * pattern whose folder does either, a special path Angelia cannot place (`:minimal`, unknown kinds),
 * a path whose symbolic links loop, a path through a symbolic link, a path at, in, or whose nearest
 * existing ancestor is in a writable place (`floor.writable` and `granted`: the chat's earlier write
 * grants, `grantedPlaces`), and a write on a folder holding one. `base` defaults to `floor.cwd`. Reads the filesystem
 * (lstat, readlink) to resolve symbolic links; never throws.
 */
export function privateReach(
  name: string,
  access: 'read' | 'write',
  floor: GrantFloor,
  base: string = floor.cwd,
  granted: readonly WritablePlace[] = [],
): string | null {
  return reach(name, access, floor, base, prepare(floor), prepareWritable(floor, granted))?.why ?? null;
}

/**
 * Splits what a request asks for into what may be granted and what never is (`privateReach` for each
 * path, with `granted` the chat's earlier write grants; network is never refused), and a path inside
 * another grantable write path of the same request ("covered by write …"). A refused path the agent
 * can already write, or that such a write covers, carries `already: true`. `grantable` is null when
 * nothing is left to grant.
 * `base`: the request's folder for relative paths (default `floor.cwd`). Never throws.
 */
export function splitRequested(
  requested: RequestedAccess | null,
  floor: GrantFloor,
  base: string = floor.cwd,
  granted: readonly WritablePlace[] = [],
): { grantable: RequestedAccess | null; refused: RefusedAccess[] } {
  if (!requested) return { grantable: null, refused: [] };
  const closed = prepare(floor);
  const writable = prepareWritable(floor, granted);
  const refused: RefusedAccess[] = [];
  // The grantable writes of this request: a path inside one of them (another write, or a read) is
  // covered by it, and granting both would let the agent swap the inner one for a link.
  const verdicts = requested.write.map((path) => reach(path, 'write', floor, base, closed, writable));
  const outer = requested.write.map((path, i) => ({ path, at: verdicts[i] === null ? placedForms(path, floor, base) : null }));
  const coveredBy = (path: string, strict: boolean, self?: number): string | undefined => {
    const mine = placedForms(path, floor, base) ?? [];
    return outer.find((o, j) => j !== self && o.at !== null && mine.some((m) => o.at!.some((a) => isWithin(m, a) && (!strict || m !== a))))?.path;
  };
  const keep = (access: 'read' | 'write'): string[] =>
    requested[access].filter((path, i) => {
      const v = access === 'write' ? (verdicts[i] ?? null) : reach(path, access, floor, base, closed, writable);
      if (v !== null) {
        refused.push({ access, path, why: v.why, ...(v.already ? { already: true as const } : {}) });
        return false;
      }
      const by = coveredBy(path, access === 'write', access === 'write' ? i : undefined);
      if (by !== undefined) refused.push({ access, path, why: `covered by write ${by}, asked in the same request`, already: true });
      return by === undefined;
    });
  const write = keep('write');
  const read = keep('read');
  const grantable = read.length > 0 || write.length > 0 || requested.network ? { read, write, network: requested.network } : null;
  return { grantable, refused };
}

/**
 * The places a grant makes writable, for the chat to keep (`granted` of `privateReach` and
 * `splitRequested`) while the grant lasts: one per `write` path of `grant` (a pattern: the folder its
 * literal part ends in; relative paths against `base`, default `floor.cwd`), named
 * `EARLIER_GRANT_WHY`. A name Angelia cannot place is left out (it was never granted). Pure.
 */
export function grantedPlaces(grant: RequestedAccess, floor: GrantFloor, base: string = floor.cwd): WritablePlace[] {
  const out: WritablePlace[] = [];
  for (const name of grant.write) {
    const spot = place(name, floor, base);
    if (typeof spot === 'string') continue;
    const path = resolve(spot.abs);
    if (!out.some((w) => w.path === path)) out.push({ path, why: EARLIER_GRANT_WHY, own: true });
  }
  return out;
}

/**
 * One line per refused path, joined with "; ": `read /x (never granted: Angelia's private state)`, or
 * for a place the agent can already write `write /w/a (already writable, not granted again: …)`.
 */
export function describeRefused(refused: readonly RefusedAccess[]): string {
  return refused.map((r) => `${r.access} ${r.path} (${r.already ? '' : 'never granted: '}${r.why})`).join('; ');
}
