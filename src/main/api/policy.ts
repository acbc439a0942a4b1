/**
 * Messages between profiles (seed-spec §5 "Inter-profile messaging", product.md §2): an agent may write
 * into another chat only by a labelled message, never as the owner. Refused when either profile is
 * `isolated`; a turn needs the target's `accept_from`, a question its `answer_from` (profile names or
 * `"*"`); at most 30 messages an hour from one chat to another. Chats of the same profile share its
 * sandbox and files, so between them only the hourly limit applies.
 */
import type { ApiProfile } from './core';
import { ApiError } from './errors';

/** What a peer sends: a line (`/send`), a turn (`/turn`) or a question (`/ask`). */
export type MessageKind = 'send' | 'turn' | 'ask';

/** Messages one chat may send another in `RATE_WINDOW_MS`. */
export const RATE_LIMIT = 30;
/** The window of the rate limit: one hour. */
export const RATE_WINDOW_MS = 3_600_000;

function lists(refs: readonly string[], name: string): boolean {
  return refs.includes('*') || refs.includes(name);
}

/**
 * Throws ApiError 403 when a message of `kind` from profile `from` to profile `to` is not allowed
 * (isolation, `accept_from`, `answer_from`); the message names the table field that would allow it.
 */
export function checkReach(from: ApiProfile, to: ApiProfile, kind: MessageKind): void {
  if (from.name === to.name) return;
  if (from.isolated) throw new ApiError(403, 'isolated', `profile ${from.name} is isolated: it cannot message other profiles`);
  if (to.isolated) throw new ApiError(403, 'isolated', `profile ${to.name} is isolated: other profiles cannot message it`);
  if (kind === 'turn' && !lists(to.acceptFrom, from.name)) {
    throw new ApiError(403, 'not-accepted', `profile ${to.name} does not take turns from ${from.name} (its accept_from does not list it)`);
  }
  if (kind === 'ask' && !lists(to.answerFrom, from.name)) {
    throw new ApiError(403, 'not-accepted', `profile ${to.name} does not answer ${from.name} (its answer_from does not list it)`);
  }
}

/** At most `limit` messages in any `windowMs` from one chat to another (sliding window, in memory). */
export class RateLimiter {
  private readonly sent = new Map<string, number[]>();
  constructor(private readonly limit = RATE_LIMIT, private readonly windowMs = RATE_WINDOW_MS, private readonly now: () => number = Date.now) {}

  /** Counts one message from `fromChat` to `toChat`; throws ApiError 429 (and counts nothing) when over the limit. */
  take(fromChat: string, toChat: string): void {
    const k = JSON.stringify([fromChat, toChat]);
    const t = this.now();
    const recent = (this.sent.get(k) ?? []).filter((s) => t - s < this.windowMs);
    if (recent.length >= this.limit) {
      const wait = Math.ceil((this.windowMs - (t - (recent[0] ?? t))) / 60_000);
      this.sent.set(k, recent);
      throw new ApiError(429, 'rate-limited', `chat ${fromChat} already sent ${this.limit} messages to chat ${toChat} this hour; try again in ${wait} min`);
    }
    recent.push(t);
    this.sent.set(k, recent);
  }
}

// eslint-disable-next-line no-control-regex -- control characters are exactly what is matched
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Text reduced to plain text: control and bidi-override characters removed, line ends made `\n`. */
export function cleanText(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(CONTROL, '');
}

/**
 * `text` as a message from `profile`: a first line `[from <profile>]`, a blank line, then the text
 * cleaned, with every line that could pass for a label or an attachment line (it starts with `[` or
 * `>`) quoted with `> `, so nobody can pose as the owner or as another profile. The result never
 * starts with `/`, so it is never run as a chat command.
 */
export function labelled(profile: string, text: string): string {
  return `[from ${profile}]\n\n${quoted(text)}`;
}

/** `text` cleaned, with every line that starts with `[` or `>` quoted with `> ` (see `labelled`). */
export function quoted(text: string): string {
  return cleanText(text).split('\n').map((l) => (/^\s*[[>]/.test(l) ? `> ${l}` : l)).join('\n');
}
