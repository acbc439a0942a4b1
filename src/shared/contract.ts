/**
 * THE contract between the renderer and whichever host runs it (Electron IPC or the headless host's
 * WebSocket). Channels are `domain:verb`, declared once with zod schemas for input and output; events
 * are declared once with zod schemas for their payload. Hosts are generic over these tables: main
 * parses every input (the renderer is untrusted) and answers `Result<T>`.
 *
 * Nothing here imports Node, Electron or React.
 */
import { z } from 'zod';
import { NOTIFICATION_SETTINGS, PERMISSION_MODES, profileDraftShape } from './profileFields';
import type { Result } from './result';
import { ChatUsage, HomeUsage } from './usage';
import { AccountView, LoginProgress, LoginRequest } from './account';
import { AnswerOutcome, ApprovalAnswer, ApprovalView, RequestedAccess } from './approvals';
import { ElicitContent, QuestionAnswers } from './questions';
import { ImageData, ImageRef, SendImages } from './images';
import { HeadDiffRequest, HeadDiffView, TurnChanges, TurnDiffRequest, TurnDiffView } from './turnDiff';
import {
  SessionPage,
  SessionSearchResult,
  SessionSummary,
  SessionsArchiveInput,
  SessionRef,
  SessionsListInput,
  SessionsRenameInput,
  SessionsSearchInput,
} from './sessions';

export * from './approvals';
export * from './questions';

export { ProfileRefs } from './profileFields';

/** Who enforces the sandbox, in the model of Codex's PermissionProfile (codex 0.169.0). */
export const Enforcement = z.enum(['managed', 'disabled', 'external']);
export type Enforcement = z.infer<typeof Enforcement>;

/** What an agent is doing, as the tray and the chat list show it. */
export const AgentState = z.enum(['idle', 'starting', 'working', 'needs-you', 'error', 'refused', 'stopped']);
export type AgentState = z.infer<typeof AgentState>;

/** Angelia's permission modes (Claude Code's names; modeLabel.ts words them). */
export const PermissionMode = z.enum(PERMISSION_MODES);
export type PermissionMode = z.infer<typeof PermissionMode>;

/** One profile as the UI lists it. Paths are absolute. */
export const ProfileView = z.object({
  name: z.string(),
  cwd: z.string(),
  permissionMode: PermissionMode,
  sandboxed: z.boolean(),
  addDirs: z.array(z.string()),
  model: z.string().nullable(),
  effort: z.string().nullable(),
  /** Which desktop notifications its chats get (profile field `notifications`); absent (hosts older than this field): `all`. */
  notifications: z.enum(NOTIFICATION_SETTINGS).optional(),
});
export type ProfileView = z.infer<typeof ProfileView>;

/**
 * The permission mode, approval policy and sandbox shown for a chat, and where they come from.
 * `attested`: the chat's Codex runs, and these are what its start was attested with (the thread
 * answer of codex 0.169.0, `approvalPolicy` and `sandbox`); the table in force is never shown as if
 * the running process had it. `next-start`: no Codex runs; these are what the accepted table WILL apply
 * at the next start (nothing is in force now).
 */
export const ChatMode = z.object({
  source: z.enum(['attested', 'next-start']),
  permissionMode: PermissionMode.nullable(),
  /** Codex's approval policy (`on-request`, `never`, …); null when unknown. */
  approvalPolicy: z.string().nullable(),
  /** `managed` / `external` / `disabled` (full access): attested, or for `next-start` what the table asks for. */
  sandbox: Enforcement.nullable(),
  /** When the running process was attested (ISO time); null for `next-start`. */
  attestedAt: z.string().nullable(),
  /**
   * While Codex runs: why the table in force for this profile differs from what the process has
   * ("profile changed: restart this chat to apply (…)"), else null. Always null for `next-start`.
   */
  tableChanged: z.string().nullable(),
});
export type ChatMode = z.infer<typeof ChatMode>;

/** One chat (one conversation with one profile's agent). */
export const ChatView = z.object({
  id: z.string(),
  profile: z.string(),
  state: AgentState,
  /** Codex thread id of the active session, once Codex minted one. */
  threadId: z.string().nullable(),
  /** The enforcement Codex reported on the last thread start/resume; null before the first start. */
  enforcement: Enforcement.nullable(),
  /**
   * The last line of the chat, for the list (one line, at most 120 characters). Kept with the active
   * session row (sessions.json `last_line`), so it shows after a restart before the transcript is read.
   */
  lastLine: z.string(),
  /** Why the last start was refused, with the fix; null when not refused. */
  refusal: z.string().nullable(),
  pendingApprovals: z.number().int().nonnegative(),
  queued: z.number().int().nonnegative(),
  /** The active session's label (its first message, ≤ 60 characters); "" before the first message. */
  label: z.string(),
  /** The active session's id (a local UUID until Codex mints the thread, then the thread id). */
  sessionId: z.string().nullable(),
  /** The model and reasoning effort in force, as Codex reported them on the last thread start/resume. */
  model: z.string().nullable(),
  effort: z.string().nullable(),
  /** Session-only overrides set by `/model` and `/effort` (null: the profile's value or Codex's default). */
  overrides: z.object({ model: z.string().nullable(), effort: z.string().nullable() }),
  /** What the agent is doing right now beyond its state ("Compacting…", "No output for 30 min"), or null. */
  activity: z.string().nullable(),
  /** The mode, approval policy and sandbox to show (see ChatMode); absent only from hosts older than this field. */
  mode: ChatMode.optional(),
  /** Tokens of the last turn and the session, and context used (codex `thread/tokenUsage/updated`); null before any. */
  usage: ChatUsage.nullable().optional(),
  /** While the account's usage limit is reached: when queued turns resume (ISO 8601); else null. */
  pausedUntil: z.string().nullable().optional(),
});
export type ChatView = z.infer<typeof ChatView>;

/** A command's or file change's status; `interrupted`: still running when its turn was stopped or Codex exited. */
export const CommandStatus = z.enum(['running', 'completed', 'failed', 'declined', 'interrupted']);

/** One entry of a chat's transcript. Items are upserted by `id`; deltas append to `text`/`output`. */
export const ChatItem = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('user'),
    id: z.string(),
    text: z.string(),
    /** How it reached the agent: a turn of its own, a steer into the running turn, or the reason typed with a Deny. */
    via: z.enum(['turn', 'steer', 'denyReason']).optional(),
    /** The loopback API's turn id (`POST /turn` answered it) this message was queued with; absent for the window's own. */
    apiTurn: z.string().optional(),
    /**
     * An app turn (`POST /turn` with `reply: "caller"`): it runs in this chat's thread, but its answer is
     * for the caller (the API event stream); the window folds it and marks it, and it is not the chat's last line.
     */
    app: z.boolean().optional(),
    /** The images it gave the agent (Codex `localImage`; shared/images.ts), shown as thumbnails through `chats:image`. */
    images: z.array(ImageRef).optional(),
  }),
  z.object({ type: z.literal('agent'), id: z.string(), text: z.string(), done: z.boolean() }),
  z.object({ type: z.literal('reasoning'), id: z.string(), text: z.string() }),
  z.object({
    type: z.literal('command'),
    id: z.string(),
    command: z.string(),
    cwd: z.string(),
    output: z.string(),
    exitCode: z.number().nullable(),
    status: CommandStatus,
  }),
  z.object({
    type: z.literal('fileChange'),
    id: z.string(),
    changes: z.array(z.object({ path: z.string(), kind: z.string(), diff: z.string() })),
    status: CommandStatus,
  }),
  z.object({ type: z.literal('approval'), id: z.string(), approvalId: z.string() }),
  z.object({ type: z.literal('notice'), id: z.string(), text: z.string() }),
  /** A warning the user must see before the agent acts (a start with full access, sandbox = false): drawn red. */
  z.object({ type: z.literal('warning'), id: z.string(), text: z.string() }),
  z.object({
    type: z.literal('error'),
    id: z.string(),
    message: z.string(),
    detail: z.string().nullable(),
    /** Why, by Codex's `codexErrorInfo` (not by text): usageLimit, rateLimit, overloaded, modelUnavailable, contextWindow, crashed… */
    kind: z.string().optional(),
    /** What the user can do here: `restart` starts Codex again and resumes the thread (`chats:restart`). */
    action: z.enum(['restart']).optional(),
  }),
  z.object({
    type: z.literal('turnEnd'),
    id: z.string(),
    status: z.enum(['completed', 'failed', 'interrupted']),
    reason: z.string().nullable(),
    /** The loopback API's turn id of the turn that ended, when it was queued by `POST /turn`. */
    apiTurn: z.string().optional(),
    /** Codex's id of the turn (its changes: `chats:turnDiff`); absent when it never reached Codex. */
    turnId: z.string().optional(),
    /** What the turn changed in files, in short (shared/turnDiff.ts); absent when it changed none. */
    changes: TurnChanges.optional(),
  }),
]);
export type ChatItem = z.infer<typeof ChatItem>;

/** Error item kinds of a start that did not happen (chats/restart.ts `failStart`): nothing was sent to the agent. */
export const START_FAILURE_KINDS: ReadonlySet<string> = new Set(['refused', 'startFailed', 'threadBusy']);

/** One session of a chat, as `/resume` and `chats:sessions` list it (most recently used first). */
export const SessionView = z.object({
  id: z.string(),
  threadId: z.string().nullable(),
  label: z.string(),
  turns: z.number().int().nonnegative(),
  lastUsedAt: z.string(),
  active: z.boolean(),
});
export type SessionView = z.infer<typeof SessionView>;

// ---- profiles, the table, the policy ----------------------------------------------------------

/**
 * One profile's table fields exactly as the editor edits them: raw values as written in the table
 * (paths may use `~`); null = the field is left out of the table (its default applies). Every key but
 * `name` comes from the one list of a profile's fields (profileFields.ts `PROFILE_FIELDS`).
 */
export const ProfileDraft = z.object({
  name: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/, 'one word of letters, digits, _ and -')
    .max(64),
  ...profileDraftShape,
});
export type ProfileDraft = z.infer<typeof ProfileDraft>;

/** A problem with a table field: its key path, what is wrong, and the fix. */
export const TableIssue = z.object({ path: z.array(z.string()), message: z.string(), fix: z.string() });
export type TableIssue = z.infer<typeof TableIssue>;

/** One line of a compile plan (`+` add, `-` remove, `~` change, CONFLICT, note). */
export const PlanLineView = z.object({ kind: z.enum(['+', '-', '~', 'CONFLICT', 'note']), text: z.string() });

/**
 * One entry of a profile's effective permission table: what Codex's sandbox gets for a path, and why
 * (`floor`, `cwd`, `add_dirs`, `capability:<name>`, `mode`, `shared`, `common`, `cache`, `codex` …).
 */
export const PolicyEntry = z.object({
  path: z.string(),
  access: z.enum(['read', 'write', 'deny']),
  origin: z.string(),
  note: z.string().nullable(),
  /** Where a symlinked path really points (Codex binds the target, not the link), else null. */
  symlinkTarget: z.string().nullable(),
});
export type PolicyEntry = z.infer<typeof PolicyEntry>;

/** What saving a draft would do: validation, the compile plan, the effective permission table. Nothing is written. */
export const ProfilePreview = z.object({
  profile: z.string(),
  /** False when the table with this draft would not load (errors say why). */
  valid: z.boolean(),
  errors: z.array(TableIssue),
  warnings: z.array(TableIssue),
  plan: z.array(PlanLineView),
  entries: z.array(PolicyEntry),
  network: z.object({ enabled: z.boolean(), note: z.string().nullable() }),
  /** The Codex argv the profile compiles to (`-c` pairs). */
  codexArgs: z.array(z.string()),
});
export type ProfilePreview = z.infer<typeof ProfilePreview>;

/** One probe of `angelia verify`. `pass` null = did not run. */
export const ProbeView = z.object({
  name: z.string(),
  path: z.string(),
  op: z.string(),
  expected: z.string(),
  observed: z.string(),
  pass: z.boolean().nullable(),
});

/** `angelia verify` for one profile: the probes run in the real sandbox with the profile's own flags. */
/**
 * What a command of the profile sees in HOME (verify's scan; docs/security-model.md "Filesystem: private
 * by default"): the grants there, every other path seen (`as`: way, denied, carve-out, not granted) and
 * the ones not granted (must be none).
 */
export const HomeScanView = z.object({
  root: z.string(),
  grants: z.array(z.string()),
  seen: z.array(z.object({ path: z.string(), kind: z.string(), as: z.enum(['grant', 'carve-out', 'way', 'denied', 'not granted']) })),
  notGranted: z.array(z.string()),
});

export const VerifyView = z.object({
  profile: z.string(),
  codexVersion: z.string().nullable(),
  probes: z.array(ProbeView),
  pass: z.boolean(),
  home: HomeScanView.optional(),
});
export type VerifyView = z.infer<typeof VerifyView>;

/** The policy inspector: the effective table now in force, and what it was attested against. */
export const PolicyView = ProfilePreview.extend({
  /** The Codex version the last thread start of this profile was attested against (null: not started yet). */
  attestedCodexVersion: z.string().nullable(),
  attestedAt: z.string().nullable(),
  enforcement: Enforcement.nullable(),
  /**
   * Each chat of this profile whose Codex runs now, with what its start was attested with (its own
   * grants: it keeps them until it restarts, whatever the table in force says).
   */
  running: z.array(z.object({ chatId: z.string(), mode: ChatMode, codexVersion: z.string().nullable() })).optional(),
});
export type PolicyView = z.infer<typeof PolicyView>;

/** What a save did: the table written (with a backup), accepted, compiled, and verified. */
export const SaveResult = z.object({
  profile: z.string(),
  tableFile: z.string(),
  /** The previous table, kept before writing. */
  backupFile: z.string().nullable(),
  preview: ProfilePreview,
  verify: VerifyView.nullable(),
});
export type SaveResult = z.infer<typeof SaveResult>;

/** One field-level change between the accepted table and the table on disk. */
export const TableChangeView = z.object({
  path: z.array(z.string()),
  kind: z.enum(['added', 'removed', 'changed', 'item-added', 'item-removed', 'reordered']),
  before: z.unknown().optional(),
  after: z.unknown().optional(),
});

/** The table on disk compared with the accepted one Angelia runs on. */
export const TableChangesView = z.object({
  tableFile: z.string(),
  differs: z.boolean(),
  changes: z.array(TableChangeView),
  /** Why the table on disk cannot be accepted as it stands, or null. */
  error: z.object({ message: z.string(), where: z.string().nullable(), fix: z.string().nullable() }).nullable(),
});
export type TableChangesView = z.infer<typeof TableChangesView>;

/** A model Codex offers (`model/list`, codex 0.169.0), for the editor's pickers. */
export const ModelView = z.object({
  id: z.string(),
  name: z.string(),
  efforts: z.array(z.string()),
  defaultEffort: z.string().nullable(),
  isDefault: z.boolean(),
});

/** One key of Codex's own config in force (`config/read`, codex 0.169.0): its value and the layer that set it, in words. */
export const CodexSetting = z.object({ value: z.string(), source: z.string() });
export type CodexSetting = z.infer<typeof CodexSetting>;

/**
 * What the editor's model and effort pickers need (`models:list`): the models Codex offers the profile;
 * what Codex's own config sets when the profile sets nothing (`model`, `model_reasoning_effort` of
 * `config/read` with the profile's folder; null = not set there; `error` when it could not be read); and
 * the efforts the table accepts (the table schema's list).
 */
export const ModelsView = z.object({
  models: z.array(ModelView),
  codexConfig: z.object({ model: CodexSetting.nullable(), effort: CodexSetting.nullable(), error: z.string().nullable() }),
  tableEfforts: z.array(z.string()),
});
export type ModelsView = z.infer<typeof ModelsView>;

const empty = z.object({}).strict();

/** The invoke table: channel → input and output schemas. */
export const invokeTable = {
  /** `codexHomes`: the instance's Codex home and `~/.codex` when it is another (no profile is given either). */
  'app:info': {
    input: empty,
    output: z.object({ version: z.string(), stateDir: z.string(), codexHomes: z.array(z.string()), codexVersion: z.string().nullable() }),
  },
  'profiles:list': { input: empty, output: z.array(ProfileView) },
  'chats:list': { input: empty, output: z.array(ChatView) },
  'chats:items': { input: z.object({ chatId: z.string() }).strict(), output: z.array(ChatItem) },
  /** A new chat on a profile (several chats may share one; each has its own sessions). */
  'chats:create': { input: z.object({ profile: z.string() }).strict(), output: ChatView },
  /**
   * A message, or a command (`/new`, `/resume`, `/model`, `/effort`, `/compact`, `/stop`, `/status`,
   * `/export`, `/help`), answered in the transcript. `steer: true` sends it into the running turn
   * (`turn/steer`) instead of queueing it; with no turn running it starts one. `images`: files attached
   * with `chats:attach` given to the agent as images (shared/images.ts); the text may then be empty.
   */
  'chats:send': {
    input: z
      .object({ chatId: z.string(), text: z.string().max(100_000), steer: z.boolean().optional(), images: SendImages.optional() })
      .strict()
      .refine((v) => v.text.length > 0 || v.images !== undefined, { message: 'a message needs text or images', path: ['text'] }),
    output: z.object({ queued: z.number().int(), steered: z.boolean().optional(), command: z.string().nullable().optional() }),
  },
  'chats:interrupt': { input: z.object({ chatId: z.string() }).strict(), output: z.object({ interrupted: z.boolean() }) },
  /** Starts the chat's Codex again after a crash or a refusal and resumes its thread (no message sent). */
  'chats:restart': { input: z.object({ chatId: z.string() }).strict(), output: z.object({ started: z.boolean() }) },
  'chats:sessions': { input: z.object({ chatId: z.string() }).strict(), output: z.array(SessionView) },
  /** A window shows the chat (opened, or its window focused): its agent may start before the first message (docs/architecture.md "Warm agents"). */
  'chats:shown': { input: z.object({ chatId: z.string() }).strict(), output: z.object({}).strict() },
  /** Find past work (src/shared/sessions.ts): a chat's sessions paged, a search over every chat's, rename, archive, one read-only. */
  'sessions:list': { input: SessionsListInput, output: SessionPage },
  'sessions:search': { input: SessionsSearchInput, output: SessionSearchResult },
  'sessions:rename': { input: SessionsRenameInput, output: SessionSummary },
  'sessions:archive': { input: SessionsArchiveInput, output: SessionSummary },
  'sessions:open': { input: SessionRef, output: z.object({ session: SessionSummary, items: z.array(ChatItem) }) },
  /**
   * A file dropped into the chat: copied into the profile's `.inbox/` (mode 600, name sanitised, never
   * over an existing file) after path checks; the chat gets a line naming it. At most 25 MB.
   */
  'chats:attach': {
    input: z.object({ chatId: z.string(), name: z.string().min(1).max(255), dataBase64: z.string().max(35_000_000) }).strict(),
    output: z.object({ path: z.string() }),
  },
  /** The bytes of an image a `user` item of the chat records (`images[].path`), for its thumbnail (core/chats/images.ts). */
  'chats:image': { input: z.object({ chatId: z.string(), path: z.string().max(4096) }).strict(), output: ImageData },
  /** One turn's changes (shared/turnDiff.ts): Codex's turn diff, else its file-change items (core/chats/turnDiff/). */
  'chats:turnDiff': { input: TurnDiffRequest, output: TurnDiffView },
  /** The chat's folder against git's HEAD (`git diff HEAD`, run by Angelia, never by the agent). */
  'chats:headDiff': { input: HeadDiffRequest, output: HeadDiffView },
  'approvals:list': { input: empty, output: z.array(ApprovalView) },
  /**
   * Answers an approval; the first answer wins. `grant` (permissions requests, Allow only) grants a subset
   * of what was asked; `reason` (Deny only) is sent to the agent after the decline as a steer; `answers`
   * (agent questions, Allow only) and `content` (form elicitations, Allow only): questions.ts.
   */
  'approvals:answer': {
    input: z
      .object({
        id: z.string(),
        answer: ApprovalAnswer,
        grant: RequestedAccess.optional(),
        reason: z.string().min(1).max(4000).optional(),
        answers: QuestionAnswers.optional(),
        content: ElicitContent.optional(),
      })
      .strict(),
    output: AnswerOutcome,
  },
  /** One profile's fields as written in the table (for the editor). */
  'profiles:get': { input: z.object({ name: z.string() }).strict(), output: ProfileDraft },
  /** What saving `draft` would do (`original`: the profile's name before a rename, null for a new one). Writes nothing. */
  'profiles:preview': { input: z.object({ draft: ProfileDraft, original: z.string().nullable() }).strict(), output: ProfilePreview },
  /**
   * Saves a draft: the table is edited in place (comments and layout kept: core/profiles/tableEdit.ts),
   * the previous version kept as a backup, then accepted, compiled (`compile --write`) and verified. A
   * GUI save by the owner is the acceptance. Throws (AppFailure naming the field and fix) when the draft
   * is invalid.
   */
  'profiles:save': { input: z.object({ draft: ProfileDraft, original: z.string().nullable() }).strict(), output: SaveResult },
  /** A new profile: creates the folder (and a starter CLAUDE.md when asked), then saves like `profiles:save`. */
  'profiles:create': { input: z.object({ draft: ProfileDraft, starterClaudeMd: z.boolean() }).strict(), output: SaveResult },
  /** The policy inspector: the effective permission table in force and its attestation. */
  'profiles:policy': { input: z.object({ name: z.string() }).strict(), output: PolicyView },
  /** Runs `angelia verify` for a profile (the sandbox probes). */
  'profiles:verify': { input: z.object({ name: z.string() }).strict(), output: VerifyView },
  /** The models Codex offers for a profile (cached), and its config in force (a short-lived app-server). */
  'models:list': { input: z.object({ profile: z.string() }).strict(), output: ModelsView },
  /** The table on disk compared with the accepted one. */
  'table:changes': { input: empty, output: TableChangesView },
  /** Accepts the table on disk (as `angelia accept`); new starts use it. */
  'table:accept': { input: empty, output: TableChangesView },
  /** Puts the accepted table back on disk (the discarded text kept as a backup). */
  'table:discard': { input: empty, output: TableChangesView },
  /** The latest rate limits and pause of each Codex home in use (core/usage/store.ts). */
  'usage:read': { input: empty, output: z.array(HomeUsage) },
  /** The owner's "Try now": lifts a Codex home's usage-limit pause before its time; queued work starts. */
  'usage:resume': { input: z.object({ codexHome: z.string().min(1) }).strict(), output: HomeUsage },
  /** The Codex account of Angelia's Codex home, and sign-in / sign-out (core/account/, a short-lived app-server). */
  'account:read': { input: empty, output: AccountView },
  'account:login': { input: LoginRequest, output: LoginProgress },
  'account:loginCancel': { input: z.object({ loginId: z.string().min(1).max(200) }).strict(), output: z.object({ cancelled: z.boolean() }) },
  'account:logout': { input: empty, output: AccountView },
} as const;

/** The event table: event name → payload schema. */
export const eventTable = {
  'chat:updated': ChatView,
  'chat:item': z.object({ chatId: z.string(), item: ChatItem }),
  'chat:delta': z.object({ chatId: z.string(), itemId: z.string(), field: z.enum(['text', 'output']), delta: z.string() }),
  'approval:updated': ApprovalView,
  /** The table on disk changed (or was accepted / discarded): `differs` says whether a review waits. */
  'table:changed': z.object({ differs: z.boolean(), changes: z.number().int().nonnegative() }),
  /** The profiles changed (a save, a create, an accept): the list should be read again. */
  'profiles:changed': z.object({ names: z.array(z.string()) }),
  /** A Codex home's rate limits or pause changed. */
  'usage:updated': HomeUsage,
  /** A rate-limit window reached 90 % (once per window and reset): for a native notification. */
  'usage:warning': z.object({ codexHome: z.string(), window: z.enum(['primary', 'secondary']), usedPercent: z.number(), resetsAt: z.string().nullable() }),
  /** The account changed (a sign-in, a sign-out). `account:login`: a pending sign-in completed, failed or was cancelled. */
  'account:updated': AccountView,
  'account:login': LoginProgress,
} as const;

export type InvokeTable = typeof invokeTable;
export type Channel = keyof InvokeTable;
export type InputOf<C extends Channel> = z.input<InvokeTable[C]['input']>;
export type OutputOf<C extends Channel> = z.infer<InvokeTable[C]['output']>;
export type EventName = keyof typeof eventTable;
export type PayloadOf<E extends EventName> = z.infer<(typeof eventTable)[E]>;

/** One event as it travels: its name and payload. */
export type AppEvent = { [E in EventName]: { event: E; payload: PayloadOf<E> } }[EventName];

/** What a host serves: one handler per channel (input already parsed) and one event stream. */
export interface CoreApi {
  handlers: { [C in Channel]: (input: z.infer<InvokeTable[C]['input']>) => Promise<OutputOf<C>> };
  /** Subscribes to every core event; returns the unsubscribe function. */
  subscribe(listener: (e: AppEvent) => void): () => void;
}

/** What the renderer sees (preload or WebSocket client): it cannot tell Electron from a browser. */
export interface RendererApi {
  invoke<C extends Channel>(channel: C, input: InputOf<C>): Promise<Result<OutputOf<C>>>;
  onEvent(listener: (e: AppEvent) => void): () => void;
  /**
   * The native folder picker (Electron's preload only: `dialog.showOpenDialog` with `openDirectory`,
   * src/main/electron/ipc.ts `bindFolderPicker`): an absolute path, or null when cancelled or when the
   * dialog failed (main reports why). Absent in a browser: folder fields are typed there.
   */
  pickFolder?(): Promise<string | null>;
}

/** True when `s` names a channel of the invoke table. */
export function isChannel(s: unknown): s is Channel {
  return typeof s === 'string' && Object.prototype.hasOwnProperty.call(invokeTable, s);
}

/**
 * The headless host's WebSocket wire (`/ws?token=…`), one JSON object per message. The client sends
 * invokes; the host answers each with a result carrying the same `id` (`id: null` when the message was
 * too malformed to carry one) and pushes every core event.
 */
export const WsClientMessage = z.object({
  type: z.literal('invoke'),
  id: z.union([z.string().max(200), z.number().int()]),
  channel: z.string().max(200),
  input: z.unknown().optional(),
});
export type WsClientMessage = z.infer<typeof WsClientMessage>;

/**
 * The largest WebSocket message the headless host accepts, in bytes (UTF-8 JSON). A `chats:send` text
 * (at most 100 000 characters) fits many times over; files do not go over the WebSocket (see
 * `ATTACH_ROUTE`). A client checks its message against it before sending; the host closes a
 * connection that sends more with close code 1009 (message too big).
 */
export const WS_MAX_MESSAGE_BYTES = 2 * 1024 * 1024;

/** The largest file `chats:attach` takes, in bytes (the file itself, before any base64). */
export const ATTACH_MAX_BYTES = 25 * 1024 * 1024;

/**
 * The headless host's upload route for dropped files: `POST /attach?chatId=<id>&name=<file name>` with
 * the file's bytes as the body (at most `ATTACH_MAX_BYTES`) and `Authorization: Bearer <token>`. It
 * answers a JSON `Result<OutputOf<'chats:attach'>>` — also for refusals (401 token, 403 origin, 413 too
 * big, 400 bad query) — so the client shows the same errors either way. Under Electron the file goes
 * through `chats:attach` over IPC.
 */
export const ATTACH_ROUTE = '/attach';

/** A message from the headless host to a WebSocket client. */
export type WsServerMessage = { type: 'result'; id: string | number | null; result: Result<unknown> } | { type: 'event'; event: AppEvent };
