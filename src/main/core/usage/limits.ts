/**
 * What Codex reports about usage, turned into Angelia's shapes (src/shared/usage.ts), and the decisions
 * taken on it: when a usage limit pauses the chats of a Codex home, when new rate limits lift that pause,
 * and when a window's 90 % warning is due. Pure: the time is a parameter. Protocol source: codex 0.169.0
 * `account/rateLimits/updated` (`RateLimitSnapshot`, `RateLimitWindow`: `resetsAt` in unix seconds) and
 * `thread/tokenUsage/updated` (`ThreadTokenUsage`, `TokenUsageBreakdown`); docs/architecture.md "Usage".
 */
import type { ChatUsage, RateLimits, RateWindow, RunUsageLine, TokenCounts } from '../../../shared/usage';

/** A `RateLimitWindow` as decoded (codex/events.ts): percent, minutes, reset in unix seconds. */
export interface WireWindow {
  usedPercent: number;
  windowDurationMins: number | null;
  resetsAt: number | null;
}

/** The part of a `RateLimitSnapshot` Angelia reads. */
export interface WireRateLimits {
  primary: WireWindow | null;
  secondary: WireWindow | null;
  /** `RateLimitReachedType` ("rate_limit_reached", "workspace_member_usage_limit_reached", …) or null. */
  rateLimitReachedType: string | null;
}

/** The part of a `TokenUsageBreakdown` Angelia reads. */
export interface WireTokens {
  totalTokens: number;
  inputTokens: number;
  outputTokens: number;
}

/** A `ThreadTokenUsage` as decoded: the session's total, the last turn's, the model's context window. */
export interface WireTokenUsage {
  total: WireTokens;
  last: WireTokens;
  modelContextWindow: number | null;
}

/** How long a usage limit pauses when Codex gave no reset time for a full window (then one turn tries again). */
export const FALLBACK_PAUSE_MS = 5 * 60_000;
/** The percent at which a window's warning is given, once per window and reset. */
export const WARN_AT_PERCENT = 90;

const iso = (unixSeconds: number | null): string | null => (unixSeconds === null ? null : new Date(unixSeconds * 1000).toISOString());

function windowOf(w: WireWindow | null): RateWindow | null {
  return w ? { usedPercent: w.usedPercent, windowMinutes: w.windowDurationMins, resetsAt: iso(w.resetsAt) } : null;
}

/** `RateLimitSnapshot` → `RateLimits` (`resetsAt` unix seconds → ISO 8601; a window not sent stays null). */
export function rateLimitsOf(s: WireRateLimits): RateLimits {
  return { primary: windowOf(s.primary), secondary: windowOf(s.secondary) };
}

/**
 * A sparse update merged into the latest rate limits: a window the update carries replaces the old one,
 * a window it leaves null keeps the old one (codex 0.169.0 `AccountRateLimitsUpdatedNotification`: a
 * rolling update "does not clear a previously observed value"; a 429 without headers sends all nulls).
 */
export function mergeRateLimits(prev: RateLimits | null, next: RateLimits): RateLimits {
  return { primary: next.primary ?? prev?.primary ?? null, secondary: next.secondary ?? prev?.secondary ?? null };
}

const nonNeg = (n: number): number => Math.max(0, Math.round(n));

/** `TokenUsageBreakdown` → `TokenCounts` (`contextWindow`: the model's, null when Codex did not say). */
export function tokenCountsOf(b: WireTokens, contextWindow: number | null): TokenCounts {
  return {
    input: nonNeg(b.inputTokens),
    output: nonNeg(b.outputTokens),
    total: nonNeg(b.totalTokens),
    contextWindow: contextWindow !== null && contextWindow > 0 ? Math.round(contextWindow) : null,
  };
}

/**
 * `ThreadTokenUsage` → `ChatUsage`: the last turn's and the session's tokens, and `contextPercent` = the
 * last turn's input tokens / `modelContextWindow` × 100 (one decimal; null without a window).
 */
export function chatUsageOf(u: WireTokenUsage): ChatUsage {
  const lastTurn = tokenCountsOf(u.last, u.modelContextWindow);
  const window = lastTurn.contextWindow;
  return {
    lastTurn,
    session: tokenCountsOf(u.total, u.modelContextWindow),
    contextPercent: window === null ? null : Math.round((lastTurn.input / window) * 1000) / 10,
  };
}

/**
 * Until when a reached usage limit pauses (ISO 8601): the latest future reset of a window at 100 %,
 * else the earliest future reset of any window, else `now` + `FALLBACK_PAUSE_MS`. `now` in epoch ms.
 */
export function pausedUntilAfterLimit(limits: RateLimits | null, now: number): string {
  const windows = [limits?.primary, limits?.secondary].filter((w): w is RateWindow => !!w && w.resetsAt !== null && Date.parse(w.resetsAt) > now);
  const full = windows.filter((w) => w.usedPercent >= 100).map((w) => Date.parse(w.resetsAt as string));
  const any = windows.map((w) => Date.parse(w.resetsAt as string));
  const at = full.length ? Math.max(...full) : any.length ? Math.min(...any) : now + FALLBACK_PAUSE_MS;
  return new Date(at).toISOString();
}

/** True when an update says a limit is reached (`rateLimitReachedType` set). */
export function limitReachedBy(s: WireRateLimits): boolean {
  return s.rateLimitReachedType !== null;
}

/** True when an update lifts a pause: it carries a window, every window it carries is below 100 %, and no limit is reached. */
export function liftsPause(s: WireRateLimits): boolean {
  const sent = [s.primary, s.secondary].filter((w): w is WireWindow => w !== null);
  return sent.length > 0 && sent.every((w) => w.usedPercent < 100) && s.rateLimitReachedType === null;
}

/** One window's warning: it reached `WARN_AT_PERCENT`. */
export interface UsageWarning {
  window: 'primary' | 'secondary';
  usedPercent: number;
  resetsAt: string | null;
}

/**
 * The warnings due for `limits`: one each time a window crosses 90 %. `warned` holds the windows warned
 * for (`primary`, `secondary`) while they stay at 90 % or more; a window is warned again only after it
 * went below 90 % (a new window starts low). Keyed by the window alone, never by its reset time, so a
 * provider whose reset time moves at every response cannot raise a warning per response. Pure; returns
 * the new warnings and the windows to keep (at most two).
 */
export function warningsFor(warned: ReadonlySet<string>, limits: RateLimits): { warnings: UsageWarning[]; warned: Set<string> } {
  const keep = new Set<string>();
  const warnings: UsageWarning[] = [];
  for (const which of ['primary', 'secondary'] as const) {
    const w = limits[which];
    // A window not reported this time keeps its state (updates are merged, mergeRateLimits).
    if (!w) {
      if (warned.has(which)) keep.add(which);
      continue;
    }
    if (w.usedPercent < WARN_AT_PERCENT) continue;
    keep.add(which);
    if (!warned.has(which)) warnings.push({ window: which, usedPercent: w.usedPercent, resetsAt: w.resetsAt });
  }
  return { warnings, warned: keep };
}

/**
 * The `usage` line `angelia run --json` prints before `turn-end` (stable, src/shared/usage.ts
 * `RunUsageLine`): the turn's tokens and the account's latest rate limits; null when Codex reported no
 * tokens (then no line is printed).
 */
export function runUsageLine(usage: ChatUsage | null | undefined, rateLimits: RateLimits | null): RunUsageLine | null {
  const tokens = usage?.lastTurn ?? null;
  return tokens ? { type: 'usage', tokens, rateLimits } : null;
}
