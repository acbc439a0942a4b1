/**
 * A chat's transcript in memory: items in arrival order, upserted by id, with streamed deltas appended.
 * Every change is emitted as a contract event (`chat:item`, `chat:delta`). Nothing is truncated here:
 * display truncation is the renderer's business.
 */
import type { AppEvent, ChatItem } from '../../../shared/contract';

export class Transcript {
  private readonly items: ChatItem[] = [];
  private readonly index = new Map<string, number>();
  private seq = 0;
  /** Ids of the items of app turns (from a `user` item with `app` to its `turnEnd`): never the chat's last line. */
  private readonly appItems = new Set<string>();
  /** An app turn's items are arriving (its `user` item came, its `turnEnd` not yet). */
  private inAppTurn = false;

  constructor(
    private readonly chatId: string,
    private readonly emit: (e: AppEvent) => void,
  ) {}

  /** A fresh id for an item Angelia itself adds (user message, notice, error, turn end). */
  localId(kind: string): string {
    return `${kind}-${Date.now().toString(36)}-${(this.seq++).toString(36)}`;
  }

  /** Appends a new item. */
  push(item: ChatItem): void {
    this.upsert(item);
  }

  /** Inserts or replaces the item with the same id (a completed item replaces its started form). */
  upsert(item: ChatItem): void {
    const at = this.index.get(item.id);
    if (at === undefined) {
      this.index.set(item.id, this.items.length);
      this.items.push(item);
      if (item.type === 'user' && item.via === 'turn') this.inAppTurn = item.app === true;
      if (this.inAppTurn) this.appItems.add(item.id);
      if (item.type === 'turnEnd') this.inAppTurn = false;
    } else {
      this.items[at] = item;
    }
    this.emit({ event: 'chat:item', payload: { chatId: this.chatId, item } });
  }

  /**
   * Puts `items` (past turns read from Codex, chat.ts `items`) before every item there is, in the order
   * given; an id already present is left out. Emits no `chat:item`: a renderer appends those at the end,
   * so it reads the whole list again (`chats:items`) instead.
   */
  prepend(items: readonly ChatItem[]): void {
    const fresh = items.filter((it, i) => !this.index.has(it.id) && items.findIndex((x) => x.id === it.id) === i);
    this.items.unshift(...fresh);
    this.index.clear();
    this.items.forEach((it, i) => this.index.set(it.id, i));
  }

  /** Appends streamed text to an agent message/reasoning (`text`) or a command's output (`output`). */
  delta(itemId: string, field: 'text' | 'output', delta: string): void {
    const at = this.index.get(itemId);
    const item = at === undefined ? undefined : this.items[at];
    if (at === undefined || !item) return;
    if (field === 'text' && (item.type === 'agent' || item.type === 'reasoning')) this.items[at] = { ...item, text: item.text + delta };
    else if (field === 'output' && item.type === 'command') this.items[at] = { ...item, output: item.output + delta };
    else return;
    this.emit({ event: 'chat:delta', payload: { chatId: this.chatId, itemId, field, delta } });
  }

  /**
   * At a turn's end: every command or file change still `running` becomes `interrupted` (Codex sends no
   * `item/completed` for what a stop or a crash cut off), and every agent message still streaming is
   * marked done. Each change is emitted as a `chat:item`. Returns how many items changed.
   */
  settleOpen(): number {
    let n = 0;
    for (const item of this.items) {
      if ((item.type === 'command' || item.type === 'fileChange') && item.status === 'running') this.upsert({ ...item, status: 'interrupted' });
      else if (item.type === 'agent' && !item.done) this.upsert({ ...item, done: true });
      else continue;
      n++;
    }
    return n;
  }

  /** Every item, oldest first. */
  all(): ChatItem[] {
    return [...this.items];
  }

  /** The text of the last message-like item, one line, for the chat list; app turns (`user.app`) do not count. */
  lastLine(): string {
    for (let i = this.items.length - 1; i >= 0; i--) {
      const it = this.items[i];
      if (!it || this.appItems.has(it.id)) continue;
      const text = it.type === 'agent' || it.type === 'user' || it.type === 'notice' ? it.text : it.type === 'error' ? it.message : null;
      if (text) return text.replace(/\s+/g, ' ').trim().slice(0, 120);
    }
    return '';
  }

  /** The final agent message of the transcript (for `angelia run`'s turn-end). */
  lastAgentText(): string {
    for (let i = this.items.length - 1; i >= 0; i--) {
      const it = this.items[i];
      if (it?.type === 'agent') return it.text;
    }
    return '';
  }
}
