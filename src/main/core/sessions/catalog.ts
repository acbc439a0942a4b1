/**
 * "Find past work" over every chat's sessions (docs/architecture.md "Sessions"): a chat's sessions
 * paged with their name, first message, dates and turn count; a search over the names and messages of
 * all chats' sessions with the matching line; rename, archive and unarchive; a session opened read-only
 * (its turns as transcript items). `sessions.json` says which thread belongs to which chat (only those
 * threads are ever shown: a Codex home may hold other threads); Codex holds the rest (core/sessions/
 * threads.ts), read on a short-lived app-server the caller's `connect` starts and this module stops
 * after each operation. Names and the archived state are set in Codex first, then kept in the row.
 * Used by the orchestrator (the window, the API) and by `angelia sessions` (cli/commands/sessions.ts).
 */
import type { ChatItem } from '../../../shared/contract';
import { AppFailure } from '../../../shared/result';
import type { SessionHit, SessionPage, SessionRef, SessionSearchResult, SessionSummary } from '../../../shared/sessions';
import { findSession, type SessionRow, type SessionStore } from '../chats/sessions';
import type { CodexConnection } from '../codex/connection';
import { containsText, listedRows, matchingLine, nameHit, pageOf, summaryOf } from './match';
import { readOnlyItems } from './readOnly';
import { firstOccurrence, readThreadMeta, searchThreads, setThreadArchived, setThreadName, type ThreadMeta } from './threads';

/** Sessions per `list` page unless asked otherwise. */
export const SESSIONS_PAGE_DEFAULT = 50;
/** The most search hits returned (the rest: `truncated`). */
export const SEARCH_HITS_MAX = 100;
/** Codex reads sent at once. */
const PARALLEL = 16;

/** What the catalog needs from its host. */
export interface CatalogDeps {
  store: SessionStore;
  /** Starts an app-server over the instance's CODEX_HOME, version-gated; the catalog stops it. */
  connect: () => Promise<CodexConnection>;
  /** True for a chat that exists even with no session yet (a profile's first chat). */
  chatExists: (chatId: string) => boolean;
  /** The thread a chat's running Codex holds now, or null (Codex refuses to archive it meanwhile). */
  liveThread?: (chatId: string) => string | null;
}

/** `items` in order, `fn` run on at most `PARALLEL` at a time. */
async function mapParallel<T, R>(items: readonly T[], fn: (t: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, items.length) }, worker));
  return out;
}

export class SessionCatalog {
  constructor(private readonly deps: CatalogDeps) {}

  /**
   * One page of a chat's sessions, newest first: `archived` true lists only the archived ones, else only
   * the others. Each row's thread is read from Codex (`thread/read`); a thread Codex cannot read shows
   * the row's own label and dates. Throws AppFailure `unknown-chat`.
   */
  async list(input: { chatId: string; archived?: boolean; cursor?: string | null; limit?: number }): Promise<SessionPage> {
    const rows = listedRows(this.rowsOf(input.chatId), input.archived === true);
    const { page, nextCursor } = pageOf(rows, input.cursor, input.limit ?? SESSIONS_PAGE_DEFAULT);
    const sessions = await this.summaries(input.chatId, page);
    return { sessions, nextCursor, total: rows.length };
  }

  /** Every session `list` would give, all pages (`angelia sessions`). */
  async all(chatId: string, archived: boolean): Promise<SessionSummary[]> {
    return this.summaries(chatId, listedRows(this.rowsOf(chatId), archived));
  }

  /**
   * The sessions whose name or messages contain `text` (case-insensitive), of one chat or of every chat,
   * newest first, each with its matching line (a message's, else the name). Messages are searched by
   * Codex (`thread/search`); threads that belong to no chat are left out. `archived`: true only archived,
   * false only the others, absent both. At most `SEARCH_HITS_MAX` hits (`truncated` beyond).
   */
  async search(input: { text: string; chatId?: string; archived?: boolean }): Promise<SessionSearchResult> {
    const term = input.text.trim();
    const owners = new Map<string, { chatId: string; row: SessionRow }>();
    const chats = input.chatId !== undefined ? [input.chatId] : this.deps.store.chats().map((c) => c.chatId);
    for (const chatId of chats) {
      const rows = this.rowsOf(chatId);
      const kept = input.archived === undefined ? [...listedRows(rows, false), ...listedRows(rows, true)] : listedRows(rows, input.archived);
      for (const row of kept) if (row.threadId) owners.set(row.threadId, { chatId, row });
    }
    if (!owners.size) return { hits: [], truncated: false };
    return this.withConn(async (conn) => {
      const found = new Map<string, { meta: ThreadMeta | null; snippet: string | null }>();
      const archivedWays = input.archived === undefined ? [false, true] : [input.archived];
      for (const archived of archivedWays) {
        for (const hit of await searchThreads(conn, term, { archived })) {
          if (owners.has(hit.thread.id) && !found.has(hit.thread.id)) found.set(hit.thread.id, { meta: hit.thread, snippet: hit.snippet });
        }
      }
      for (const [threadId, { row }] of owners) if (!found.has(threadId) && containsText(row.name, term)) found.set(threadId, { meta: null, snippet: null });
      const ordered = [...found.entries()].sort((a, b) => (owners.get(b[0])?.row.created_at ?? '').localeCompare(owners.get(a[0])?.row.created_at ?? ''));
      const shown = ordered.slice(0, SEARCH_HITS_MAX);
      const hits = await mapParallel(shown, async ([threadId, f]): Promise<SessionHit | null> => {
        const owner = owners.get(threadId);
        if (!owner) return null;
        const meta = f.meta ?? (await readThreadMeta(conn, threadId).catch(() => null));
        const session = summaryOf(owner.chatId, owner.row, meta, this.isActive(owner.chatId, owner.row));
        if (f.snippet !== null) {
          const occurrence = await firstOccurrence(conn, threadId, term).catch(() => null);
          const line = occurrence ? matchingLine(occurrence.snippet, occurrence.range, term) : matchingLine(f.snippet, null, term);
          return { session, where: 'message', ...line };
        }
        const byName = nameHit(session.name, term);
        return byName ? { session, where: 'name', ...byName } : null;
      });
      return { hits: hits.filter((h): h is SessionHit => h !== null), truncated: ordered.length > shown.length };
    });
  }

  /** Names a session (Codex `thread/name/set`, then the row). Throws AppFailure `unknown-chat`, `unknown-session`, `session-failed`. */
  async rename(ref: SessionRef, name: string): Promise<SessionSummary> {
    const row = this.find(ref);
    const threadId = row.threadId as string;
    return this.withConn(async (conn) => {
      await setThreadName(conn, threadId, name).catch((e: unknown) => failed('rename', threadId, e));
      const kept = this.deps.store.setMeta(ref.chatId, row.id, { name });
      return summaryOf(ref.chatId, kept, await readThreadMeta(conn, threadId).catch(() => null), this.isActive(ref.chatId, kept));
    });
  }

  /**
   * Archives or unarchives a session (Codex `thread/archive` / `thread/unarchive`, then the row; the
   * active session archived leaves the chat with none: its next message starts a new one). A session in
   * the state asked for already is left as it is. Throws AppFailure `unknown-chat`, `unknown-session`,
   * `session-open` (a chat's running Codex holds the thread: Codex refuses to archive it), `session-failed`.
   */
  async setArchived(ref: SessionRef, archived: boolean): Promise<SessionSummary> {
    const row = this.find(ref);
    const threadId = row.threadId as string;
    if (archived && this.deps.liveThread?.(ref.chatId) === threadId) {
      throw new AppFailure({
        code: 'session-open',
        message: `the session ${threadId} is open in the chat "${ref.chatId}" (its Codex runs), and Codex archives no thread it holds`,
        fix: 'start a new session in that chat (/new), then archive this one',
      });
    }
    return this.withConn(async (conn) => {
      if ((row.archived === true) !== archived) {
        await setThreadArchived(conn, threadId, archived).catch((e: unknown) => {
          // Already in that state in Codex (archived or restored elsewhere): only the row follows.
          const msg = e instanceof Error ? e.message : String(e);
          if (!(archived ? /no rollout found/ : /no archived rollout found/).test(msg)) failed(archived ? 'archive' : 'unarchive', threadId, e);
        });
      }
      const kept = this.deps.store.setMeta(ref.chatId, row.id, { archived });
      return summaryOf(ref.chatId, kept, await readThreadMeta(conn, threadId).catch(() => null), this.isActive(ref.chatId, kept));
    });
  }

  /**
   * A session read-only: its summary and its finished turns as transcript items (`thread/turns/list`,
   * readOnly.ts), nothing resumed and no model asked. Throws AppFailure `unknown-chat`, `unknown-session`,
   * `session-failed` (Codex could not read it).
   */
  async open(ref: SessionRef): Promise<{ session: SessionSummary; items: ChatItem[] }> {
    const row = this.find(ref);
    const threadId = row.threadId as string;
    return this.withConn(async (conn) => {
      const meta = await readThreadMeta(conn, threadId).catch(() => null);
      const items = await readOnlyItems(conn, threadId).catch((e: unknown) => failed('read', threadId, e));
      return { session: summaryOf(ref.chatId, row, meta, this.isActive(ref.chatId, row)), items };
    });
  }

  /**
   * The row `ref` names among the chat's sessions with a thread: the whole id, or its start or end as
   * `/resume` takes it (chats/sessions.ts `findSession`). Throws AppFailure `unknown-chat`, or
   * `unknown-session` (none, several or too short: the message says which).
   */
  find(ref: SessionRef): SessionRow {
    const rows = this.rowsOf(ref.chatId).filter((r) => r.threadId !== null && r.started);
    const hit = findSession(rows, ref.session, { how: `angelia sessions ${ref.chatId} --archive` });
    if ('error' in hit) throw new AppFailure({ code: 'unknown-session', message: hit.error, where: ref.chatId });
    return hit.row;
  }

  /** The chat's rows; throws AppFailure `unknown-chat` for a chat neither in the store nor known to the host. */
  private rowsOf(chatId: string): SessionRow[] {
    if (!this.deps.store.chats().some((c) => c.chatId === chatId) && !this.deps.chatExists(chatId)) {
      const known = this.deps.store.chats().map((c) => c.chatId);
      throw new AppFailure({ code: 'unknown-chat', message: `no chat named "${chatId}"`, fix: `chats: ${known.join(', ') || '(none yet)'}` });
    }
    return this.deps.store.history(chatId);
  }

  private isActive(chatId: string, row: SessionRow): boolean {
    return this.deps.store.active(chatId)?.id === row.id;
  }

  /** The summaries of `rows` (Codex read for each), in order; no Codex started for none. */
  private async summaries(chatId: string, rows: SessionRow[]): Promise<SessionSummary[]> {
    if (!rows.length) return [];
    const active = this.deps.store.active(chatId)?.id ?? null;
    return this.withConn((conn) =>
      mapParallel(rows, async (row) => summaryOf(chatId, row, await readThreadMeta(conn, row.threadId as string).catch(() => null), row.id === active)),
    );
  }

  private async withConn<T>(fn: (conn: CodexConnection) => Promise<T>): Promise<T> {
    let conn: CodexConnection;
    try {
      conn = await this.deps.connect();
    } catch (e) {
      if (e instanceof AppFailure) throw e;
      throw new AppFailure({ code: 'session-failed', message: `Codex did not start: ${e instanceof Error ? e.message : String(e)}` });
    }
    try {
      return await fn(conn);
    } finally {
      await conn.stop();
    }
  }
}

/** Throws AppFailure `session-failed` for a Codex call that failed. */
function failed(what: string, threadId: string, e: unknown): never {
  throw new AppFailure({ code: 'session-failed', message: `Codex could not ${what} the session ${threadId}: ${e instanceof Error ? e.message : String(e)}` });
}
