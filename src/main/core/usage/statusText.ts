/**
 * The usage lines of `/status` (core/chats/commands/status.ts): the chat's tokens and context, the
 * account's rate limits and a pause, in words. Pure; times are said in UTC, as the chat's notices say
 * them (chats/notices.ts `untilText`). Shapes: src/shared/usage.ts (codex 0.169.0).
 */
import type { ChatUsage, HomeUsage, RateWindow, TokenCounts } from '../../../shared/usage';
import { untilText } from '../chats/notices';

/** "5 h" for a 300-minute window, "7 d" for 10 080, "45 min" below an hour; "window" when unknown. */
export function windowName(minutes: number | null): string {
  if (minutes === null) return 'window';
  if (minutes % 1440 === 0) return `${minutes / 1440} d`;
  if (minutes % 60 === 0) return `${minutes / 60} h`;
  return `${minutes} min`;
}

function windowText(which: string, w: RateWindow): string {
  return `${which} ${windowName(w.windowMinutes)} ${Math.round(w.usedPercent)} % used${w.resetsAt ? `, resets ${untilText(w.resetsAt)}` : ''}`;
}

const counts = (t: TokenCounts): string => `${t.total} (${t.input} in, ${t.output} out)`;

/** The `/status` usage lines for a chat (`chat` null: no tokens reported yet) and its Codex home. */
export function usageStatusLines(chat: ChatUsage | null, home: HomeUsage): string[] {
  const tokens =
    chat?.lastTurn || chat?.session
      ? [
          chat.lastTurn ? `last turn ${counts(chat.lastTurn)}` : null,
          chat.session ? `session ${counts(chat.session)}` : null,
          chat.contextPercent !== null && chat.lastTurn?.contextWindow ? `context ${chat.contextPercent} % of ${chat.lastTurn.contextWindow}` : null,
        ]
          .filter(Boolean)
          .join(' · ')
      : 'none reported yet';
  const r = home.rateLimits;
  const windows = [r?.primary ? windowText('primary', r.primary) : null, r?.secondary ? windowText('secondary', r.secondary) : null].filter(Boolean);
  const lines = [`tokens: ${tokens}`, `rate limits: ${windows.length ? windows.join(' · ') : 'not reported yet'}`];
  if (home.pausedUntil) lines.push(`paused until ${untilText(home.pausedUntil)}: the usage limit is reached; queued messages wait`);
  return lines;
}

/** One line for `angelia status`: a Codex home's rate limits and pause ("usage /h/.codex: primary 5 h 42 % used, …"). */
export function homeUsageLine(home: HomeUsage): string {
  const [, limits, paused] = usageStatusLines(null, home);
  return `usage    ${home.codexHome}: ${(limits ?? '').replace(/^rate limits: /, '')}${paused ? ` · ${paused}` : ''}`;
}
