/**
 * Folds filesystem rules into the entries of a Codex permission profile (seed-spec.md §4.2
 * "Filesystem entry algorithm"): for one path, deny beats read beats write; paths that are not
 * absolute or that Codex would read as a glob are not passed (with a warning). Pure.
 */
import { isAbsolute, normalize } from 'node:path';
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
    if (!isAbsolute(rule.path) || GLOB.test(rule.path)) {
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
