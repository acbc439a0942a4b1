/**
 * What the profile editor knows by itself, as pure functions: the plain sentence for each permission
 * mode, the check of a folder field (absolute or `~/…`; a relative path is rejected with a fix-it,
 * field case B12), the problems of a whole draft before any preview is asked, which field a table issue
 * or a save error names, and what Save would change against the values loaded.
 */
import type { PermissionMode, ProfileDraft, TableIssue } from '../../../../shared/contract';
import { equal } from '../../store/equal';

/** The fields of a draft, in the order the editor shows them. */
export const DRAFT_FIELDS = [
  'name', 'cwd', 'permission_mode', 'sandbox', 'add_dirs', 'model', 'effort', 'capabilities', 'except', 'deny',
  'unsafe_ok', 'isolated', 'shared_write', 'accept_from', 'answer_from', 'bin',
] as const satisfies readonly (keyof ProfileDraft)[];

/** One field of a draft. */
export type DraftField = keyof ProfileDraft;

/** One plain sentence per mode (product.md §2 "Modes"). */
export const MODE_SENTENCE: Record<PermissionMode, string> = {
  default: 'Works inside its folders and asks you before it needs anything more (a command outside the sandbox, another folder for this turn).',
  acceptEdits: 'Like default: edits inside its folders go ahead; it asks you before it needs anything more.',
  bypassPermissions: 'Never asks: whatever the sandbox blocks simply fails. For unattended work.',
  plan: 'Read-only: it reads and plans, changes no file, and never asks.',
};

/** The modes, in the order the editor offers them. */
export const MODES = Object.keys(MODE_SENTENCE) as PermissionMode[];

/** The sentence the editor shows in red when the sandbox is off. */
export const NO_SANDBOX_WARNING = 'runs without a sandbox: everything on this machine';

/** A problem with a folder field, and a corrected value when one can be guessed (the fix-it). */
export interface FolderProblem {
  message: string;
  /** The value a "Use …" button puts in the field, or null. */
  fixValue: string | null;
}

/** Joins `rel` onto the absolute (or `~/`) folder `base` and folds `.` and `..`. */
export function joinPath(base: string, rel: string): string {
  const home = base === '~' || base.startsWith('~/');
  const parts = `${home ? base.slice(1) : base}/${rel}`.split('/');
  const out: string[] = [];
  for (const p of parts) {
    if (p === '' || p === '.') continue;
    if (p === '..') out.pop();
    else out.push(p);
  }
  return `${home ? '~' : ''}/${out.join('/')}`.replace(/^~\/$/, '~');
}

const GLOB = /[*?[\]{}]/;
const isRooted = (v: string): boolean => v.startsWith('/') || v === '~' || v.startsWith('~/');

/**
 * Checks a folder field. Accepted: an absolute path or `~/…` (`~` is your home). Rejected: empty, a
 * relative path (fix-it: the path under `relativeTo`, else under `~`), `~name/…`, a `:special` root and
 * a glob pattern (those belong in a permission table, not in a folder list).
 */
export function folderProblem(raw: string, relativeTo: string | null = null): FolderProblem | null {
  const value = raw.trim();
  if (value === '') return { message: 'a folder is needed here', fixValue: null };
  if (value.startsWith(':')) return { message: `${value} is a special root of Codex's permission table, not a folder`, fixValue: null };
  if (value.startsWith('~') && !isRooted(value)) {
    const rest = value.slice(1).split('/').slice(1).join('/');
    return { message: 'only ~/ (your own home) is understood; ~name/ is not expanded', fixValue: rest ? `~/${rest}` : '~' };
  }
  if (!isRooted(value)) {
    const base = relativeTo && isRooted(relativeTo.trim()) ? relativeTo.trim() : '~';
    return { message: `a relative path is ambiguous: say where it is (absolute, or ~/…)`, fixValue: joinPath(base, value) };
  }
  if (GLOB.test(value)) {
    const parts = value.split('/');
    const first = parts.findIndex((p) => GLOB.test(p));
    const folder = parts.slice(0, first).join('/') || '/';
    return { message: 'a pattern is not a folder: globs are not allowed here', fixValue: folder === '~' || isRooted(folder) ? folder : null };
  }
  if (value !== raw) return { message: 'leading or trailing spaces', fixValue: value };
  return null;
}

/** A problem the editor found itself, located like a TableIssue, with an optional one-click fix. */
export interface LocalIssue extends TableIssue {
  field: DraftField;
  /** The list position for list fields (add_dirs), else null. */
  index: number | null;
  fixValue: string | null;
}

/** A profile name as the contract's ProfileDraft accepts it. */
const NAME = /^[A-Za-z0-9_-]+$/;

/**
 * Every problem of `draft` the editor can see without asking the core: the contract's own checks of
 * ProfileDraft (the name; no empty folder), and each folder field (B12). Relative add_dirs are fixed
 * against the cwd. (The checks are repeated here, not parsed with the contract's zod schema, to keep
 * zod out of the renderer's bundle; a unit test holds them to the schema.)
 */
export function localIssues(draft: ProfileDraft): LocalIssue[] {
  const name = draft.name || '(new)';
  const out: LocalIssue[] = [];
  const push = (field: DraftField, index: number | null, p: FolderProblem, fix?: string): void => {
    out.push({
      field, index, fixValue: p.fixValue, message: p.message, fix: fix ?? (p.fixValue ? '' : 'correct the value'),
      path: ['profiles', name, field, ...(index === null ? [] : [String(index)])],
    });
  };
  if (!NAME.test(draft.name)) {
    push('name', null, { message: draft.name === '' ? 'a name is needed' : `"${draft.name}" is not one word of letters, digits, _ and -`, fixValue: draft.name.trim().replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '') || null }, 'one word of letters, digits, _ and -');
  } else if (draft.name.length > 64) {
    push('name', null, { message: 'the name is longer than 64 characters', fixValue: null }, 'shorten it');
  }
  const cwd = folderProblem(draft.cwd);
  if (cwd) push('cwd', null, cwd);
  draft.add_dirs.forEach((dir, i) => {
    const p = folderProblem(dir, cwd ? null : draft.cwd);
    if (p) push('add_dirs', i, p);
  });
  if (draft.bin !== null) {
    const bin = folderProblem(draft.bin);
    if (bin) push('bin', null, { ...bin, message: bin.message.replace('a folder is needed here', 'a path to the codex executable is needed (or leave it out)') });
  }
  return out;
}

const isField = (s: string | undefined): s is DraftField => s !== undefined && (DRAFT_FIELDS as readonly string[]).includes(s);

/**
 * The draft field a table issue names (`profiles.<name>.<field>…`), or null when it names something
 * else (a capability, the defaults) and belongs in the general list.
 */
export function fieldOfIssue(issue: Pick<TableIssue, 'path'>): DraftField | null {
  const [section, , field] = issue.path;
  if (section === 'profiles') return isField(field) ? field : issue.path.length <= 2 ? 'name' : null;
  return null;
}

/** The list position a table issue names (`profiles.x.add_dirs.1`), or null. */
export function indexOfIssue(issue: Pick<TableIssue, 'path'>): number | null {
  const raw = issue.path[3];
  return raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : null;
}

/** The draft field a save error's `where` names ("profiles.demo.add_dirs[1]"), or null. */
export function fieldOfWhere(where: string | undefined): DraftField | null {
  const m = /(?:^|\s|\()profiles\.(?:"[^"]*"|[A-Za-z0-9_-]+)\.([a-z_]+)/.exec(where ?? '');
  return isField(m?.[1]) ? m[1] : null;
}

/** The list position a save error's `where` names ("profiles.demo.add_dirs[1]" or "….add_dirs.1"), or null. */
export function indexOfWhere(where: string | undefined): number | null {
  const m = /profiles\.(?:"[^"]*"|[A-Za-z0-9_-]+)\.[a-z_]+(?:\[(\d+)\]|\.(\d+))/.exec(where ?? '');
  const raw = m?.[1] ?? m?.[2];
  return raw === undefined ? null : Number(raw);
}

/** Table issues grouped by the field they name; `general` holds the rest. */
export function issuesByField<T extends Pick<TableIssue, 'path'>>(issues: readonly T[]): { byField: Partial<Record<DraftField, T[]>>; general: T[] } {
  const byField: Partial<Record<DraftField, T[]>> = {};
  const general: T[] = [];
  for (const issue of issues) {
    const field = fieldOfIssue(issue);
    if (field) (byField[field] ??= []).push(issue);
    else general.push(issue);
  }
  return { byField, general };
}

/** A table value as one short line: strings quoted, lists in brackets, left out as "(not set)". */
export function showValue(v: unknown): string {
  if (v === undefined || v === null) return '(not set)';
  if (typeof v === 'string') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(showValue).join(', ')}]`;
  if (typeof v === 'object') return `{ ${Object.entries(v as Record<string, unknown>).map(([k, x]) => `${k} = ${showValue(x)}`).join(', ')} }`;
  return String(v);
}

/** One field Save would change. */
export interface DraftChange {
  field: DraftField;
  before: string;
  after: string;
}

/** What Save would change against the values loaded; for a new profile, every field not at its default. */
export function draftChanges(base: ProfileDraft | null, draft: ProfileDraft): DraftChange[] {
  const ref = base ?? newDraft();
  const out: DraftChange[] = [];
  for (const field of DRAFT_FIELDS) {
    if (equal(ref[field], draft[field]) && (base || (field !== 'name' && field !== 'cwd'))) continue;
    out.push({ field, before: base ? showValue(base[field]) : '(new)', after: showValue(draft[field]) });
  }
  return out;
}

/** The starting values of a new profile: asks before anything more, sandboxed, nothing extra. */
export function newDraft(name = '', cwd = ''): ProfileDraft {
  return {
    name, cwd, bin: null, permission_mode: 'default', sandbox: true, add_dirs: [], model: null, effort: null, capabilities: [], except: [], deny: [],
    unsafe_ok: false, isolated: false, shared_write: false, accept_from: [], answer_from: [],
  };
}

/** Capability names worth offering: those the draft names and those the preview's entries come from. */
export function knownCapabilities(draft: ProfileDraft, origins: readonly string[]): string[] {
  const names = new Set<string>([...draft.capabilities, ...draft.except, ...draft.deny]);
  for (const o of origins) if (o.startsWith('capability:')) names.add(o.slice('capability:'.length));
  return [...names].sort();
}
