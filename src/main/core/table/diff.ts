/**
 * A field-by-field diff of two parsed tables (`angelia accept`, the window's banner: a changed table is shown
 * as a diff to accept or discard). It compares parsed values, never text, so comments and layout do not
 * count. Pure: no file access.
 *
 * Lines look like:
 *   profiles.coder.add_dirs: + "/x"
 *   profiles.new: added
 *   defaults.permission_timeout_minutes: 10 → 5
 */
import { keyPath } from './errors';

/** What happened at one key path. */
export type ChangeKind = 'added' | 'removed' | 'changed' | 'item-added' | 'item-removed' | 'reordered';

/** One change between the accepted table (`before`) and the table on disk (`after`). */
export interface TableChange {
  /** Key path segments (`['profiles', 'coder', 'add_dirs']`). */
  path: string[];
  kind: ChangeKind;
  /** The old value (`removed`, `changed`, `item-removed`, `reordered`). */
  before?: unknown;
  /** The new value (`added`, `changed`, `item-added`, `reordered`). */
  after?: unknown;
}

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

function isScalar(v: unknown): boolean {
  return v === null || (typeof v !== 'object' && typeof v !== 'function') || v instanceof Date;
}

/** One value as TOML-ish text: strings quoted, dates in ISO form, lists and tables as JSON. */
export function showValue(v: unknown): string {
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? String(v) : v.toISOString();
  if (typeof v === 'string') return JSON.stringify(v);
  if (v === undefined) return '(unset)';
  if (isScalar(v)) return String(v);
  return JSON.stringify(v, (_k, x: unknown) => (x instanceof Date ? x.toISOString() : x));
}

/** Deep equality of parsed TOML values (objects by key, arrays by order, dates by instant). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Date || b instanceof Date) return a instanceof Date && b instanceof Date && showValue(a) === showValue(b);
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  }
  if (isObj(a) || isObj(b)) {
    if (!isObj(a) || !isObj(b)) return false;
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && sameValue(a[k], b[k]));
  }
  return Object.is(a, b);
}

function countOf(list: readonly unknown[], v: unknown): number {
  return list.filter((x) => sameValue(x, v)).length;
}

function diffList(path: string[], a: unknown[], b: unknown[], out: TableChange[]): void {
  if (!a.every(isScalar) || !b.every(isScalar)) {
    out.push({ path, kind: 'changed', before: a, after: b });
    return;
  }
  const removed: unknown[] = [];
  const added: unknown[] = [];
  for (const v of a) if (countOf(a, v) > countOf(b, v) && !removed.some((r) => sameValue(r, v))) removed.push(v);
  for (const v of b) if (countOf(b, v) > countOf(a, v) && !added.some((r) => sameValue(r, v))) added.push(v);
  for (const v of removed) out.push({ path, kind: 'item-removed', before: v });
  for (const v of added) out.push({ path, kind: 'item-added', after: v });
  if (removed.length === 0 && added.length === 0) out.push({ path, kind: 'reordered', before: a, after: b });
}

function walk(path: string[], a: unknown, b: unknown, out: TableChange[]): void {
  if (sameValue(a, b)) return;
  if (isObj(a) && isObj(b)) {
    const keys = [...Object.keys(b), ...Object.keys(a).filter((k) => !Object.hasOwn(b, k))];
    for (const k of keys) {
      const inA = Object.hasOwn(a, k);
      const inB = Object.hasOwn(b, k);
      if (!inA) out.push({ path: [...path, k], kind: 'added', after: b[k] });
      else if (!inB) out.push({ path: [...path, k], kind: 'removed', before: a[k] });
      else walk([...path, k], a[k], b[k], out);
    }
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    diffList(path, a, b, out);
    return;
  }
  out.push({ path, kind: 'changed', before: a, after: b });
}

/**
 * Every change from `before` (the accepted table) to `after` (the table on disk), both parsed TOML
 * objects (ideally after schema validation, so defaults compare equal to their spelled-out values).
 * Keys keep `after`'s order, removed keys come last. Lists of scalars are compared as multisets
 * (`item-added` / `item-removed`, or `reordered` when only the order changed); other lists as a whole.
 */
export function diffTables(before: unknown, after: unknown): TableChange[] {
  const out: TableChange[] = [];
  walk([], before, after, out);
  return out;
}

function leafLines(prefix: string, v: unknown, indent: string): string[] {
  if (!isObj(v)) return [`${indent}${prefix} = ${showValue(v)}`];
  const keys = Object.keys(v);
  if (keys.length === 0) return [`${indent}${prefix} = {}`];
  return keys.flatMap((k) => leafLines(prefix ? `${prefix}.${keyPath([k])}` : keyPath([k]), v[k], indent));
}

/**
 * One change as text lines: `path: + "x"`, `path: - "x"`, `path: a → b`, `path: added` (a table, with
 * its fields indented below it), `path: added <value>`, `path: removed`, `path: order [..] → [..]`.
 */
export function changeLines(c: TableChange): string[] {
  const at = keyPath(c.path);
  switch (c.kind) {
    case 'item-added':
      return [`${at}: + ${showValue(c.after)}`];
    case 'item-removed':
      return [`${at}: - ${showValue(c.before)}`];
    case 'changed':
      return [`${at}: ${showValue(c.before)} → ${showValue(c.after)}`];
    case 'reordered':
      return [`${at}: order ${showValue(c.before)} → ${showValue(c.after)}`];
    case 'added':
      return isObj(c.after) ? [`${at}: added`, ...leafLines('', c.after, '    ')] : [`${at}: added ${showValue(c.after)}`];
    case 'removed':
      return isObj(c.before) ? [`${at}: removed`] : [`${at}: removed (was ${showValue(c.before)})`];
  }
}

/** Every change as text, one line each (tables added are followed by their indented fields). */
export function diffText(changes: readonly TableChange[]): string[] {
  return changes.flatMap(changeLines);
}
