/**
 * Codex's record of threads, read and changed over an app-server (codex 0.169.0, generated types
 * `v2/Thread`, `ThreadReadParams`, `ThreadSearchParams`, `ThreadSearchOccurrencesParams`,
 * `ThreadSetNameParams`, `ThreadArchiveParams`, `ThreadUnarchiveParams`). Nothing outside this file
 * reads a raw `Thread`. What each method does was MEASURED on the real binary (docs/architecture.md
 * "Sessions"):
 * - `thread/read {threadId}` answers the thread's metadata (`turns: []` without `includeTurns`):
 *   `name` (null until set), `preview` (the first user message, whole), `createdAt`/`updatedAt` in Unix
 *   SECONDS; also for an archived thread, and while another process holds the thread loaded.
 * - `thread/search {searchTerm}` is a case-insensitive literal substring search over the user's and the
 *   agent's messages (not names); each result carries one `snippet` (newlines made spaces, cut with
 *   `...`). Archived threads only with `archived: true`. `thread/searchOccurrences` gives the message
 *   occurrences in one thread with the match's range in the snippet (newlines kept).
 * - `thread/name/set` works while another process holds the thread; an empty name is refused.
 * - `thread/archive` moves the rollout aside: refused ("already has an active writer") while another
 *   process holds the thread loaded, and for an archived or unknown thread ("no rollout found");
 *   `thread/unarchive` of a thread not archived: "no archived rollout found".
 * Search goes through `searchThreads` alone, so a streamed search (`thread/search/stream`, codex
 * 0.171.0) can replace the one call there.
 */
import type { CodexConnection } from '../codex/connection';
import type { ResponseOf } from '../codex/protocol';
import { secondsToIso } from '../codex/turns';

/** What Angelia keeps of a Codex thread. Dates ISO 8601 (null when Codex gave none). */
export interface ThreadMeta {
  id: string;
  name: string | null;
  preview: string | null;
  createdAt: string | null;
  updatedAt: string | null;
}

/** One search hit of Codex: the thread and its snippet. */
export interface ThreadHit {
  thread: ThreadMeta;
  snippet: string;
}

/** One message occurrence in a thread: its snippet and the match's range in it (UTF-16 offsets). */
export interface Occurrence {
  snippet: string;
  range: { start: number; end: number } | null;
}

/** Deadline of one request, ms. */
export const THREAD_CALL_TIMEOUT_MS = 20_000;
/** Threads per `thread/search` page, and the most pages read. */
const SEARCH_PAGE = 100;
const SEARCH_MAX_PAGES = 20;

const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);

/** The metadata of a raw Codex `Thread` (codex 0.169.0 `v2/Thread`), pure; null when it has no id. */
export function threadMeta(raw: unknown): ThreadMeta | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const t = raw as Record<string, unknown>;
  const id = str(t.id);
  if (!id) return null;
  return { id, name: str(t.name), preview: str(t.preview), createdAt: secondsToIso(t.createdAt), updatedAt: secondsToIso(t.updatedAt) };
}

/** `thread/read {threadId}` (metadata only). Throws what the request throws (e.g. an unknown thread). */
export async function readThreadMeta(conn: CodexConnection, threadId: string): Promise<ThreadMeta | null> {
  const res = await conn.request('thread/read', { threadId }, { timeoutMs: THREAD_CALL_TIMEOUT_MS });
  return threadMeta(res.thread);
}

/**
 * Every thread whose messages contain `term` (case-insensitive), newest first, with Codex's snippet:
 * `thread/search`, page after page (at most `SEARCH_MAX_PAGES`). `archived`: true only archived
 * threads, false only the others. THE one search call (see the module comment).
 */
export async function searchThreads(conn: CodexConnection, term: string, opts: { archived: boolean }): Promise<ThreadHit[]> {
  const hits: ThreadHit[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < SEARCH_MAX_PAGES; page++) {
    const res: ResponseOf<'thread/search'> = await conn.request(
      'thread/search',
      { searchTerm: term, archived: opts.archived, limit: SEARCH_PAGE, cursor },
      { timeoutMs: THREAD_CALL_TIMEOUT_MS },
    );
    for (const r of Array.isArray(res.data) ? res.data : []) {
      const thread = threadMeta(r.thread);
      if (thread) hits.push({ thread, snippet: typeof r.snippet === 'string' ? r.snippet : '' });
    }
    cursor = typeof res.nextCursor === 'string' ? res.nextCursor : null;
    if (!cursor) break;
  }
  return hits;
}

/** The first message occurrence of `term` in a thread (`thread/searchOccurrences`, limit 1), or null. */
export async function firstOccurrence(conn: CodexConnection, threadId: string, term: string): Promise<Occurrence | null> {
  const res = await conn.request('thread/searchOccurrences', { threadId, searchTerm: term, limit: 1 }, { timeoutMs: THREAD_CALL_TIMEOUT_MS });
  const o = Array.isArray(res.data) ? res.data[0] : undefined;
  if (!o || typeof o.snippet !== 'string') return null;
  const r = o.snippetMatchRange;
  const range = r && Number.isInteger(r.start) && Number.isInteger(r.end) && r.end >= r.start ? { start: r.start, end: r.end } : null;
  return { snippet: o.snippet, range };
}

/** `thread/name/set`. Throws what the request throws. */
export async function setThreadName(conn: CodexConnection, threadId: string, name: string): Promise<void> {
  await conn.request('thread/name/set', { threadId, name }, { timeoutMs: THREAD_CALL_TIMEOUT_MS });
}

/** `thread/archive` (true) or `thread/unarchive` (false). Throws what the request throws. */
export async function setThreadArchived(conn: CodexConnection, threadId: string, archived: boolean): Promise<void> {
  if (archived) await conn.request('thread/archive', { threadId }, { timeoutMs: THREAD_CALL_TIMEOUT_MS });
  else await conn.request('thread/unarchive', { threadId }, { timeoutMs: THREAD_CALL_TIMEOUT_MS });
}
