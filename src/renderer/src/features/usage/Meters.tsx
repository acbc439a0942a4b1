/**
 * The usage meters: the header's (the fullest rate-limit window of the account: "5 h 42 %", every
 * window with its reset time in the tooltip), the composer's (how full the chat's context window is,
 * the tokens of the last turn and of the session; from 90 % a Compact button that sends `/compact`),
 * the sign-in screen's list of every window, and "paused until 14:05" for a chat held at a usage limit (its composer still queues),
 * with "Try now" (`usage:resume`: the owner lifts the pause, e.g. after upgrading the plan). Each has a
 * pure view (props in, markup out) and, for the header, a store-bound wrapper.
 */
import type { ReactElement } from 'react';
import type { ChatUsage, HomeUsage } from '../../../../shared/usage';
import { fullestWindow, pausedText, percentText, windowsShown, type UsageLevel } from '../../../../shared/usageText';
import { useAppStore } from '../../store/store';
import { contextShown } from './describe';
import { useNow } from './useNow';

/** A small horizontal bar: `percent` (0–100) filled, coloured by `level`. */
export function Bar({ percent, level }: { percent: number; level: UsageLevel }): ReactElement {
  return (
    <span className={`meter-bar level-${level}`} aria-hidden="true">
      <span className="meter-fill" style={{ width: `${percent}%` }} />
    </span>
  );
}

/** The header's meter for `homes` at `now`; nothing before Codex reported rate limits. */
export function UsageMeterView({ homes, now }: { homes: readonly HomeUsage[]; now: Date }): ReactElement | null {
  const top = fullestWindow(homes, now);
  if (!top) return null;
  const lines = homes.flatMap((h) => windowsShown(h.rateLimits, now).map((w) => w.line));
  return (
    <span
      className={`usage-meter level-${top.level}`}
      data-testid="usage-meter"
      data-level={top.level}
      title={`Rate limits\n${lines.join('\n')}`}
      role="img"
      aria-label={`Rate limits: ${lines.join('; ')}`}
    >
      <span className="meter-name">{top.name}</span>
      <Bar percent={top.percent} level={top.level} />
      <span className="meter-value" data-testid="usage-meter-value">
        {percentText(top.percent)}
      </span>
    </span>
  );
}

/**
 * Every window of every home, one row each (name, bar, percent, reset): the sign-in screen's "Usage";
 * above them, each paused home's "paused until …" with Try now (`onResume`, absent: no button).
 */
export function UsageListView({
  homes,
  now,
  onResume,
}: {
  homes: readonly HomeUsage[];
  now: Date;
  onResume?: (codexHome: string) => void;
}): ReactElement | null {
  const rows = homes.flatMap((h) => windowsShown(h.rateLimits, now).map((w) => ({ home: h.codexHome, w })));
  const paused = homes.filter((h) => pausedText(h.pausedUntil, now) !== null);
  if (rows.length === 0 && paused.length === 0) return null;
  return (
    <ul className="usage-list" data-testid="usage-list" aria-label="Rate limits">
      {paused.map((h) => (
        <li key={`${h.codexHome}:paused`} className="usage-paused" data-testid="usage-paused" title={h.codexHome}>
          <PausedLineView pausedUntil={h.pausedUntil} now={now} where="chat" {...(onResume ? { onTryNow: () => onResume(h.codexHome) } : {})} />
        </li>
      ))}
      {rows.map(({ home, w }) => (
        <li key={`${home}:${w.slot}`} className={`usage-row level-${w.level}`} data-testid="usage-row" data-slot={w.slot} title={home}>
          <span className="meter-name">{w.name}</span>
          <Bar percent={w.percent} level={w.level} />
          <span className="meter-value">{percentText(w.percent)} used</span>
          {w.resets && <span className="meta">{w.resets}</span>}
        </li>
      ))}
    </ul>
  );
}

/** The header's meter, from the store. */
export function UsageMeter(): ReactElement | null {
  const homes = useAppStore((s) => s.usage.homes);
  const now = useNow();
  return <UsageMeterView homes={homes} now={now} />;
}

/**
 * The composer's meter for a chat's usage; nothing before Codex reported any. From 90 % it says the
 * context is nearly full and offers Compact (`onCompact` sends `/compact`; disabled when sending is off).
 */
export function ContextMeterView({
  usage,
  onCompact,
  canCompact,
}: {
  usage: ChatUsage | null | undefined;
  onCompact: () => void;
  canCompact: boolean;
}): ReactElement | null {
  const shown = contextShown(usage);
  if (!shown) return null;
  return (
    <div className={`context-meter level-${shown.level}`} data-testid="context-meter" data-level={shown.level} title={shown.detail}>
      <span className="meter-value" data-testid="context-percent">
        {shown.label}
      </span>
      {shown.percent !== null && <Bar percent={shown.percent} level={shown.level} />}
      <span className="meta context-tokens" data-testid="context-tokens">
        {shown.tokens}
      </span>
      {shown.suggestCompact && (
        <button
          type="button"
          className="btn small compact-button"
          data-testid="compact-button"
          disabled={!canCompact}
          title="Nearly full: /compact summarises the conversation to free context"
          onClick={onCompact}
        >
          /compact
        </button>
      )}
    </div>
  );
}

/**
 * "paused until 14:05" for a chat held at a usage limit; nothing when not paused. With `onTryNow`, a
 * "Try now" button beside it (the owner lifts the pause; a turn that meets the limit again re-pauses).
 */
export function PausedLineView({
  pausedUntil,
  now,
  where,
  onTryNow,
}: {
  pausedUntil: string | null | undefined;
  now: Date;
  where: 'row' | 'chat';
  onTryNow?: () => void;
}): ReactElement | null {
  const text = pausedText(pausedUntil, now);
  if (!text) return null;
  const badge = (
    <span
      className={`badge paused paused-${where}`}
      data-testid="paused-until"
      title="The usage limit was reached: queued messages are sent when it resets (the composer still queues)"
    >
      {text}
    </span>
  );
  if (!onTryNow) return badge;
  return (
    <>
      {badge}
      <button
        type="button"
        className="btn small try-now"
        data-testid="usage-try-now"
        title="Send the queued messages now instead of waiting for the reset (e.g. after upgrading the plan); if the limit still holds, the chat pauses again"
        onClick={onTryNow}
      >
        Try now
      </button>
    </>
  );
}

/** `PausedLineView` with the time kept current. */
export function PausedLine({
  pausedUntil,
  where,
  onTryNow,
}: {
  pausedUntil: string | null | undefined;
  where: 'row' | 'chat';
  onTryNow?: () => void;
}): ReactElement | null {
  const now = useNow();
  return <PausedLineView pausedUntil={pausedUntil} now={now} where={where} {...(onTryNow ? { onTryNow } : {})} />;
}
