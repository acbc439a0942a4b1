/**
 * Folds filesystem rules into the entries of a Codex permission profile (codex 0.169.0
 * `permissions.<name>.filesystem`): for one path, deny beats read beats write; paths that are not
 * absolute or that Codex would read as a glob are not passed (with a warning). Then, on Linux,
 * `bwrapSafeEntries` reshapes the entries that Codex's bubblewrap sandbox cannot mount. Pure (given
 * the `exists` check).
 */
import { dirname, isAbsolute, normalize } from 'node:path';
import { isWithin } from '../instance/paths';
import type { Access, FsRule } from './facts';

/** The folded table: path → access, path → source, and what was left out. */
export interface FsEntries {
  /** Sorted by path. */
  filesystem: Record<string, Access>;
  /** The source of the rule that won for each path. */
  sources: Record<string, string>;
  warnings: string[];
}

const RANK: Record<Access, number> = { write: 0, read: 1, deny: 2 };
/** Characters Codex 0.169.0 reads as a glob in a filesystem key (`[` and `?` measured to turn a deny off). */
const GLOB = /[*?[\]]/;

/**
 * Folds `rules` into one entry per path. With `readOnly` (plan mode) write rules are dropped. A
 * skipped deny rule is a hole, so its warning says so.
 */
export function foldRules(rules: readonly FsRule[], readOnly: boolean): FsEntries {
  const chosen = new Map<string, FsRule>();
  const warnings: string[] = [];
  for (const rule of rules) {
    if (readOnly && rule.access === 'write') continue;
    if (!isAbsolute(rule.path) || (GLOB.test(rule.path) && !rule.glob)) {
      const why = isAbsolute(rule.path) ? 'contains * ? [ or ], which Codex reads as a pattern' : 'is not absolute';
      const hole = rule.access === 'deny' ? ' THIS LOCATION IS NOT DENIED;' : '';
      warnings.push(`not passed to the sandbox: ${rule.access} ${rule.path} (${rule.source}) ${why};${hole} rename it to fix this`);
      continue;
    }
    const path = normalize(rule.path).replace(/(.)\/+$/, '$1');
    const prev = chosen.get(path);
    if (!prev || RANK[rule.access] > RANK[prev.access]) chosen.set(path, { ...rule, path });
  }
  const filesystem: Record<string, Access> = {};
  const sources: Record<string, string> = {};
  for (const path of [...chosen.keys()].sort()) {
    const rule = chosen.get(path)!;
    filesystem[path] = rule.access;
    sources[path] = rule.source;
  }
  return { filesystem, sources, warnings };
}

/** The shortest of `path` and its ancestors that does not exist, or null when `path` exists. */
function firstMissing(path: string, exists: (p: string) => boolean): string | null {
  if (exists(path)) return null;
  let missing = path;
  for (let up = dirname(missing); up !== missing && !exists(up); up = dirname(up)) missing = up;
  return missing;
}

/** The nearest proper ancestor of `path` that has an entry in `filesystem`, or null. */
function nearestEntryAbove(path: string, filesystem: Record<string, Access>): string | null {
  for (let up = dirname(path), at = path; up !== at; at = up, up = dirname(up)) {
    if (Object.hasOwn(filesystem, up)) return up;
  }
  return null;
}

/**
 * Reshapes folded entries so that Codex 0.169.0's Linux sandbox (bubblewrap) can mount them, without
 * making anything readable that was not. Two shapes stop bubblewrap before the command runs (measured
 * with `codex sandbox` and with an approved escalation; the command then fails with exit 1):
 *
 * 1. Several deny or read entries below one MISSING folder F (e.g. `~/.grok/auth.json` and
 *    `~/.grok/sessions` without `~/.grok`): Codex masks a missing entry by mounting an empty file on
 *    its first missing component, the same F for all of them, and the second mount fails with
 *    "Can't bind mount /bindfile… on …/F: No such file or directory". It happens wherever F can be
 *    written: inside the profile's folder or an add_dir, and everywhere for an approved escalation
 *    (which runs with `/` writable and only the deny entries). One entry alone is fine. Fix: the
 *    entries become ONE entry on F itself, with the strongest access among them (deny over read).
 *    Nothing at F exists, so nothing readable is lost; F cannot be created from inside the sandbox
 *    (Codex masks it); once F is created outside, all of F is denied until the agent restarts. Never
 *    done when F is or holds one of `keep` (CODEX_HOME, which Codex itself creates, and the folders
 *    the profile works in): those groups stay as they are.
 * 2. A deny entry inside another deny entry with no entry between them (e.g. a denied directory
 *    capability inside another profile's folder): "Can't mkdir …: Read-only file system" (the outer
 *    folder is an empty read-only tmpfs by then). With a write entry below the inner one it mounts,
 *    but an approved escalation drops write entries and then fails the same way. Fix: the inner one is
 *    dropped; the outer one already denies it.
 *
 * `exists` answers for the machine now; Codex decides per command, so a folder removed after the
 * launch can still bring shape 1 back until the agent restarts (the command then fails, it does not
 * run unconfined). Glob entries are kept as they are. Returns new maps, sorted by path; the warnings
 * are passed on unchanged.
 */
export function bwrapSafeEntries(entries: FsEntries, exists: (path: string) => boolean, keep: readonly string[] = []): FsEntries {
  const filesystem: Record<string, Access> = { ...entries.filesystem };
  const sources: Record<string, string> = { ...entries.sources };
  const warnings = [...entries.warnings];
  const isPath = (p: string): boolean => !GLOB.test(p);

  const groups = new Map<string, string[]>();
  for (const [path, access] of Object.entries(filesystem)) {
    if (access === 'write' || !isPath(path)) continue;
    const missing = firstMissing(path, exists);
    if (missing) groups.set(missing, [...(groups.get(missing) ?? []), path]);
  }
  for (const [missing, members] of groups) {
    if (members.length < 2 || keep.some((k) => isWithin(k, missing))) continue;
    const denied = members.filter((m) => filesystem[m] === 'deny');
    const access: Access = denied.length > 0 || filesystem[missing] === 'deny' ? 'deny' : 'read';
    const source = sources[denied[0] ?? members[0]!]!;
    for (const m of members) {
      delete filesystem[m];
      delete sources[m];
    }
    filesystem[missing] = access;
    sources[missing] = source;
  }

  for (const path of Object.keys(filesystem).sort()) {
    if (filesystem[path] !== 'deny' || !isPath(path)) continue;
    const above = nearestEntryAbove(path, filesystem);
    if (above && filesystem[above] === 'deny') {
      delete filesystem[path];
      delete sources[path];
    }
  }

  const sortedFs: Record<string, Access> = {};
  const sortedSources: Record<string, string> = {};
  for (const path of Object.keys(filesystem).sort()) {
    sortedFs[path] = filesystem[path]!;
    sortedSources[path] = sources[path]!;
  }
  return { filesystem: sortedFs, sources: sortedSources, warnings };
}

/** What `filesystem` gives at `path`: the access of the nearest entry at or above it ('none' without one). */
function accessAt(filesystem: Readonly<Record<string, Access>>, path: string): Access | 'none' {
  for (let at = path, up = dirname(path); ; at = up, up = dirname(up)) {
    if (Object.hasOwn(filesystem, at)) return filesystem[at]!;
    if (up === at) return 'none';
  }
}

const SIGHT: Record<Access | 'none', number> = { write: 2, read: 1, deny: 0, none: 0 };

/**
 * The paths `before` lets a command read or write that `after` does not (sorted): a grant gone or
 * narrowed, a deny entry new inside a grant, a write entry made read. Both are compiled filesystem
 * entries of one profile (codexProfile.ts `filesystem`, special paths aside). Checking the entries of
 * both is enough: what a path gets changes only at an entry. Used to restart a running chat before its
 * next turn when a newly accepted table takes sight away from it (docs/security-model.md
 * "Filesystem: private by default"). Pure.
 */
export function lostAccess(before: Readonly<Record<string, Access>>, after: Readonly<Record<string, Access>>): string[] {
  const paths = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((p) => !GLOB.test(p)).sort();
  return paths.filter((p) => SIGHT[accessAt(before, p)] > SIGHT[accessAt(after, p)]);
}
