/**
 * What the loopback API needs from the core (README "The loopback API"), as one narrow interface. The
 * API never reaches into the orchestrator: `orchestratorCore.ts` adapts the Orchestrator's public API
 * (`api()`, `broker`, `hub`, `chat(id)`) to this, and the tests drive the API with a fake.
 *
 * Events are the API's own (`turn`, `progress`, `out`, `permission`,
 * `permission-answered`, `turn-end`, each with `key` = the chat id and `at` = ISO time); the adapter
 * derives them from the contract's `chat:item` / `chat:updated` / `approval:updated` events and tags
 * each with the API turn id it belongs to (null for a turn the window started, before it is seen).
 */
import { z } from 'zod';
import type { AccountView, LoginProgress, LoginRequest } from '../../shared/account';
import type { HomeUsage } from '../../shared/usage';
import type {
  AnswerOutcome,
  ApprovalAnswer,
  ApprovalView,
  ChatItem,
  ChatView,
  ElicitContent,
  PermissionMode,
  QuestionAnswers,
  RequestedAccess,
  SessionView,
} from '../../shared/contract';
import { ElicitationView, QuestionView } from '../../shared/questions';

/**
 * One profile as the API sees it: the accepted table's fields that matter to callers and to the
 * messaging policy. `acceptFrom` / `answerFrom` hold profile names or `"*"` (every profile).
 */
export interface ApiProfile {
  name: string;
  /** Absolute path of the profile's folder. */
  cwd: string;
  permissionMode: PermissionMode;
  sandboxed: boolean;
  model: string | null;
  effort: string | null;
  /** Cannot message or be messaged by other profiles (table `isolated`). */
  isolated: boolean;
  /** Profiles that may give it a turn (table `accept_from`). */
  acceptFrom: string[];
  /** Profiles that may ask it a question (table `answer_from`). */
  answerFrom: string[];
}

/** A line posted into a chat by `/send` or `/send-media`: who it is from (shown), its text, files (private copies). */
export interface ApiPost {
  /** Shown before the text, e.g. `from coder` or `owner`; never empty. */
  label: string;
  text: string;
  /** Absolute paths of the private copies under `<state>/media/`. */
  files: string[];
}

const at = z.string().describe('ISO 8601 time the event was emitted');
const key = z.string().describe('the chat id');
const turn = z.string().nullable().describe('the API turn id (as `/turn` answered it); null when unknown');

/** The events of `GET /events`, one JSON object per SSE `data:` line, named by `event`. */
export const ApiEventSchema = z.discriminatedUnion('event', [
  z.object({ event: z.literal('turn'), key, at, turn: z.string(), text: z.string().describe('the message the turn runs on') }).strict(),
  z
    .object({
      event: z.literal('progress'),
      key,
      at,
      turn,
      kind: z.enum(['command', 'fileChange', 'notice', 'error']),
      text: z.string().describe('one line: the command and its status, the files changed, the notice or error'),
    })
    .strict(),
  z.object({ event: z.literal('out'), key, at, turn, text: z.string().describe('a completed agent message (markdown)') }).strict(),
  z
    .object({
      event: z.literal('permission'),
      key,
      at,
      turn,
      id: z.string().describe('the approval id (a UUID; any unique prefix of 5+ characters answers it)'),
      tool: z.string().describe('command, fileChange, permissions, userInput, elicitation or unknown'),
      preview: z.string().describe('one line: what the agent wants'),
      detail: z.string().nullable(),
      answers: z.array(z.string()).describe('the answers offered'),
      questions: z.array(QuestionView).optional().describe("userInput only: the agent's questions (answer with POST /permission `answers`)"),
      isBlocking: z.boolean().optional().describe('userInput only: false when the agent may go on without the answer'),
      elicitation: ElicitationView.optional().describe('elicitation only: the MCP form or link (answer with POST /permission `content`)'),
    })
    .strict(),
  z
    .object({
      event: z.literal('permission-answered'),
      key,
      at,
      id: z.string(),
      state: z.enum(['answered', 'timedOut', 'withdrawn']),
      allow: z.boolean(),
      answer: z.string().nullable(),
      by: z.string().nullable(),
    })
    .strict(),
  z
    .object({
      event: z.literal('turn-end'),
      key,
      at,
      turn,
      status: z.enum(['completed', 'failed', 'interrupted', 'dropped']),
      reason: z.string().nullable(),
    })
    .strict(),
]);
export type ApiEvent = z.infer<typeof ApiEventSchema>;

/**
 * What an API answer carries besides the answer (the broker's `AnswerOptions`): `grant` (permissions,
 * Allow), `reason` (Deny), `answers` (an agent question, Allow), `content` (an MCP form, Allow).
 */
export interface ApiAnswerOptions {
  grant?: RequestedAccess;
  reason?: string;
  answers?: QuestionAnswers;
  content?: ElicitContent;
}

/**
 * The core as the API drives it. Every method may throw an AppFailure (`unknown-chat`, `queue-full`,
 * `bad-answer`, `attach-*`, …); the server maps it to a safe HTTP error.
 */
export interface ApiCore {
  /** Angelia's version, state folder and the Codex version last seen (null before any start). */
  info(): Promise<{ version: string; stateDir: string; codexVersion: string | null }>;
  /** The latest rate limits and pause of each Codex home in use (`usage:read`, core/usage/store.ts). */
  usage(): Promise<HomeUsage[]>;
  /** Lifts `codexHome`'s usage-limit pause now (`usage:resume`, core/usage/store.ts `resume`); its usage after. */
  resumeUsage(codexHome: string): Promise<HomeUsage>;
  /**
   * The Codex account of Angelia's Codex home (`account:read`, core/account/service.ts). Throws AppFailure
   * `account-unreadable` (Codex could not tell), `codex-missing`.
   */
  account(): Promise<AccountView>;
  /**
   * Starts a sign-in (`account:login`): an API key settles (`completed` or `failed`), ChatGPT and device
   * code answer `pending`. Codex's refusal is a `failed` progress; throws AppFailure `codex-missing`.
   */
  login(req: LoginRequest): Promise<LoginProgress>;
  /** Cancels pending sign-in `loginId` (`account:loginCancel`); `cancelled: false` when none is pending. */
  loginCancel(loginId: string): Promise<{ cancelled: boolean }>;
  /** Signs Codex out (`account:logout`) and answers the account after it. Throws as `account`. */
  logout(): Promise<AccountView>;
  /** Every chat. */
  chats(): Promise<ChatView[]>;
  /** Every profile of the ACCEPTED table (never the table on disk, which an agent may have edited). */
  profiles(): Promise<ApiProfile[]>;
  /** A chat's sessions, most recently used first. */
  sessions(chatId: string): Promise<SessionView[]>;
  /** A chat's transcript as this process saw it, oldest first. */
  items(chatId: string): Promise<ChatItem[]>;
  /**
   * Queues `text` as a turn of its own in the chat (never a chat command, never a steer) and returns the
   * API turn id its events carry, and how many messages wait. `app`: an app turn (`reply: "caller"`): it
   * runs in the chat's thread, its answer is for the caller (the event stream) and the window folds it.
   * `images`: files `attach` wrote into the profile's `.inbox/`, given to the agent as images (the core
   * checks and copies them: core/chats/images.ts). Throws AppFailure `queue-full` (the chat already holds
   * 10: running and waiting), `image-*`.
   */
  turn(chatId: string, text: string, opts?: { app?: boolean; images?: string[] }): Promise<{ queued: number; turn: string }>;
  /**
   * Resolves when a turn queued now would be taken; throws AppFailure `queue-full` (the same refusal
   * `turn` gives) when the chat already holds 10. Asked before a turn's files are copied, so a full chat
   * refuses the turn before anything lands in the profile's `.inbox/`.
   */
  canQueue(chatId: string): Promise<void>;
  /**
   * Answers `text` from a READ-ONLY copy of the chat's current session (a fork of its Codex thread on a
   * process of its own, under the profile's permission profile with every write entry made read;
   * docs/api-ask.md), without touching the chat. Throws AppFailure `ask-failed`, `ask-timeout` (after
   * `timeoutMs`), `ask-aborted` (the signal fired), `refused` (a start check failed), `unknown-chat`.
   * `owner`: the owner asks; an agent's ask on a thread that received a secret answer is answered by a
   * fresh thread instead (docs/security-model.md "Questions and elicitations").
   */
  ask(chatId: string, text: string, opts: { timeoutMs: number; signal?: AbortSignal; owner?: boolean }): Promise<{ answer: string }>;
  /** Shows a line (and files) in the chat without running a turn. */
  post(chatId: string, post: ApiPost): Promise<void>;
  /** Writes `data` into the chat's profile folder under `.inbox/` (name sanitised, mode 600); answers the path. */
  attach(chatId: string, name: string, data: Buffer): Promise<{ path: string }>;
  /**
   * The deny rules in force for `profile`, in settings.json syntax (`Read(/abs/**)`, `Edit(…)`,
   * `mcp__x`): the last launch guard's, the profile's current settings.json and today's floor, united
   * (a rule in any one of them holds). Only the `Read` rules are applied to media.
   */
  readDenyRules(profile: string): Promise<string[]>;
  /** Every approval the broker holds (pending and settled), oldest first. */
  approvals(): Promise<ApprovalView[]>;
  /**
   * Answers an approval through the one broker with `by: 'api'` (first answer wins). Throws AppFailure
   * `bad-answer` when the answer was not offered or the grant/reason does not fit.
   */
  answer(id: string, answer: ApprovalAnswer, opts: ApiAnswerOptions): Promise<AnswerOutcome>;
  /** Every API event; returns the unsubscribe function. */
  subscribe(listener: (e: ApiEvent) => void): () => void;
}
