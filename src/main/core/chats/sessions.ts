/**
 * The sessions store (`<state>/private/sessions.json`; in the private folder so that
 * its atomic rewrites never sit under a named deny: instance/paths.ts PRIVATE_DIR): per chat, the active
 * session and a history of sessions. A session row takes the thread id Codex mints; it is resumed only once it is
 * materialized (a turn started on it: before that Codex has no rollout to resume).
 *
 * Files: `sessions.json` written atomically, mode 600; before every write the version on disk is kept
 * as `sessions.json.bak`, also written atomically with mode 600 whatever the mode of the source was;
 * `sessions.json.lock` exists only while one process writes. All three, and the write temps, lie beside
 * the file (so in `private/`). How they are read, written and locked is the state-file store's
 * (instance/jsonStore.ts, docs/architecture.md "State files").
 *
 * Several processes may share one state folder (`angelia serve` and `angelia run` at once). Every change
 * is made as: take the lock, RE-READ the file, apply the change to what is on disk, write, drop the lock.
 * So no process writes back a stale copy and nothing another process wrote is lost. A lock is taken over
 * when stale (not refreshed for `SESSIONS_LOCK_STALE_MS`; a write takes milliseconds; a lock file of an
 * older Angelia also when its process is gone). Reads do not lock (writes are atomic renames): they
 * re-read the file when its inode, size or mtime changed.
 *
 * Session ids as shown to people (`shortId`): Codex thread ids are UUIDv7, whose leading characters are a
 * millisecond clock, so sessions made within about a minute share their first 8 characters. Ids are
 * therefore shown by their LAST characters (random in UUIDv7), as `…c7f1a3d8`, and `/resume` and
 * `--session` take either the start or the end of an id (`findSession`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { AppFailure } from '../../../shared/result';
import { fileSignature, JsonLockError, readJsonSync, withLockSync, writeJsonSync } from '../instance/jsonStore';
import { keyPath } from '../table/errors';

/** The longest `last_line` kept with a session row, in characters (the chat list's line, transcript.ts `lastLine`). */
export const LAST_LINE_MAX = 120;

export const SessionRow = z.object({
  /** A local UUID until Codex mints a thread; then the thread id. */
  id: z.string(),
  threadId: z.string().nullable(),
  created_at: z.string(),
  last_used_at: z.string(),
  turns: z.number().int().nonnegative(),
  /** True once a turn started on the thread (its rollout exists, so it can be resumed). */
  started: z.boolean(),
  label: z.string(),
  enforcement: z.enum(['managed', 'disabled', 'external']).nullable().default(null),
  /** Session-only overrides set by `/model` and `/effort` (null: the profile's value or Codex's default). */
  model: z.string().nullable().default(null),
  effort: z.string().nullable().default(null),
  /**
   * The chat's last line while this session was active (plain, one line, at most `LAST_LINE_MAX`
   * characters when written; the view cuts a longer one), so the chat list shows it after a restart
   * before the transcript is read again. Optional: files written before this field have none, and an
   * older Angelia ignores it.
   */
  last_line: z.string().optional(),
  /** The name given with rename (also set in Codex: `thread/name/set`); optional, as `last_line`. */
  name: z.string().optional(),
  /** Archived (also in Codex: `thread/archive`): left out of listings unless asked for; optional, as `last_line`. */
  archived: z.boolean().optional(),
  /**
   * True once the person answered a secret question (`isSecret`) on this thread: a `/ask` from an agent
   * is then answered by a fresh thread, never a copy of this one (docs/security-model.md "Questions and
   * elicitations"). Optional, as `last_line`.
   */
  secret_answer: z.boolean().optional(),
});
export type SessionRow = z.infer<typeof SessionRow>;

const ChatRecord = z.object({ profile: z.string(), active: z.string().nullable(), history: z.array(SessionRow) });
const StoreFile = z.object({ version: z.literal(1), chats: z.record(z.string(), ChatRecord) });
type StoreFile = z.infer<typeof StoreFile>;

/** A lock older than this (ms) is taken over even when its process seems alive (a write takes milliseconds). */
export const SESSIONS_LOCK_STALE_MS = 10_000;
/** How long (ms) a change waits for another process's lock before failing with `sessions-locked`. */
export const SESSIONS_LOCK_WAIT_MS = 15_000;
/** The shortest selector `findSession` takes (characters of the start or the end of an id). */
export const SESSION_SELECTOR_MIN = 5;
/** Characters of an id shown by `shortId` (more when two ids end alike). */
const SHORT_ID_LENGTH = 8;

/** Options of `SessionStore` (tests shorten the lock times). */
export interface SessionStoreOptions {
  /** ms; default `SESSIONS_LOCK_WAIT_MS`. */
  lockWaitMs?: number;
  /** ms; default `SESSIONS_LOCK_STALE_MS`. */
  lockStaleMs?: number;
}

/**
 * How a session id is shown: its last 8 characters after `…` (`…c7f1a3d8`), more when another id of
 * `among` ends with the same 8, the whole id when it is no longer than that. UUIDv7 thread ids (codex
 * 0.169.0) begin with a millisecond clock, so their first characters are shared by sessions made close
 * together; their last characters are random. `findSession` accepts what this returns (with or without `…`).
 */
export function shortId(id: string, among: readonly string[] = []): string {
  const lower = id.toLowerCase();
  const others = among.map((o) => o.toLowerCase()).filter((o) => o !== lower);
  let n = Math.min(SHORT_ID_LENGTH, id.length);
  while (n < id.length && others.some((o) => o.endsWith(lower.slice(-n)))) n++;
  if (n < id.length && id.charAt(id.length - n) === '-') n++;
  return n >= id.length ? id : `…${id.slice(-n)}`;
}

/** `…c7f1a3d8 "label"` for lists in messages; `new` for a row without a thread (its id is provisional). */
function described(row: SessionRow, among: readonly string[]): string {
  return `${row.threadId ? shortId(row.id, among) : 'new'}${row.label ? ` "${row.label}"` : ''}`;
}

/** Up to 10 rows `described`, then how many more. */
function describedList(rows: readonly SessionRow[], among: readonly string[]): string {
  const shown = rows
    .slice(0, 10)
    .map((r) => described(r, among))
    .join(', ');
  return rows.length > 10 ? `${shown} and ${rows.length - 10} more` : shown;
}

/**
 * Resolves a session selector against `rows` (a chat's history, any order). The selector is a 1–2 digit
 * 1-based index into `indexRows` (the `/resume` list) when that is given, else the start or the end of the
 * row id or thread id, case-insensitive, at least `SESSION_SELECTOR_MIN` characters, a leading `…` or
 * `...` ignored (so what `shortId` shows is accepted). Returns the one row, or an `error` meant for a
 * person: too short, none matched, or `"<sel>" is ambiguous: matches N sessions (…)` listing them. Hints
 * name a real id of `rows`. `how` words the hint: the command to repeat (`/resume`, `--session`).
 */
export function findSession(
  rows: readonly SessionRow[],
  selector: string,
  opts: { indexRows?: readonly SessionRow[]; how?: string } = {},
): { row: SessionRow } | { error: string } {
  const how = opts.how ?? '/resume';
  const ids = rows.map((r) => r.id);
  const sel = selector
    .trim()
    .replace(/^(…|\.\.\.)/, '')
    .toLowerCase();
  const example = rows.find((r) => r.threadId);
  const hint = example ? ` (e.g. ${how} ${shortId(example.id, ids).replace(/^…/, '')})` : how === '/resume' && rows.length ? ' (e.g. /resume 1)' : '';
  if (opts.indexRows && /^\d{1,2}$/.test(sel)) {
    const row = opts.indexRows[Number(sel) - 1];
    if (row) return { row };
    return {
      error: opts.indexRows.length
        ? `No session ${sel}: the list has ${opts.indexRows.length} (1–${opts.indexRows.length}). ${how} lists them.`
        : 'No sessions yet.',
    };
  }
  if (sel.length < SESSION_SELECTOR_MIN) {
    return { error: `"${selector.trim()}" is too short: give at least ${SESSION_SELECTOR_MIN} characters of the session id, its start or its end${hint}.` };
  }
  const hits = rows.filter((r) =>
    [r.id, r.threadId ?? ''].some((id) => {
      const l = id.toLowerCase();
      return l.length > 0 && (l.startsWith(sel) || l.endsWith(sel));
    }),
  );
  if (hits.length === 1 && hits[0]) return { row: hits[0] };
  if (hits.length > 1) {
    return {
      error: `"${selector.trim()}" is ambiguous: matches ${hits.length} sessions (${describedList(hits, ids)}); give the id as listed${how === '/resume' ? ' or its number' : ''}.`,
    };
  }
  if (!rows.length) return { error: `No session of this chat matches "${selector.trim()}": it has no sessions yet.` };
  return { error: `No session of this chat matches "${selector.trim()}". Its sessions: ${describedList(rows, ids)}${hint}.` };
}

/** What a file held and how it looked on disk (to notice another process's write). */
interface DiskState {
  data: StoreFile;
  raw: string;
  sig: string;
}

/**
 * The fix for a store that does not load: restore the backup when it loads itself, else move the broken
 * file aside (the conversations stay in CODEX_HOME; only the list of sessions is lost).
 */
function repairFix(file: string): string {
  const bak = `${file}.bak`;
  const aside = `mv '${file}' '${file}.broken'`;
  if (existsSync(bak)) {
    try {
      StoreFile.parse(JSON.parse(readFileSync(bak, 'utf8')));
      return `stop Angelia, then restore the copy kept before the last write: cp '${bak}' '${file}' (or move the broken file aside: ${aside}, and Angelia starts with an empty sessions list)`;
    } catch {
      return `the backup ${bak} does not load either: stop Angelia, then move the broken file aside (${aside}); Angelia starts with an empty sessions list (the conversations themselves stay in CODEX_HOME)`;
    }
  }
  return `stop Angelia, then move the broken file aside (${aside}); Angelia starts with an empty sessions list (the conversations themselves stay in CODEX_HOME)`;
}

/**
 * Reads and checks the store file; null when it does not exist. Throws AppFailure `sessions-unreadable`
 * (not readable, or not JSON) or `sessions-invalid` (JSON of the wrong shape: the message names the field
 * path, e.g. `chats.coder.history[0].turns`), each with `where` = the file and a `fix` saying how to
 * restore `sessions.json.bak` or move the file aside.
 */
export function readSessionsFile(file: string): DiskState | null {
  const read = readJsonSync(file, StoreFile);
  switch (read.kind) {
    case 'ok':
      return { data: read.data, raw: read.raw, sig: read.sig };
    case 'missing':
      return null;
    case 'unreadable':
      throw new AppFailure({
        code: 'sessions-unreadable',
        message: `the sessions store cannot be read: ${read.error.message}`,
        where: file,
        fix: 'make it readable by this user (it should be mode 600, owned by you)',
      });
    case 'not-json':
      throw new AppFailure({
        code: 'sessions-unreadable',
        message: `the sessions store is not valid JSON: ${read.error.message}`,
        where: file,
        fix: repairFix(file),
      });
    case 'invalid': {
      const issues = read.issues;
      const first = issues[0];
      const more = issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length === 2 ? '' : 's'})` : '';
      throw new AppFailure({
        code: 'sessions-invalid',
        message: `the sessions store is not valid: ${first ? `${keyPath(first.path)}: ${first.message}` : 'unknown problem'}${more}`,
        where: file,
        fix: repairFix(file),
      });
    }
  }
}

/**
 * The AppFailure for a lock that could not be taken: `sessions-locked` (held past the wait, naming the
 * holder when its lock file has a record, and how to clear the lock) or `sessions-lock-failed` (it cannot
 * be created at all: permissions).
 */
function lockFailure(e: JsonLockError): AppFailure {
  const lock = e.lock;
  if (e.kind === 'failed') {
    return new AppFailure({
      code: 'sessions-lock-failed',
      message: `cannot create the sessions lock: ${(e.cause as Error)?.message ?? 'unknown error'}`,
      where: lock,
      fix: `make ${dirname(lock)} writable by this user`,
    });
  }
  const record = e.holder;
  const who = record ? `process ${record.pid} on ${record.host} (since ${record.at})` : 'another process';
  return new AppFailure({
    code: 'sessions-locked',
    message: `the sessions store stays locked by ${who}`,
    where: lock,
    fix: `wait for it to finish; if no Angelia process${record ? ` ${record.pid}` : ''} is running, delete ${lock}${record ? '' : ' (a folder: rmdir)'}`,
  });
}

/**
 * The sessions store over one file. Every change is re-applied to the file as it is on disk, under the
 * lock, and written before it returns (see the module comment); reads see other processes' writes.
 * Constructing it reads the file and throws what `readSessionsFile` throws.
 */
export class SessionStore {
  private data: StoreFile = { version: 1, chats: {} };
  private sig: string | null = null;
  private readonly lockWaitMs: number;
  private readonly lockStaleMs: number;

  constructor(
    private readonly file: string,
    opts: SessionStoreOptions = {},
  ) {
    this.lockWaitMs = opts.lockWaitMs ?? SESSIONS_LOCK_WAIT_MS;
    this.lockStaleMs = opts.lockStaleMs ?? SESSIONS_LOCK_STALE_MS;
    const disk = readSessionsFile(file);
    if (disk) {
      this.data = disk.data;
      this.sig = disk.sig;
    }
  }

  /** The active row of a chat, minted (and made active) when there is none. */
  ensureActive(chatId: string, profile: string): SessionRow {
    const existing = this.active(chatId);
    if (existing) return existing;
    return this.mutate((data) => {
      const chat = (data.chats[chatId] ??= { profile, active: null, history: [] });
      return chat.history.find((r) => r.id === chat.active) ?? mint(chat);
    });
  }

  /** Mints a new row and makes it active; old rows stay in history. */
  startNew(chatId: string, profile: string): SessionRow {
    return this.mutate((data) => mint((data.chats[chatId] ??= { profile, active: null, history: [] })));
  }

  /**
   * Binds a row to the thread Codex minted (the row takes the thread id; it stays active if it was).
   * The row is found by `rowId`, or by `threadId` when another process bound it already. Throws when neither.
   */
  bindThread(chatId: string, rowId: string, threadId: string, enforcement: SessionRow['enforcement']): SessionRow {
    return this.mutate((data) => {
      const chat = data.chats[chatId];
      const row = chat?.history.find((r) => r.id === rowId) ?? chat?.history.find((r) => r.threadId === threadId);
      if (!chat || !row) throw new Error(`no session ${rowId} in chat ${chatId}`);
      if (chat.active === row.id) chat.active = threadId;
      row.id = threadId;
      row.threadId = threadId;
      row.enforcement = enforcement;
      return row;
    });
  }

  /** Marks a turn started on the row (materialized) and fills an empty label from the message. Throws for an unknown row. */
  recordTurn(chatId: string, rowId: string, text: string): void {
    this.mutate((data) => {
      const row = data.chats[chatId]?.history.find((r) => r.id === rowId);
      if (!row) throw new Error(`no session ${rowId} in chat ${chatId}`);
      row.started = true;
      row.turns += 1;
      row.last_used_at = new Date().toISOString();
      if (!row.label) row.label = text.replace(/\s+/g, ' ').trim().slice(0, 60);
    });
  }

  /**
   * Keeps `line` as the row's `last_line`: whitespace runs collapsed to one space, trimmed, cut to
   * `LAST_LINE_MAX` characters. Nothing is written when the row already holds it. Throws for an unknown
   * row, and what every change throws (lock, unreadable file).
   */
  setLastLine(chatId: string, rowId: string, line: string): void {
    const text = line.replace(/\s+/g, ' ').trim().slice(0, LAST_LINE_MAX);
    if (this.fresh().chats[chatId]?.history.find((r) => r.id === rowId)?.last_line === text) return;
    this.mutate((data) => {
      const row = data.chats[chatId]?.history.find((r) => r.id === rowId);
      if (!row) throw new Error(`no session ${rowId} in chat ${chatId}`);
      row.last_line = text;
    });
  }

  /**
   * Marks the row of `threadId` as having received a secret answer (`secret_answer`); nothing when the
   * chat has no row of that thread or it is marked already. Throws what every change throws.
   */
  markSecretAnswer(chatId: string, threadId: string): void {
    const known = this.fresh().chats[chatId]?.history.find((r) => r.threadId === threadId);
    if (!known || known.secret_answer) return;
    this.mutate((data) => {
      const row = data.chats[chatId]?.history.find((r) => r.threadId === threadId);
      if (row) row.secret_answer = true;
    });
  }

  /** Rows of a chat, most recently used first (10 by default). */
  list(chatId: string, limit = 10): SessionRow[] {
    const chat = this.fresh().chats[chatId];
    if (!chat) return [];
    return [...chat.history].sort((a, b) => b.last_used_at.localeCompare(a.last_used_at)).slice(0, limit);
  }

  /** Every row of a chat, oldest first (by `created_at`; ties keep the order they were made in). */
  history(chatId: string): SessionRow[] {
    const rows = this.fresh().chats[chatId]?.history ?? [];
    return rows
      .map((r, i) => ({ r, i }))
      .sort((a, b) => a.r.created_at.localeCompare(b.r.created_at) || a.i - b.i)
      .map((x) => x.r);
  }

  /** Every chat id in the store with its profile, in creation order. */
  chats(): Array<{ chatId: string; profile: string }> {
    return Object.entries(this.fresh().chats).map(([chatId, c]) => ({ chatId, profile: c.profile }));
  }

  /** Registers a chat with no session yet (a new chat on a profile); a no-op when it exists. */
  addChat(chatId: string, profile: string): void {
    if (this.fresh().chats[chatId]) return;
    this.mutate((data) => {
      data.chats[chatId] ??= { profile, active: null, history: [] };
    });
  }

  /** The active row of a chat, or null when it has none (nothing is minted). */
  active(chatId: string): SessionRow | null {
    const chat = this.fresh().chats[chatId];
    return chat?.history.find((r) => r.id === chat.active) ?? null;
  }

  /**
   * Finds a row by `/resume` selector without switching to it: a 1–2 digit 1-based index into
   * `list(chatId)`, or the start or end of an id (`findSession`). Returns `{row}` or `{error}` (a sentence
   * for the chat: not found, too short, or `ambiguous: matches N sessions (…)`).
   */
  find(chatId: string, selector: string): { row: SessionRow } | { error: string } {
    return findSession(this.list(chatId, Number.MAX_SAFE_INTEGER), selector, { indexRows: this.list(chatId), how: '/resume' });
  }

  /**
   * Makes a row active by `/resume` selector (as `find`). Returns the row, or null when none or several
   * match (`find` says which).
   */
  setActive(chatId: string, selector: string): SessionRow | null {
    const hit = this.find(chatId, selector);
    if ('error' in hit) return null;
    const id = hit.row.id;
    return this.mutate((data) => {
      const chat = data.chats[chatId];
      const row = chat?.history.find((r) => r.id === id);
      if (!chat || !row) return null;
      chat.active = row.id;
      row.last_used_at = new Date().toISOString();
      return row;
    });
  }

  /** Sets (string) or clears (null) the active row's session-only model/effort override; fields left out stay. Throws when the chat has no active row. */
  setOverride(chatId: string, change: { model?: string | null; effort?: string | null }): SessionRow {
    return this.mutate((data) => {
      const chat = data.chats[chatId];
      const row = chat?.history.find((r) => r.id === chat.active);
      if (!row) throw new Error(`chat ${chatId} has no active session`);
      if (change.model !== undefined) row.model = change.model;
      if (change.effort !== undefined) row.effort = change.effort;
      return row;
    });
  }

  /**
   * Keeps a session's name and archived state in its row (docs/architecture.md "Sessions"; Codex is told
   * first, by core/sessions/catalog.ts). Archiving the active row leaves the chat with none, so its next
   * message starts a new session. Throws for an unknown row, and what every change throws.
   */
  setMeta(chatId: string, rowId: string, change: { name?: string; archived?: boolean }): SessionRow {
    return this.mutate((data) => {
      const chat = data.chats[chatId];
      const row = chat?.history.find((r) => r.id === rowId);
      if (!chat || !row) throw new Error(`no session ${rowId} in chat ${chatId}`);
      if (change.name !== undefined) row.name = change.name;
      if (change.archived !== undefined) row.archived = change.archived;
      if (change.archived && chat.active === row.id) chat.active = null;
      return row;
    });
  }

  /** How many sessions a chat has in its history. */
  count(chatId: string): number {
    return this.fresh().chats[chatId]?.history.length ?? 0;
  }

  /**
   * The data, re-read when another process changed the file since it was last read. A file that has
   * become unreadable keeps the last good data here (a reader never fails on it); the next change
   * throws the clear error instead of writing over it.
   */
  private fresh(): StoreFile {
    const sig = fileSignature(this.file);
    if (sig !== null && sig !== this.sig) {
      try {
        const disk = readSessionsFile(this.file);
        if (disk) {
          this.data = disk.data;
          this.sig = disk.sig;
        }
      } catch {
        /* kept: see above */
      }
    }
    return this.data;
  }

  /**
   * Applies `change` to the store as it is on disk, under the lock, and writes it: the file on disk (or,
   * when it vanished, this process's copy) is the base, so another process's writes are kept. The
   * version replaced is kept as `.bak` (mode 600). Throws what `readSessionsFile` or `change` throw, and
   * AppFailure `sessions-locked` / `sessions-lock-failed` for the lock; nothing is written then.
   */
  private mutate<T>(change: (data: StoreFile) => T): T {
    try {
      return withLockSync(
        this.file,
        () => {
          const disk = readSessionsFile(this.file);
          const data: StoreFile = disk ? disk.data : structuredClone(this.data);
          const out = change(data);
          // The backup is not fsynced (the store itself is): one fsync less on every chat start and turn
          // (~10 ms on a virtual disk, docs/benchmarks.md); an OS crash can only cost the previous version.
          writeJsonSync(this.file, data, { backup: disk?.raw });
          this.data = data;
          this.sig = fileSignature(this.file);
          return out;
        },
        { waitMs: this.lockWaitMs, staleMs: this.lockStaleMs },
      );
    } catch (e) {
      throw e instanceof JsonLockError ? lockFailure(e) : e;
    }
  }
}

/** Adds a fresh row to `chat` and makes it active. */
function mint(chat: StoreFile['chats'][string]): SessionRow {
  const now = new Date().toISOString();
  const row: SessionRow = {
    id: randomUUID(),
    threadId: null,
    created_at: now,
    last_used_at: now,
    turns: 0,
    started: false,
    label: '',
    enforcement: null,
    model: null,
    effort: null,
  };
  chat.history.push(row);
  chat.active = row.id;
  return row;
}
