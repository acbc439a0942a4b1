/**
 * The one approval broker: every server request a person must answer gets an Angelia id (a UUID), an
 * audit line, a durable record (records.ts) and exactly one answer, whichever surface answers first
 * (window, notification, tray, CLI, API) or the timeout. Later answers learn "already answered"
 * and change nothing. Requests Codex settles itself (`serverRequest/resolved`) or that outlive their turn
 * are withdrawn and never answered. Wire shapes come from the request (`AskRequest.toWire`,
 * serverRequests.ts, questions.ts, elicitation.ts; codex 0.169.0). Agent questions and MCP elicitations
 * are requests like the others; a secret answer is never kept in clear: the view's `given` masks it,
 * and the audit names only the questions answered and the form fields given, never a value.
 */
import { randomUUID } from 'node:crypto';
import type { AnswerOutcome, AnswerSource, ApprovalAnswer, ApprovalView, ElicitContent, QuestionAnswers, RequestedAccess } from '../../../shared/contract';
import { AppFailure } from '../../../shared/result';
import type { AskRequest, WireExtras } from '../codex/askRequest';
import { maskAnswers } from '../codex/questions';
import { checkGrant } from '../codex/serverRequests';
import type { AuditRecord, AuditSink } from './audit';
import { writeApprovalRecord } from './records';

/** The longest reason a Deny may carry, in characters after trimming (the contract's `approvals:answer` limit). */
export const MAX_DENY_REASON = 4000;

/** One open request as the chat hands it to the broker. */
export interface OpenRequest {
  chatId: string;
  profile: string;
  ask: AskRequest;
  /** Codex's JSON-RPC id of the server request (for withdrawal on `serverRequest/resolved`). */
  rpcId: string | number;
}

/**
 * How a request was settled, as the chat receives it. `wire` is the JSON-RPC `result` to write for the
 * request (codex 0.169.0 shapes, from `AskRequest.toWire`). `by: 'timeout'` means nobody answered in
 * time and the request was denied (the chat says so). `reason` is the trimmed text typed with a Deny
 * (null when none): the wire carries no free text, so the chat sends it to the agent as a steer after
 * writing `wire`. `granted` is what an Allow of a permissions request granted (the
 * grant, or everything asked when no grant was given); null for every other answer and kind.
 */
export interface Settlement {
  wire: unknown;
  answer: ApprovalAnswer;
  by: AnswerSource;
  reason: string | null;
  granted: RequestedAccess | null;
}

/**
 * Extras of an answer: `grant` (Allow of a permissions request only), `reason` (Deny or cancel only),
 * `answers` (Allow of an agent question: question id → answers), `content` (Allow of a form
 * elicitation: field name → value). Checked by `AskRequest.toWire`.
 */
export interface AnswerOptions {
  /** A non-empty subset of the request's `requested` access; omitted: everything asked is granted. */
  grant?: RequestedAccess;
  /** Free text for the agent, trimmed; at most `MAX_DENY_REASON` characters. Blank counts as none. */
  reason?: string;
  /** An agent question's answers (every question answered; option labels where only options fit). */
  answers?: QuestionAnswers;
  /** A form elicitation's content (matching its fields). */
  content?: ElicitContent;
}

/** The extras `toWire` takes, without keys left undefined. */
function extrasOf(opts: AnswerOptions): WireExtras {
  return {
    ...(opts.grant ? { grant: opts.grant } : {}),
    ...(opts.answers ? { answers: opts.answers } : {}),
    ...(opts.content ? { content: opts.content } : {}),
  };
}

/**
 * What an answered question shows as `given` (masked, from the reply written: `{answers: {<id>:
 * {answers}}}`); undefined for every other kind.
 */
function givenOf(ask: AskRequest, wire: unknown): QuestionAnswers | undefined {
  if (ask.kind !== 'userInput') return undefined;
  const sent = (wire as { answers?: Record<string, { answers?: string[] } | undefined> } | null)?.answers ?? {};
  const plain: QuestionAnswers = {};
  for (const [id, a] of Object.entries(sent)) plain[id] = [...(a?.answers ?? [])];
  return maskAnswers(ask.questions ?? [], plain);
}

/** What the audit keeps of an answer's content: the question ids answered, the form fields given (never a value). */
function auditedInput(
  ask: AskRequest,
  given: QuestionAnswers | undefined,
  content: ElicitContent | undefined,
  answer: ApprovalAnswer,
): Pick<AuditRecord, 'answered' | 'fields'> {
  if (given) return { answered: Object.keys(given) };
  if (ask.kind === 'elicitation' && answer === 'allow') return { fields: Object.keys(content ?? {}) };
  return {};
}

interface Entry {
  view: ApprovalView;
  ask: AskRequest;
  rpcId: string | number;
  settle: ((s: Settlement) => void) | null;
  timer: NodeJS.Timeout | null;
}

/**
 * Broker options. `timeoutMs`: how long a request waits before it is denied (product default 10 min).
 * `audit`: where every request and outcome is appended. `onUpdate`: called with the view after every
 * change (open, answer, timeout, withdrawal). `recordDir`: when set, `<recordDir>/<id>.json` is written
 * (atomically, mode 600, folder mode 700) on open and on every change (records.ts). `onError`: failures
 * nobody can be told about by a throw (record writes; the audit of a timeout or a withdrawal);
 * default `process.emitWarning`. `now`: the clock (tests).
 */
export interface BrokerOptions {
  timeoutMs: number;
  audit: AuditSink;
  onUpdate: (view: ApprovalView) => void;
  now?: () => Date;
  recordDir?: string;
  onError?: (error: unknown) => void;
}

function badAnswer(message: string): AppFailure {
  return new AppFailure({ code: 'bad-answer', message });
}

/** The trimmed reason, or null when none (or blank) was typed. Throws AppFailure `bad-answer` when misplaced or too long. */
function reasonOf(answer: ApprovalAnswer, reason: string | undefined): string | null {
  const text = reason?.trim() ?? '';
  if (!text) return null;
  if (answer !== 'deny' && answer !== 'cancel') throw badAnswer(`a reason only goes with Deny (or Deny and stop), not with "${answer}"`);
  if (text.length > MAX_DENY_REASON) throw badAnswer(`the reason is ${text.length} characters long; at most ${MAX_DENY_REASON} are sent`);
  return text;
}

/**
 * What an answer grants: for an Allow of a permissions request the (checked) grant or everything
 * grantable (`ask.requested`, which leaves out what `ask.refused` names), else null.
 */
function grantedBy(ask: AskRequest, answer: ApprovalAnswer, grant: RequestedAccess | undefined): RequestedAccess | null {
  if (ask.kind !== 'permissions' || (answer !== 'allow' && answer !== 'allowForSession')) return null;
  return grant ? checkGrant(ask.requested, grant, { refused: ask.refused }) : ask.requested;
}

/**
 * The approval broker (see the file comment); one serves every chat of an Angelia process. `open` a
 * request, `answer` it from any surface (first answer wins), `withdraw` what Codex settled itself, list
 * `pending()` / `all()`. Protocol source: codex 0.169.0 (through `AskRequest.toWire`).
 */
export class ApprovalBroker {
  private readonly entries = new Map<string, Entry>();
  constructor(private readonly opts: BrokerOptions) {}

  /** How long a request waits before it is answered with its `timeoutAnswer`, in ms (`BrokerOptions.timeoutMs`). */
  get timeoutMs(): number {
    return this.opts.timeoutMs;
  }

  private now(): Date {
    return (this.opts.now ?? (() => new Date()))();
  }

  /**
   * Opens a request: audits it, records it, starts its timer and tells `onUpdate`. `response` settles
   * once, when the request is answered or timed out; it stays pending forever when the request is
   * withdrawn (nothing may be written for a request Codex settled). Throws the audit sink's error before
   * anything is opened (an unaudited request is never shown).
   */
  open(req: OpenRequest): { id: string; response: Promise<Settlement> } {
    const id = randomUUID();
    const createdAt = this.now().toISOString();
    const ask = req.ask;
    const view: ApprovalView = {
      id,
      chatId: req.chatId,
      profile: req.profile,
      kind: ask.kind,
      title: ask.title,
      command: ask.command,
      cwd: ask.cwd,
      reason: ask.reason,
      changes: ask.changes,
      requested: ask.requested,
      ...(ask.refused.length ? { refused: ask.refused } : {}),
      answers: [...ask.answers],
      createdAt,
      state: 'pending',
      answer: null,
      by: null,
      granted: null,
      denyReason: null,
      ...(ask.itemId ? { itemId: ask.itemId } : {}),
      ...(ask.outsideSandbox ? { outsideSandbox: ask.outsideSandbox } : {}),
      ...(ask.questions ? { questions: ask.questions, isBlocking: ask.isBlocking ?? true } : {}),
      ...(ask.elicitation ? { elicitation: ask.elicitation } : {}),
    };
    this.opts.audit.append({
      at: createdAt,
      event: 'requested',
      approvalId: id,
      chatId: req.chatId,
      profile: req.profile,
      kind: view.kind,
      title: view.title,
      rpcId: req.rpcId,
      command: view.command,
      cwd: view.cwd,
      askReason: view.reason,
      requested: view.requested,
      ...(ask.refused.length ? { refused: ask.refused } : {}),
    });
    let settle: (s: Settlement) => void = () => undefined;
    const response = new Promise<Settlement>((resolve) => (settle = resolve));
    const entry: Entry = { view, ask, rpcId: req.rpcId, settle, timer: null };
    entry.timer = setTimeout(() => this.timeOut(entry), this.opts.timeoutMs);
    entry.timer.unref?.();
    this.entries.set(id, entry);
    // Subscribers first, then the record: the record's write (~1 ms, more on a slow disk) is not on the
    // path of a request to the people who answer it (docs/benchmarks.md, approval relay). Both happen
    // before open() returns.
    this.opts.onUpdate(view);
    this.record(entry, createdAt);
    return { id, response };
  }

  /**
   * Answers a request; `id` is the full id or a unique prefix of at least 5 characters (any case).
   * The first answer wins and settles the request exactly once; an unknown id → outcome `unknown`; a
   * request already answered, timed out or withdrawn → `already-answered` with the answer in force (no
   * checks of the late answer, nothing written). Throws AppFailure `bad-answer` (and changes nothing)
   * when `answer` was not offered, when `opts.grant` is given with anything but an
   * Allow of a permissions request or is not a non-empty subset of what can be granted, when it
   * names a path Angelia never grants (`refused`, approvals/privateReach.ts), when
   * `opts.reason` is given with an answer other than deny/cancel or is longer than `MAX_DENY_REASON`
   * after trimming; throws the audit sink's error before anything is written.
   */
  answer(id: string, answer: ApprovalAnswer, by: AnswerSource, opts: AnswerOptions = {}): AnswerOutcome {
    const entry = this.entries.get(id) ?? this.findByPrefix(id);
    if (!entry) return { outcome: 'unknown', answer: null, by: null };
    if (!entry.settle) {
      const v = entry.view;
      const withdrawn = v.state === 'withdrawn' ? { withdrawn: { at: v.settledAt ?? null, why: v.withdrawnWhy ?? null } } : {};
      return { outcome: 'already-answered', answer: v.answer, by: v.by, ...withdrawn };
    }
    const reason = reasonOf(answer, opts.reason);
    const wire = entry.ask.toWire(answer, extrasOf(opts));
    const granted = grantedBy(entry.ask, answer, opts.grant);
    const given = givenOf(entry.ask, wire);
    const at = this.now().toISOString();
    this.opts.audit.append({
      at,
      event: by === 'timeout' ? 'timed-out' : 'answered',
      approvalId: entry.view.id,
      chatId: entry.view.chatId,
      profile: entry.view.profile,
      kind: entry.view.kind,
      title: entry.view.title,
      rpcId: entry.rpcId,
      answer,
      by,
      grant: granted,
      reasonTyped: reason !== null,
      denyReason: reason,
      ...auditedInput(entry.ask, given, opts.content, answer),
    });
    this.settle(entry, { wire, answer, by, reason, granted }, at, given);
    return { outcome: 'answered', answer, by };
  }

  /**
   * Withdraws the pending requests that match (Codex resolved them, the turn ended, the process exited):
   * state `withdrawn`, `by: 'codex'`, never answered; `why` ("the turn ended") is kept as the view's
   * `withdrawnWhy` for the card. Returns how many were withdrawn. Never throws for audit or record
   * failures (they go to `onError`).
   */
  withdraw(match: (view: ApprovalView, rpcId: string | number) => boolean, why?: string): number {
    let n = 0;
    for (const entry of this.entries.values()) {
      if (!entry.settle || !match(entry.view, entry.rpcId)) continue;
      entry.settle = null;
      if (entry.timer) clearTimeout(entry.timer);
      const at = this.now().toISOString();
      entry.view = { ...entry.view, state: 'withdrawn', by: 'codex', settledAt: at, ...(why ? { withdrawnWhy: why } : {}) };
      this.guard(() =>
        this.opts.audit.append({
          at,
          event: 'withdrawn',
          approvalId: entry.view.id,
          chatId: entry.view.chatId,
          profile: entry.view.profile,
          kind: entry.view.kind,
          rpcId: entry.rpcId,
          by: 'codex',
        }),
      );
      this.record(entry, at);
      this.opts.onUpdate(entry.view);
      n++;
    }
    return n;
  }

  /** Every request still waiting for an answer, oldest first. */
  pending(): ApprovalView[] {
    return [...this.entries.values()].filter((e) => e.settle).map((e) => e.view);
  }

  /** Every request this broker has seen (pending and settled), oldest first. */
  all(): ApprovalView[] {
    return [...this.entries.values()].map((e) => e.view);
  }

  /**
   * The timer ran out: the request is denied (`timeoutAnswer`, Codex `decline`) `by: 'timeout'`. When the
   * audit cannot be written the deny is still settled (Codex must not wait forever) and the error goes to
   * `onError`.
   */
  private timeOut(entry: Entry): void {
    if (!entry.settle) return;
    try {
      this.answer(entry.view.id, entry.ask.timeoutAnswer, 'timeout');
    } catch (e) {
      this.report(e);
      if (!entry.settle) return;
      this.guard(() => {
        const answer = entry.ask.timeoutAnswer;
        const wire = entry.ask.toWire(answer);
        this.settle(entry, { wire, answer, by: 'timeout', reason: null, granted: null }, this.now().toISOString(), givenOf(entry.ask, wire));
      });
    }
  }

  private settle(entry: Entry, s: Settlement, at: string, given?: QuestionAnswers): void {
    const settle = entry.settle;
    if (!settle) return;
    entry.settle = null;
    if (entry.timer) clearTimeout(entry.timer);
    entry.view = {
      ...entry.view,
      state: s.by === 'timeout' ? 'timedOut' : 'answered',
      answer: s.answer,
      by: s.by,
      granted: s.granted,
      denyReason: s.reason,
      settledAt: at,
      ...(given ? { given } : {}),
    };
    // The answer goes to Codex first. Codex's response is written a few microtasks after `settle` (the
    // JSON-RPC reply chain); the subscribers (the window's WebSocket, notifications, the API's events) are
    // told one macrotask later, after it, and the record file is written then too (`flushDeferred`). Told
    // before, their work was most of the answer path's p99 on a busy machine (2.8 of 4.2 ms,
    // docs/benchmarks.md, approval relay). The audit line stays before the answer. Events and records of
    // one request still land in order.
    settle(s);
    const view = entry.view;
    this.defer(() => this.guard(() => this.opts.onUpdate(view)));
    this.record(entry, at, { deferred: true });
  }

  /**
   * Does now what answers and timeouts left for one macrotask later: telling `onUpdate` and writing their
   * records, in order. For shutdown and tests; never throws (failures go to `onError`).
   */
  flushDeferred(): void {
    for (const step of this.deferred.splice(0)) step();
  }

  private readonly deferred: (() => void)[] = [];

  /** Queues `step` for one macrotask later (after the JSON-RPC reply Codex is waiting for). */
  private defer(step: () => void): void {
    this.deferred.push(step);
    if (this.deferred.length === 1) setImmediate(() => this.flushDeferred());
  }

  private record(entry: Entry, updatedAt: string, opts: { deferred?: boolean } = {}): void {
    const dir = this.opts.recordDir;
    if (!dir) return;
    const record = { version: 1 as const, ...entry.view, rpcId: entry.rpcId, threadId: entry.ask.threadId, turnId: entry.ask.turnId, updatedAt };
    const write = (): void => this.guard(() => writeApprovalRecord(dir, record));
    if (!opts.deferred) {
      // Earlier deferred steps first, so one request's records land in the order of its changes.
      this.flushDeferred();
      write();
      return;
    }
    this.defer(write);
  }

  private guard(f: () => void): void {
    try {
      f();
    } catch (e) {
      this.report(e);
    }
  }

  private report(e: unknown): void {
    if (this.opts.onError) this.opts.onError(e);
    else process.emitWarning(e instanceof Error ? e : new Error(String(e)), 'AngeliaApprovals');
  }

  /** A unique id prefix (≥ 5 characters, case-insensitive) also names a request, for typed answers. */
  private findByPrefix(prefix: string): Entry | undefined {
    if (prefix.length < 5) return undefined;
    const p = prefix.toLowerCase();
    const hits = [...this.entries.entries()].filter(([k]) => k.startsWith(p));
    return hits.length === 1 ? hits[0]?.[1] : undefined;
  }
}
