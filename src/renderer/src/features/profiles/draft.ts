/**
 * What the profile editor knows by itself, as pure functions: the plain sentence for each permission
 * mode, the check of a folder field as the table loader makes it (relative paths resolve against the
 * table's folder; what the loader refuses is an error with the loader's own fix), the model and effort
 * really in force and the efforts to offer, the problems of a whole draft before any preview is asked,
 * which field a table issue or a save error names, and what Save would change against the values loaded.
 */
import type { ModelsView, PermissionMode, ProfileDraft, TableIssue } from '../../../../shared/contract';
import { isHomePath } from '../../../../shared/homePath';
import { EDITOR_SECTIONS, FIELD_KEYS, fieldSpec, newProfileValues } from '../../../../shared/profileFields';
import { equal } from '../../store/equal';

export { READ_DIRS_STARTER } from '../../../../shared/profileFields';

/** One field of a draft. */
export type DraftField = keyof ProfileDraft;

/** The fields of a draft, in the order the editor shows them (src/shared/profileFields.ts EDITOR_SECTIONS). */
export const DRAFT_FIELDS: readonly DraftField[] = ['name', ...EDITOR_SECTIONS.flatMap((s) => s.fields)];

/** One plain sentence per mode (shown in the editor; said the same on every surface). */
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

/**
 * A problem with a folder field: an error (what the table loader refuses: Save is blocked) or a warning
 * (the loader takes it, but it is probably not what you meant), its fix in words, and a corrected value
 * when one can be given (the fix-it).
 */
export interface FolderProblem {
  level: 'error' | 'warning';
  message: string;
  fix: string;
  /** The value a "Use …" button puts in the field, or null. */
  fixValue: string | null;
}

/** Joins `rel` onto the absolute (or `~/`) folder `base` and folds `.` and `..`. */
export function joinPath(base: string, rel: string): string {
  const home = isHomePath(base);
  const parts = `${home ? base.slice(1) : base}/${rel}`.split('/');
  const out: string[] = [];
  for (const p of parts) {
    if (p === '' || p === '.') continue;
    if (p === '..') out.pop();
    else out.push(p);
  }
  return `${home ? '~' : ''}/${out.join('/')}`.replace(/^~\/$/, '~');
}

/** The folder of a file path (`/a/b/angelia.toml` → `/a/b`). */
export function folderOf(file: string): string {
  const i = file.lastIndexOf('/');
  return i <= 0 ? '/' : file.slice(0, i);
}

/** Characters Codex reads as a glob in a filesystem path (as src/main/core/table/capabilities.ts GLOB_CHARS). */
const GLOB = /[*?[\]]/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
/** `~` and `~/…` (the core's own rule, shared/homePath.ts). */
const isHome = isHomePath;

/**
 * Where the table loader puts a path written in the table (src/main/core/instance/paths.ts
 * `expandPath`, base = the table's folder): `~` and `~/…` stay as written (your home), an absolute path
 * is folded, anything else (`profiles/x`, `./x`, `~bob/x`) lies under `tableDir`. Null for a relative
 * path while the table's folder is unknown.
 */
export function resolveFolder(value: string, tableDir: string | null): string | null {
  if (isHome(value)) return joinPath('~', value.slice(1).replace(/^\//, ''));
  if (value.startsWith('/')) return joinPath('/', value);
  return tableDir ? joinPath(tableDir, value) : null;
}

/**
 * The line under a relative folder saying where the loader puts it ("relative to the table's folder:
 * /home/u/.angelia/workspace/profiles/x"), or null for an absolute or `~/…` path.
 */
export function relativeNote(raw: string, tableDir: string | null): string | null {
  const value = raw.trim();
  if (value === '' || value.startsWith('/') || isHome(value)) return null;
  const abs = resolveFolder(value, tableDir);
  return abs ? `relative to the table's folder: ${abs}` : "relative to the table's folder";
}

/**
 * Checks a folder field the way the table loader does (src/main/core/table/load.ts: `~` expanded,
 * relative paths resolved against the table's folder, `tableDir`; capabilities.ts `globProblem`). Errors,
 * with the loader's own words and fix: empty; a path holding `*`, `?`, `[` or `]` (Codex reads it as a
 * pattern) or a control character. Warnings: `~name/…` (not expanded: a folder named `~name` in the
 * table's folder) and leading or trailing spaces. A relative path is accepted (see `relativeNote`).
 * Whether the folder exists is the preview's to say (it asks the disk).
 */
export function folderProblem(raw: string, tableDir: string | null = null): FolderProblem | null {
  const value = raw.trim();
  if (value === '') return { level: 'error', message: 'a folder is needed here', fix: 'write the folder, e.g. ~/assistants/coder', fixValue: null };
  // As written (spaces included): the loader does not trim.
  const abs = resolveFolder(raw, tableDir) ?? raw;
  if (CONTROL.test(abs)) {
    return {
      level: 'error',
      message: `${JSON.stringify(abs)} contains a control character (such as a newline), and Codex's sandbox does not hold a rule on such a path`,
      fix: 'rename the folder without control characters',
      fixValue: null,
    };
  }
  if (GLOB.test(abs)) {
    return {
      level: 'error',
      message: `${abs} contains * ? [ or ], which Codex's sandbox reads as a pattern, so its rules would not hold`,
      fix: 'rename the folder without those characters',
      fixValue: null,
    };
  }
  if (value.startsWith('~') && !isHome(value)) {
    const name = value.split('/')[0] ?? value;
    return {
      level: 'warning',
      message: `${name}/ is not expanded (only ~/ is your home): this is a folder named "${name}" in the table's folder`,
      fix: 'write ~/… for your own home, or the full path',
      fixValue: null,
    };
  }
  if (value !== raw) return { level: 'warning', message: 'leading or trailing spaces are part of the folder name', fix: '', fixValue: value };
  return null;
}

/**
 * The efforts the editor offers for a model: those the model supports (`model/list`
 * `supportedReasoningEfforts`) that the table also accepts, in the model's order. Without a model, the
 * table's list.
 */
export function offeredEfforts(model: { efforts: readonly string[] } | null, tableEfforts: readonly string[]): string[] {
  return model ? model.efforts.filter((e) => tableEfforts.includes(e)) : [...tableEfforts];
}

/**
 * The model the profile really runs with, and where that comes from: the draft's own model; else
 * Codex's config in force (`config/read`); else the model Codex marks default (`model/list`). `info`
 * is its catalog entry (null when Codex does not list it). Null when nothing is known yet.
 */
export function modelInForce(
  draft: Pick<ProfileDraft, 'model'>,
  catalog: ModelsView | null,
): { id: string; source: string; info: ModelsView['models'][number] | null } | null {
  const find = (id: string) => catalog?.models.find((m) => m.id === id) ?? null;
  if (draft.model !== null) return { id: draft.model, source: 'this profile', info: find(draft.model) };
  const configured = catalog?.codexConfig.model;
  if (configured) return { id: configured.value, source: `set in ${configured.source}`, info: find(configured.value) };
  const def = catalog?.models.find((m) => m.isDefault);
  return def ? { id: def.id, source: 'the model Codex marks default', info: def } : null;
}

/**
 * The effort used when the profile sets none, and where that comes from: Codex's config in force
 * (`model_reasoning_effort`) when the model in force offers it (a chat skips it otherwise, as
 * src/main/core/chats/chat.ts `inForce` does); else the model's default effort. Null when unknown.
 */
export function defaultEffortInForce(draft: Pick<ProfileDraft, 'model'>, catalog: ModelsView | null): { value: string; source: string } | null {
  const model = modelInForce(draft, catalog);
  const configured = catalog?.codexConfig.effort;
  if (configured && (!model?.info?.efforts.length || model.info.efforts.includes(configured.value)))
    return { value: configured.value, source: `set in ${configured.source}` };
  if (model?.info?.defaultEffort) return { value: model.info.defaultEffort, source: `the default of ${model.id}` };
  return null;
}

/**
 * The effort to offer instead of `wanted`: the highest offered one not above it, else the lowest
 * offered. Ranked by `order` (the model's own list, low to high) when it names `wanted`, else by the
 * table's list.
 */
export function nearestEffort(wanted: string, offered: readonly string[], tableEfforts: readonly string[], order: readonly string[] = []): string | null {
  const scale = order.includes(wanted) ? order : tableEfforts;
  const rank = (e: string): number => scale.indexOf(e);
  const below = offered.filter((e) => rank(e) >= 0 && rank(e) <= rank(wanted)).sort((a, b) => rank(b) - rank(a));
  return below[0] ?? [...offered].sort((a, b) => rank(a) - rank(b))[0] ?? null;
}

/** A problem the editor found itself, located like a TableIssue, with an optional one-click fix. */
export interface LocalIssue extends TableIssue {
  field: DraftField;
  /** Errors block the preview and Save; warnings are shown only. */
  level: 'error' | 'warning';
  /** The list position for list fields (add_dirs), else null. */
  index: number | null;
  fixValue: string | null;
}

/** What the editor's own checks know beyond the draft: the table's folder and what `models:list` said. */
export interface EditorContext {
  /** The folder of the table file (relative paths resolve against it), or null while unknown. */
  tableDir: string | null;
  /** The models Codex offers, its config in force and the efforts the table accepts; null while unknown. */
  catalog: ModelsView | null;
}

/** The editor's context from the window's state: the table file `table:changes` named, and the models loaded. */
export function editorContext(s: { table: { view: { tableFile: string } | null }; editor: { catalog: ModelsView | null } }): EditorContext {
  return { tableDir: s.table.view ? folderOf(s.table.view.tableFile) : null, catalog: s.editor.catalog };
}

/** The folder fields of a draft (kind `path` or `paths`), in the table's order. */
const FOLDER_FIELDS = FIELD_KEYS.filter((k) => fieldSpec(k).kind === 'path' || fieldSpec(k).kind === 'paths');

/** A profile name as the contract's ProfileDraft accepts it. */
const NAME = /^[A-Za-z0-9_-]+$/;

/**
 * Every problem of `draft` the editor can see without asking the core: the contract's own checks of
 * ProfileDraft (the name; no empty folder); each folder field as the table loader checks it (relative
 * paths resolve against the table's folder, `ctx.tableDir`); `bin` (the loader wants a full path); and
 * the effort, against what the table accepts and what the model in force offers (`ctx.catalog`). (The
 * checks are repeated here, not imported from the core, to keep Node out of the renderer's bundle; unit
 * tests hold them to the schema and to the loader.)
 */
export function localIssues(draft: ProfileDraft, ctx: EditorContext = { tableDir: null, catalog: null }): LocalIssue[] {
  const name = draft.name || '(new)';
  const out: LocalIssue[] = [];
  const push = (field: DraftField, index: number | null, p: FolderProblem): void => {
    out.push({
      field,
      index,
      level: p.level,
      fixValue: p.fixValue,
      message: p.message,
      fix: p.fix,
      path: ['profiles', name, field, ...(index === null ? [] : [String(index)])],
    });
  };
  if (!NAME.test(draft.name)) {
    const fixValue =
      draft.name
        .trim()
        .replace(/[^A-Za-z0-9_-]+/g, '-')
        .replace(/^-+|-+$/g, '') || null;
    push('name', null, {
      level: 'error',
      message: draft.name === '' ? 'a name is needed' : `"${draft.name}" is not one word of letters, digits, _ and -`,
      fix: 'one word of letters, digits, _ and -',
      fixValue,
    });
  } else if (draft.name.length > 64) {
    push('name', null, { level: 'error', message: 'the name is longer than 64 characters', fix: 'shorten it', fixValue: null });
  }
  // Every folder field (kind `path`, `paths`: src/shared/profileFields.ts), in the table's order.
  for (const field of FOLDER_FIELDS) {
    const value = draft[field] as string | string[] | null;
    if (typeof value === 'string') {
      const p = folderProblem(value, ctx.tableDir);
      if (p) push(field, null, p);
    } else {
      (value ?? []).forEach((dir, i) => {
        const p = folderProblem(dir, ctx.tableDir);
        if (p) push(field, i, p.message === 'a folder is needed here' ? { ...p, fix: 'write a folder, or remove this row' } : p);
      });
    }
  }
  if (draft.bin !== null && !(draft.bin === '~' || draft.bin.startsWith('~/') || draft.bin.startsWith('/'))) {
    // table/load.ts: the loader's own words.
    push('bin', null, {
      level: 'error',
      message: `${JSON.stringify(draft.bin)} is not a full path`,
      fix: 'give the full path of the codex executable (or ~/…), or leave bin out',
      fixValue: null,
    });
  }
  const effort = effortProblem(draft, ctx.catalog);
  if (effort) push('effort', null, effort);
  return out;
}

/**
 * The draft's effort against the table (its schema's list) and the model in force (`model/list`): an
 * effort the table refuses, or one the model does not offer (a chat would not use it), is an error with
 * the nearest effort offered as its fix-it. Null when fine or when the catalog is unknown.
 */
export function effortProblem(draft: Pick<ProfileDraft, 'model' | 'effort'>, catalog: ModelsView | null): FolderProblem | null {
  if (draft.effort === null || !catalog) return null;
  const table = catalog.tableEfforts;
  const model = modelInForce(draft, catalog);
  const offered = offeredEfforts(model?.info ?? null, table);
  if (!table.includes(draft.effort)) {
    // table/schema.ts FIELD_FIXES.effort: the loader's own words.
    return {
      level: 'error',
      message: `effort "${draft.effort}" is not one the table accepts`,
      fix: `use one of ${table.join(', ')}, or leave it out`,
      fixValue: nearestEffort(draft.effort, offered, table, model?.info?.efforts),
    };
  }
  if (model?.info && !offered.includes(draft.effort)) {
    return {
      level: 'error',
      message: `${model.id} does not offer effort ${draft.effort}`,
      fix: `pick one of ${offered.join(', ') || 'its efforts'}, or default`,
      fixValue: nearestEffort(draft.effort, offered, table, model.info.efforts),
    };
  }
  return null;
}

/** The problems that block the preview and Save (errors; warnings only show). */
export function blockingIssues(draft: ProfileDraft, ctx?: EditorContext): LocalIssue[] {
  return localIssues(draft, ctx).filter((i) => i.level === 'error');
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
  if (typeof v === 'object')
    return `{ ${Object.entries(v as Record<string, unknown>)
      .map(([k, x]) => `${k} = ${showValue(x)}`)
      .join(', ')} }`;
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

/**
 * The starting values of a new profile: asks before anything more, sandboxed, nothing extra (every
 * field at its default but the mode: src/shared/profileFields.ts `newProfileValues`).
 */
export function newDraft(name = '', cwd = ''): ProfileDraft {
  return { name, ...newProfileValues(), cwd };
}

/** Capability names worth offering: those the draft names and those the preview's entries come from. */
export function knownCapabilities(draft: ProfileDraft, origins: readonly string[]): string[] {
  const names = new Set<string>([...draft.capabilities, ...draft.except, ...draft.deny]);
  for (const o of origins) if (o.startsWith('capability:')) names.add(o.slice('capability:'.length));
  return [...names].sort();
}
