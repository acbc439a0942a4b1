/**
 * Turns table problems (zod issues, TOML syntax errors) into AppFailures that name the file, the full
 * key path (`profiles.coder.sanbox`) and the fix.
 */
import type { z } from 'zod';
import { AppFailure } from '../../../shared/result';
import { FIELD_FIXES, knownKeys } from './schema';

const BARE = /^[A-Za-z0-9_-]+$/;

/** Formats a key path the way TOML would spell it: `profiles.coder.cwd`, quoting odd segments. */
export function keyPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(top level)';
  return path
    .map((seg) => (typeof seg === 'number' ? `[${seg}]` : BARE.test(String(seg)) ? String(seg) : JSON.stringify(String(seg))))
    .join('.')
    .replace(/\.\[/g, '[');
}

/** One located problem in a table. */
export interface TableProblem {
  /** Key path segments. */
  path: PropertyKey[];
  message: string;
  fix: string;
}

/** The smallest edit distance between two short strings (for "did you mean"). */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length]!;
}

function lastField(path: readonly PropertyKey[]): string {
  for (let i = path.length - 1; i >= 0; i--) if (typeof path[i] === 'string') return path[i] as string;
  return '';
}

/** Longer strings are shown by their start and their length: an error line stays readable. */
const SHOWN_CHARS = 60;

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'string') {
    return value.length <= SHOWN_CHARS ? JSON.stringify(value) : `${JSON.stringify(value.slice(0, SHOWN_CHARS))}… (${value.length} characters)`;
  }
  if (Array.isArray(value)) return 'an array';
  if (value !== null && typeof value === 'object') return 'a table';
  return String(value);
}

/** How a type zod expected is named in TOML words: `record`/`object` → "table". */
const TYPE_NAMES: Record<string, string> = { record: 'table', object: 'table', tuple: 'array', int: 'integer' };

/**
 * A type name with its indefinite article, as a message says what a value must be: `an array`,
 * `an integer`, `a table` (zod's `object` and `record` are TOML tables), `a string`.
 */
export function typeWithArticle(expected: string): string {
  const name = TYPE_NAMES[expected] ?? expected;
  return `${/^[aeiou]/i.test(name) ? 'an' : 'a'} ${name}`;
}

/**
 * The fix of the field named `key` (`FIELD_FIXES`), or "correct the value". Only the table's own
 * entries count: a key a table names, as `constructor` or `toString`, is not looked up on
 * Object.prototype (a function there was given as the fix).
 */
export function fixOf(key: string): string {
  return Object.hasOwn(FIELD_FIXES, key) ? FIELD_FIXES[key]! : 'correct the value';
}

/** Maps zod issues (parsed with `reportInput: true`) to problems, one per unknown key. */
export function problemsFromIssues(issues: readonly z.core.$ZodIssue[]): TableProblem[] {
  const out: TableProblem[] = [];
  for (const issue of issues) {
    const path = [...issue.path];
    const field = lastField(path);
    const section = path[0] === 'capabilities' && path.length <= 2;
    const fieldFix = section ? 'define each capability as a [capabilities.<name>] table with a kind' : fixOf(field);
    if (issue.code === 'unrecognized_keys') {
      const known = knownKeys(path, issue.input);
      for (const key of issue.keys) {
        const near = known.filter((k) => distance(k, key) <= 2);
        const fix =
          near.length > 0
            ? `did you mean ${near.map((k) => `"${k}"`).join(' or ')}? Otherwise remove it`
            : `remove it${known.length > 0 ? `; keys read here: ${known.join(', ')}` : ''}`;
        out.push({ path: [...path, key], message: 'unknown key; nothing reads it (a misspelling?)', fix });
      }
    } else if (issue.code === 'invalid_union' && 'discriminator' in issue && typeof issue.discriminator === 'string') {
      const given = issue.input !== null && typeof issue.input === 'object' ? (issue.input as Record<string, unknown>)[issue.discriminator] : undefined;
      const options = ((issue as { options?: unknown[] }).options ?? []).map((o) => JSON.stringify(o)).join(', ');
      const fix = fixOf(issue.discriminator);
      out.push({
        path,
        message: given === undefined ? `is required (one of ${options})` : `${describe(given)} is not allowed; it must be one of ${options}`,
        fix,
      });
    } else if (issue.code === 'invalid_value') {
      const allowed = issue.values.map((v) => JSON.stringify(v)).join(', ');
      out.push({ path, message: `${describe(issue.input)} is not allowed; it must be one of ${allowed}`, fix: fieldFix });
    } else if (issue.code === 'invalid_type') {
      const message = issue.input === undefined ? 'is required' : `must be ${typeWithArticle(issue.expected)}, not ${describe(issue.input)}`;
      out.push({ path, message, fix: fieldFix });
    } else {
      out.push({ path, message: `${issue.message}${issue.input !== undefined ? ` (got ${describe(issue.input)})` : ''}`, fix: fieldFix });
    }
  }
  return out;
}

/** A table problem as plain data (for `--json` output): file and key path in `where`. */
export interface ProblemJson {
  code: string;
  /** The key path, e.g. `profiles.coder.deny[1]` (`(top level)` for the whole table). */
  path: string;
  /** `<file>: <key path>`, or `<file>:<line>:<column>` for a syntax error. */
  where: string;
  message: string;
  fix: string;
}

/** `<key path>: <message> (fix: <fix>)`: one problem as one line. */
export function formatProblem(problem: TableProblem): string {
  return `${keyPath(problem.path)}: ${problem.message} (fix: ${problem.fix})`;
}

/** A problem as plain data naming `file`. */
export function problemJson(file: string, problem: TableProblem, code: string): ProblemJson {
  return { code, path: keyPath(problem.path), where: `${file}: ${keyPath(problem.path)}`, message: problem.message, fix: problem.fix };
}

/** The AppFailure of a table that does not load, with every problem kept (`problems`). */
export class TableFailure extends AppFailure {
  constructor(
    readonly file: string,
    readonly problems: readonly TableProblem[],
    app: ConstructorParameters<typeof AppFailure>[0],
  ) {
    super(app);
    this.name = 'TableFailure';
  }
}

/**
 * One TableFailure (code `table-invalid`) for a list of problems: the first one gives `where`
 * (`<file>: <key path>`) and `fix`; the others (up to 5) are listed in the message, and all of them
 * are kept in `problems`.
 */
export function tableFailure(file: string, problems: readonly TableProblem[]): TableFailure {
  const [first, ...rest] = problems;
  if (!first) throw new Error('tableFailure needs at least one problem');
  const others = rest.slice(0, 5).map((p) => `${keyPath(p.path)}: ${p.message}`);
  const more = rest.length > 5 ? `; and ${rest.length - 5} more` : '';
  const message = `${keyPath(first.path)}: ${first.message}${others.length ? `; also ${others.join('; ')}${more}` : ''}`;
  return new TableFailure(file, problems, { code: 'table-invalid', message, where: `${file}: ${keyPath(first.path)}`, fix: first.fix });
}

/** A TOML syntax error from smol-toml (has line and column, 1-based). */
interface TomlSyntaxError {
  message: string;
  line: number;
  column: number;
}

function isTomlError(e: unknown): e is TomlSyntaxError {
  return e instanceof Error && typeof (e as Partial<TomlSyntaxError>).line === 'number' && typeof (e as Partial<TomlSyntaxError>).column === 'number';
}

/**
 * An AppFailure (code `table-syntax`) for a TOML parse error: `where` = `<file>:<line>:<column>`, the
 * message carries smol-toml's reason and the offending line. Non-TOML errors are returned unchanged.
 */
export function syntaxFailure(file: string, text: string, e: unknown): unknown {
  if (!isTomlError(e)) return e;
  const reason = e.message.split('\n')[0]!.replace(/^Invalid TOML document: /, '');
  const lineText = text.split(/\r?\n/)[e.line - 1] ?? '';
  return new AppFailure({
    code: 'table-syntax',
    message: `TOML syntax error at line ${e.line}, column ${e.column}: ${reason}\n  ${e.line} | ${lineText}\n  ${' '.repeat(String(e.line).length)} | ${' '.repeat(Math.max(0, e.column - 1))}^`,
    where: `${file}:${e.line}:${e.column}`,
    fix: reason.includes('escape')
      ? "write a Windows path or a backslash in single quotes ('C:\\dir') or double each backslash"
      : 'correct the TOML at that line (a table may be declared only once; strings need closing quotes)',
  });
}

/**
 * A failure as text for a terminal: the message, then `  at: <where>` and `  fix: <fix>` lines when
 * known. Non-AppFailure errors give their message only.
 */
export function formatFailure(e: unknown): string {
  const app = e instanceof AppFailure ? e.app : null;
  if (!app) return e instanceof Error ? e.message : String(e);
  return [app.message, ...(app.where ? [`  at: ${app.where}`] : []), ...(app.fix ? [`  fix: ${app.fix}`] : [])].join('\n');
}
