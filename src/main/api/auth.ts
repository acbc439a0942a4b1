/**
 * Who is calling the loopback API (README "The loopback API"). A request carries `Authorization: Bearer <token>`:
 * the owner token (`<state>/private/api.token`) reaches every chat; a chat token (core/api/tokens.ts:
 * HMAC-SHA256 of the owner token and the chat id) speaks for that one chat's agent. Tokens are compared in constant
 * time. Relative to the chat a request targets, an agent token is of class `chat` (its own chat) or
 * `peer` (another chat); the owner token is of class `owner`.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { chatToken } from '../core/api/tokens';

/** A caller: the owner, or the agent of one chat. */
export type Caller = { kind: 'owner' } | { kind: 'agent'; chat: string };

/** A caller's class relative to the chat a request targets. */
export const CALLER_CLASSES = ['owner', 'chat', 'peer'] as const;
export type CallerClass = (typeof CALLER_CLASSES)[number];

function digest(s: string): Buffer {
  return createHash('sha256').update(s, 'utf8').digest();
}

/** Constant-time equality of two tokens (hashed first, so their lengths do not leak). */
export function sameToken(a: string, b: string): boolean {
  return timingSafeEqual(digest(a), digest(b));
}

/**
 * The bearer token of a request, or null when none (or a malformed header) is given. The scheme is
 * matched in any case (`Bearer`, `bearer`, `BEARER`: auth schemes are case-insensitive, RFC 9110 §11.1),
 * followed by one or more spaces and the token (token68 characters, 16–512 of them).
 */
export function bearerOf(req: Pick<IncomingMessage, 'headers'>): string | null {
  const h = req.headers.authorization;
  if (typeof h !== 'string') return null;
  const m = /^bearer +([A-Za-z0-9_~+/.=-]{16,512})$/i.exec(h.trim());
  return m?.[1] ?? null;
}

/**
 * The caller a token names among `chatIds`, or null when it names nobody. Every chat's token is
 * compared (no early exit), so the time taken does not tell which chat matched.
 */
export function identify(token: string, ownerToken: string, chatIds: readonly string[]): Caller | null {
  let found: Caller | null = sameToken(token, ownerToken) ? { kind: 'owner' } : null;
  for (const chat of chatIds) {
    if (sameToken(token, chatToken(ownerToken, chat)) && !found) found = { kind: 'agent', chat };
  }
  return found;
}

/** The class of `caller` for a request that targets `target` (null: no chat, e.g. a listing). */
export function classify(caller: Caller, target: string | null): CallerClass {
  if (caller.kind === 'owner') return 'owner';
  return target !== null && target === caller.chat ? 'chat' : 'peer';
}
