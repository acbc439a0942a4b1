/**
 * Errors of the loopback API and how they are shown (every route): a JSON body `{error, code}`
 * (plus `fix` for the owner) with a message safe to show — never a stack, never a path the caller may
 * not know. System errors become "a file could not be read (<CODE>)"; anything unexpected becomes
 * "internal error".
 */
import { z } from 'zod';
import { AppFailure } from '../../shared/result';
import { isWithin } from '../core/instance/paths';

/** The body of every error answer. */
export const ErrorBody = z
  .object({
    error: z.string().describe('what went wrong, safe to show'),
    code: z.string().describe('stable, for programs'),
    fix: z.string().optional().describe('what to do about it (owner callers only)'),
  })
  .strict();
export type ErrorBody = z.infer<typeof ErrorBody>;

/** An error the API answers with `status`: `message` is already safe to show to the caller. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fix?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** HTTP status of an AppFailure code thrown by the core. */
const STATUS_OF: Record<string, number> = {
  'queue-full': 429,
  'unknown-chat': 404,
  'unknown-profile': 404,
  'bad-answer': 400,
  'bad-turn': 400,
  'attach-not-base64': 400,
  'attach-too-large': 413,
  'attach-inbox': 409,
  'attach-full': 409,
  'image-not-image': 400,
  'image-too-large': 413,
  'image-outside-inbox': 400,
  refused: 409,
  'account-unreadable': 502,
  'codex-missing': 503,
};

const ABS_PATH = /(?<![\w.~-])\/[^\s'"`<>|,;:()[\]{}]+/g;

/**
 * `text` with every absolute path that lies outside `allowed` (absolute folders) replaced by `<path>`.
 * Used for non-owner callers, who may know their own profile's folder and nothing else.
 */
export function redactPaths(text: string, allowed: readonly string[]): string {
  return text.replace(ABS_PATH, (p) => {
    const bare = p.replace(/[.!?]+$/, '');
    return allowed.some((root) => isWithin(bare, root)) ? p : `<path>${p.slice(bare.length)}`;
  });
}

/**
 * The answer for a thrown value. `owner`: the caller holds the owner token (sees `fix` and every path);
 * otherwise paths outside `allowed` are redacted and no `fix` is given.
 */
export function errorAnswer(e: unknown, owner: boolean, allowed: readonly string[]): { status: number; body: ErrorBody } {
  const shown = (s: string): string => (owner ? s : redactPaths(s, allowed));
  if (e instanceof ApiError) return { status: e.status, body: { error: shown(e.message), code: e.code, ...(owner && e.fix ? { fix: e.fix } : {}) } };
  if (e instanceof AppFailure) {
    const { code, message, fix } = e.app;
    return { status: STATUS_OF[code] ?? 500, body: { error: shown(message), code, ...(owner && fix ? { fix } : {}) } };
  }
  const errno = (e as NodeJS.ErrnoException | null)?.code;
  if (typeof errno === 'string' && /^E[A-Z]+$/.test(errno)) return { status: 500, body: { error: `a file could not be read (${errno})`, code: 'io' } };
  return { status: 500, body: { error: 'internal error', code: 'internal' } };
}
