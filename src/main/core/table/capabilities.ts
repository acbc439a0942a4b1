/**
 * Capabilities at load time (`[capabilities.<name>]`): their paths resolved (`~` expanded, relative paths
 * against the table's folder), every name a list uses checked to exist ("unknown capability" is
 * fatal: a misspelt deny would be a hole that looks like a wall), a name both given and denied
 * refused, and each profile's `allowed` / `denied` computed by `resolveAccess`. Pure: no file access.
 */
import { expandPath } from '../instance/paths';
import type { TableProblem } from './errors';
import { CAPABILITY_NAME, type RawCapability } from './capabilitySchema';
import type { RawProfile, RawTable } from './schema';
import type { Capability } from './types';

/** Characters Codex reads as a glob in a filesystem path (measured on 0.169.0: `[`, `?` and `*`). */
export const GLOB_CHARS = /[*?[\]]/;

/** Control characters (a newline, a tab, …): a rule on such a path was shown but not enforced (measured). */
// eslint-disable-next-line no-control-regex
export const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

/** A problem for a path Codex would read as a pattern, or one holding control characters (its rule would not hold), or null. */
export function globProblem(path: string, at: PropertyKey[]): TableProblem | null {
  if (CONTROL_CHARS.test(path)) {
    return {
      path: at,
      message: `${JSON.stringify(path)} contains a control character (such as a newline), and Codex's sandbox does not hold a rule on such a path`,
      fix: 'rename the folder without control characters',
    };
  }
  if (!GLOB_CHARS.test(path)) return null;
  return {
    path: at,
    message: `${path} contains * ? [ or ], which Codex's sandbox reads as a pattern, so its rules would not hold`,
    fix: 'rename the folder without those characters',
  };
}

function resolveOne(name: string, raw: RawCapability, base: string, home: string, problems: TableProblem[]): Capability {
  const at = (...rest: PropertyKey[]): PropertyKey[] => ['capabilities', name, ...rest];
  const abs = (p: string, where: PropertyKey[]): string => {
    const out = expandPath(p, home, base);
    const problem = globProblem(out, where);
    if (problem) problems.push(problem);
    return out;
  };
  const secrets = (list: string[]): string[] => [...new Set(list.map((s, i) => abs(s, at('secrets', i))))];
  switch (raw.kind) {
    case 'command':
      return { name, kind: 'command', run: raw.run, when: raw.when };
    case 'skill':
      return { name, kind: 'skill', path: abs(raw.path, at('path')), when: raw.when ?? null, secrets: secrets(raw.secrets) };
    case 'mcp':
      return {
        name,
        kind: 'mcp',
        command: raw.command ?? null,
        args: raw.args ?? [],
        url: raw.url ?? null,
        env: [...new Set(raw.env)],
        when: raw.when ?? null,
        secrets: secrets(raw.secrets),
      };
    case 'directory':
      return { name, kind: 'directory', path: abs(raw.path, at('path')), when: raw.when ?? null };
  }
}

/** Resolves every capability of the table; path and name problems are pushed to `problems`. */
export function resolveCapabilities(raw: RawTable['capabilities'], base: string, home: string, problems: TableProblem[]): Record<string, Capability> {
  const out: Record<string, Capability> = {};
  for (const [name, cap] of Object.entries(raw)) {
    if (!CAPABILITY_NAME.test(name)) {
      problems.push({
        path: ['capabilities', name],
        message: 'a capability name may hold only letters, digits, "_" and "-" (it becomes a Codex config key and a file name)',
        fix: `rename it, e.g. [capabilities.${name.replace(/[^A-Za-z0-9_-]+/g, '-') || 'tool'}]`,
      });
    }
    out[name] = resolveOne(name, cap, base, home, problems);
  }
  return out;
}

function unknownName(name: string, at: PropertyKey[], known: string[]): TableProblem {
  const near = known.filter((k) => k.toLowerCase() === name.toLowerCase() || k.startsWith(name) || name.startsWith(k));
  return {
    path: at,
    message: `unknown capability "${name}"; a name that matches nothing would deny or give nothing while looking like it does`,
    fix:
      near.length > 0
        ? `did you mean ${near.map((k) => `"${k}"`).join(' or ')}?`
        : known.length > 0
          ? `use one of ${known.join(', ')}, or define [capabilities.${name}]`
          : `define [capabilities.${name}] with a kind, or remove the name`,
  };
}

/**
 * Checks every capability name used by `defaults` and each profile (`capabilities`, `except`, `deny`)
 * and the profile names in `accept_from` / `answer_from`. Pushes one problem per bad entry.
 */
export function checkNames(raw: RawTable, problems: TableProblem[]): void {
  const known = Object.keys(raw.capabilities);
  const has = (n: string): boolean => Object.hasOwn(raw.capabilities, n);
  const check = (list: string[], at: PropertyKey[]): void => {
    list.forEach((n, i) => {
      if (!has(n)) problems.push(unknownName(n, [...at, i], known));
    });
  };
  check(raw.defaults.capabilities, ['defaults', 'capabilities']);
  check(raw.defaults.deny, ['defaults', 'deny']);
  raw.defaults.deny.forEach((n, i) => {
    if (raw.defaults.capabilities.includes(n)) {
      problems.push({
        path: ['defaults', 'deny', i],
        message: `"${n}" is both given (defaults.capabilities) and denied`,
        fix: `remove "${n}" from one of defaults.capabilities and defaults.deny`,
      });
    }
  });
  const profileNames = Object.keys(raw.profiles);
  for (const [name, p] of Object.entries(raw.profiles)) {
    for (const field of ['capabilities', 'except', 'deny'] as const) check(p[field], ['profiles', name, field]);
    p.deny.forEach((n, i) => {
      if (p.capabilities.includes(n)) {
        problems.push({
          path: ['profiles', name, 'deny', i],
          message: `"${n}" is both given (profiles.${name}.capabilities) and denied`,
          fix: `remove "${n}" from one of profiles.${name}.capabilities and profiles.${name}.deny`,
        });
      }
    });
    for (const field of ['accept_from', 'answer_from'] as const) {
      const refs = p[field];
      if (refs === '*') continue;
      refs.forEach((ref, i) => {
        if (ref !== '*' && !profileNames.includes(ref)) {
          problems.push({
            path: ['profiles', name, field, i],
            message: `there is no profile "${ref}"`,
            fix: `use one of ${profileNames.join(', ')}, or "*" for every profile`,
          });
        }
      });
    }
  }
}

/**
 * A profile's capabilities, weakest first: `defaults.capabilities` minus
 * `except`, plus its own `capabilities`; denied = `defaults.deny` minus its own `capabilities`, plus
 * its own `deny`; anything denied is removed from allowed. Both lists sorted.
 */
export function resolveAccess(
  defaults: Pick<RawTable['defaults'], 'capabilities' | 'deny'>,
  p: Pick<RawProfile, 'capabilities' | 'except' | 'deny'>,
): { allowed: string[]; denied: string[] } {
  const allowed = new Set([...defaults.capabilities.filter((n) => !p.except.includes(n)), ...p.capabilities]);
  const denied = new Set([...defaults.deny.filter((n) => !p.capabilities.includes(n)), ...p.deny]);
  for (const n of denied) allowed.delete(n);
  return { allowed: [...allowed].sort(), denied: [...denied].sort() };
}

/** `accept_from` / `answer_from` as a list (`"*"` becomes `["*"]`). */
export function refList(refs: RawProfile['accept_from']): string[] {
  return refs === '*' ? ['*'] : [...new Set(refs)];
}
