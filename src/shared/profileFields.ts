/**
 * The one source of a profile's shape: every key of `[profiles.<name>]` in angelia.toml, written once —
 * its schema in the table (zod, default included), the kind of value it holds, its value in the editor's
 * draft, the fix an error about it names, and the editor's label, help and section. Derived from it: the
 * table's schema and fixes (core/table/schema.ts), the resolved profile (core/table/types.ts, load.ts),
 * the draft (contract `ProfileDraft`, core/profiles/draft.ts) and the editor's widgets (renderer
 * features/profiles/EditorFields.tsx). docs/codebase-map.md "Add a table field" says what a new key
 * still touches. Imports only zod: the core and the renderer both load it.
 */
import { z } from 'zod';

/** Permission modes (as Claude Code names them). Any other value is a load error, never a fallback. */
export const PERMISSION_MODES = ['default', 'acceptEdits', 'bypassPermissions', 'plan'] as const;
/** One of PERMISSION_MODES. */
export type PermissionMode = (typeof PERMISSION_MODES)[number];

/** Reasoning efforts a profile may name (passed on each `turn/start`). */
export const EFFORTS = ['low', 'medium', 'high', 'xhigh', 'max'] as const;
/** One of EFFORTS. */
export type Effort = (typeof EFFORTS)[number];

/** Backends. Only Codex for now; the seam stays open for others. */
export const BACKENDS = ['codex'] as const;
/** One of BACKENDS. */
export type Backend = (typeof BACKENDS)[number];

/** What `notifications` may be: every notification, only requests (approvals, questions, elicitations), or none. */
export const NOTIFICATION_SETTINGS = ['all', 'requests', 'none'] as const;
/** One of NOTIFICATION_SETTINGS. */
export type NotificationSetting = (typeof NOTIFICATION_SETTINGS)[number];

/** Profile names: one word of letters, digits, `_` and `-` (they appear in `-c` keys and file names). */
export const PROFILE_NAME = /^[A-Za-z0-9_-]+$/;

/** A model name: one word that does not start with `-` (so it can never read as a flag). */
export const MODEL_NAME = /^[^\s-]\S*$/;

/** An environment variable name (POSIX shell names): `[A-Za-z_][A-Za-z0-9_]*`. */
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** An `env` entry as the table takes it (the core adds the names it never gives Codex: table/schema.ts). */
export const envNameSchema = z.string().regex(ENV_NAME, { error: 'must be a variable NAME (letters, digits, "_"; not starting with a digit), never a value' });

/**
 * What `read_dirs` is when a profile leaves it out: toolchains that live in HOME (docs/security-model.md
 * "Filesystem: private by default"). Only those that exist are given (compile's plan names the rest).
 * Not `~/.cargo` itself (its credentials.toml) nor `~/.local` (keyrings, other tools' data).
 */
export const READ_DIRS_STARTER: readonly string[] = ['~/.local/bin', '~/.cargo/bin', '~/.nvm', '~/.pyenv', '~/.rustup'];

/** `accept_from` / `answer_from` in a draft: profile names, or "*" for every profile. */
export const ProfileRefs = z.union([z.literal('*'), z.array(z.string())]);

/**
 * The kind of value a key holds, which picks its editor widget: `text` (one line), `path` (a folder: a
 * folder field with a picker, checked as the loader checks folders), `paths` (a list of folders), `names`
 * (a list of words, as chips), `refs` (profile names or "*"), `enum` (one of `options`), `boolean`,
 * `number`.
 */
export type FieldKind = 'text' | 'path' | 'paths' | 'names' | 'refs' | 'enum' | 'boolean' | 'number';

/** The words of a key: the editor's label and one line of help, and the fix an error about it names. */
export interface FieldWords {
  label: string;
  help: string;
  /** The `fix` of a load error about this key (table/errors.ts). */
  fix: string;
  /** What an empty widget shows. */
  placeholder?: string;
  /** `names`: what the chips offer (the table's capability names). */
  suggest?: 'capabilities';
}

/** One key of `[profiles.<name>]`. */
export interface FieldSpec<T extends z.ZodType = z.ZodType, D extends z.ZodType = z.ZodType> extends FieldWords {
  kind: FieldKind;
  /** Its schema in the table: strict, its default applied when the key is left out. */
  table: T;
  /** Its value in the editor's draft (contract ProfileDraft): the raw value as written; looser where the loader's own error is the better answer. */
  draft: D;
  /** True when the key has no default: null in a draft and in the resolved profile when left out. */
  optional: boolean;
  /** `enum`: the values offered, in order. */
  options?: readonly string[];
}

const text1 = z.string().min(1);
type Options = readonly [string, ...string[]];

const spec = <K extends FieldKind, T extends z.ZodType, D extends z.ZodType>(
  kind: K,
  table: T,
  draft: D,
  optional: boolean,
  w: FieldWords,
  options?: Options,
) => ({ kind, table, draft, optional, ...w, ...(options ? { options } : {}) }) satisfies FieldSpec<T, D>;

/** A folder that must be given (`cwd`). */
const folder = (w: FieldWords) => spec('path', text1, text1, false, w);
/** A list of folders, [] when left out. */
const folders = (w: FieldWords) => spec('paths', z.array(text1).default([]), z.array(text1), false, w);
/** A list of folders with no default: left out (null) means something of its own (`read_dirs`: the starter set). */
const optionalFolders = (w: FieldWords) => spec('paths', z.array(text1).optional(), z.array(text1).nullable(), true, w);
/** One line of text that may be left out; `table` is its check in the table. */
const optionalText = (table: z.ZodString, w: FieldWords) => spec('text', table.optional(), z.string().nullable(), true, w);
/** Words, [] when left out; `item` checks each in the table. */
const names = (w: FieldWords, item: z.ZodString = text1) => spec('names', z.array(item).default([]), z.array(z.string()), false, w);
/** Profile names or "*", [] when left out. */
const refs = (w: FieldWords) => spec('refs', z.union([z.literal('*'), z.array(text1)]).default([]), ProfileRefs, false, w);
/** One of `options`, `def` when left out. */
const choice = <const O extends Options>(options: O, def: O[number], w: FieldWords) =>
  spec('enum', z.enum(options).default(def as never), z.enum(options), false, w, options);
/** One of `options`, or left out. Any text in a draft: a value the table refuses gets the loader's own error and fix. */
const optionalChoice = <const O extends Options>(options: O, w: FieldWords) =>
  spec('enum', z.enum(options).optional(), z.string().nullable(), true, w, options);
/** True or false, `def` when left out. */
const flag = (def: boolean, w: FieldWords) => spec('boolean', z.boolean().default(def), z.boolean(), false, w);

/**
 * Every key of `[profiles.<name>]`, in the table's order: the order of the schema's keys ("keys read
 * here" in an error) and the order a new profile's keys are written in (core/profiles/tableEdit.ts).
 * Meanings in README and docs/security-model.md.
 */
export const PROFILE_FIELDS = {
  cwd: folder({
    label: 'Folder (cwd)',
    help: "Where the agent works; it may write here. Absolute, ~/… for your home, or relative to the table's folder.",
    fix: 'set cwd to the profile\'s folder, e.g. cwd = "~/assistants/coder"',
  }),
  backend: choice(BACKENDS, 'codex', {
    label: 'Backend',
    help: 'The agent program Angelia runs; only codex for now.',
    fix: 'use backend = "codex" or leave it out',
  }),
  bin: optionalText(text1, {
    label: 'Codex executable (bin)',
    help: 'Leave empty for the Codex Angelia ships with.',
    fix: 'give the full path of the codex executable, or leave bin out to use the bundled one',
    placeholder: 'the pinned @openai/codex',
  }),
  permission_mode: choice(PERMISSION_MODES, 'acceptEdits', { label: 'Permission mode', help: '', fix: `use one of ${PERMISSION_MODES.join(', ')}` }),
  sandbox: flag(true, {
    label: 'Sandbox',
    help: "Codex's own OS sandbox holds the agent to the permission table below.",
    fix: 'use sandbox = true (recommended) or sandbox = false',
  }),
  add_dirs: folders({
    label: 'Extra folders',
    help: "On top of its own folder. Absolute, ~/…, or relative to the table's folder.",
    fix: 'use a list of folders, e.g. add_dirs = ["~/projects/site"]',
  }),
  /**
   * Folders (or files) the agent may read besides its own folder and add_dirs: nothing else in HOME is
   * readable (docs/security-model.md "Filesystem: private by default"). Absent: READ_DIRS_STARTER.
   */
  read_dirs: optionalFolders({
    label: 'Read-only folders',
    help: "Nothing else of your home is readable: not your keys, histories or other tools' data. Absolute, ~/…, or relative to the table's folder.",
    fix: 'use a list of folders the agent may read, e.g. read_dirs = ["~/.local/bin", "~/notes"] (leave it out for the toolchain starter set)',
  }),
  model: optionalText(z.string().regex(MODEL_NAME, { error: 'must be one word that does not start with "-"' }), {
    label: 'Model',
    help: '',
    fix: 'use one model name, e.g. model = "gpt-5.5", or leave it out',
  }),
  effort: optionalChoice(EFFORTS, { label: 'Effort', help: '', fix: `use one of ${EFFORTS.join(', ')}, or leave it out` }),
  capabilities: names({
    label: 'Give',
    help: 'Capabilities on top of the defaults (names from [capabilities.…] in the table).',
    fix: 'list capability names defined under [capabilities.<name>], e.g. capabilities = ["github"]',
    placeholder: 'none beyond the defaults',
    suggest: 'capabilities',
  }),
  except: names({
    label: 'Except',
    help: 'Default capabilities this profile does not get.',
    fix: 'list default capability names this profile does not get, e.g. except = ["github"]',
    placeholder: 'none',
    suggest: 'capabilities',
  }),
  deny: names({
    label: 'Deny',
    help: 'Denied outright; beats everything.',
    fix: 'list capability names to deny, e.g. deny = ["github"]',
    placeholder: 'none beyond the defaults',
    suggest: 'capabilities',
  }),
  unsafe_ok: flag(false, {
    label: 'unsafe_ok',
    help: 'allows bypassPermissions on a folder that holds .env or secrets.',
    fix: 'use unsafe_ok = true or false',
  }),
  isolated: flag(false, {
    label: 'Isolated',
    help: 'cannot message or be messaged by other profiles, and gets no _common/ folder.',
    fix: 'use isolated = true or false',
  }),
  shared_write: flag(false, {
    label: 'May edit shared doctrine (shared_write)',
    help: "write to the workspace's _shared/ and _capabilities/ (read-only otherwise).",
    fix: 'use shared_write = true or false',
  }),
  accept_from: refs({
    label: 'Takes tasks from (accept_from)',
    help: 'Who may give it a task with angelia turn.',
    fix: 'list profile names, e.g. accept_from = ["coder"], or "*" for every profile',
  }),
  answer_from: refs({
    label: 'Answers questions from (answer_from)',
    help: 'Who may ask it with angelia ask (answered in a read-only copy).',
    fix: 'list profile names, e.g. answer_from = ["coder"], or "*" for every profile',
  }),
  media_tags: flag(false, {
    label: 'Media lines (media_tags)',
    help: 'honour MEDIA:<absolute path> lines in its replies (read by nothing in this version; kept as written).',
    fix: 'use media_tags = true or false',
  }),
  /**
   * Variables of Angelia's environment passed to the agent's commands on purpose (names only; the value
   * is Angelia's): every other variable is kept from them (docs/security-model.md "Environment of the
   * agent's commands").
   */
  env: names(
    {
      label: 'Variables for its commands (env)',
      help: "Names of variables of Angelia's environment its commands get (the value stays Angelia's); every other variable is kept from them.",
      // One key for both: a profile's env goes to its agent's commands, an mcp capability's to its server.
      fix: 'list variable NAMES, e.g. env = ["GITHUB_TOKEN"] (a profile: passed to its agent\'s commands; an mcp capability: to its server), and put the values in <state>/env',
      placeholder: 'none',
    },
    envNameSchema,
  ),
  /**
   * Which native notifications the desktop app shows for this profile's chats (src/main/electron/notifyPolicy.ts):
   * `all`, `requests` (approvals, questions, MCP elicitations) or `none`. The tray counts requests whatever it says.
   */
  notifications: choice(NOTIFICATION_SETTINGS, 'all', {
    label: 'Notifications',
    help: 'Desktop notifications for its chats: all (requests, finished and failed turns, usage limits), requests (approvals and questions only) or none. The tray still counts what waits.',
    fix: `use one of ${NOTIFICATION_SETTINGS.join(', ')}, e.g. notifications = "requests", or leave it out for "all"`,
  }),
};

/** The fields, by key. */
export type ProfileFields = typeof PROFILE_FIELDS;
/** One key of `[profiles.<name>]`. */
export type FieldKey = keyof ProfileFields;
/** Every key, in the table's order. */
export const FIELD_KEYS = Object.keys(PROFILE_FIELDS) as FieldKey[];

/** The spec of `key` (loosely typed, for code that walks every field). */
export function fieldSpec(key: FieldKey): FieldSpec {
  return PROFILE_FIELDS[key];
}

/** The table's schema of each key (core/table/schema.ts makes it strict and adds the core's own checks). */
export const profileTableShape = Object.fromEntries(FIELD_KEYS.map((k) => [k, PROFILE_FIELDS[k].table])) as { [K in FieldKey]: ProfileFields[K]['table'] };

/** The draft's schema of each key (contract `ProfileDraft` adds `name`). */
export const profileDraftShape = Object.fromEntries(FIELD_KEYS.map((k) => [k, PROFILE_FIELDS[k].draft])) as { [K in FieldKey]: ProfileFields[K]['draft'] };

/** The values of a draft, by key (without `name`). */
export type DraftValues = { [K in FieldKey]: z.output<ProfileFields[K]['draft']> };

/**
 * The value a key takes in a draft when the table leaves it out: the table's default (`sandbox` true,
 * `permission_mode` "acceptEdits", lists [] …), null for a key without one (`bin`, `model`, `effort`,
 * `read_dirs`) and for `cwd` (it is required).
 */
export function fieldDefault<K extends FieldKey>(key: K): DraftValues[K] | null {
  const parsed = PROFILE_FIELDS[key].table.safeParse(undefined);
  return parsed.success ? ((parsed.data ?? null) as DraftValues[K] | null) : null;
}

/** The fix of a load error about each key (core/table/schema.ts `FIELD_FIXES` adds the other sections'). */
export const PROFILE_FIXES: Record<FieldKey, string> = Object.fromEntries(FIELD_KEYS.map((k) => [k, PROFILE_FIELDS[k].fix])) as Record<FieldKey, string>;

/** A section of the editor: its title, its test id (`section-<id>`) and its keys in the order shown. */
export interface EditorSection {
  id: string;
  title: string;
  fields: readonly FieldKey[];
  /** Folded away for a new profile (its defaults are safe). */
  foldedWhenNew: boolean;
}

/**
 * The editor's sections, in order, with the keys each shows. Every key is in exactly one (a test holds
 * it). The profile's name heads the first; `model` and `effort` show as one pair.
 */
export const EDITOR_SECTIONS: readonly EditorSection[] = [
  { id: 'profile', title: 'Profile', fields: ['cwd'], foldedWhenNew: false },
  { id: 'access', title: 'What it may do', fields: ['permission_mode', 'sandbox'], foldedWhenNew: false },
  { id: 'folders', title: 'Folders it may write (add_dirs)', fields: ['add_dirs'], foldedWhenNew: false },
  { id: 'read-folders', title: 'Folders it may read (read_dirs)', fields: ['read_dirs'], foldedWhenNew: false },
  { id: 'model', title: 'Model', fields: ['model', 'effort'], foldedWhenNew: true },
  { id: 'capabilities', title: 'Capabilities', fields: ['capabilities', 'except', 'deny'], foldedWhenNew: true },
  { id: 'others', title: 'Other profiles', fields: ['isolated', 'accept_from', 'answer_from', 'shared_write'], foldedWhenNew: true },
  { id: 'advanced', title: 'Advanced', fields: ['unsafe_ok', 'bin', 'env', 'media_tags', 'notifications', 'backend'], foldedWhenNew: true },
];

/**
 * The starting values of a new profile: every key at its default, except the mode, `default` (it asks
 * before anything more).
 */
export function newProfileValues(): DraftValues {
  const out = Object.fromEntries(FIELD_KEYS.map((k) => [k, fieldDefault(k)])) as DraftValues;
  return { ...out, cwd: '', permission_mode: 'default' };
}
