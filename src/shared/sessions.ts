/**
 * The shapes of "find past work" (docs/architecture.md "Sessions"): every session of a chat with its
 * name, first message, dates and turn count, paged; a search over the names and messages of every
 * chat's sessions; rename, archive and unarchive; a session opened read-only. The core builds them
 * from `<state>/private/sessions.json` (which thread belongs to which chat) and Codex's own record of
 * each thread (`thread/read`, `thread/search`, codex 0.169.0). Imported by the contract's channel rows,
 * the CLI (`angelia sessions`), the loopback API and the window.
 */
import { z } from 'zod';

/** The most sessions one `sessions:list` page holds. */
export const SESSIONS_PAGE_MAX = 200;
/** The longest search text, in characters. */
export const SESSIONS_SEARCH_MAX = 200;
/** The longest session name, in characters. */
export const SESSION_NAME_MAX = 200;

/** One session of a chat (a Codex thread bound to the chat in sessions.json). Dates are ISO 8601 UTC. */
export const SessionSummary = z.object({
  chatId: z.string(),
  /** The Codex thread id. */
  id: z.string(),
  /** The name given with rename (Codex `thread/name/set`), or null. */
  name: z.string().nullable(),
  /** The first user message (Codex's `preview`, else the row's label), or null when it has none. */
  preview: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Turns started on it through Angelia (sessions.json `turns`). */
  turns: z.number().int().nonnegative(),
  archived: z.boolean(),
  /** The chat's current session (what its next message continues). */
  active: z.boolean(),
});
export type SessionSummary = z.infer<typeof SessionSummary>;

/** One page of a chat's sessions, newest first (by creation). `nextCursor`: pass it back for the next page; null on the last. */
export const SessionPage = z.object({
  sessions: z.array(SessionSummary),
  nextCursor: z.string().nullable(),
  /** How many sessions the listing has in all (every page). */
  total: z.number().int().nonnegative(),
});
export type SessionPage = z.infer<typeof SessionPage>;

export const SessionsListInput = z
  .object({
    chatId: z.string(),
    /** true: only archived sessions; false or absent: only the others. */
    archived: z.boolean().optional(),
    cursor: z.string().max(200).nullable().optional(),
    limit: z.number().int().min(1).max(SESSIONS_PAGE_MAX).optional(),
  })
  .strict();

/** One search result: the session and the line that matched (a message's line, or the name). */
export const SessionHit = z.object({
  session: SessionSummary,
  /** Where the text was found. */
  where: z.enum(['name', 'message']),
  /** The matching line, trimmed, cut around the match when long. */
  line: z.string(),
  /** The match within `line` (UTF-16 offsets, end exclusive), or null when it could not be placed. */
  match: z.object({ start: z.number().int().nonnegative(), end: z.number().int().nonnegative() }).nullable(),
});
export type SessionHit = z.infer<typeof SessionHit>;

export const SessionsSearchInput = z
  .object({
    text: z.string().trim().min(1).max(SESSIONS_SEARCH_MAX),
    /** Only this chat's sessions (absent: every chat's). */
    chatId: z.string().optional(),
    /** true: only archived sessions; false: only the others; absent: both. */
    archived: z.boolean().optional(),
  })
  .strict();

/** The search's answer, newest first; `truncated` when more sessions matched than were shown. */
export const SessionSearchResult = z.object({ hits: z.array(SessionHit), truncated: z.boolean() });
export type SessionSearchResult = z.infer<typeof SessionSearchResult>;

/** A session by its chat and id (the whole thread id, or its start or end as `/resume` takes it). */
export const SessionRef = z.object({ chatId: z.string(), session: z.string().min(1).max(200) }).strict();
export type SessionRef = z.infer<typeof SessionRef>;

export const SessionsRenameInput = SessionRef.extend({ name: z.string().trim().min(1).max(SESSION_NAME_MAX) }).strict();
export const SessionsArchiveInput = SessionRef.extend({ archived: z.boolean() }).strict();

/** Dates as `angelia sessions` and the window show them: `2025-06-01 09:30` in local time. */
export function shortDate(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}
