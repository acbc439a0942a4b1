/**
 * Codex → chat: the notifications of the chat's Codex (items into the transcript, the turn id and turn
 * end for the runner, thread status for the ghost-approval watchdog) and its server requests (through
 * the approval broker; what an Allow grants is remembered, a Deny's reason is steered into the turn).
 * Anything from a connection that is not the chat's current one (or the one it is opening) is ignored:
 * a process detached by `/new`, `/resume`, a stop or a restart cannot touch the chat any more.
 * Protocol: codex 0.169.0 `ServerNotification`, `ServerRequest`; docs/architecture.md flows (b), (c).
 */
import { ResponseError } from 'vscode-jsonrpc';
import type { Settlement } from '../approvals/broker';
import { grantedPlaces } from '../approvals/privateReach';
import type { CodexConnection } from '../codex/connection';
import { turnEndOf, wireMethod, type CodexEvent } from '../codex/events';
import { chatItemOf } from '../codex/items';
import { limitOpen } from '../codex/askLimits';
import { classifyServerRequest } from '../codex/serverRequests';
import { chatUsageOf } from '../usage/limits';
import { id8 } from './commands';
import type { ChatInside } from './inside';
import { hasPending, steer, tellAgent } from './turn/run';
import { onTurnDiff } from './turnDiff/chatTurns';

/** One notification of `conn`, decoded (codex/events.ts `CodexEvent`; see the module comment). */
export function onEvent(c: ChatInside, conn: CodexConnection, e: CodexEvent): void {
  // A detached process (after /new, /resume, a stop or a restart) may still speak: it is not this chat's any more.
  if (!c.isCurrent(conn)) return;
  if (e.threadId && c.threadId && e.threadId !== c.threadId) return;
  // Any notification during a turn (also one Angelia does not route) shows Codex is active.
  if (c.turnWaiter && wireMethod(e) !== 'thread/status/changed') c.armStall();
  switch (e.method) {
    case 'turn/started': {
      // Only the work waiting for its turn id takes it (a compaction learns its id only here).
      const cur = c.turn.current;
      if (cur && c.turnWaiter) c.dispatch({ kind: 'turnId', seq: cur.seq, id: e.params.turn.id, active: true });
      return;
    }
    case 'item/started':
    case 'item/completed': {
      const item = e.params.item;
      if (item.type === 'fileChange' && item.id) c.fileChanges.set(item.id, item.changes);
      if (item.type === 'mcpToolCall' && item.id) noteMcpCall(c, e.method === 'item/started' ? item : null, item.id);
      if (item.type === 'userMessage' && c.steered.length) tookSteer(c, item.text);
      if (item.type === 'contextCompaction' && e.method === 'item/completed' && c.compaction) c.compaction.done = true;
      const shown = chatItemOf(item, e.method === 'item/completed');
      if (shown && shown.type !== 'user') c.transcript.upsert(shown);
      return;
    }
    case 'item/agentMessage/delta':
    case 'item/reasoning/summaryTextDelta':
      c.transcript.delta(e.params.itemId, 'text', e.params.delta);
      return;
    case 'item/commandExecution/outputDelta':
      c.transcript.delta(e.params.itemId, 'output', e.params.delta);
      return;
    case 'thread/status/changed':
      c.watch.watchGhost(e.params.activeFlags.includes('waitingOnApproval'));
      return;
    case 'error':
      // Codex retries model requests on its own; say so instead of staying silent (a final error ends the turn).
      if (e.params.willRetry && e.params.message !== null) {
        c.transcript.push({ type: 'notice', id: c.transcript.localId('retry'), text: `Codex is retrying: ${e.params.message}` });
      }
      return;
    case 'mcpServer/startupStatus/updated': {
      const p = e.params;
      if (p.status === 'failed' || p.status === 'starting') {
        const name = p.name ?? 'an MCP server';
        c.transcript.push({
          type: 'notice',
          id: c.transcript.localId('mcp'),
          text:
            p.status === 'starting'
              ? `Starting tools: ${name}…`
              : `The MCP server ${name} failed to start${p.error !== null ? `: ${p.error}` : ''}; the agent goes on without it.`,
        });
      }
      return;
    }
    case 'serverRequest/resolved': {
      const requestId = e.params.requestId;
      c.deps.broker.withdraw(
        (v, rpcId) => v.chatId === c.deps.chatId && String(rpcId) === String(requestId),
        'the turn was stopped or ended (Codex closed the request)',
      );
      leaveNeedsYou(c);
      return;
    }
    case 'account/rateLimits/updated':
      c.deps.usage?.store.rateLimitsUpdated(c.deps.usage.codexHome, e.params.rateLimits);
      return;
    case 'thread/tokenUsage/updated':
      c.usage = chatUsageOf(e.params.tokenUsage);
      c.changed();
      return;
    case 'turn/diff/updated':
      onTurnDiff(c, e.turnId, e.threadId, e.params.diff);
      return;
    case 'turn/completed': {
      const end = turnEndOf(e);
      // A usage limit pauses every chat of this Codex home (core/usage/store.ts), before the runner pumps the queue.
      if (end.status === 'failed' && end.errorInfo === 'usageLimitExceeded') c.deps.usage?.store.usageLimitReached(c.deps.usage.codexHome);
      c.grants = c.grants.filter((g) => g.scope === 'session' || (g.turnId !== null && end.turnId !== null && g.turnId !== end.turnId));
      c.mcpCalls.clear();
      const turnId = c.turn.turnId;
      if (c.turnWaiter && (!turnId || !end.turnId || end.turnId === turnId)) c.turnWaiter(end);
      return;
    }
    default:
      return;
  }
}

/**
 * Remembers what an Allow made writable (a permissions grant, or a command's additional permissions):
 * `allow` for its turn, `allowForSession` until the process ends. Relative paths against the request's
 * folder, as they were checked.
 */
function keepGrant(
  c: ChatInside,
  ask: { kind: string; requested: Settlement['granted']; turnId: string | null; cwd: string | null },
  settled: Settlement,
): void {
  const floor = c.grantFloor;
  if (!floor || (settled.answer !== 'allow' && settled.answer !== 'allowForSession')) return;
  const granted = ask.kind === 'permissions' ? settled.granted : ask.kind === 'command' ? ask.requested : null;
  if (!granted?.write.length) return;
  const base = ask.cwd && ask.cwd.startsWith('/') ? ask.cwd : floor.cwd;
  const scope = settled.answer === 'allow' ? 'turn' : 'session';
  for (const place of grantedPlaces(granted, floor, base)) c.grants.push({ place, scope, turnId: ask.turnId ?? c.turn.turnId });
}

/** Keeps `call` (an `mcpToolCall` item just started, in progress) for matching a tool gate to it; null (or any other status): forgets item `id`. */
function noteMcpCall(c: ChatInside, call: { server: string | null; tool: string | null; status: string | null; arguments?: unknown } | null, id: string): void {
  if (call?.status === 'inProgress' && call.server !== null && call.tool !== null)
    c.mcpCalls.set(id, { server: call.server, tool: call.tool, arguments: call.arguments });
  else c.mcpCalls.delete(id);
}

/**
 * Remembers in the session row that thread `threadId` (the chat's current one when null) received a
 * secret answer, so `/ask` from an agent never copies it (Orchestrator.ask). A failed write is told.
 */
function keepSecret(c: ChatInside, threadId: string | null): void {
  const thread = threadId ?? c.threadId;
  if (!thread) return;
  try {
    c.deps.sessions.markSecretAnswer(c.deps.chatId, thread);
  } catch (e) {
    c.notice(`Could not note that this session received a secret answer (${e instanceof Error ? e.message : String(e)}); /ask may copy it.`);
  }
}

/** Codex took a steered text into the conversation (a `userMessage` item with exactly its text): it is delivered. */
function tookSteer(c: ChatInside, text: string): void {
  const at = c.steered.findIndex((e) => e.input === text);
  if (at >= 0) c.steered.splice(at, 1);
}

/** What the chat says when nobody answered `ask` within the permission timeout (`timeoutMs`, ms). */
export function timeoutNotice(ask: { kind: string; elicitation?: { serverName: string } }, timeoutMs: number): string {
  const min = timeoutMs >= 60_000 ? `${Math.round(timeoutMs / 60_000)} min` : `${Math.max(1, Math.round(timeoutMs / 1000))} s`;
  if (ask.kind === 'userInput') return `Nobody answered the agent's question within ${min}; it got an empty answer.`;
  if (ask.kind === 'elicitation') return `Nobody answered ${ask.elicitation?.serverName ?? 'the MCP server'}'s request within ${min}; it was declined.`;
  return 'No answer to the permission request in time, so it was denied.';
}

/**
 * The chat's last waiting request was settled (answered, timed out or withdrawn): "needs you" becomes
 * "working" again while a turn or compaction runs (the stall watchdog re-armed), and "idle" when none
 * does. A request may come between turns (docs/architecture.md "Questions and elicitations": an MCP
 * server asks whether or not a turn runs); before, its answer left the chat "working" with nothing
 * running until the next turn.
 */
function leaveNeedsYou(c: ChatInside): void {
  if (c.state !== 'needs-you' || hasPending(c)) return;
  if (!c.turn.current) return c.changed('idle');
  c.changed('working');
  c.armStall();
}

/** Records and shows a server request answered -32601 (never dropped silently). */
export function noteUnknown(c: ChatInside, method: string): void {
  c.deps.audit.append({ at: new Date().toISOString(), chatId: c.deps.chatId, profile: c.deps.profile, event: 'refused-unknown', kind: 'unknown', method });
  c.transcript.push({
    type: 'notice',
    id: c.transcript.localId('notice'),
    text: `Codex sent a request Angelia does not know (${method}); it was answered "unsupported".`,
  });
}

/** One server request of `conn`: answered at once, or through the broker (the chat "needs you" meanwhile). */
export async function onServerRequest(c: ChatInside, conn: CodexConnection, method: string, params: unknown, rpcId: string | number): Promise<unknown> {
  // A detached process is being stopped: nothing it asks is shown or run.
  if (!c.isCurrent(conn)) throw new ResponseError(-32603, `this Codex process is no longer attached to Angelia's chat ${c.deps.chatId}`);
  const classified = classifyServerRequest(method, params, {
    fileChanges: c.fileChanges,
    mcpCalls: c.mcpCalls,
    onRequest: c.onRequest,
    ...(c.grantFloor ? { floor: c.grantFloor } : {}),
    ...(c.sandboxCtx ? { sandbox: c.sandboxCtx } : {}),
    granted: () => c.grants.map((g) => g.place),
  });
  const ask = classified.type === 'ask' ? limitOpen(classified, c.deps.chatId, c.deps.broker.pending()) : classified;
  const base = { chatId: c.deps.chatId, profile: c.deps.profile, at: new Date().toISOString() };
  if (ask.type === 'unknown') {
    noteUnknown(c, method);
    throw new ResponseError(-32601, `unsupported: ${method}`);
  }
  if (ask.type === 'immediate') {
    c.deps.audit.append({ ...base, event: 'answered-immediately', kind: ask.kind, method, ...(ask.refused ? { refused: ask.refused } : {}) });
    c.transcript.push({ type: 'notice', id: c.transcript.localId('notice'), text: ask.notice });
    // Written after the reply (this handler's result), as a Deny's reason is.
    const note = ask.agentNote;
    if (note) setTimeout(() => void tellAgent(c, note), 0);
    return ask.result;
  }
  // Codex's tool gate is shown once per call: a later elicitation naming the same call is the server's own.
  if (ask.kind === 'elicitation' && ask.itemId) c.mcpCalls.delete(ask.itemId);
  const { id, response } = c.deps.broker.open({ chatId: c.deps.chatId, profile: c.deps.profile, ask, rpcId });
  const last = { title: ask.title, outcome: 'pending' as 'pending' | 'cancel' | 'deny' | 'allow' };
  c.lastAsk = last;
  c.transcript.push({ type: 'approval', id: `approval-${id}`, approvalId: id });
  // Also a non-blocking question (`isBlocking: false`): codex 0.169.0 still waits for its answer (measured,
  // docs/architecture.md "Questions and elicitations"), so the stall watchdog pauses as for any request.
  c.watch.clearStall();
  c.changed('needs-you');
  const settled: Settlement = await response;
  keepGrant(c, ask, settled);
  if (ask.kind === 'userInput' && settled.answer === 'allow' && ask.questions?.some((q) => q.isSecret)) keepSecret(c, ask.threadId);
  last.outcome = settled.answer === 'cancel' ? 'cancel' : settled.answer === 'deny' ? 'deny' : 'allow';
  // "Deny and stop" ends the turn (Codex interrupts it): like /stop, what waited after it is dropped, and named.
  if (settled.answer === 'cancel') c.dispatch({ kind: 'denyAndStop' });
  leaveNeedsYou(c);
  if (settled.by === 'timeout') c.notice(`${timeoutNotice(ask, c.deps.broker.timeoutMs)} (${id8(id)})`);
  if (settled.reason && settled.answer === 'deny') {
    // The decline is written first (this handler's result); the typed reason follows as a steer.
    const reason = settled.reason;
    setTimeout(() => void steer(c, reason, 'denyReason'), 0);
  } else if (settled.reason) {
    // "Deny and stop" ends the turn: its reason is kept with the request, and nothing is queued.
    c.notice(`Your reason was recorded with the request, not sent to the agent: "Deny and stop" ended the turn. (${id8(id)})`);
  }
  return settled.wire;
}
