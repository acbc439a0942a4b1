/**
 * Back-off for Codex's overload answer. Codex app-server replies
 * `{"code":-32001,"message":"Server overloaded; retry later."}` when its ingress queue is full (codex
 * 0.169.0, `codex app-server`); the error carries no `codex_error_info`, so retries are keyed on the code.
 */
import { ResponseError } from 'vscode-jsonrpc/node';

/** JSON-RPC error code of "Server overloaded; retry later." (codex app-server). */
export const OVERLOADED_CODE = -32001;

/** How overloaded requests are retried. */
export interface RetryPolicy {
  /** Total tries including the first (default 5). */
  tries: number;
  /** Delay before the 2nd try in ms; doubles each time (default 100). */
  baseDelayMs: number;
  /** Upper bound of one delay in ms (default 2000). */
  maxDelayMs: number;
}

/** Default: 5 tries, 100 ms doubling up to 2 s, jittered. */
export const DEFAULT_RETRY: RetryPolicy = { tries: 5, baseDelayMs: 100, maxDelayMs: 2_000 };

/** True for Codex's overload error (a `ResponseError` with code -32001), whatever its message or data. */
export function isOverloaded(e: unknown): boolean {
  return e instanceof ResponseError && e.code === OVERLOADED_CODE;
}

/**
 * Milliseconds to wait after failed try number `attempt` (1-based): exponential (`base·2^(attempt-1)`,
 * capped at `maxDelayMs`) with "equal jitter" — uniformly between half and all of it. `random` returns
 * a number in [0, 1).
 */
export function retryDelayMs(attempt: number, policy: RetryPolicy = DEFAULT_RETRY, random: () => number = Math.random): number {
  const exp = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exp / 2 + (exp / 2) * random());
}

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
