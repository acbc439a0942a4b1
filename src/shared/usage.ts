/**
 * What the agents cost, as Angelia shows it: the account's rate limits (codex 0.169.0
 * `account/rateLimits/updated` `RateLimitSnapshot`: a 5-hour `primary` and a weekly `secondary` window)
 * and a chat's tokens and context (`thread/tokenUsage/updated` `ThreadTokenUsage`). The shapes of the
 * `usage` line of `angelia run --json`, of `angelia status --json` and of the tray, header and composer
 * meters. No Node, Electron or React.
 */
import { z } from 'zod';

/** One rate-limit window: percent used (0–100), its length in minutes, when it resets (ISO 8601). */
export const RateWindow = z.object({
  usedPercent: z.number(),
  windowMinutes: z.number().nullable(),
  resetsAt: z.string().nullable(),
});
export type RateWindow = z.infer<typeof RateWindow>;

/** The latest rate limits Codex reported for one account (null windows: not reported). */
export const RateLimits = z.object({
  primary: RateWindow.nullable(),
  secondary: RateWindow.nullable(),
});
export type RateLimits = z.infer<typeof RateLimits>;

/** Tokens of a turn or a session; `contextWindow` is the model's (null when Codex did not say). */
export const TokenCounts = z.object({
  input: z.number().int().nonnegative(),
  output: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  contextWindow: z.number().int().positive().nullable(),
});
export type TokenCounts = z.infer<typeof TokenCounts>;

/**
 * One Codex home's usage: its latest rate limits (null before Codex reported any), when they were
 * reported, and `pausedUntil` (ISO 8601) while a usage limit is reached: no queued turn is sent before it.
 */
export const HomeUsage = z.object({
  codexHome: z.string(),
  rateLimits: RateLimits.nullable(),
  reportedAt: z.string().nullable(),
  pausedUntil: z.string().nullable(),
});
export type HomeUsage = z.infer<typeof HomeUsage>;

/**
 * A chat's usage: tokens of its last turn and of the session so far, and how full the context window is
 * (percent 0–100 of `contextWindow` taken by the last turn's input; null when unknown).
 */
export const ChatUsage = z.object({
  lastTurn: TokenCounts.nullable(),
  session: TokenCounts.nullable(),
  contextPercent: z.number().nullable(),
});
export type ChatUsage = z.infer<typeof ChatUsage>;

/** The `usage` line `angelia run --json` prints before `turn-end` when Codex reported usage (stable). */
export const RunUsageLine = z.object({
  type: z.literal('usage'),
  tokens: TokenCounts,
  rateLimits: RateLimits.nullable(),
});
export type RunUsageLine = z.infer<typeof RunUsageLine>;
