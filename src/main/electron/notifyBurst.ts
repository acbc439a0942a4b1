/**
 * A burst of requests from one chat becomes one notification (docs/architecture.md "Desktop
 * notifications"): an agent or an MCP server may raise requests faster than a person can read them
 * (an MCP server may send any number of elicitations, even outside a turn), so each chat gets
 * `BURST_SIZE` request notifications at once and then at most one per `BURST_GAP_MS` (a token bucket);
 * the requests that come sooner are held and, once a notification is due again, shown together as one
 * "17 more requests from coder" (the tray and the window list each one). Pure bookkeeping with the time
 * passed in; the router (notifications.ts) sets the timer.
 */

/** Time for one more request notification of a chat once its burst is spent, in ms. */
export const BURST_GAP_MS = 1000;
/** Request notifications one chat may raise at once. */
export const BURST_SIZE = 3;

/** Per chat: the notifications it may still raise now (refilled one per gap), and the requests held. */
export class RequestBurst {
  private readonly tokens = new Map<string, { n: number; at: number }>();
  private readonly held = new Map<string, Set<string>>();

  constructor(
    private readonly gapMs = BURST_GAP_MS,
    private readonly size = BURST_SIZE,
  ) {}

  /** The chat's tokens at `nowMs` (refilled since the last look, at most `size`). */
  private left(chatId: string, nowMs: number): { n: number; at: number } {
    const t = this.tokens.get(chatId) ?? { n: this.size, at: nowMs };
    const now = { n: Math.min(this.size, t.n + Math.max(0, nowMs - t.at) / this.gapMs), at: nowMs };
    this.tokens.set(chatId, now);
    return now;
  }

  /**
   * A new request `id` of `chatId` at `nowMs`: `show` while the chat has a notification left (one is
   * spent), else `hold` (kept for the chat's summary, `take`).
   */
  admit(chatId: string, id: string, nowMs: number): 'show' | 'hold' {
    const t = this.left(chatId, nowMs);
    if (t.n >= 1 && !this.held.get(chatId)?.size) {
      t.n -= 1;
      return 'show';
    }
    const ids = this.held.get(chatId) ?? new Set<string>();
    ids.add(id);
    this.held.set(chatId, ids);
    return 'hold';
  }

  /** Milliseconds from `nowMs` until the chat may raise a notification again (0 when it may now). */
  dueIn(chatId: string, nowMs: number): number {
    const t = this.left(chatId, nowMs);
    return t.n >= 1 ? 0 : Math.ceil((1 - t.n) * this.gapMs);
  }

  /** A held request was settled before its summary: it is left out of it. */
  drop(id: string): void {
    for (const ids of this.held.values()) ids.delete(id);
  }

  /** The chat's held requests, in order, now shown together (one notification spent at `nowMs`). */
  take(chatId: string, nowMs: number): string[] {
    const ids = [...(this.held.get(chatId) ?? [])];
    this.held.delete(chatId);
    if (ids.length) {
      const t = this.left(chatId, nowMs);
      t.n = Math.max(0, t.n - 1);
    }
    return ids;
  }
}

/** The summary of held requests: "3 more requests from coder", and where to answer them. */
export function burstText(profile: string, count: number): { title: string; body: string } {
  return {
    title: `${count} more request${count === 1 ? '' : 's'} from ${profile}`,
    body: 'Open Angelia to see and answer them (the tray lists them too).',
  };
}
