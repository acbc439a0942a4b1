/**
 * Derives the API's events (core.ts `ApiEvent`) from the contract's events, and ties each turn to the
 * id `/turn` answered. The tracker mints the id BEFORE the message is queued; the chat carries it
 * through its queue (chat.ts `queueTurn`) and puts it on the `user` item (`via: 'turn'`, `apiTurn`) it
 * pushes when the turn begins, and on its `turnEnd`. So two queued messages with the same text are never
 * confused. A turn the window started (no `apiTurn`) gets an id of its own.
 *
 * A turn ends with the chat's `turnEnd` item; one whose agent did not start ends `failed` with the
 * refusal; one begun while another was still open closes the earlier one `failed`. Messages still
 * waiting when the chat reports an empty queue (a refusal or `/stop` dropped them) end `dropped`.
 */
import { randomUUID } from 'node:crypto';
import { START_FAILURE_KINDS, type AppEvent, type ApprovalView, type ChatItem } from '../../shared/contract';
import type { ApiEvent } from './core';

interface ChatTurns {
  /** Ids of API turns queued but not begun, in order. */
  pending: string[];
  current: string | null;
}

/** One progress line for a command or file change item, or null when there is nothing new to say. */
function progressText(item: ChatItem): string | null {
  if (item.type === 'command')
    return `${item.status === 'running' ? 'running' : item.status}: ${item.command}${item.exitCode !== null ? ` (exit ${item.exitCode})` : ''}`;
  if (item.type === 'fileChange')
    return `${item.status === 'running' ? 'changing' : item.status}: ${item.changes.map((c) => `${c.kind} ${c.path}`).join(', ')}`;
  if (item.type === 'notice') return item.text;
  if (item.type === 'error') return item.message;
  return null;
}

/** See the module comment. `emit` receives every derived event; `now` and `newId` are for tests. */
export class TurnTracker {
  private readonly chats = new Map<string, ChatTurns>();
  /** Item id + status (or approval id + state) already told, so upserts are told once. */
  private readonly told = new Set<string>();

  constructor(
    private readonly emit: (e: ApiEvent) => void,
    private readonly now: () => Date = () => new Date(),
    private readonly newId: () => string = randomUUID,
  ) {}

  private of(chatId: string): ChatTurns {
    let c = this.chats.get(chatId);
    if (!c) this.chats.set(chatId, (c = { pending: [], current: null }));
    return c;
  }

  private at(): string {
    return this.now().toISOString();
  }

  /** Registers an API turn about to be queued in `chatId`; answers its id (queue the message with it). */
  expect(chatId: string): string {
    const id = this.newId();
    this.of(chatId).pending.push(id);
    return id;
  }

  /** Forgets an API turn whose message was not queued after all (the chat refused it). */
  cancel(chatId: string, id: string): void {
    const c = this.of(chatId);
    c.pending = c.pending.filter((p) => p !== id);
  }

  /** Feeds one contract event. Never throws. */
  onAppEvent(e: AppEvent): void {
    if (e.event === 'chat:item') this.onItem(e.payload.chatId, e.payload.item);
    else if (e.event === 'chat:updated' && e.payload.queued === 0) this.dropPending(e.payload.id);
    else if (e.event === 'approval:updated') this.onApproval(e.payload);
  }

  private once(key: string): boolean {
    if (this.told.has(key)) return false;
    this.told.add(key);
    if (this.told.size > 20_000) this.told.delete(this.told.values().next().value as string);
    return true;
  }

  /** Emits a turn's end, once per turn id (an app turn that did not start is ended by its error and then by its turnEnd item). */
  private end(key: string, turn: string | null, status: 'completed' | 'failed' | 'interrupted' | 'dropped', reason: string | null): void {
    if (turn !== null && !this.once(`end:${turn}`)) return;
    this.emit({ event: 'turn-end', key, at: this.at(), turn, status, reason });
  }

  private dropPending(chatId: string): void {
    const c = this.chats.get(chatId);
    if (!c || c.pending.length === 0) return;
    const dropped = c.pending.splice(0);
    for (const id of dropped) this.end(chatId, id, 'dropped', 'the message was dropped before its turn began');
  }

  private onItem(key: string, item: ChatItem): void {
    const c = this.of(key);
    if (item.type === 'user') {
      if (item.via !== 'turn' || !this.once(item.id)) return;
      if (c.current) this.end(key, c.current, 'failed', 'the turn ended without a turn end');
      const id = item.apiTurn ?? this.newId();
      c.pending = c.pending.filter((p) => p !== id);
      c.current = id;
      this.emit({ event: 'turn', key, at: this.at(), turn: id, text: item.text });
      return;
    }
    if (item.type === 'agent') {
      if (item.done && this.once(`${item.id}:done`)) this.emit({ event: 'out', key, at: this.at(), turn: c.current, text: item.text });
      return;
    }
    if (item.type === 'turnEnd') {
      if (!this.once(item.id)) return;
      this.end(key, item.apiTurn ?? c.current, item.status, item.reason);
      c.current = null;
      return;
    }
    const text = progressText(item);
    const status = item.type === 'command' || item.type === 'fileChange' ? item.status : '';
    if (text === null || !this.once(`${item.id}:${status}`)) return;
    this.emit({ event: 'progress', key, at: this.at(), turn: c.current, kind: item.type as 'command' | 'fileChange' | 'notice' | 'error', text });
    if (item.type === 'error' && item.kind && START_FAILURE_KINDS.has(item.kind) && c.current) {
      this.end(key, c.current, 'failed', item.message);
      c.current = null;
    }
  }

  private onApproval(v: ApprovalView): void {
    if (!this.once(`${v.id}:${v.state}`)) return;
    if (v.state === 'pending') {
      this.emit({
        event: 'permission',
        key: v.chatId,
        at: this.at(),
        turn: this.chats.get(v.chatId)?.current ?? null,
        id: v.id,
        tool: v.kind,
        preview: v.title,
        detail: v.command ?? v.reason ?? null,
        answers: [...v.answers],
        ...(v.questions ? { questions: v.questions, isBlocking: v.isBlocking ?? true } : {}),
        ...(v.elicitation ? { elicitation: v.elicitation } : {}),
      });
      return;
    }
    this.emit({
      event: 'permission-answered',
      key: v.chatId,
      at: this.at(),
      id: v.id,
      state: v.state,
      allow: v.answer === 'allow' || v.answer === 'allowForSession',
      answer: v.answer,
      by: v.by,
    });
  }
}
