/**
 * The pure decisions of "find past work" (docs/architecture.md "Sessions"): which session rows a
 * listing shows and in what order, one page of them, a row and Codex's thread metadata made into a
 * `SessionSummary`, and the matching line a search result shows (from a Codex snippet, or the name).
 */
import type { SessionHit, SessionSummary } from '../../../shared/sessions';
import type { SessionRow } from '../chats/sessions';
import type { ThreadMeta } from './threads';

/** The longest matching line shown, in characters (cut around the match beyond it). */
export const LINE_MAX = 160;

/** True when `hay` contains `needle`, case-insensitive (as Codex's `thread/search`). */
export function containsText(hay: string | null | undefined, needle: string): boolean {
  return !!hay && hay.toLowerCase().includes(needle.toLowerCase());
}

/**
 * The rows a listing shows: those bound to a Codex thread on which a turn started (before that there is
 * no conversation), with `archived` as asked (archived only, or only the others), newest first by
 * `created_at` (ties: the later made first).
 */
export function listedRows(rows: readonly SessionRow[], archived: boolean): SessionRow[] {
  return rows
    .map((r, i) => ({ r, i }))
    .filter(({ r }) => r.threadId !== null && r.started && (r.archived === true) === archived)
    .sort((a, b) => b.r.created_at.localeCompare(a.r.created_at) || b.i - a.i)
    .map((x) => x.r);
}

/**
 * One page of `rows`: `cursor` is the offset a previous page returned (absent or null: the start; not a
 * whole number: the start), `limit` rows at most. `nextCursor` is null on the last page.
 */
export function pageOf<T>(rows: readonly T[], cursor: string | null | undefined, limit: number): { page: T[]; nextCursor: string | null } {
  const from = cursor && /^\d{1,9}$/.test(cursor) ? Math.min(Number(cursor), rows.length) : 0;
  const to = Math.min(rows.length, from + Math.max(1, limit));
  return { page: rows.slice(from, to), nextCursor: to < rows.length ? String(to) : null };
}

/**
 * A row and what Codex says of its thread (null when it could not be read) as the listing shows it:
 * the name Codex has, else the row's; the preview Codex has, else the row's label; Codex's dates, else
 * the row's (`created_at`, `last_used_at`).
 */
export function summaryOf(chatId: string, row: SessionRow, meta: ThreadMeta | null, active: boolean): SessionSummary {
  return {
    chatId,
    id: row.threadId ?? row.id,
    name: meta?.name ?? row.name ?? null,
    preview: meta?.preview ?? (row.label || null),
    createdAt: meta?.createdAt ?? row.created_at,
    updatedAt: meta?.updatedAt ?? row.last_used_at,
    turns: row.turns,
    archived: row.archived === true,
    active,
  };
}

/**
 * Cuts `line` to `LINE_MAX` characters around `match` (with `…` where cut) and moves the match with it.
 */
function cut(line: string, match: { start: number; end: number } | null): Pick<SessionHit, 'line' | 'match'> {
  if (line.length <= LINE_MAX) return { line, match };
  const center = match ? Math.floor((match.start + match.end) / 2) : 0;
  let from = Math.max(0, Math.min(center - Math.floor(LINE_MAX / 2), line.length - LINE_MAX));
  const to = from + LINE_MAX;
  const head = from > 0 ? '…' : '';
  const text = `${head}${line.slice(from, to)}${to < line.length ? '…' : ''}`;
  if (!match) return { line: text, match: null };
  from -= head.length;
  return { line: text, match: { start: Math.max(head.length, match.start - from), end: Math.min(text.length, match.end - from) } };
}

/**
 * The line of a Codex snippet that holds the match: the line containing `range.start` when Codex gave the
 * range (`thread/searchOccurrences`: newlines kept), else the line where `term` is found
 * (case-insensitive; `thread/search` snippets have their newlines made spaces). Codex's leading or
 * trailing `...` becomes `…`; the line is trimmed and cut around the match (`LINE_MAX`).
 */
export function matchingLine(snippet: string, range: { start: number; end: number } | null, term: string): Pick<SessionHit, 'line' | 'match'> {
  const lower = snippet.toLowerCase();
  const t = term.toLowerCase();
  let at = range && lower.slice(range.start, range.start + t.length) === t ? range.start : lower.indexOf(t);
  if (at < 0) return cut(tidy(snippet.replace(/\s+/g, ' ')), null);
  const lineStart = snippet.lastIndexOf('\n', at - 1) + 1;
  const nl = snippet.indexOf('\n', at);
  let line = snippet.slice(lineStart, nl < 0 ? snippet.length : nl);
  at -= lineStart;
  const lead = line.length - line.trimStart().length;
  line = line.trim();
  at -= lead;
  if (line.startsWith('...')) {
    const rest = line.slice(3).trimStart();
    at -= line.length - rest.length - 1;
    line = `…${rest}`;
  }
  if (line.endsWith('...') && at + t.length <= line.length - 3) line = `${line.slice(0, -3).trimEnd()}…`;
  return cut(line, { start: at, end: at + t.length });
}

/** Codex's leading or trailing `...` as `…`, trimmed. */
function tidy(s: string): string {
  return s
    .trim()
    .replace(/^\.\.\.\s?/, '…')
    .replace(/\s?\.\.\.$/, '…');
}

/** The hit a name gives: the whole name, the match placed in it. Null when the name does not contain `term`. */
export function nameHit(name: string | null | undefined, term: string): Pick<SessionHit, 'line' | 'match'> | null {
  if (!name) return null;
  const at = name.toLowerCase().indexOf(term.toLowerCase());
  return at < 0 ? null : cut(name, { start: at, end: at + term.length });
}
