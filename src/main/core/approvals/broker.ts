/**
 * The one approval broker: every server request a person must answer gets an Angelia id, a durable
 * audit record and exactly one answer, whichever surface answers first (window, notification, tray,
 * CLI, API) or the timeout. Later answers learn "already answered". Requests Codex settles itself
 * (`serverRequest/resolved`) or that outlive their turn are withdrawn and never answered.
 */
import { randomUUID } from 'node:crypto';
import type { AnswerOutcome, AnswerSource, ApprovalAnswer, ApprovalView } from '../../../shared/contract';
import type { AskRequest } from '../codex/serverRequests';
import type { AuditSink } from './audit';

/** One open request as the chat hands it to the broker. */
export interface OpenRequest {
  chatId: string;
  profile: string;
  ask: AskRequest;
  /** Codex's JSON-RPC id of the server request (for withdrawal on `serverRequest/resolved`). */
  rpcId: string | number;
}

interface Entry {
  view: ApprovalView;
  ask: AskRequest;
  rpcId: string | number;
  settle: ((wire: unknown) => void) | null;
  timer: NodeJS.Timeout | null;
}

/** Broker options: timeout in milliseconds (product default 10 min), the audit sink, and the event hook. */
export interface BrokerOptions {
  timeoutMs: number;
  audit: AuditSink;
  onUpdate: (view: ApprovalView) => void;
  now?: () => Date;
}

export class ApprovalBroker {
  private readonly entries = new Map<string, Entry>();
  constructor(private readonly opts: BrokerOptions) {}

  /**
   * Opens a request. Resolves with the JSON-RPC result to write, once, when answered or timed out;
   * stays pending forever when withdrawn (nothing may be written for a request Codex settled).
   */
  open(req: OpenRequest): { id: string; response: Promise<unknown> } {
    const id = randomUUID();
    const now = (this.opts.now ?? (() => new Date()))();
    const view: ApprovalView = {
      id, chatId: req.chatId, profile: req.profile, kind: req.ask.kind, title: req.ask.title,
      command: req.ask.command, cwd: req.ask.cwd, reason: req.ask.reason, changes: req.ask.changes,
      requested: req.ask.requested, answers: req.ask.answers, createdAt: now.toISOString(),
      state: 'pending', answer: null, by: null,
    };
    const response = new Promise<unknown>((resolve) => {
      const entry: Entry = { view, ask: req.ask, rpcId: req.rpcId, settle: resolve, timer: null };
      entry.timer = setTimeout(() => this.answer(id, req.ask.timeoutAnswer, 'timeout'), this.opts.timeoutMs);
      entry.timer.unref?.();
      this.entries.set(id, entry);
    });
    this.opts.audit.append({ at: view.createdAt, event: 'requested', approvalId: id, chatId: req.chatId, profile: req.profile, kind: view.kind, title: view.title });
    this.opts.onUpdate(view);
    return { id, response };
  }

  /**
   * Answers a request. The first answer wins and is written exactly once; an answer the request did not
   * offer is refused (field case B04) except the timeout's own answer.
   */
  answer(id: string, answer: ApprovalAnswer, by: AnswerSource): AnswerOutcome {
    const entry = this.entries.get(id) ?? this.findByPrefix(id);
    if (!entry) return { outcome: 'unknown', answer: null, by: null };
    if (!entry.settle) return { outcome: 'already-answered', answer: entry.view.answer, by: entry.view.by };
    if (by !== 'timeout' && !entry.ask.answers.includes(answer)) {
      throw new Error(`"${answer}" was not offered for this request (offered: ${entry.ask.answers.join(', ')})`);
    }
    const settle = entry.settle;
    entry.settle = null;
    if (entry.timer) clearTimeout(entry.timer);
    entry.view = { ...entry.view, state: by === 'timeout' ? 'timedOut' : 'answered', answer, by };
    this.opts.audit.append({ at: new Date().toISOString(), event: by === 'timeout' ? 'timed-out' : 'answered', approvalId: entry.view.id, chatId: entry.view.chatId, profile: entry.view.profile, kind: entry.view.kind, answer, by });
    settle(entry.ask.toWire(answer));
    this.opts.onUpdate(entry.view);
    return { outcome: 'answered', answer, by };
  }

  /** Withdraws pending requests that match (Codex resolved them, the turn ended, or the process exited). */
  withdraw(match: (view: ApprovalView, rpcId: string | number) => boolean): number {
    let n = 0;
    for (const entry of this.entries.values()) {
      if (!entry.settle || !match(entry.view, entry.rpcId)) continue;
      entry.settle = null;
      if (entry.timer) clearTimeout(entry.timer);
      entry.view = { ...entry.view, state: 'withdrawn', by: 'codex' };
      this.opts.audit.append({ at: new Date().toISOString(), event: 'withdrawn', approvalId: entry.view.id, chatId: entry.view.chatId, profile: entry.view.profile, kind: entry.view.kind });
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

  /** A unique id prefix (≥ 5 characters, case-insensitive) also names a request, for typed answers. */
  private findByPrefix(prefix: string): Entry | undefined {
    if (prefix.length < 5) return undefined;
    const p = prefix.toLowerCase();
    const hits = [...this.entries.entries()].filter(([k]) => k.startsWith(p));
    return hits.length === 1 ? hits[0]?.[1] : undefined;
  }
}
