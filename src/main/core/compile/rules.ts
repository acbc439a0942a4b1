/**
 * Rule syntax of `.claude/settings.json` (Claude Code's permission rule shapes): for Codex an
 * absolute path, `Read(<path>)` and `Edit(<path>)`, a folder as `<path>/**`; MCP servers as
 * `mcp__<name>`. A deny FsRule gives Read+Edit, a read-only FsRule gives Edit only. Pure.
 */
import { isAbsolute, normalize } from 'node:path';
import { expandHome } from '../../../shared/homePath';
import type { FsRule } from './facts';
import type { ProfilePolicy } from './policy';

/** The path as a rule argument: `<path>/**` for a folder (unless it already holds `*`), else `<path>`. */
export function rulePath(rule: Pick<FsRule, 'path' | 'folder'>): string {
  return rule.folder && !rule.path.includes('*') ? `${rule.path.replace(/\/+$/, '')}/**` : rule.path;
}

/** The settings.json deny rules of one filesystem rule ([] for a write rule). */
export function ruleStrings(rule: FsRule): string[] {
  const p = rulePath(rule);
  if (rule.access === 'deny') return [`Read(${p})`, `Edit(${p})`];
  if (rule.access === 'read') return [`Edit(${p})`];
  return [];
}

/**
 * Every deny rule compile wants for a policy (wantDeny), de-duplicated: the filesystem rules in the
 * policy's order (policy.ts), then one `mcp__<name>` per denied MCP server.
 */
export function wantDeny(policy: Pick<ProfilePolicy, 'rules' | 'mcpDeny'>): string[] {
  const out = policy.rules.flatMap(ruleStrings);
  for (const m of policy.mcpDeny) out.push(`mcp__${m.name}`);
  return [...new Set(out)];
}

/**
 * The folders a profile's policy lets the agent write (its write rules: add_dirs, directory capabilities,
 * `_common/`), sorted, without duplicates: what the launch guard records (compile/guardFile.ts `write`).
 */
export function wantWrite(policy: Pick<ProfilePolicy, 'rules'>): string[] {
  return [...new Set(policy.rules.filter((r) => r.access === 'write').map((r) => r.path))].sort();
}

/**
 * What a profile's policy names for its agent to read (its `reads`: read_dirs or the starter set, given
 * skills and their secrets), sorted, without duplicates, whether or not they exist now: what the launch
 * guard records (compile/guardFile.ts `read`).
 */
export function wantRead(policy: Pick<ProfilePolicy, 'reads'>): string[] {
  return [...new Set(policy.reads.map((r) => r.path))].sort();
}

/** A parsed `Read(...)` / `Edit(...)` rule: the tool and the absolute path (trailing `/**` removed). */
export interface ParsedRule {
  tool: 'Read' | 'Edit';
  path: string;
}

/**
 * Parses a settings.json rule back (the shapes ruleStrings writes): `Read(p)` or
 * `Edit(p)`, a leading `//` collapsed, `~` / `~/` expanded to `home`, a trailing `/**` removed. Null
 * for other rule kinds and for paths that are not absolute or still hold a `*`.
 */
export function parseRule(rule: string, home: string): ParsedRule | null {
  const m = /^(Read|Edit)\((.*)\)$/.exec(rule);
  if (!m) return null;
  let p = m[2]!;
  if (p.startsWith('//')) p = p.slice(1);
  p = expandHome(p, home);
  p = p.replace(/\/\*\*$/, '');
  if (!isAbsolute(p) || p.includes('*')) return null;
  return { tool: m[1] as 'Read' | 'Edit', path: normalize(p).replace(/(.)\/+$/, '$1') };
}
