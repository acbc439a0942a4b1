/**
 * A chat's Codex process: started lazily and fail-closed (the launch plan, then codex/session.ts
 * `openAttestedSession`: version gate, config layers, MCP servers, requirements, thread resume or start,
 * thread attestation), bound to the chat's session row, and its exits Angelia did not ask for (a crash:
 * the turn fails, the crash is counted, codex/crashPolicy.ts). docs/architecture.md flow (a).
 */
import { AppFailure, toAppError } from '../../../shared/result';
import type { CodexConnection, CodexExit } from '../codex/connection';
import { classifyStderr, stderrCause } from '../codex/stderrClass';
import { openAttestedSession, rolloutUnavailable } from '../codex/session';
import { configModel, readThreadAnswer } from '../codex/answers';
import type { LaunchPlan } from '../launch/plan';
import { noteUnknown, onEvent, onServerRequest } from './chatEvents';
import { id8 } from './commands';
import type { ChatInside } from './inside';
import { approvalWord } from './mode';
import { quote } from './notices';

/** Lines of Codex's stderr tail searched for why it exited when the launcher's cause is not among them. */
const CRASH_TAIL_LINES = 12;

/**
 * Why a Codex process exited, for the crash message: only this process's recent stderr counts. The
 * launcher's cause (picked from all the stderr it kept) is taken when it is a fatal line (`Error: …`, a
 * panic) that is still in the tail (the lines after it may be a backtrace); else the cause is read from
 * the last `CRASH_TAIL_LINES` lines only, so a line written long before the exit is never shown as its
 * cause. After a signal (a kill, the OOM killer) only a fatal line is shown: Codex prints nothing when it
 * is killed, so any other line predates the exit and would mislead. Null when nothing explains it.
 */
export function crashDetail(exit: CodexExit): string | null {
  const tail = exit.stderrTail;
  const whole = exit.cause ?? null;
  const first = whole ? classifyStderr(whole)[0] : undefined;
  let cause = whole && first?.kind === 'fatal' && tail.includes(first.text) ? whole : stderrCause(tail.split('\n').slice(-CRASH_TAIL_LINES).join('\n'));
  if (cause && exit.signal && classifyStderr(cause)[0]?.kind !== 'fatal') cause = null;
  return cause;
}

/**
 * Starts Codex for the chat and opens its session's thread (see the module comment); the chat is
 * "starting" meanwhile. Throws AppFailure (`start-failed`, `refused`, `thread-busy`, `resume-failed`)
 * after killing the process: nothing outlives a failed start.
 */
export async function startProcess(c: ChatInside): Promise<void> {
  c.changed('starting');
  c.refusal = null;
  // Taken in the same tick as the plan (which reads the table in force when called): the mode it compiles.
  c.planProfile = c.deps.profileNow?.() ?? null;
  c.planTable = c.deps.tableNow?.() ?? null;
  const plan = await c.deps.plan();
  c.lastPlan = plan;
  if (!plan.sandboxed) {
    c.transcript.push({
      type: 'warning',
      id: c.transcript.localId('full-access'),
      text: `⚠ FULL ACCESS: the profile ${c.deps.profile} has sandbox = false, so this agent starts with no sandbox: it can read, change and delete anything you can, and run any command${plan.onRequest ? '' : ' without asking'}.`,
    });
  }
  c.onRequest = plan.onRequest;
  c.grantFloor = plan.grantFloor;
  c.grants = [];
  c.sandboxCtx = plan.sandboxed ? { denied: plan.sandboxDeny ? plan.sandboxDeny.length : null } : undefined;
  let conn: CodexConnection;
  try {
    conn = await c.deps.startCodex(plan.spawn);
  } catch (e) {
    if (c.state === 'starting') c.changed('error');
    throw new AppFailure({ code: 'start-failed', message: `Codex did not start: ${toAppError(e).message}` });
  }
  c.opening = conn;
  try {
    await attestAndOpen(c, conn, plan);
  } catch (e) {
    // Nothing may outlive a failed start: the process is killed and waited for (its record in
    // children.json is removed on exit), so the refusal is reported only once it is gone.
    if (c.conn !== conn) {
      conn.kill();
      await conn.exited;
    }
    if (c.state === 'starting') c.changed('error');
    throw e;
  } finally {
    if (c.opening === conn) c.opening = null;
  }
  c.down = null;
  // Started for a command (/model, /export…) or a restart: nothing runs, so the chat is idle, not "starting".
  if (!c.turn.current) c.changed('idle');
  if (c.killedTurn) {
    c.notice(`Codex runs again. ${c.killedTurn} was cut off when Codex exited and did not finish; send it again if you still want it.`);
    c.killedTurn = null;
  }
}

/**
 * A resume that failed: `thread-busy` or `resume-failed` thrown, or a fresh start (said in the chat) when
 * the thread's rollout is gone or cannot be read (codex/session.ts `rolloutUnavailable`): that thread can
 * never be resumed, so neither Restart nor the next message may keep trying it. docs/architecture.md "Crashes".
 */
function resumeFailed(c: ChatInside, threadId: string, msg: string): 'fresh' {
  if (/active writer|already (?:has|in use|loaded|running)|locked|in use/i.test(msg)) {
    throw new AppFailure({
      code: 'thread-busy',
      message: `This conversation (${id8(threadId)}) is open in another Codex client: close it there, or start a new session with /new; it stays reachable with /resume. (Codex said: ${msg})`,
    });
  }
  const gone = /^refused:/i.test(msg) ? null : rolloutUnavailable(msg);
  if (!gone) throw new AppFailure({ code: 'resume-failed', message: `the session ${threadId} could not be resumed: ${msg}` });
  const what =
    gone.kind === 'missing' ? 'was not found on disk' : `could not be read: Codex's record of it is empty or damaged (${gone.why}). A new session was started`;
  c.transcript.push({
    type: 'notice',
    id: c.transcript.localId('notice'),
    text: `The previous conversation of this session ${what}, so this is a fresh start. /resume lists older sessions.`,
  });
  return 'fresh';
}

/** The checks and the thread of `startProcess`, on a running connection; binds the session row. Throws to refuse. */
async function attestAndOpen(c: ChatInside, conn: CodexConnection, plan: LaunchPlan): Promise<void> {
  conn.onEvent((e) => onEvent(c, conn, e));
  conn.onServerRequest((m, p, id) => onServerRequest(c, conn, m, p, id));
  conn.onUnknownServerRequest?.((method) => {
    if (c.isCurrent(conn)) noteUnknown(c, method);
  });
  let row = c.deps.sessions.active(c.deps.chatId);
  let rowId = '';
  const opened = await openAttestedSession(
    conn,
    plan,
    { kind: 'start' },
    {
      versionOk: () => (c.codexVersion = conn.version),
      checked: (config) => {
        const planModel = typeof plan.threadParams.model === 'string' ? plan.threadParams.model : null;
        const inConfig = configModel(config);
        c.baseSource = planModel ? 'profile' : 'codex default';
        c.baseModel = planModel ?? inConfig.model;
        const configEffort = inConfig.effort;
        c.configuredEffort = plan.effort ? { effort: plan.effort, source: 'profile' } : configEffort ? { effort: configEffort, source: 'codex config' } : null;
        row = c.deps.sessions.ensureActive(c.deps.chatId, c.deps.profile);
        rowId = row.id;
        const params = row.model ? { model: row.model } : {};
        if (!row.started || !row.threadId) return { params };
        const holder = c.deps.threadHeldElsewhere(row.threadId);
        if (holder)
          throw new AppFailure({
            code: 'thread-busy',
            message: `This conversation is open in the chat "${holder}" of this Angelia; one conversation runs in one chat at a time. Start a new session here with /new.`,
          });
        return { params, target: { kind: 'resume', threadId: row.threadId } };
      },
      threadError: (msg, target) => resumeFailed(c, target.kind === 'start' ? '' : target.threadId, msg),
      beforeStart: () => {
        if (row?.started) rowId = c.deps.sessions.startNew(c.deps.chatId, c.deps.profile).id;
      },
      attested: (enforcement) => (c.enforcement = enforcement),
      threadIdFallback: () => row?.threadId ?? null,
    },
  );
  const answer = readThreadAnswer(opened.answer);
  // What Codex reports in force wins over what was asked (a mode shown must be the mode in force).
  if (!row?.model) c.baseModel = answer.model ?? c.baseModel;
  c.reportedEffort = answer.reasoningEffort;
  c.threadId = opened.threadId;
  c.attestedAt = new Date().toISOString();
  c.attestedMode = {
    permissionMode: c.planProfile?.permissionMode ?? null,
    approvalPolicy: approvalWord(answer.approvalPolicy) ?? plan.expect.approvalPolicy,
    sandbox: opened.enforcement,
    at: c.attestedAt,
    fingerprint: c.planProfile?.fingerprint ?? null,
  };
  c.rowId = c.deps.sessions.bindThread(c.deps.chatId, rowId, opened.threadId, opened.enforcement).id;
  c.conn = conn;
  void conn.exited.then((exit) => onExit(c, conn, exit));
}

/** An exit Angelia did not ask for (dispose, stop and refusals detach `conn` first): fail the turn, count the crash. */
function onExit(c: ChatInside, conn: CodexConnection, exit: CodexExit): void {
  if (c.conn !== conn) return;
  c.conn = null;
  c.watch.clearIdle();
  const how = exit.signal ? `signal ${exit.signal}` : `exit code ${exit.code}`;
  c.deps.broker.withdraw((v) => v.chatId === c.deps.chatId && v.state === 'pending', `Codex exited (${how})`);
  const cause = crashDetail(exit);
  const verdict = c.crashes.note({ at: c.watch.clock.now(), how, cause });
  c.down = 'crashed';
  const cur = c.turn.current;
  // What the crash cut off is told again when Codex runs next; it is never sent again by Angelia.
  if (cur && cur.phase !== 'starting' && cur.era === c.turn.era)
    c.killedTurn = cur.work.kind === 'compact' ? 'The compaction' : `The turn of ${quote(cur.work.text)}`;
  c.refusal = verdict.allowed ? null : c.crashes.message(verdict);
  const next = c.refusal ?? 'Restart it, or send a message: either starts it again and resumes this conversation.';
  c.transcript.push({
    type: 'error',
    id: c.transcript.localId('exit'),
    message: `Codex exited (${how}). ${next}`,
    // The lines of this process's recent stderr that say why (crashDetail), never its routine log lines.
    detail: cause,
    kind: 'crashed',
    ...(verdict.allowed ? { action: 'restart' as const } : {}),
  });
  c.turnWaiter?.({ turnId: c.turn.turnId, status: 'failed', message: `Codex exited (${how})`, errorInfo: null, exited: true });
  c.changed('error');
}
