/**
 * One chat: one conversation with one profile's agent. Holds the message queue (at most 10), starts
 * Codex lazily and fail-closed (launch plan, version gate, config layers, thread attestation), runs one
 * `turn/start` per message, streams items into the transcript, and routes server requests through the
 * approval broker. Protocol facts: codex 0.169.0 (codex-app-server.md §3, §4, §6).
 */
import { ResponseError } from 'vscode-jsonrpc';
import type { AgentState, AppEvent, ChatItem, ChatView, Enforcement } from '../../../shared/contract';
import { AppFailure, toAppError } from '../../../shared/result';
import type { ApprovalBroker } from '../approvals/broker';
import type { AuditSink } from '../approvals/audit';
import { attestThread, checkConfigLayers, checkMcpServers, checkRequirements, checkVersion, type ExpectedLaunch } from '../codex/attest';
import { explainTurnError, idsOf, readChanges, readTurnEnd, toChatItem, type TurnEnd } from '../codex/items';
import { classifyServerRequest, type ChangeView } from '../codex/serverRequests';
import { CrashHistory } from '../codex/crashPolicy';
import { exitCause } from '../codex/stderrClass';
import type { CodexConnection, CodexExit, CodexSpawnSpec, StartCodex } from './connection';
import type { SessionStore } from './sessions';
import { Transcript } from './transcript';
import { isObj, type Obj } from '../codex/wire';

/** Everything needed to start this chat's agent, compiled from the accepted table (throws AppFailure to refuse). */
export interface LaunchPlan {
  spawn: CodexSpawnSpec;
  sandboxed: boolean;
  permissionsExtends: string | null;
  /** Approval policy is on-request (modes default and acceptEdits). */
  onRequest: boolean;
  /** thread/start and thread/resume parameters (never a `sandbox` value while sandboxed). */
  threadParams: Record<string, unknown>;
  effort: string | null;
  /** What the managed-requirements check compares against. */
  expect: ExpectedLaunch;
  /** MCP servers the profile was given (any other that would load refuses the start). */
  allowedMcpServers: string[];
}

export interface ChatDeps {
  chatId: string;
  profile: string;
  plan: () => Promise<LaunchPlan>;
  startCodex: StartCodex;
  broker: ApprovalBroker;
  audit: AuditSink;
  sessions: SessionStore;
  emit: (e: AppEvent) => void;
}

/** The most messages a chat holds (running + waiting), product.md §4. */
export const MAX_QUEUE = 10;

export class Chat {
  private state: AgentState = 'idle';
  private refusal: string | null = null;
  private enforcement: Enforcement | null = null;
  private threadId: string | null = null;
  private rowId: string | null = null;
  private conn: CodexConnection | null = null;
  private starting: Promise<void> | null = null;
  private readonly queue: string[] = [];
  private running = false;
  private turnId: string | null = null;
  private turnWaiter: ((end: TurnEnd) => void) | null = null;
  private onRequest = true;
  private readonly fileChanges = new Map<string, ChangeView[]>();
  readonly transcript: Transcript;

  constructor(private readonly deps: ChatDeps) {
    this.transcript = new Transcript(deps.chatId, deps.emit);
    const row = deps.sessions.list(deps.chatId, 1)[0];
    if (row) {
      this.threadId = row.threadId;
      this.enforcement = row.enforcement;
    }
  }

  /** The chat as the list shows it. */
  view(): ChatView {
    return {
      id: this.deps.chatId, profile: this.deps.profile, state: this.state, threadId: this.threadId,
      enforcement: this.enforcement, lastLine: this.transcript.lastLine(), refusal: this.refusal,
      pendingApprovals: this.deps.broker.pending().filter((a) => a.chatId === this.deps.chatId).length,
      queued: this.queue.length,
    };
  }

  /** Queues a message; starts the agent when needed. Throws AppFailure when the queue is full. */
  send(text: string): { queued: number } {
    if (this.queue.length + (this.running ? 1 : 0) >= MAX_QUEUE) {
      throw new AppFailure({ code: 'queue-full', message: `this chat already holds ${MAX_QUEUE} messages; wait for the agent to work through them`, where: this.deps.chatId });
    }
    this.queue.push(text);
    this.changed();
    void this.pump();
    return { queued: this.queue.length };
  }

  /** Stops the running turn with `turn/interrupt` (not `$/cancelRequest`). */
  async interrupt(): Promise<boolean> {
    if (!this.conn || !this.threadId || !this.turnId) return false;
    await this.conn.request('turn/interrupt', { threadId: this.threadId, turnId: this.turnId });
    return true;
  }

  /** Resolves when the chat has nothing running and nothing queued. */
  async idle(): Promise<void> {
    while (this.running || this.queue.length) await new Promise((r) => setTimeout(r, 20));
  }

  /** Stops the Codex process (stdin close, TERM, KILL) and withdraws pending approvals. */
  async dispose(): Promise<void> {
    const conn = this.conn;
    this.conn = null;
    this.deps.broker.withdraw((v) => v.chatId === this.deps.chatId);
    if (conn) await conn.stop();
  }

  private changed(state?: AgentState): void {
    if (state) this.state = state;
    this.deps.emit({ event: 'chat:updated', payload: this.view() });
  }

  private async pump(): Promise<void> {
    if (this.running) return;
    const text = this.queue.shift();
    if (text === undefined) return;
    this.running = true;
    try {
      await this.runTurn(text);
    } finally {
      this.running = false;
      if (this.queue.length) void this.pump();
      else this.changed();
    }
  }

  private async runTurn(text: string): Promise<void> {
    this.transcript.push({ type: 'user', id: this.transcript.localId('user'), text });
    try {
      await this.ensureStarted();
    } catch (e) {
      const error = toAppError(e);
      const dropped = this.queue.splice(0).length;
      // No sandbox is in force for a chat whose agent did not start: never show the last session's badge.
      this.enforcement = null;
      this.refusal = `${error.message}${/[.!?]$/.test(error.message) ? '' : '.'}${error.fix ? ` Fix: ${error.fix}` : ''}`;
      this.transcript.push({ type: 'error', id: this.transcript.localId('refused'), message: `This chat's agent was not started: ${this.refusal}`, detail: `Nothing was sent to it${dropped ? ` (${dropped} queued message(s) dropped)` : ''}.` });
      this.changed(error.code === 'refused' ? 'refused' : 'error');
      return;
    }
    const conn = this.conn;
    if (!conn || !this.threadId || !this.rowId) return;
    this.changed('working');
    const ended = new Promise<TurnEnd>((resolve) => (this.turnWaiter = resolve));
    try {
      const params: Obj = { threadId: this.threadId, input: [{ type: 'text', text, text_elements: [] }] };
      const effort = this.currentPlanEffort;
      if (effort) params.effort = effort;
      const res = await conn.request('turn/start', params);
      this.turnId = isObj(res) && isObj(res.turn) && typeof res.turn.id === 'string' ? res.turn.id : null;
      this.deps.sessions.recordTurn(this.deps.chatId, this.rowId, text);
    } catch (e) {
      this.turnWaiter = null;
      this.transcript.push({ type: 'error', id: this.transcript.localId('error'), message: `The message could not be sent: ${toAppError(e).message}`, detail: null });
      this.changed('error');
      return;
    }
    const end = await ended;
    this.turnWaiter = null;
    this.deps.broker.withdraw((v) => v.chatId === this.deps.chatId && v.state === 'pending');
    const reason = end.status === 'failed' ? explainTurnError(end) : end.status === 'interrupted' ? 'stopped before it finished' : null;
    this.transcript.push({ type: 'turnEnd', id: this.transcript.localId('turn'), status: end.status, reason });
    this.turnId = null;
    this.changed(end.status === 'failed' ? 'error' : 'idle');
  }

  private currentPlanEffort: string | null = null;

  /** Unexpected Codex exits of this chat; too many in a row refuse the restart (codex/crashPolicy.ts). */
  private readonly crashes = new CrashHistory();

  private async ensureStarted(): Promise<void> {
    if (this.conn) return;
    const verdict = this.crashes.verdict(Date.now());
    if (!verdict.allowed) throw new AppFailure({ code: 'crash-loop', message: this.crashes.message(verdict) });
    this.starting ??= this.start().finally(() => (this.starting = null));
    return this.starting;
  }

  private refuse(conn: CodexConnection | null, reasons: string[]): never {
    conn?.kill();
    this.conn = null;
    throw new AppFailure({ code: 'refused', message: reasons.join(' ') });
  }

  private async start(): Promise<void> {
    this.changed('starting');
    this.refusal = null;
    const plan = await this.deps.plan();
    this.onRequest = plan.onRequest;
    this.currentPlanEffort = plan.effort;
    let conn: CodexConnection;
    try {
      conn = await this.deps.startCodex(plan.spawn);
    } catch (e) {
      throw new AppFailure({ code: 'start-failed', message: `Codex did not start: ${toAppError(e).message}` });
    }
    try {
      await this.attestAndOpen(conn, plan);
    } catch (e) {
      // Nothing may outlive a failed start: a refusal already killed it; any other failure does now.
      if (this.conn !== conn) conn.kill();
      throw e;
    }
  }

  /** The checks and the thread start of `start()`, on a running connection. Throws to refuse. */
  private async attestAndOpen(conn: CodexConnection, plan: LaunchPlan): Promise<void> {
    conn.onNotification((m, p) => this.onNotification(m, p));
    conn.onServerRequest((m, p, id) => this.onServerRequest(m, p, id));
    conn.onUnknownServerRequest?.((method) => this.noteUnknown(method));
    const version = checkVersion(conn.version);
    if (version.length) this.refuse(conn, version);
    const configRead = await conn.request('config/read', { includeLayers: true, cwd: plan.spawn.cwd });
    const requirements = await conn.request('configRequirements/read', {});
    const refusals = [
      ...(plan.sandboxed ? checkConfigLayers(configRead) : []),
      ...checkMcpServers(configRead, plan.allowedMcpServers),
      ...checkRequirements(requirements, plan.expect),
    ];
    if (refusals.length) this.refuse(conn, refusals);
    const row = this.deps.sessions.ensureActive(this.deps.chatId, this.deps.profile);
    let answer: unknown;
    if (row.started && row.threadId) {
      try {
        answer = await conn.request('thread/resume', { threadId: row.threadId, ...plan.threadParams }, { timeoutMs: 120_000 });
      } catch (e) {
        const msg = toAppError(e).message;
        if (!/no rollout found|not found|unknown thread|does not exist/i.test(msg)) this.refuse(conn, [`the session ${row.threadId} could not be resumed: ${msg}`]);
        this.transcript.push({ type: 'notice', id: this.transcript.localId('notice'), text: 'The previous conversation of this chat was not found on disk, so this is a fresh start.' });
        answer = undefined;
      }
    }
    let rowId = row.id;
    if (answer === undefined) {
      if (row.started) rowId = this.deps.sessions.startNew(this.deps.chatId, this.deps.profile).id;
      answer = await conn.request('thread/start', plan.threadParams, { timeoutMs: 120_000 });
    }
    const verdict = attestThread(answer, { sandboxed: plan.sandboxed, permissionsExtends: plan.permissionsExtends });
    this.enforcement = verdict.enforcement;
    if (verdict.refusals.length) this.refuse(conn, verdict.refusals);
    const thread = isObj(answer) && isObj(answer.thread) ? answer.thread : {};
    const tid = typeof thread.id === 'string' ? thread.id : row.threadId;
    if (!tid) this.refuse(conn, ['refused: Codex did not return a thread id.']);
    this.threadId = tid;
    this.rowId = this.deps.sessions.bindThread(this.deps.chatId, rowId, tid, verdict.enforcement).id;
    this.conn = conn;
    void conn.exited.then((exit) => this.onExit(conn, exit));
  }

  /** An exit Angelia did not ask for (dispose and refusals detach `conn` first): fail the turn, count the crash. */
  private onExit(conn: CodexConnection, exit: CodexExit): void {
    if (this.conn !== conn) return;
    this.conn = null;
    this.deps.broker.withdraw((v) => v.chatId === this.deps.chatId);
    const how = exit.signal ? `signal ${exit.signal}` : `exit code ${exit.code}`;
    const cause = exitCause(exit);
    const verdict = this.crashes.note({ at: Date.now(), how, cause });
    this.refusal = verdict.allowed ? null : this.crashes.message(verdict);
    const next = this.refusal ?? 'Your next message starts it again and resumes this conversation.';
    this.transcript.push({ type: 'error', id: this.transcript.localId('exit'), message: `Codex exited (${how}). ${next}`, detail: cause });
    this.turnWaiter?.({ turnId: this.turnId, status: 'failed', message: `Codex exited (${how})`, errorInfo: null });
    this.changed('error');
  }

  private onNotification(method: string, params: unknown): void {
    const ids = idsOf(params);
    if (ids.threadId && this.threadId && ids.threadId !== this.threadId) return;
    const p = isObj(params) ? params : {};
    switch (method) {
      case 'item/started':
      case 'item/completed': {
        if (isObj(p.item) && p.item.type === 'fileChange' && typeof p.item.id === 'string') this.fileChanges.set(p.item.id, readChanges(p.item));
        const item = toChatItem(p.item, method === 'item/completed');
        if (item && item.type !== 'user') this.transcript.upsert(item);
        return;
      }
      case 'item/agentMessage/delta':
      case 'item/reasoning/summaryTextDelta':
        if (typeof p.itemId === 'string' && typeof p.delta === 'string') this.transcript.delta(p.itemId, 'text', p.delta);
        return;
      case 'item/commandExecution/outputDelta':
        if (typeof p.itemId === 'string' && typeof p.delta === 'string') this.transcript.delta(p.itemId, 'output', p.delta);
        return;
      case 'error':
        // Codex retries model requests on its own; say so instead of staying silent (a final error ends the turn).
        if (p.willRetry === true && isObj(p.error) && typeof p.error.message === 'string') {
          this.transcript.push({ type: 'notice', id: this.transcript.localId('retry'), text: `Codex is retrying: ${p.error.message}` });
        }
        return;
      case 'mcpServer/startupStatus/updated':
        if (p.status === 'failed' || p.status === 'starting') {
          const name = typeof p.name === 'string' ? p.name : 'an MCP server';
          this.transcript.push({ type: 'notice', id: this.transcript.localId('mcp'), text: p.status === 'starting' ? `Starting tools: ${name}…` : `The MCP server ${name} failed to start${typeof p.error === 'string' ? `: ${p.error}` : ''}; the agent goes on without it.` });
        }
        return;
      case 'serverRequest/resolved':
        this.deps.broker.withdraw((v, rpcId) => v.chatId === this.deps.chatId && String(rpcId) === String(p.requestId));
        this.changed(this.state === 'needs-you' ? 'working' : undefined);
        return;
      case 'turn/completed': {
        const end = readTurnEnd(params);
        if (this.turnWaiter && (!this.turnId || !end.turnId || end.turnId === this.turnId)) this.turnWaiter(end);
        return;
      }
      default:
        return;
    }
  }

  /** Records and shows a server request answered -32601 (field case B02: never dropped silently). */
  private noteUnknown(method: string): void {
    this.deps.audit.append({ at: new Date().toISOString(), chatId: this.deps.chatId, profile: this.deps.profile, event: 'refused-unknown', kind: 'unknown', method });
    this.transcript.push({ type: 'notice', id: this.transcript.localId('notice'), text: `Codex sent a request Angelia does not know (${method}); it was answered "unsupported".` });
  }

  private async onServerRequest(method: string, params: unknown, rpcId: string | number): Promise<unknown> {
    const c = classifyServerRequest(method, params, { fileChanges: this.fileChanges, onRequest: this.onRequest });
    const base = { chatId: this.deps.chatId, profile: this.deps.profile, at: new Date().toISOString() };
    if (c.type === 'unknown') {
      this.noteUnknown(method);
      throw new ResponseError(-32601, `unsupported: ${method}`);
    }
    if (c.type === 'immediate') {
      this.deps.audit.append({ ...base, event: 'answered-immediately', kind: c.kind, method });
      this.transcript.push({ type: 'notice', id: this.transcript.localId('notice'), text: c.notice });
      return c.result;
    }
    const { id, response } = this.deps.broker.open({ chatId: this.deps.chatId, profile: this.deps.profile, ask: c, rpcId });
    this.transcript.push({ type: 'approval', id: `approval-${id}`, approvalId: id });
    this.changed('needs-you');
    const wire = await response;
    if (this.state === 'needs-you' && !this.deps.broker.pending().some((v) => v.chatId === this.deps.chatId)) this.changed('working');
    return wire;
  }
}

export type { ChatItem };
