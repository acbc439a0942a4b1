/**
 * Surgical edits of the table TEXT for the profile editor (it must never destroy the user's comments
 * and layout, nor turn a backslash into an escape). The edit goes through
 * `@decimalturn/toml-patch` (`patch`: it keeps comments, key order and layout and rewrites only the
 * values that differ, dropping removed keys); a key the profile did not have is inserted right after the
 * last key of its `[profiles.<name>]` section (patch would put it after the comments that open the next
 * section); a new profile is appended as its own `[profiles.<name>]` section. Then:
 * - a string value the editor wrote that holds a backslash is spelt as a TOML literal string
 *   (`'C:\dir'`), never as a basic string where `\U` would be an escape;
 * - the result is parsed again with smol-toml (the loader's parser) and must hold exactly the intended
 *   values, else nothing is returned (AppFailure `table-edit`).
 *
 * Default handling (so a save does not churn the file): a field set to null is removed; a field equal
 * to its default is written only when the table already had it (then it keeps its value), otherwise it
 * stays out. A new profile gets `cwd` and `permission_mode` always (the mode is the first thing a
 * reader of the table should see) and every other field only when it differs from its default.
 * Values are written as typed: `~/x` stays `~/x`.
 *
 * Everything here but `writeTableText` is pure: text in, text out.
 */
import { lstat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { parse as patchParse, patch, stringify, TomlDocument } from '@decimalturn/toml-patch';
import type { ProfileDraft } from '../../../shared/contract';
import { isHomePath } from '../../../shared/homePath';
import { FIELD_KEYS, fieldSpec } from '../../../shared/profileFields';
import { AppFailure } from '../../../shared/result';
import { atomicWrite } from '../instance/atomic';
import { sameValue } from '../table/diff';
import type { TableProblem } from '../table/errors';
import { DRAFT_FIELDS, fieldDefault, isTable, parseToml, profilesOf, type TomlObject } from './draft';

/** The raw profile table a draft becomes, given what the table held before (null: a new profile). */
export function draftToRaw(draft: ProfileDraft, before: TomlObject | null): TomlObject {
  const out: TomlObject = before ? { ...before } : {};
  for (const field of DRAFT_FIELDS) {
    const value = draft[field] as unknown;
    const had = before !== null && Object.hasOwn(before, field);
    if (value === null || value === undefined) {
      delete out[field];
    } else if (had) {
      // Kept even when it equals its default; an unchanged value is not rewritten by patch.
      if (!sameValue(before[field], value)) out[field] = value;
    } else if (!sameValue(value, fieldDefault(field)) || field === 'cwd' || (before === null && field === 'permission_mode')) {
      out[field] = value;
    }
  }
  if (before === null) {
    // A new profile: keys in the editor's order.
    const ordered: TomlObject = {};
    for (const field of DRAFT_FIELDS) if (Object.hasOwn(out, field)) ordered[field] = out[field];
    return ordered;
  }
  return out;
}

/** What an edit is: the draft, and the profile's name before it (null for a new profile). */
export interface DraftEdit {
  draft: ProfileDraft;
  original: string | null;
}

function unknownProfile(name: string, file: string, profiles: TomlObject): AppFailure {
  return new AppFailure({
    code: 'profile-unknown',
    message: `there is no profile ${JSON.stringify(name)} in the table`,
    where: `${file}: profiles.${name}`,
    fix: `use one of: ${Object.keys(profiles).join(', ') || '(none yet: create one)'}`,
  });
}

/**
 * Checks the names of an edit against the table: `original` must exist, and the draft's name must not
 * belong to another profile. Returns the profile's raw table before the edit (null for a new one).
 * Throws AppFailure `profile-unknown` or `profile-exists` (naming `profiles.<name>` and the fix).
 */
export function profileBefore(root: TomlObject, edit: DraftEdit, file: string): TomlObject | null {
  const profiles = profilesOf(root);
  const name = edit.draft.name;
  if (edit.original !== null) {
    const before = Object.hasOwn(profiles, edit.original) ? profiles[edit.original] : undefined;
    if (!isTable(before)) throw unknownProfile(edit.original, file, profiles);
  }
  if (edit.original !== name && Object.hasOwn(profiles, name)) {
    throw new AppFailure({
      code: 'profile-exists',
      message: `a profile named ${JSON.stringify(name)} already exists`,
      where: `${file}: profiles.${name}`,
      fix: 'choose another name, or edit that profile',
    });
  }
  return edit.original === null ? null : (profiles[edit.original] as TomlObject);
}

/** `root` with profile `original` (or nothing, for a new one) replaced by `name` = `raw`, keeping key order. */
function withProfile(root: TomlObject, original: string | null, name: string, raw: TomlObject): TomlObject {
  const profiles = profilesOf(root);
  const next: TomlObject = {};
  for (const [key, value] of Object.entries(profiles)) next[key === original ? name : key] = key === original ? raw : value;
  if (original === null) next[name] = raw;
  const out: TomlObject = {};
  for (const [key, value] of Object.entries(root)) out[key] = key === 'profiles' ? next : value;
  if (!Object.hasOwn(root, 'profiles')) out.profiles = next;
  return out;
}

// ---- literal strings for backslashes -----------------------------------------------------------

interface CstNode {
  type: string;
  loc: { start: { line: number; column: number }; end: { line: number; column: number } };
  raw?: string;
  value?: unknown;
  key?: { item?: { value: string[] }; value?: string[] };
  items?: Array<CstNode & { item?: CstNode }>;
}

/** Every string value of a document with its key path and its node (the CST of toml-patch). */
function stringNodes(text: string): Array<{ path: string[]; node: CstNode }> {
  const out: Array<{ path: string[]; node: CstNode }> = [];
  const value = (path: string[], v: CstNode | undefined): void => {
    if (!v) return;
    if (v.type === 'String') out.push({ path, node: v });
    else if (v.type === 'InlineArray') (v.items ?? []).forEach((it, i) => value([...path, String(i)], it.item));
    else if (v.type === 'InlineTable') for (const it of v.items ?? []) if (it.item) keyValue(path, it.item);
  };
  const keyValue = (prefix: string[], kv: CstNode): void => {
    value([...prefix, ...(kv.key?.value ?? [])], kv.value as CstNode | undefined);
  };
  for (const block of new TomlDocument(text).cst as unknown as CstNode[]) {
    if (block.type === 'KeyValue') keyValue([], block);
    else if (block.type === 'Table') for (const row of block.items ?? []) if (row.type === 'KeyValue') keyValue(block.key?.item?.value ?? [], row);
  }
  return out;
}

function under(path: string[], prefix: string[]): boolean {
  return prefix.every((p, i) => path[i] === p);
}

/** Characters a TOML literal string cannot hold (a `'`, control characters other than tab). */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is matched
const NOT_LITERAL = /['\u0000-\u0008\u000a-\u001f\u007f]/;

/**
 * Rewrites, below `profiles.<name>`, every basic string holding a backslash into a literal string,
 * unless the same spelling was already in the profile before (`keep`: raw spellings the user wrote).
 */
function literalBackslashes(text: string, name: string, keep: ReadonlySet<string>): string {
  const starts = lineStarts(text);
  const offset = (p: { line: number; column: number }): number => starts[p.line - 1]! + p.column;
  const edits = stringNodes(text)
    .filter(
      ({ path, node }) =>
        under(path, ['profiles', name]) &&
        typeof node.value === 'string' &&
        node.value.includes('\\') &&
        node.raw?.startsWith('"') === true &&
        !node.raw.startsWith('"""') &&
        !keep.has(node.raw) &&
        !NOT_LITERAL.test(node.value),
    )
    .map(({ node }) => ({ from: offset(node.loc.start), to: offset(node.loc.end), text: `'${node.value as string}'` }))
    .sort((a, b) => b.from - a.from);
  let out = text;
  for (const e of edits) out = out.slice(0, e.from) + e.text + out.slice(e.to);
  return out;
}

function rawSpellings(text: string, name: string | null): Set<string> {
  if (name === null) return new Set();
  return new Set(
    stringNodes(text)
      .filter(({ path }) => under(path, ['profiles', name]))
      .map(({ node }) => node.raw ?? ''),
  );
}

/** The `[profiles.<name>]` section text of a new profile (lines end with `\n`). */
function sectionText(name: string, raw: TomlObject): string {
  return `[profiles.${name}]\n${stringify(raw, { bracketSpacing: false })}`;
}

/**
 * Inserts `key = value` lines for `added` right after the last key of the `[profiles.<name>]` section
 * of `text` (patch would put them at the section's end, after comments and blank lines that belong to
 * what follows). Null when the profile is not written as such a section (then patch adds them).
 */
function insertKeys(text: string, name: string, added: TomlObject): string | null {
  const block = (new TomlDocument(text).cst as unknown as CstNode[]).find(
    (b) => b.type === 'Table' && JSON.stringify(b.key?.item?.value) === JSON.stringify(['profiles', name]),
  );
  if (!block) return null;
  const rows = (block.items ?? []).filter((r) => r.type === 'KeyValue');
  const last = rows.length > 0 ? rows[rows.length - 1]!.loc.end : (block.key as unknown as CstNode).loc.end;
  const starts = lineStarts(text);
  const eol = text.indexOf('\n', starts[last.line - 1]! + last.column);
  const at = eol === -1 ? text.length : eol + 1;
  const lines = stringify(added, { bracketSpacing: false });
  return eol === -1 ? `${text}\n${lines}` : text.slice(0, at) + lines + text.slice(at);
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  return starts;
}

/**
 * Applies `edit` to the table `text` (see the module comment) and returns the new text (the same text
 * when nothing changes). `file` names the table in errors. Throws AppFailure `table-syntax` (the text is
 * not TOML), `profile-unknown`, `profile-exists`, or `table-edit` (the edit could not be made in place
 * without changing something else; nothing is returned).
 */
export function editTableText(text: string, edit: DraftEdit, file: string): string {
  const root = parseToml(text, file);
  const before = profileBefore(root, edit, file);
  const name = edit.draft.name;
  if (before !== null && edit.original !== null && edit.original !== name) {
    // A rename and a change in one patch made toml-patch rewrite the whole table (comments and sections
    // gone, the profiles as inline tables): the header is renamed first, then the values are edited.
    const renamed = renameOnly(text, root, edit.original, name, before, file);
    if (renamed !== null) return editTableText(renamed, { draft: edit.draft, original: name }, file);
  }
  const raw = draftToRaw(edit.draft, before);
  const expected = withProfile(root, edit.original, name, raw);
  const keep = rawSpellings(text, edit.original);
  const matches = (candidate: string): boolean => {
    try {
      return sameValue(parseToml(candidate, file), expected);
    } catch {
      return false;
    }
  };
  const patched = (target: TomlObject): string => patch(text, withProfile(patchParse(text) as TomlObject, edit.original, name, target));
  const candidates: Array<() => string | null> = [];
  if (before === null) {
    // A new profile goes at the end, as its own section (patch would write a dotted key at the top).
    candidates.push(() => `${text}${text.length === 0 || text.endsWith('\n') ? '' : '\n'}${text.trim().length > 0 ? '\n' : ''}${sectionText(name, raw)}`);
  } else {
    // Changes and removals by patch; added keys right after the section's last key.
    const kept: TomlObject = {};
    const added: TomlObject = {};
    for (const [k, v] of Object.entries(raw)) (Object.hasOwn(before, k) ? kept : added)[k] = v;
    if (Object.keys(added).length > 0) candidates.push(() => insertKeys(patched(kept), name, added));
  }
  candidates.push(() => patched(raw));
  for (const make of candidates) {
    let out: string | null;
    try {
      out = make();
      if (out !== null) out = literalBackslashes(out, name, keep);
    } catch {
      continue;
    }
    if (out !== null && matches(out)) return out;
  }
  throw new AppFailure({
    code: 'table-edit',
    message: `profiles.${name} could not be changed in place without changing other parts of the table`,
    where: file,
    fix: 'edit the table by hand (angelia.toml), then accept it',
  });
}

/**
 * `text` with profile `original` renamed `name` and nothing else changed: the `[profiles.<original>]`
 * header's key is rewritten in place (toml-patch's own rename moved the trailing comments of the
 * section's lines when the name's length changed). Null when the profile is not such a section or the
 * result would not hold exactly that.
 */
function renameOnly(text: string, root: TomlObject, original: string, name: string, before: TomlObject, file: string): string | null {
  try {
    const block = (new TomlDocument(text).cst as unknown as CstNode[]).find(
      (b) => b.type === 'Table' && JSON.stringify(b.key?.item?.value) === JSON.stringify(['profiles', original]),
    );
    if (!block?.key) return null;
    const loc = (block.key as unknown as CstNode).loc;
    const starts = lineStarts(text);
    const from = starts[loc.start.line - 1]! + loc.start.column;
    const to = starts[loc.end.line - 1]! + loc.end.column;
    const header = text.slice(from, to);
    if (!/^\[\s*profiles\s*\.\s*[A-Za-z0-9_-]+\s*\]$/.test(header)) return null;
    const out = `${text.slice(0, from)}[profiles.${name}]${text.slice(to)}`;
    return sameValue(parseToml(out, file), withProfile(root, original, name, before)) ? out : null;
  } catch {
    return null;
  }
}

// ---- paths typed in the editor ----------------------------------------------------------------------

/** True for a path the editor takes: absolute, `~` or `~/…`. */
export function editorPathOk(p: string): boolean {
  return isHomePath(p) || isAbsolute(p);
}

function pathProblem(p: string, at: PropertyKey[]): TableProblem {
  const windows = /^[A-Za-z]:[\\/]/.test(p) || (p.includes('\\') && !p.includes('/'));
  return {
    path: at,
    message: windows
      ? `${JSON.stringify(p)} looks like a Windows path; Angelia runs on macOS and Linux, where it is relative`
      : `${JSON.stringify(p)} is a relative path; the editor takes only absolute paths or ~/…`,
    fix: 'use ~/… or an absolute path, e.g. ~/assistants/coder or /srv/projects/site',
  };
}

/**
 * The editor's path rule: every folder field (kind `path` or `paths` in src/shared/profileFields.ts:
 * `cwd`, each `add_dirs` and `read_dirs` entry) must be absolute, `~` or `~/…`. Only values the draft
 * CHANGES are checked (a relative path the table already had keeps working: the loader resolves it
 * against the table's folder). Returns one problem per bad path (key path + fix), in the table's order.
 */
export function draftPathProblems(draft: ProfileDraft, before: TomlObject | null): TableProblem[] {
  const out: TableProblem[] = [];
  const at = (...rest: PropertyKey[]): PropertyKey[] => ['profiles', draft.name, ...rest];
  for (const field of FIELD_KEYS) {
    const kind = fieldSpec(field).kind;
    const value = draft[field] as unknown;
    if (kind === 'path' && typeof value === 'string') {
      if (!editorPathOk(value) && before?.[field] !== value) out.push(pathProblem(value, at(field)));
    } else if (kind === 'paths' && Array.isArray(value)) {
      const old = Array.isArray(before?.[field]) ? (before[field] as unknown[]) : [];
      (value as string[]).forEach((dir, i) => {
        if (!editorPathOk(dir) && !old.includes(dir)) out.push(pathProblem(dir, at(field, i)));
      });
    }
  }
  return out;
}

// ---- writing ------------------------------------------------------------------------------------------

/**
 * Writes the table atomically (mode 600), first keeping the text it replaces as ONE backup,
 * `<table>.bak` (mode 600; README "The desktop app"): the backup always holds the table as
 * it was before Angelia's last write (a save, a create, or a discard). Returns the backup's path, or
 * null when there was no table to keep. Throws the fs error.
 */
export async function writeTableText(file: string, text: string): Promise<string | null> {
  const existed = await lstat(file).then(
    () => true,
    () => false,
  );
  await atomicWrite(file, text, { mode: 0o600, backup: true });
  return existed ? `${file}.bak` : null;
}
