/**
 * Messages between profiles (README "The loopback API", class `peer`): an agent may write
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
  constructor(
    private readonly limit = RATE_LIMIT,
    private readonly windowMs = RATE_WINDOW_MS,
    private readonly now: () => number = Date.now,
  ) {}

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

/** Line breaks besides `\n`: CRLF, a lone CR, NEL (U+0085), LINE SEPARATOR (U+2028), PARAGRAPH SEPARATOR (U+2029). */
const BREAKS = /\r\n?|[\u0085\u2028\u2029]/g;

// eslint-disable-next-line no-control-regex -- control characters are exactly what is matched
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * Invisible characters: every format character (Unicode Cf: zero-width space and joiners, word joiner,
 * soft hyphen, BOM, bidi marks, embeddings, overrides and isolates, tag characters, …) and every other
 * default-ignorable code point (Hangul fillers, variation selectors, combining grapheme joiner, …).
 */
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/gu;
/** What an emoji's joiner or presentation selector may follow (kept there, so emoji sequences survive). */
const PICTOGRAPH = /^[\p{Extended_Pictographic}\p{Emoji_Modifier}\ufe0f]$/u;

/**
 * Whether the invisible `c` at `offset` of `s` is kept: only an emoji's glue — U+FE0E/U+FE0F after a
 * pictograph (or a keycap base followed by U+20E3), and ZERO WIDTH JOINER between two pictographs.
 */
function keepsGlue(c: string, offset: number, s: string): boolean {
  if (c !== '\u200d' && c !== '\ufe0e' && c !== '\ufe0f') return false;
  const prev = Array.from(s.slice(Math.max(0, offset - 2), offset)).pop() ?? '';
  const next = String.fromCodePoint(s.codePointAt(offset + 1) ?? 32);
  if (c === '\u200d') return PICTOGRAPH.test(prev) && /^\p{Extended_Pictographic}$/u.test(next);
  return PICTOGRAPH.test(prev) || (/^[#*0-9]$/.test(prev) && next === '\u20e3');
}

/** `text` with every line break made `\n` (CRLF, lone CR, U+0085, U+2028, U+2029). */
export function normalizeBreaks(text: string): string {
  return text.replace(BREAKS, '\n');
}

/**
 * Text reduced to plain text: line breaks made `\n` (normalizeBreaks), control characters removed
 * (tab and line feed kept), and every invisible character removed (format characters Cf, bidi controls
 * included, and the other default-ignorable code points) except an emoji's own joiner and presentation
 * selector. The visible characters are kept as written (no NFKC here: the text is shown as sent).
 */
export function cleanText(text: string): string {
  return normalizeBreaks(text)
    .replace(CONTROL, '')
    .replace(INVISIBLE, (c: string, offset: number, s: string) => (keepsGlue(c, offset, s) ? c : ''));
}

/**
 * What starts a line that could pass for a label (`[from owner]`, `[app · owner]`), an attachment line
 * (`[file: …]`) or a quote (`>`): `[`, `>`, and their lookalikes that NFKC does not fold — every opening
 * bracket (Unicode Ps) but `(` and `{`, and the angle quotes and chevrons `‹ › « » ❮ ❯`.
 */
const LABEL_START = /^(?![({])[\p{Ps}>\u2039\u203a\u00ab\u00bb\u276e\u276f]/u;
/** Blank or invisible before a line's first visible character: white space, combining marks, the braille blank. */
const LEADING_BLANK = /^[\s\p{M}\u2800]+/u;

/**
 * True when `line` (one line, already cleaned) could pass for a label, an attachment line or a quote
 * once rendered: judged on its NFKC form (fullwidth `［` is `[`) with every invisible character and the
 * leading white space, combining marks and braille blanks removed.
 */
export function mayPassForLabel(line: string): boolean {
  const seen = line.normalize('NFKC').replace(INVISIBLE, '').replace(LEADING_BLANK, '');
  return LABEL_START.test(seen);
}

/**
 * `text` as a message from `profile`: a first line `[from <profile>]`, a blank line, then the text
 * cleaned (cleanText), with every line that could pass for a label, an attachment line or a quote
 * (mayPassForLabel) quoted with `> `, so nobody can pose as the owner or as another profile. The result
 * never starts with `/`, so it is never run as a chat command.
 */
export function labelled(profile: string, text: string): string {
  return `[from ${profile}]\n\n${quoted(text)}`;
}

/** `text` cleaned, with every line that could pass for a label quoted with `> ` (see `labelled`). */
export function quoted(text: string): string {
  return cleanText(text)
    .split('\n')
    .map((l) => (mayPassForLabel(l) ? `> ${l}` : l))
    .join('\n');
}
