/**
 * THE contract between the renderer and whichever host runs it (Electron IPC or the headless host's
 * WebSocket). Channels are `domain:verb`, declared once with zod schemas for input and output; events
 * are declared once with zod schemas for their payload. Hosts are generic over these tables: main
 * parses every input (the renderer is untrusted) and answers `Result<T>`.
 *
 * Nothing here imports Node, Electron or React.
 */
import { z } from 'zod';
import type { Result } from './result';

/** Who enforces the sandbox, in the model of Codex's PermissionProfile (codex 0.169.0). */
export const Enforcement = z.enum(['managed', 'disabled', 'external']);
export type Enforcement = z.infer<typeof Enforcement>;

/** What an agent is doing, as the tray and the chat list show it. */
export const AgentState = z.enum(['idle', 'starting', 'working', 'needs-you', 'error', 'refused', 'stopped']);
export type AgentState = z.infer<typeof AgentState>;

/** Angelia's permission modes (product.md §2). */
export const PermissionMode = z.enum(['default', 'acceptEdits', 'bypassPermissions', 'plan']);
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
});
export type ProfileView = z.infer<typeof ProfileView>;

/** One chat (one conversation with one profile's agent). */
export const ChatView = z.object({
  id: z.string(),
  profile: z.string(),
  state: AgentState,
  /** Codex thread id of the active session, once Codex minted one. */
  threadId: z.string().nullable(),
  /** The enforcement Codex reported on the last thread start/resume; null before the first start. */
  enforcement: Enforcement.nullable(),
  /** The last line of the chat, for the list. */
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
});
export type ChatView = z.infer<typeof ChatView>;

export const CommandStatus = z.enum(['running', 'completed', 'failed', 'declined']);

/** One entry of a chat's transcript. Items are upserted by `id`; deltas append to `text`/`output`. */
export const ChatItem = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('user'),
    id: z.string(),
    text: z.string(),
    /** How it reached the agent: a turn of its own, a steer into the running turn, or the reason typed with a Deny. */
    via: z.enum(['turn', 'steer', 'denyReason']).optional(),
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
  }),
]);
export type ChatItem = z.infer<typeof ChatItem>;

/** The kinds of server request Codex can send (codex 0.169.0 ServerRequest), by our names. */
export const ApprovalKind = z.enum(['command', 'fileChange', 'permissions', 'userInput', 'elicitation', 'unknown']);
export type ApprovalKind = z.infer<typeof ApprovalKind>;

/** The answers a person can give. Deny = Codex `decline` (the turn goes on); cancel = "Deny and stop". */
export const ApprovalAnswer = z.enum(['allow', 'allowForSession', 'deny', 'cancel']);
export type ApprovalAnswer = z.infer<typeof ApprovalAnswer>;

/** Who answered an approval. */
export const AnswerSource = z.enum(['window', 'notification', 'tray', 'cli', 'api', 'timeout', 'codex']);
export type AnswerSource = z.infer<typeof AnswerSource>;

/** Folders a permissions request asks for (absolute paths). */
export const RequestedAccess = z.object({
  read: z.array(z.string()),
  write: z.array(z.string()),
  network: z.boolean(),
});
export type RequestedAccess = z.infer<typeof RequestedAccess>;

/** One approval request exactly as it is shown: what is asked, and which answers are offered. */
export const ApprovalView = z.object({
  id: z.string(),
  chatId: z.string(),
  profile: z.string(),
  kind: ApprovalKind,
  /** One line: what the agent wants. */
  title: z.string(),
  command: z.string().nullable(),
  cwd: z.string().nullable(),
  reason: z.string().nullable(),
  /** File changes of a fileChange request (path, kind, unified diff). */
  changes: z.array(z.object({ path: z.string(), kind: z.string(), diff: z.string() })),
  /** Folders a permissions request (or a command with additional permissions) asks for. */
  requested: RequestedAccess.nullable(),
  /** The answers offered, from Codex's `availableDecisions` when given. */
  answers: z.array(ApprovalAnswer),
  createdAt: z.string(),
  state: z.enum(['pending', 'answered', 'withdrawn', 'timedOut']),
  answer: ApprovalAnswer.nullable(),
  by: AnswerSource.nullable(),
  /** What an Allow of a permissions request granted (a subset of `requested`); null otherwise. */
  granted: RequestedAccess.nullable(),
  /** The reason typed with a Deny (sent to the agent as a steer after the decline, field case B08). */
  denyReason: z.string().nullable(),
});
export type ApprovalView = z.infer<typeof ApprovalView>;

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

/** The outcome of answering: only the first answer is written to Codex. */
export const AnswerOutcome = z.object({
  outcome: z.enum(['answered', 'already-answered', 'unknown']),
  /** The answer in force (the earlier one when already answered). */
  answer: ApprovalAnswer.nullable(),
  by: AnswerSource.nullable(),
});
export type AnswerOutcome = z.infer<typeof AnswerOutcome>;

const empty = z.object({}).strict();

/** The invoke table: channel → input and output schemas. */
export const invokeTable = {
  'app:info': { input: empty, output: z.object({ version: z.string(), stateDir: z.string(), codexVersion: z.string().nullable() }) },
  'profiles:list': { input: empty, output: z.array(ProfileView) },
  'chats:list': { input: empty, output: z.array(ChatView) },
  'chats:items': { input: z.object({ chatId: z.string() }).strict(), output: z.array(ChatItem) },
  /** A new chat on a profile (several chats may share one; each has its own sessions). */
  'chats:create': { input: z.object({ profile: z.string() }).strict(), output: ChatView },
  /**
   * A message, or a command (`/new`, `/resume`, `/model`, `/effort`, `/compact`, `/stop`, `/status`,
   * `/export`, `/help`), answered in the transcript. `steer: true` sends it into the running turn
   * (`turn/steer`) instead of queueing it; with no turn running it starts one.
   */
  'chats:send': {
    input: z.object({ chatId: z.string(), text: z.string().min(1).max(100_000), steer: z.boolean().optional() }).strict(),
    output: z.object({ queued: z.number().int(), steered: z.boolean().optional(), command: z.string().nullable().optional() }),
  },
  'chats:interrupt': { input: z.object({ chatId: z.string() }).strict(), output: z.object({ interrupted: z.boolean() }) },
  /** Starts the chat's Codex again after a crash or a refusal and resumes its thread (no message sent). */
  'chats:restart': { input: z.object({ chatId: z.string() }).strict(), output: z.object({ started: z.boolean() }) },
  'chats:sessions': { input: z.object({ chatId: z.string() }).strict(), output: z.array(SessionView) },
  'approvals:list': { input: empty, output: z.array(ApprovalView) },
  /**
   * Answers an approval; the first answer wins. `grant` (permissions requests, Allow only) grants a subset
   * of what was asked; `reason` (Deny only) is sent to the agent after the decline as a steer.
   */
  'approvals:answer': {
    input: z.object({ id: z.string(), answer: ApprovalAnswer, grant: RequestedAccess.optional(), reason: z.string().min(1).max(4000).optional() }).strict(),
    output: AnswerOutcome,
  },
} as const;

/** The event table: event name → payload schema. */
export const eventTable = {
  'chat:updated': ChatView,
  'chat:item': z.object({ chatId: z.string(), item: ChatItem }),
  'chat:delta': z.object({ chatId: z.string(), itemId: z.string(), field: z.enum(['text', 'output']), delta: z.string() }),
  'approval:updated': ApprovalView,
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

/** A message from the headless host to a WebSocket client. */
export type WsServerMessage =
  | { type: 'result'; id: string | number | null; result: Result<unknown> }
  | { type: 'event'; event: AppEvent };
