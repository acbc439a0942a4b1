/**
 * What a chat's usage meter says (pure): how full the context window is, the tokens of the last turn
 * and of the session, and whether to suggest `/compact` (from 90 %, src/shared/usageText.ts
 * `HIGH_PERCENT`). The shape is src/shared/usage.ts `ChatUsage` (codex 0.169.0 `ThreadTokenUsage`).
 */
import type { ChatUsage } from '../../../../shared/usage';
import { clampPercent, HIGH_PERCENT, percentText, tokensText, usageLevel, type UsageLevel } from '../../../../shared/usageText';

/** The composer's meter, as data. */
export interface ContextShown {
  /** How full the context window is (0–100), or null when Codex did not say. */
  percent: number | null;
  level: UsageLevel;
  /** "context 64 %" (or "context ?"). */
  label: string;
  /** Beside the bar, short for the popover: "turn 12.3k · session 45.6k tokens"; "" when no tokens are known. */
  tokens: string;
  /** The tooltip: "last turn 12.3k tokens · session 45.6k tokens (context window 272k)"; "" when nothing is known. */
  detail: string;
  /** True from 90 %: the meter offers /compact. */
  suggestCompact: boolean;
}

/** The meter for a chat's usage; null before Codex reported any (nothing is drawn then). */
export function contextShown(usage: ChatUsage | null | undefined): ContextShown | null {
  if (!usage || (usage.lastTurn === null && usage.session === null && usage.contextPercent === null)) return null;
  const percent = usage.contextPercent === null ? null : clampPercent(usage.contextPercent);
  const short: string[] = [];
  if (usage.lastTurn) short.push(`turn ${tokensText(usage.lastTurn.total)}`);
  if (usage.session) short.push(`session ${tokensText(usage.session.total)}`);
  const parts: string[] = [];
  if (usage.lastTurn) parts.push(`last turn ${tokensText(usage.lastTurn.total)} tokens`);
  if (usage.session) parts.push(`session ${tokensText(usage.session.total)} tokens`);
  const window = usage.lastTurn?.contextWindow ?? usage.session?.contextWindow ?? null;
  const detail = `${parts.join(' · ')}${window ? ` (context window ${tokensText(window)})` : ''}`;
  return {
    percent,
    level: percent === null ? 'ok' : usageLevel(percent),
    label: percent === null ? 'context ?' : `context ${percentText(percent)}`,
    tokens: short.length ? `${short.join(' · ')} tokens` : '',
    detail,
    suggestCompact: percent !== null && percent >= HIGH_PERCENT,
  };
}
