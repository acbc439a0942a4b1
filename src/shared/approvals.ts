/**
 * The one approval broker's shapes as every surface sees them (window, tray, notifications, CLI, API):
 * what a request shows, which answers it offers, and how an answer came out. Re-exported by contract.ts.
 * Request kinds: codex 0.169.0 `ServerRequest` methods (core/codex/serverRequests.ts classifies them).
 */
import { z } from 'zod';
import { ElicitationView, QuestionAnswers, QuestionView } from './questions';

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

/**
 * A path a request named that Angelia never grants, whoever answers (core/approvals/privateReach.ts):
 * it is, holds or lies inside Angelia's private state, a Codex home, the credential floor, another
 * profile's folder or another place the profile denies (or, for `write`, keeps read-only). `path` is
 * the name as asked; `why` says what it reaches ("Angelia's private state", "it holds /x (…)"). Also
 * refused: a path the agent could swap for a symbolic link after the answer (in a place it can write,
 * or through a link); `already` is true when the agent can already write there (its folder, add_dirs,
 * a write granted earlier in the chat): the card shows it as "already writable", not as new access.
 */
export const RefusedAccess = z.object({
  access: z.enum(['read', 'write']),
  path: z.string(),
  why: z.string(),
  already: z.literal(true).optional(),
});
export type RefusedAccess = z.infer<typeof RefusedAccess>;

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
  /**
   * Folders a permissions request (or a command with additional permissions) asks for that can be
   * granted: what `refused` names is left out (null when nothing grantable is left).
   */
  requested: RequestedAccess.nullable(),
  /** What the request also asked for and Angelia never grants (shown as refused; absent when nothing was). */
  refused: z.array(RefusedAccess).optional(),
  /** The answers offered, from Codex's `availableDecisions` when given. */
  answers: z.array(ApprovalAnswer),
  createdAt: z.string(),
  state: z.enum(['pending', 'answered', 'withdrawn', 'timedOut']),
  answer: ApprovalAnswer.nullable(),
  by: AnswerSource.nullable(),
  /** What an Allow of a permissions request granted (a subset of `requested`); null otherwise. */
  granted: RequestedAccess.nullable(),
  /** The reason typed with a Deny (sent to the agent as a steer after the decline: the wire has no text). */
  denyReason: z.string().nullable(),
  /**
   * The Codex item the request is about (`itemId` of codex 0.169.0 `item/commandExecution/requestApproval`
   * and `item/fileChange/requestApproval`): Codex sends that item's `item/started` BEFORE the request, so
   * the window shows the item "waiting for approval" while this request is pending. Null or absent: none named.
   */
  itemId: z.string().nullable().optional(),
  /** When the request stopped being pending (ISO time: answered, timed out or withdrawn); absent while pending. */
  settledAt: z.string().nullable().optional(),
  /** Why a `withdrawn` request was withdrawn ("the turn ended", "Codex exited"); absent otherwise, or unknown. */
  withdrawnWhy: z.string().nullable().optional(),
  /**
   * A command Codex asks to run OUTSIDE the sandbox (an escalation: a command approval without
   * additional permissions, under a sandboxed launch). Measured on codex 0.169.0 (Linux): such a command
   * runs with the whole filesystem writable except the launch's deny entries, which it still cannot
   * read. `denied`: how many deny entries the launch has (null: unknown). Absent or null: not an escalation.
   */
  outsideSandbox: z.object({ denied: z.number().int().nonnegative().nullable() }).nullable().optional(),
  /**
   * A `userInput` request (codex 0.169.0 `item/tool/requestUserInput`): the agent's questions. Answers:
   * `allow` submits `answers` (approvals:answer), `deny` skips (Codex gets the empty answer). Absent otherwise.
   */
  questions: z.array(QuestionView).optional(),
  /** `userInput` only: Codex's `isBlocking` (false: the agent may go on without waiting for the answer). */
  isBlocking: z.boolean().optional(),
  /**
   * An `elicitation` request (codex 0.169.0 `mcpServer/elicitation/request`): `allow` = accept (with
   * `content` in form mode), `deny` = decline, `cancel` = cancel. Absent otherwise.
   */
  elicitation: ElicitationView.optional(),
  /**
   * What an answered `userInput` request answered, question id → answers, secret ones replaced by
   * `SECRET_MASK` (questions.ts); absent otherwise. Never holds a secret in clear.
   */
  given: QuestionAnswers.optional(),
});
export type ApprovalView = z.infer<typeof ApprovalView>;

/** The outcome of answering: only the first answer is written to Codex. */
export const AnswerOutcome = z.object({
  outcome: z.enum(['answered', 'already-answered', 'unknown']),
  /** The answer in force (the earlier one when already answered). */
  answer: ApprovalAnswer.nullable(),
  by: AnswerSource.nullable(),
  /** Set when the request had been withdrawn by Codex (`by: "codex"`): when (ISO) and why, if known (withdrawnText.ts). */
  withdrawn: z.object({ at: z.string().nullable(), why: z.string().nullable() }).optional(),
});
export type AnswerOutcome = z.infer<typeof AnswerOutcome>;
