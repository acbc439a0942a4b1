/**
 * The shape of a Codex server request a person must answer (`AskRequest`), shared by the classifiers
 * (serverRequests.ts for approvals, questions.ts for agent questions and MCP elicitations) and the one
 * approval broker (approvals/broker.ts). Types and two small guards only: no wire reading here.
 * Protocol source: codex 0.169.0 `ServerRequest` methods and their generated response types.
 */
import type {
  ApprovalAnswer,
  ApprovalKind,
  ElicitationView,
  ElicitContent,
  QuestionAnswers,
  QuestionView,
  RefusedAccess,
  RequestedAccess,
} from '../../../shared/contract';
import { AppFailure } from '../../../shared/result';

/** A file change as shown on an approval card. */
export interface ChangeView {
  path: string;
  kind: string;
  diff: string;
}

/**
 * What goes with an answer besides its name (`approvals:answer`): `grant` (Allow of a permissions
 * request), `answers` (Allow of an agent question: question id → answers), `content` (Allow of a form
 * elicitation: field name → value). Each is refused (AppFailure `bad-answer`) on any other request.
 */
export interface WireExtras {
  grant?: RequestedAccess;
  answers?: QuestionAnswers;
  content?: ElicitContent;
}

/** A request a person must answer: what to show, which answers to offer, how to write each answer. */
export interface AskRequest {
  type: 'ask';
  kind: ApprovalKind;
  title: string;
  command: string | null;
  cwd: string | null;
  reason: string | null;
  changes: ChangeView[];
  /** What may be granted of what was asked (privateReach.ts `splitRequested`); null when nothing. */
  requested: RequestedAccess | null;
  /** What was also asked and is never granted (left out of `requested`, shown as refused); [] when nothing. */
  refused: RefusedAccess[];
  answers: ApprovalAnswer[];
  /**
   * The JSON-RPC `result` for an answer (codex 0.169.0 shapes). `extras.grant` narrows an Allow of a
   * permissions request to a subset of `requested` (omitted: everything grantable is granted; what
   * `refused` names never is). `extras.answers` / `extras.content` carry an Allow of a question / a
   * form elicitation (questions.ts). Throws AppFailure `bad-answer` when `answer` is not one of
   * `answers`, when an extra comes with a request or an answer it does not fit, when `grant` is not a
   * non-empty subset of `requested`, when a path granted is one no grant may open (checked again now,
   * serverRequests.ts `checkGrant`), or when answers / content do not match the questions / the form.
   * Permissions replies: `{permissions: <granted subset>, scope: "turn"|"session"}` for Allow, exactly
   * `{permissions: {}}` for Deny (the response has no decision); never a `decision`. Command and
   * file-change replies: `{decision}` for the answer given, which is one of `answers`.
   */
  toWire(answer: ApprovalAnswer, extras?: WireExtras): unknown;
  /** The answer written when nobody answers in time (always `deny`: Codex `decline`, a question's empty answer). */
  timeoutAnswer: ApprovalAnswer;
  /** Codex ids, to withdraw the card when Codex settles the request or the turn ends. */
  threadId: string | null;
  turnId: string | null;
  /** The Codex item the request is about (`itemId` of the v2 command and file-change requests); null when none is named. */
  itemId: string | null;
  /**
   * Set for a command Codex asks to run outside the sandbox (an escalation: no additional permissions)
   * under a sandboxed launch (`RequestContext.sandbox`); null otherwise. Contract `ApprovalView.outsideSandbox`.
   */
  outsideSandbox: { denied: number | null } | null;
  /** `userInput` only: the agent's questions (contract `ApprovalView.questions`). */
  questions?: QuestionView[];
  /** `userInput` only: Codex's `isBlocking` (docs/architecture.md, "Questions and elicitations"). */
  isBlocking?: boolean;
  /** `elicitation` only: what the MCP server asks (contract `ApprovalView.elicitation`). */
  elicitation?: ElicitationView;
}

/** A request answered at once, without asking (known but unsupported kinds). */
export interface ImmediateRequest {
  type: 'immediate';
  kind: ApprovalKind;
  result: unknown;
  /** What the chat is told. */
  notice: string;
  /**
   * Paths the request named that Angelia never grants (privateReach.ts), when that is why it was
   * answered at once; absent otherwise.
   */
  refused?: RefusedAccess[];
  /** Text for the agent, steered into its turn after the reply (why the request was refused); absent: none. */
  agentNote?: string;
}

/** AppFailure `bad-answer` with `message` (what is wrong and how to answer instead). */
export function badAnswer(message: string): AppFailure {
  return new AppFailure({ code: 'bad-answer', message });
}

/** Throws `bad-answer` unless `a` is one of `answers`. */
export function assertOffered(answers: readonly ApprovalAnswer[], a: ApprovalAnswer): void {
  if (!answers.includes(a)) throw badAnswer(`"${a}" was not offered for this request (offered: ${answers.join(', ')})`);
}

/** Throws `bad-answer` when `extras` carries `answers` or `content` that the request (`what`) takes none of. */
export function refuseFormExtras(extras: WireExtras, what: string): void {
  if (extras.answers) throw badAnswer(`answers only go with an agent question; ${what}`);
  if (extras.content) throw badAnswer(`content only goes with an MCP form request; ${what}`);
}
