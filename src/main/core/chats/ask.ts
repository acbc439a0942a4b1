/**
 * `POST /ask` (docs/api-ask.md: a read-only copy of the session answers, up to 10 min): one question
 * answered by a READ-ONLY FORK of a chat's current Codex thread, on a short-lived `codex app-server` of
 * its own, never touching the chat's own process, thread or transcript. Facts measured on codex 0.169.0
 * (docs/api-ask.md):
 *
 * - `thread/fork {threadId, ephemeral: true}` on ANOTHER app-server of the same CODEX_HOME loads the
 *   parent from its rollout while the chat's own process holds it (even mid-turn: the fork then has the
 *   running turn's user message), answers `thread.path: null`, and writes nothing to the parent's rollout;
 *   the fork is not in `thread/list`, and the chat's next turn does not see the question.
 * - The fork runs under the permission profile of the process that forks it unless the fork overrides
 *   it; our process is started with the read-only compile variant (compile/codexProfile.ts
 *   LaunchExtras `readOnly`), so the answer reports `activePermissionProfile {id: "angelia", extends:
 *   ":read-only"}`, `sandbox {type: "readOnly"}`, `approvalPolicy: "never"`, and a write in the profile's
 *   folder or /tmp fails "Read-only file system".
 * - A fork's `developerInstructions` parameter is ignored (the parent's are kept from the rollout);
 *   Codex adds a fresh `<permissions instructions>` message for the read-only sandbox itself. So the
 *   question carries one framing line (ASK_FRAME).
 * - An unknown or lost thread: `-32600 no rollout found for thread id …`; then the question is answered
 *   by a fresh read-only thread (`thread/start {ephemeral: true}`), as for a chat with no thread yet.
 *
 * Before the turn the start is attested exactly as a chat start (version gate, config layers, MCP
 * servers, managed requirements, thread attestation with `:read-only`), plus: the sandbox reported must
 * be `readOnly` and the approval policy `never`. Any refusal fails the ask; nothing falls back to a
 * weaker sandbox. The process is always stopped and reaped before `askReadOnly` settles.
 */
import { ResponseError } from 'vscode-jsonrpc';
import { AppFailure, toAppError } from '../../../shared/result';
import { openAttestedSession, rolloutUnavailable } from '../codex/session';
import { startedTurnId } from '../codex/answers';
import { readOnlyRefusals } from '../codex/attest';
import type { CodexEvent } from '../codex/events';
import type { TurnEnd } from '../codex/items';
import type { TurnStartParams } from '../codex/generated/v2';
import { describeTurnError } from '../codex/turnErrors';
import type { LaunchPlan } from '../launch/plan';
import type { CodexConnection, StartCodex } from '../codex/connection';

/** Codex 0.171.0's transient fork failure mid-turn (the thread store's projection lags the rollout). */
const BEHIND_ROLLOUT = /is behind durable rollout/;

/** The line put before the question in the fork (its developerInstructions cannot be changed, see above). */
export const ASK_FRAME =
  '[Angelia: this is a read-only copy of the conversation, made to answer one question; nothing you write or change here is kept. Answer the question below.]';

/** What one ask needs. */
export interface AskInput {
  /** The chat's launch plan compiled read-only (launch/plan.ts `planLaunch({ …, readOnly: true })`). */
  plan: LaunchPlan;
  /** Starts (and records) the short-lived app-server. */
  startCodex: StartCodex;
  /** The chat's current thread when it has one on disk (a started session), else null: a fresh thread answers. */
  threadId: string | null;
  /** The session's model override (null: the plan's or Codex's default), sent with the fork or start and the turn. */
  model: string | null;
  /** The session's or profile's reasoning effort, sent with the turn; null: Codex's default. */
  effort: string | null;
  /** The question as the asked agent receives it (already labelled for an agent caller). */
  text: string;
  /** The whole ask, start to answer (README: up to 10 minutes). */
  timeoutMs: number;
  /** Aborted when the caller goes away: the ask is stopped. */
  signal?: AbortSignal;
}

/** The answer, and how it was made. */
export interface AskAnswer {
  /** The last agent message of the turn ("" when the agent wrote none). */
  answer: string;
  /** The thread forked, or null when a fresh read-only thread answered. */
  forkedFrom: string | null;
  /** The codex version that answered. */
  codexVersion: string | null;
}

/**
 * The thread an ask copies for session row `row` (the chat's active one, or null): its thread once
 * started, else null (a fresh read-only thread answers). Also null when the thread received a secret
 * answer (`row.secret_answer`) and `owner` is not true: a copy would carry the secret into a turn the
 * asking agent words (docs/security-model.md "Questions and elicitations").
 */
export function threadToAsk(row: { started: boolean; threadId: string | null; secret_answer?: boolean } | null, owner: boolean): string | null {
  if (!row?.started || !row.threadId) return null;
  return row.secret_answer && !owner ? null : row.threadId;
}

/** How a server request of the read-only copy is answered: nothing is ever granted. */
function declineRequest(method: string): unknown {
  switch (method) {
    case 'item/commandExecution/requestApproval':
    case 'item/fileChange/requestApproval':
      return { decision: 'decline' };
    case 'execCommandApproval':
    case 'applyPatchApproval':
      return { decision: { denied: { rejection: 'a read-only copy grants nothing' } } };
    case 'item/permissions/requestApproval':
      return { permissions: {}, scope: 'turn' };
    case 'item/tool/requestUserInput':
      return { answers: {} };
    case 'mcpServer/elicitation/request':
      return { action: 'decline', content: null, _meta: null };
    default:
      throw new ResponseError(-32601, `unsupported in a read-only copy: ${method}`);
  }
}

/**
 * Answers `input.text` from a read-only copy of `input.threadId` (see the module comment). Throws
 * AppFailure: `refused` (a check failed; nothing ran), `ask-failed` (Codex did not start, the fork or
 * the turn failed), `ask-timeout` (no answer within `timeoutMs`), `ask-aborted` (the caller went away).
 */
export async function askReadOnly(input: AskInput): Promise<AskAnswer> {
  const { plan } = input;
  if (!plan.sandboxed || plan.readOnly !== true || plan.onRequest) {
    throw new AppFailure({ code: 'refused', message: 'refused: the plan given for an ask is not the read-only variant' });
  }
  const deadline = Date.now() + input.timeoutMs;
  let conn: CodexConnection;
  try {
    conn = await input.startCodex(plan.spawn);
  } catch (e) {
    throw new AppFailure({ code: 'ask-failed', message: `Codex did not start: ${toAppError(e).message}` });
  }
  let killed = false;
  const kill = (): void => {
    killed = true;
    conn.kill();
  };
  const onAbort = (): void => kill();
  input.signal?.addEventListener('abort', onAbort, { once: true });
  if (input.signal?.aborted) kill();
  const timer = setTimeout(kill, Math.max(0, deadline - Date.now()));
  timer.unref?.();
  try {
    return await run(conn, input);
  } catch (e) {
    if (input.signal?.aborted) throw new AppFailure({ code: 'ask-aborted', message: 'the caller went away; the ask was stopped' });
    if (killed)
      throw new AppFailure({
        code: 'ask-timeout',
        message: `no answer within ${Math.max(1, Math.round(input.timeoutMs / 60_000))} min; the read-only copy was stopped`,
      });
    if (e instanceof AppFailure) throw e;
    throw new AppFailure({ code: 'ask-failed', message: toAppError(e).message });
  } finally {
    clearTimeout(timer);
    input.signal?.removeEventListener('abort', onAbort);
    if (killed) await conn.exited;
    else await conn.stop();
  }
}

/** The checks, the fork (or fresh thread) and the one turn, on a running connection. */
async function run(conn: CodexConnection, input: AskInput): Promise<AskAnswer> {
  const { plan } = input;
  let threadId: string | null = null;
  let turnId: string | null = null;
  const messages: string[] = [];
  let finish: (end: TurnEnd) => void = () => undefined;
  const ended = new Promise<TurnEnd>((resolve) => (finish = resolve));
  const early: Array<{ turnId: string | null; end: TurnEnd }> = [];
  conn.onServerRequest(async (method) => declineRequest(method));
  conn.onEvent((e: CodexEvent) => {
    if (!threadId || e.threadId !== threadId) return;
    if (e.method === 'item/completed' && e.params.item.type === 'agentMessage' && (!turnId || e.turnId === null || e.turnId === turnId)) {
      messages.push(e.params.item.text);
    }
    if (e.method === 'turn/completed') {
      if (turnId === null) early.push({ turnId: e.turnId, end: e.params.turn });
      else if (!e.turnId || e.turnId === turnId) finish(e.params.turn);
    }
  });

  // The checks and the thread as a chat's start has them (codex/session.ts), plus: read-only, never asking.
  // developerInstructions are the plan's (plan mode wording) for a fresh thread; a fork keeps the parent's.
  const opened = await openAttestedSession(conn, plan, input.threadId ? { kind: 'fork', threadId: input.threadId } : { kind: 'start' }, {
    params: { ephemeral: true, ...(input.model ? { model: input.model } : {}) },
    threadError: (msg) => {
      // codex 0.171.0: a fork while the parent's turn is writing may fail "thread history projection for <id>
      // is behind durable rollout" (seen once in two full runs of test/integration/api-ask.test.ts): the
      // question is then answered by a fresh read-only thread, as for a lost rollout, rather than not at all.
      if (BEHIND_ROLLOUT.test(msg)) return 'fresh';
      if (!rolloutUnavailable(msg)) throw new AppFailure({ code: 'ask-failed', message: `the conversation could not be copied: ${msg}` });
      return 'fresh';
    },
    expect: { sandboxed: true, permissionsExtends: null, writable: [] },
    moreRefusals: readOnlyRefusals,
    what: ' for the read-only copy',
  });
  const forkedFrom = opened.target.kind === 'fork' ? opened.target.threadId : null;
  threadId = opened.threadId;

  // The effort is the table's word (table/schema.ts EFFORTS), sent as Codex's ReasoningEffort.
  const turn: TurnStartParams = {
    threadId,
    input: [{ type: 'text', text: `${ASK_FRAME}\n\n${input.text}`, text_elements: [] }],
    ...(input.model ? { model: input.model } : {}),
    ...(input.effort ? { effort: input.effort as TurnStartParams['effort'] } : {}),
  };
  const started = await conn.request('turn/start', turn);
  turnId = startedTurnId(started);
  const pre = early.find((p) => !p.turnId || p.turnId === turnId);
  if (pre !== undefined) finish(pre.end);
  const end = await Promise.race([
    ended,
    conn.exited.then((): never => {
      throw new AppFailure({ code: 'ask-failed', message: 'Codex exited before the answer' });
    }),
  ]);
  if (end.status === 'failed') throw new AppFailure({ code: 'ask-failed', message: describeTurnError(end, { model: input.model }).message });
  if (end.status === 'interrupted') throw new AppFailure({ code: 'ask-failed', message: 'the turn was interrupted' });
  return { answer: messages.at(-1) ?? '', forkedFrom, codexVersion: conn.version };
}
