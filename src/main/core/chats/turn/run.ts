/**
 * The runner of one unit of work the turn machine (machine.ts) started: a message's turn (`turn/start`
 * with the model and effort in force) or a `/compact` (`thread/compact/start`), from Codex's start to its
 * turn end, and what is sent into a running turn (`turn/steer`, `turn/interrupt`). Phases and turn ids
 * go back into the machine through `dispatch`. Protocol: codex 0.169.0 `TurnStartParams`,
 * `TurnSteerParams`, `TurnInterruptParams`, `ThreadCompactStartParams`; docs/architecture.md flow (b).
 */
import { toAppError } from '../../../../shared/result';
import { describeTurnError } from '../../codex/turnErrors';
import type { ReasoningEffort } from '../../codex/generated/ReasoningEffort';
import type { TurnStartParams } from '../../codex/generated/v2/TurnStartParams';
import type { UserInput } from '../../codex/generated/v2/UserInput';
import type { ImageRef } from '../../../../shared/images';
import { startedTurnId } from '../../codex/answers';
import type { ChatInside, TurnEnded } from '../inside';
import { minutesText, noticeText, quote } from '../notices';
import { failStart, recheckSight, restartIfTaken } from '../restart';
import { tellGhostApproval } from '../ghostApproval';
import { takeWarm } from '../warm/use';
import { realClock, Watchdogs } from '../watchdogs';
import { turnEndDiff } from '../turnDiff/chatTurns';
import { cancelled, type Work } from './machine';

type Message = Extract<Work, { kind: 'message' }>;

/**
 * A message's `input` for turn/start or turn/steer (codex 0.169.0 `UserInput`): its text (left out when
 * empty and images go with it), then one `localImage` per image, the checked copy's path
 * (chats/images.ts). Codex reads each file itself and sends it to the model as an `input_image`.
 */
export function userInput(text: string, images: readonly ImageRef[] = []): UserInput[] {
  const parts: UserInput[] = text || !images.length ? [{ type: 'text', text, text_elements: [] }] : [];
  return [...parts, ...images.map((i): UserInput => ({ type: 'localImage', path: i.path }))];
}

/** `{ images }` for a `user` item when the message has any. */
const imagesOf = (images: readonly ImageRef[] | undefined): { images?: ImageRef[] } => (images?.length ? { images: [...images] } : {});

/** Runs the unit of work `seq` to its end, then tells the machine (`workDone`). Never throws. */
export async function runWork(c: ChatInside, seq: number, work: Work): Promise<void> {
  try {
    if (c.historyGate) await c.historyGate;
    if (work.kind === 'compact') await runCompact(c, seq);
    else {
      await runTurn(c, work, seq);
      if (work.app) closeAppTurn(c, work);
    }
  } finally {
    c.dispatch({ kind: 'workDone', seq });
  }
}

/** Starts Codex when needed (after a restart the table asked for); false when it did not start (said in the chat). */
async function started(c: ChatInside): Promise<boolean> {
  try {
    // Only when one is due: otherwise the start begins in this same tick (the chat shows "starting" at once).
    if (c.restartWhy) await restartIfTaken(c);
    // A warm agent (started before the message) is taken over, or started again when the table or compile changed since.
    if (c.warm) await takeWarm(c);
    await c.ensureStarted();
    // A table accepted while that Codex was starting is checked now, before the model gets the turn.
    await recheckSight(c);
    return true;
  } catch (e) {
    const dropped = c.turn.queue.length;
    c.dispatch({ kind: 'startFailed' });
    failStart(c, e, dropped);
    return false;
  }
}

async function runTurn(c: ChatInside, work: Message, seq: number): Promise<void> {
  const text = work.text;
  const tags = { ...(work.apiTurn ? { apiTurn: work.apiTurn } : {}), ...(work.app ? { app: true } : {}) };
  if (!work.retried) c.transcript.push({ type: 'user', id: c.transcript.localId('user'), text, via: 'turn', ...tags, ...imagesOf(work.images) });
  c.dispatch({ kind: 'phase', seq, phase: 'starting' });
  if (!(await started(c))) return;
  if (c.restarted) {
    c.notice(`Codex was restarted before this turn, resuming the conversation: ${c.restarted}.`);
    c.restarted = null;
  }
  const startedConn = c.conn;
  // With a session override the catalog is read first, so the effort sent is one the model offers.
  const overrides = c.deps.sessions.active(c.deps.chatId);
  if (startedConn && (overrides?.model || overrides?.effort)) await c.readCatalog(startedConn);
  // Cancelled while Codex started (/stop, Stop): turn/start is never sent; the stop already said so.
  if (cancelled(c.turn)) return settleCancelled(c);
  const conn = c.conn;
  const rowId = c.rowId;
  if (!conn || !c.threadId || !rowId) {
    c.transcript.push({
      type: 'error',
      id: c.transcript.localId('error'),
      message: `The message ${quote(text)} was not sent: Codex stopped before its turn could start.`,
      detail: 'Send it again; the next message starts Codex and resumes this conversation.',
    });
    c.changed(c.down === 'crashed' ? 'error' : 'idle');
    return;
  }
  const row = c.deps.sessions.active(c.deps.chatId);
  // A fresh turn: no id from an earlier turn or another connection may stand for it.
  c.dispatch({ kind: 'turnBegins' });
  c.lastAsk = null;
  c.changed('working');
  const ended = new Promise<TurnEnded>((resolve) => (c.turnWaiter = resolve));
  try {
    // Model and effort in force are sent with every turn, so an override set or cleared by /model or
    // /effort takes effect on the next turn without a restart (TurnStartParams: "this turn and subsequent turns").
    const force = c.inForce(row);
    const params: TurnStartParams = {
      threadId: c.threadId,
      input: userInput(text, work.images),
      ...(force.model ? { model: force.model } : {}),
      ...(force.effort ? { effort: force.effort as ReasoningEffort } : {}),
    };
    c.dispatch({ kind: 'phase', seq, phase: 'requested' });
    const res = await conn.request('turn/start', params);
    const id = startedTurnId(res);
    if (id) c.dispatch({ kind: 'turnId', seq, id, active: false });
    c.deps.sessions.recordTurn(c.deps.chatId, rowId, text);
  } catch (e) {
    c.turnWaiter = null;
    if (cancelled(c.turn)) return settleCancelled(c);
    c.transcript.push({ type: 'error', id: c.transcript.localId('error'), message: `The message could not be sent: ${toAppError(e).message}`, detail: null });
    c.changed('error');
    return;
  }
  c.armStall();
  const end = await ended;
  // A turn whose process died (also a session's first) fails with the exit as its reason, and is never sent
  // again by Angelia: the model may have run its commands already. The crash item offers Restart
  // (process.ts `onExit`); the next start names the turn that was cut off. docs/architecture.md "Crashes".
  const lost = finishTurn(c);
  let failure: string | null = null;
  if (end.status === 'failed' && !end.exited) {
    const why = describeTurnError(end, { model: row?.model ?? c.baseModel });
    failure = why.hint ? `${why.message} ${why.hint}` : why.message;
    c.transcript.push({ type: 'error', id: c.transcript.localId('turn-error'), message: why.message, detail: why.hint, kind: why.kind });
  }
  const reason = end.status === 'failed' ? (failure ?? end.message ?? 'the turn failed') : end.status === 'interrupted' ? interruptedBecause(c) : null;
  c.lastAsk = null;
  // Codex's turn id and what the turn changed in files (its diff kept: turnDiff/chatTurns.ts).
  const extra = { ...(work.apiTurn ? { apiTurn: work.apiTurn } : {}), ...turnEndDiff(c, end.turnId) };
  c.transcript.push({ type: 'turnEnd', id: c.transcript.localId('turn'), status: end.status, reason, ...extra });
  tellUndelivered(c, lost, end.status === 'completed' ? 'ended' : 'stopped');
  c.changed(end.status === 'failed' ? 'error' : 'idle');
}

/**
 * An app turn (`app` work) always ends with a `turnEnd` item, also when it never ran (its agent did not
 * start, it was stopped before Codex took it, turn/start failed): the window folds an app turn up to
 * its turn end, and the chat's last line leaves it out until then (transcript.ts).
 */
function closeAppTurn(c: ChatInside, work: Message): void {
  if (c.transcript.all().some((i) => i.type === 'turnEnd' && i.apiTurn === work.apiTurn)) return;
  const stopped = cancelled(c.turn);
  c.transcript.push({
    type: 'turnEnd',
    id: c.transcript.localId('turn'),
    status: stopped ? 'interrupted' : 'failed',
    reason: stopped ? 'stopped before it began' : 'it did not run',
    ...(work.apiTurn ? { apiTurn: work.apiTurn } : {}),
  });
}

/** Work cancelled before its turn began: a chat left "starting" or "working" is idle again; an error stays. */
function settleCancelled(c: ChatInside): void {
  c.changed(c.state === 'starting' || c.state === 'working' ? 'idle' : undefined);
}

/** Why an interrupted turn stopped, naming the request involved rather than a bare "aborted". */
function interruptedBecause(c: ChatInside): string {
  const ask = c.lastAsk;
  const why = c.turn.stopWhy;
  // The turn-end line reads "turn stopped: <reason>": the reason does not repeat "stopped".
  if (ask?.outcome === 'cancel') return `"Deny and stop" was chosen for "${ask.title}"`;
  if (ask?.outcome === 'pending') return `${why ?? 'stopped'} while "${ask.title}" waited for an answer`;
  return why ?? 'stopped before it finished';
}

/**
 * Clears the turn's state at its end: watchdogs, the turn id, every card still open for it, and the
 * commands it left running (shown interrupted, `Transcript.settleOpen`). Returns the steers Codex
 * accepted but never took into the conversation.
 */
function finishTurn(c: ChatInside): { shown: string }[] {
  c.turnWaiter = null;
  // Unanswered steers are told by `steer` itself (accepted late) or queued (refused).
  const left = c.steered.splice(0);
  for (const e of left) e.ended = true;
  c.transcript.settleOpen();
  c.watch.clearStall();
  c.watch.clearGhost();
  c.setActivity(null);
  c.deps.broker.withdraw((v) => v.chatId === c.deps.chatId && v.state === 'pending', 'the turn ended');
  c.dispatch({ kind: 'turnEnds' });
  return left.filter((e) => e.acked);
}

/** Names, with their full text, the steered messages the agent never read; nothing is re-sent. */
function tellUndelivered(c: ChatInside, lost: readonly { shown: string }[], how: 'stopped' | 'ended'): void {
  for (const e of lost) c.notice(noticeText({ code: 'not-delivered', shown: e.shown, how }));
}

/**
 * `/compact`: `thread/compact/start` answers `{}` at once; the compaction runs as a turn of its own.
 * "Compacting…" holds until the `contextCompaction` item completes or the turn ends; there is no
 * fixed deadline (a long compaction is not a failure), only the stall watchdog.
 */
async function runCompact(c: ChatInside, seq: number): Promise<void> {
  const row = c.deps.sessions.active(c.deps.chatId);
  if (!row?.started) {
    c.notice('Nothing to compact yet: this session has no turns.');
    return;
  }
  if (!(await started(c))) return;
  if (c.restarted) {
    c.notice(`Codex was restarted before this compaction, resuming the conversation: ${c.restarted}.`);
    c.restarted = null;
  }
  if (cancelled(c.turn)) return settleCancelled(c);
  const conn = c.conn;
  if (!conn || !c.threadId) {
    c.notice('The compaction did not run: Codex stopped before it could start. Send /compact again.');
    return settleCancelled(c);
  }
  c.dispatch({ kind: 'turnBegins' });
  const compaction = { done: false };
  c.compaction = compaction;
  c.changed('working');
  c.setActivity('Compacting…');
  const ended = new Promise<TurnEnded>((resolve) => (c.turnWaiter = resolve));
  try {
    // The compaction's turn id comes with its `turn/started` (chatEvents.ts).
    c.dispatch({ kind: 'phase', seq, phase: 'requested' });
    await conn.request('thread/compact/start', { threadId: c.threadId });
  } catch (e) {
    c.turnWaiter = null;
    c.compaction = null;
    c.setActivity(null);
    if (cancelled(c.turn)) return settleCancelled(c);
    c.transcript.push({ type: 'error', id: c.transcript.localId('error'), message: `Compaction could not start: ${toAppError(e).message}`, detail: null });
    c.changed('idle');
    return;
  }
  c.armStall();
  const end = await ended;
  const done = compaction.done;
  c.compaction = null;
  tellUndelivered(c, finishTurn(c), end.status === 'completed' ? 'ended' : 'stopped');
  if (end.status === 'completed' && done) c.notice('Compacted: the conversation so far was summarised.');
  else if (end.status === 'failed' && end.errorInfo === 'contextWindowExceeded') {
    c.transcript.push({
      type: 'error',
      id: c.transcript.localId('error'),
      message: 'Compaction failed: the conversation is too large even to summarise.',
      detail: 'Start a new session with /new (this one stays reachable with /resume).',
      kind: 'contextWindow',
    });
  } else if (end.status === 'failed' && !end.exited) {
    const why = describeTurnError(end);
    c.transcript.push({ type: 'error', id: c.transcript.localId('error'), message: `Compaction failed: ${why.message}`, detail: why.hint, kind: why.kind });
  } else if (end.status === 'interrupted') c.notice('Compaction stopped before it finished.');
  else if (end.status === 'completed') c.notice('Codex ended the compaction turn without compacting anything.');
  c.changed(end.status === 'failed' ? 'error' : 'idle');
}

/**
 * Tells the agent something from Angelia (not from the user) in its running turn: one `turn/steer`,
 * not shown as a user message and never queued as a turn of its own; a failure is only noted.
 */
export async function tellAgent(c: ChatInside, text: string): Promise<void> {
  const conn = c.conn;
  const turnId = c.turn.turnId;
  if (!conn || !c.threadId || !turnId) return;
  try {
    await conn.request('turn/steer', { threadId: c.threadId, expectedTurnId: turnId, input: [{ type: 'text', text: `[Angelia] ${text}`, text_elements: [] }] });
  } catch (e) {
    c.notice(`The agent could not be told why (${toAppError(e).message}).`);
  }
}

/**
 * Sends text (and `images`) into the running turn (`turn/steer` with `expectedTurnId`); when that fails,
 * queues it, images included, as the next turn. A Deny's typed reason (`denyReason`) goes to the agent as
 * "I denied that request. …".
 */
export async function steer(c: ChatInside, text: string, via: 'steer' | 'denyReason', images?: ImageRef[]): Promise<void> {
  const conn = c.conn;
  const turnId = c.turn.turnId;
  c.transcript.push({ type: 'user', id: c.transcript.localId('user'), text, via, ...imagesOf(images) });
  const input = via === 'denyReason' ? `I denied that request. ${text}` : text;
  if (conn && c.threadId && turnId) {
    const entry = { shown: text, input, acked: false, ended: false };
    c.steered.push(entry);
    try {
      await conn.request('turn/steer', { threadId: c.threadId, expectedTurnId: turnId, input: userInput(input, images) });
      entry.acked = true;
      // Its turn ended while the steer was on its way, and Codex never took it: say so now.
      if (entry.ended) tellUndelivered(c, [entry], 'ended');
      return;
    } catch (e) {
      c.steered = c.steered.filter((x) => x !== entry);
      c.notice(`It could not go into the running turn (${toAppError(e).message}); it is queued as the next message.`);
    }
  }
  c.dispatch({ kind: 'enqueue', work: { kind: 'message', text: input, retried: true, ...imagesOf(images) }, unbounded: true });
}

/**
 * Sends `turn/interrupt` for the running turn (not `$/cancelRequest`); a turn that does not end within
 * `interruptGraceMs` after it, or an interrupt Codex refuses, is ended by stopping the process. False
 * when no turn with a known id runs. The queue is not touched (the stall watchdog uses this alone).
 */
export async function interruptTurn(c: ChatInside): Promise<boolean> {
  const conn = c.conn;
  const turnId = c.turn.turnId;
  if (!conn || !c.threadId || !turnId) return false;
  try {
    await conn.request('turn/interrupt', { threadId: c.threadId, turnId }, { timeoutMs: c.watch.timing.interruptGraceMs });
  } catch (e) {
    // The turn ended on its own while the interrupt was on its way: nothing left to stop.
    if (c.turn.turnId !== turnId || c.conn !== conn) return false;
    c.notice(`Codex did not stop the turn (${toAppError(e).message}); its process is stopped instead.`);
    await c.stopProcess();
    return true;
  }
  c.watch.afterInterrupt(() => {
    if (c.turn.turnId === turnId && c.conn === conn) void c.stopProcess();
  });
  return true;
}

/** True while an approval of this chat waits in the broker. */
export function hasPending(c: ChatInside): boolean {
  return c.deps.broker.pending().some((v) => v.chatId === c.deps.chatId);
}

/** The chat's watchdogs (watchdogs.ts) on its clock: what the stall and ghost-approval watchdogs say and do; `idleExit` is the chat's. */
export function turnWatchdogs(c: ChatInside, idleExit: () => void): Watchdogs {
  return new Watchdogs(c.deps.timing, c.deps.clock ?? realClock, {
    stallHalf: (ms) => {
      c.notice(noticeText({ code: 'stall-half', ms }));
      c.setActivity(`No output for ${minutesText(ms / 2)}`);
    },
    stallReset: () => c.setActivity(c.compaction ? 'Compacting…' : null),
    stallFull: (ms) => {
      c.notice(noticeText({ code: 'stall-stopped', ms }));
      c.dispatch({ kind: 'stall' });
    },
    idleExit,
    ghost: () => {
      if (!hasPending(c)) tellGhostApproval(c);
    },
  });
}
