/**
 * Bounds on what an agent question or an MCP elicitation may ask of a person, checked when the request
 * is classified (questions.ts, elicitation.ts) and when it would be opened (chats/chatEvents.ts). A
 * request beyond a bound is never shown in part: it is answered at once (a question gets the empty
 * answer, a form is declined) and the chat is told why. Also the names a question id or a form field may
 * not take: `__proto__`, `constructor`, `prototype` would reach JavaScript object prototypes where
 * answers are looked up and written. docs/architecture.md, "Questions and elicitations".
 */

import type { ApprovalView } from '../../../shared/contract';
import type * as v2 from './generated/v2';
import type { AskRequest, ImmediateRequest } from './askRequest';

/** The bounds (counts, and lengths in characters). */
export const ASK_LIMITS = {
  /** Questions in one `request_user_input` (codex 0.169.0's model schema asks for 1 to 3). */
  questions: 10,
  /** Options of one question. */
  options: 50,
  /** Any one text of a question: id, header, question, an option's label or description. */
  questionText: 4000,
  /** Fields of one form (`requestedSchema.properties`). */
  fields: 100,
  /** Choices of one enum field. */
  choices: 1000,
  /** An elicitation's message, and a URL. */
  message: 10_000,
  /** Any other text of a form: a field's name, title, description or default, a choice's value or label. */
  fieldText: 4000,
  /** Elicitations of one MCP server waiting for an answer in one chat at once. */
  openPerServer: 5,
} as const;

/** Names a question id or a form field may not take (they are Object.prototype's, or reach it). */
export const RESERVED_NAMES: readonly string[] = ['__proto__', 'constructor', 'prototype'];

/** The first name of `names` that is reserved (`RESERVED_NAMES`), or null. */
export function reservedName(names: Iterable<string>): string | null {
  for (const n of names) if (RESERVED_NAMES.includes(n)) return n;
  return null;
}

/** "<what> is N characters long (at most M)" for the first text of `texts` longer than `max`; null when none is. */
export function overLong(texts: Iterable<[what: string, text: string | null]>, max: number): string | null {
  for (const [what, text] of texts) {
    if (text !== null && text.length > max) return `${what} is ${text.length} characters long (at most ${max})`;
  }
  return null;
}

/** "<N> <what> (at most M)" when `count` is over `max`; null otherwise. */
export function overCount(count: number, max: number, what: string): string | null {
  return count > max ? `${count} ${what} (at most ${max})` : null;
}

/**
 * `ask` as it may be opened in chat `chatId`, whose requests waiting now are among `pending` (the
 * broker's views): an elicitation of a server that already has `ASK_LIMITS.openPerServer` requests
 * waiting in that chat is declined at once instead (with a notice saying why), whether or not a turn
 * runs; anything else is returned as it is.
 */
export function limitOpen(ask: AskRequest, chatId: string, pending: readonly ApprovalView[]): AskRequest | ImmediateRequest {
  const server = ask.kind === 'elicitation' ? ask.elicitation?.serverName : undefined;
  if (server === undefined) return ask;
  const open = pending.filter((v) => v.chatId === chatId && v.kind === 'elicitation' && v.elicitation?.serverName === server).length;
  if (open < ASK_LIMITS.openPerServer) return ask;
  return {
    type: 'immediate',
    kind: 'elicitation',
    result: { action: 'decline', content: null, _meta: null } satisfies v2.McpServerElicitationRequestResponse,
    notice: `${server} asked for input again while ${open} of its requests were waiting in this chat (at most ${ASK_LIMITS.openPerServer} at once); Angelia declined the new one.`,
  };
}
