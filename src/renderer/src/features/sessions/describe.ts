/**
 * Words and pure helpers of the sessions panels (docs/architecture.md "Sessions"): a session's title
 * (its name, else its first message), its dates, and a matching line split around the match so the
 * match can be marked without HTML.
 */
import type { SessionHit, SessionSummary } from '../../../../shared/sessions';

/** The first line of the first message, or a placeholder. */
export function firstLine(preview: string | null): string {
  const line = (preview ?? '').split('\n').find((l) => l.trim()) ?? '';
  return line.trim() || '(no message)';
}

/** The title shown: the name, else the first line of the first message. */
export function sessionTitle(s: Pick<SessionSummary, 'name' | 'preview'>): string {
  return s.name ?? firstLine(s.preview);
}

/** "12 Jun 14:02", local; the year too when not this year's. */
export function sessionDate(iso: string, now: Date = new Date()): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const time = d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  const day = d.toLocaleDateString(undefined, { day: 'numeric', month: 'short', ...(d.getFullYear() === now.getFullYear() ? {} : { year: 'numeric' }) });
  return `${day} ${time}`;
}

/** "3 turns". */
export const turnsText = (n: number): string => `${n} turn${n === 1 ? '' : 's'}`;

/** A hit's line as [before, match, after] (the match empty when it could not be placed). */
export function splitLine(hit: Pick<SessionHit, 'line' | 'match'>): [string, string, string] {
  const m = hit.match;
  if (!m || m.start >= m.end || m.end > hit.line.length) return [hit.line, '', ''];
  return [hit.line.slice(0, m.start), hit.line.slice(m.start, m.end), hit.line.slice(m.end)];
}
