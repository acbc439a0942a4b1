/**
 * Export of a chat's sessions (README "Export": the row shape), read through Codex's
 * app-server and never by parsing rollout files: the rollout format changed under every tool that read
 * it, silently. Used by `angelia export` (cli/commands/export.ts, on a short-lived app-server) and
 * by the chat's `/export` command (chat.ts, on the chat's own connection).
 *
 * Protocol source: codex 0.169.0, generated types `v2/ThreadTurnsListParams`, `ThreadTurnsListResponse`,
 * `Turn`, `ThreadItem`, `UserInput`, `FileUpdateChange`; behaviour MEASURED on the real binary (offline,
 * scripted model, 2 turns incl. a command and a patch):
 * - `thread/turns/list {threadId, itemsView:"full", sortDirection:"asc", limit, cursor?}` answers
 *   `{data: Turn[], nextCursor: string|null, backwardsCursor}` for a thread that is NOT loaded in the
 *   process (thread status `notLoaded`, no `thread/resume`, no model request) and also while another
 *   process holds the thread loaded. `nextCursor` is null on the last page; a cursor is JSON text
 *   `{"requestedThreadId":…,"rolloutOrdinal":n,"includeAnchor":false,"scope":{"kind":"turns"}}`.
 * - Its defaults are `sortDirection:"desc"` and `itemsView:"summary"`; a summary turn holds only the
 *   user message and the LAST agent message (commandExecution, fileChange and earlier agent messages are
 *   dropped), so "full" is always asked for. `limit:0` gave one turn; `limit:100000` was accepted.
 * - `thread/read {threadId, includeTurns:true}` returns the same full turns, but Codex then sends a
 *   `deprecationNotice` ("Full-history hydration is deprecated for paginated threads…"; threads are
 *   `historyMode:"paginated"`), and `includeTurns:false` returns `turns: []`. Hence turns/list paging is
 *   used here, and thread/read not at all.
 * - Errors (JSON-RPC -32600, both methods): unknown thread id → `thread not loaded: <id>`; a malformed id →
 *   `invalid thread id: …`; the rollout file removed → `invalid paginated history lineage for <id>: missing
 *   source rollout`; a bad cursor → `invalid cursor: <cursor>`.
 * - Turn `startedAt`/`completedAt` are Unix SECONDS; items carry `startedAtMs`/`completedAtMs` (ms).
 */
import type { CodexConnection } from '../codex/connection';
import { shortId } from './sessions';
import { readTurnsPage } from '../codex/answers';
import { readTurn, secondsToIso } from '../codex/turns';

/**
 * The name of the file the chat's `/export` writes into `<state>/exports/`:
 * `<chat>-<short id>-<UTC time, ':' and '.' as '-'>.md`. The session is named by its short id
 * (`shortId`, the END of its id, without the leading `…`), as everywhere else: Codex thread ids are
 * UUIDv7, whose first characters are a millisecond clock shared by sessions made close together, so a
 * name built from the start of the id would look the same for two sessions. `among`: the chat's other
 * session ids (the short id grows while one of them ends alike).
 */
export function exportFileName(chatId: string, sessionId: string, among: readonly string[] = [], at: Date = new Date()): string {
  return `${chatId}-${shortId(sessionId, among).replace(/^…/, '')}-${at.toISOString().replace(/[:.]/g, '-')}.md`;
}

/** One exported row (README "Export" shape). `ts` is an ISO-8601 UTC time, or null when Codex recorded none. */
export interface ExportRow {
  ts: string | null;
  /** The chat id (sessions store key). */
  chat: string;
  /** The profile the chat runs on. */
  profile: string;
  backend: 'codex';
  /** The session row id (after the first turn: the Codex thread id). */
  session: string;
  /** `user`: a user message; `assistant`: the agent's messages of one turn; `tool`: one tool call (only with `tools`). */
  role: 'user' | 'assistant' | 'tool';
  text: string;
  /**
   * On an assistant row: the distinct tool names the turn used, in order of first use (absent when none).
   * On a tool row: the one tool's name.
   */
  tools?: string[];
}

/** One session to export: its row id, its Codex thread (null when no turn ever ran in it) and its label. */
export interface ExportSession {
  id: string;
  threadId: string | null;
  label: string;
}

/** What `readSessionRows` returns: the rows (sessions in the order given, turns oldest first) and what to tell the user. */
export interface ExportResult {
  rows: ExportRow[];
  /** One line each, meant for a person: unreadable threads, items not understood, threads Codex returned empty. */
  warnings: string[];
  /** One line each, not a problem: a session with no turns yet (nothing to export from it). */
  notes: string[];
  /** Thread ids Codex could not read (each also has a warning). Non-empty means the export is incomplete. */
  failed: string[];
}

/** Options of `readSessionRows`. */
export interface ReadOptions {
  /** Also emit one `role:"tool"` row per tool item (the command and its output, the diff of a file change). */
  tools: boolean;
  /** Turns per `thread/turns/list` page (default `EXPORT_PAGE_SIZE`). */
  pageSize?: number;
  /** Deadline of each page request, ms (default `EXPORT_READ_TIMEOUT_MS`). */
  timeoutMs?: number;
}

/** Turns asked for per `thread/turns/list` page (`limit`; a page of 50 turns keeps each answer small). */
export const EXPORT_PAGE_SIZE = 50;
/** Deadline of one page request, ms (a stuck read becomes a warning, never a hang). */
export const EXPORT_READ_TIMEOUT_MS = 20_000;
/** The most pages read from one thread (at the default page size, 100 000 turns) before giving up with a warning. */
export const EXPORT_MAX_PAGES = 2000;

/**
 * Item kinds (codex 0.169.0 `ThreadItem.type`) that are understood but not exported: reasoning and
 * plans are the agent's working notes, the rest are bookkeeping. Anything not here and not mapped
 * below counts as "not understood" and is reported (nothing disappears silently).
 */
const SKIPPED_KINDS = new Set(['reasoning', 'plan', 'hookPrompt', 'contextCompaction', 'enteredReviewMode', 'exitedReviewMode', 'sleep', 'subAgentActivity']);

/** Where rows come from: the chat, its profile and the session row id. */
export interface RowContext {
  chat: string;
  profile: string;
  session: string;
}

/**
 * The rows of one turn (codex 0.169.0 `Turn` with `itemsView:"full"`), pure: one user row per
 * userMessage (ts = turn `startedAt`); with `tools`, one tool row per tool item (ts = the item's
 * `startedAtMs`, else the turn's); then one assistant row (ts = turn `completedAt`, else `startedAt`)
 * whose text is the agent messages joined by blank lines — plus `[turn failed: …]` / `[turn
 * interrupted]` / `[turn still running]` when the turn did not complete — and whose `tools` lists the
 * distinct tool names. The assistant row is left out when it would be empty. `unknown` lists the kind of
 * every item neither exported nor known to be skippable (`"(no type)"` for a malformed item).
 */
export function turnRows(turn: unknown, ctx: RowContext, opts: { tools: boolean }): { rows: ExportRow[]; unknown: string[] } {
  const t = readTurn(turn);
  const base = { chat: ctx.chat, profile: ctx.profile, backend: 'codex' as const, session: ctx.session };
  const started = secondsToIso(t.startedAt);
  const ended = secondsToIso(t.completedAt) ?? started;
  const users: ExportRow[] = [];
  const toolRows: ExportRow[] = [];
  const agent: string[] = [];
  const tools: string[] = [];
  const unknown: string[] = [];
  for (const item of t.items) {
    const type = item.type;
    if (!type) {
      unknown.push('(no type)');
      continue;
    }
    if (type === 'userMessage') {
      users.push({ ts: started, ...base, role: 'user', text: item.userText ?? '' });
    } else if (type === 'agentMessage') {
      if (item.agentText) agent.push(item.agentText);
    } else if (item.tool) {
      const name = item.tool;
      if (!tools.includes(name)) tools.push(name);
      if (opts.tools) toolRows.push({ ts: item.startedAt ?? started, ...base, role: 'tool', text: item.toolText, tools: [name] });
    } else if (!SKIPPED_KINDS.has(type)) {
      unknown.push(type);
    }
  }
  const status = t.status;
  if (status === 'failed') {
    const message = t.errorMessage;
    agent.push(`[turn failed${message ? `: ${message}` : ''}]`);
  } else if (status === 'interrupted') agent.push('[turn interrupted]');
  else if (status === 'inProgress') agent.push('[turn still running]');
  const rows = [...users, ...toolRows];
  if (agent.length || tools.length) rows.push({ ts: ended, ...base, role: 'assistant', text: agent.join('\n\n'), ...(tools.length ? { tools } : {}) });
  return { rows, unknown };
}

/** `session …c7f1a3d8 ("label")`: the session's short id (`shortId`, unique among `among`) and label. */
const sessionName = (s: ExportSession, among: readonly string[]): string => `session ${shortId(s.id, among)}${s.label ? ` ("${s.label}")` : ''}`;

/**
 * Turns in chronological order: by `startedAt` (Unix seconds), ties and turns without a time keeping
 * Codex's order. Codex 0.169.0 answers `sortDirection:"asc"` oldest first already; this only guards
 * the order the export promises. When any turn lacks a `startedAt`, Codex's order is kept as it is.
 */
export function chronological(turns: readonly unknown[]): unknown[] {
  const at = turns.map((t) => readTurn(t).startedAt);
  if (at.some((a) => a === null)) return [...turns];
  return turns
    .map((t, i) => ({ t, i, a: at[i] as number }))
    .sort((x, y) => x.a - y.a || x.i - y.i)
    .map((x) => x.t);
}

/**
 * Every turn of a thread, oldest first, read with `thread/turns/list {threadId, itemsView:"full",
 * sortDirection:"asc", limit, cursor}` page by page until `nextCursor` is null (see the module comment
 * for why not `thread/read`). Throws what `conn.request` throws (a Codex error names the thread), or an
 * Error when Codex answers without a `data` list. Stops with a warning when Codex repeats a cursor or
 * after `EXPORT_MAX_PAGES` pages.
 */
export async function readThreadTurns(
  conn: CodexConnection,
  threadId: string,
  opts: { pageSize?: number; timeoutMs?: number } = {},
): Promise<{ turns: unknown[]; warnings: string[] }> {
  const limit = Math.max(1, Math.floor(opts.pageSize ?? EXPORT_PAGE_SIZE));
  const turns: unknown[] = [];
  const warnings: string[] = [];
  const seen = new Set<string>();
  let cursor: string | null = null;
  for (let page = 0; ; page++) {
    if (page >= EXPORT_MAX_PAGES) {
      warnings.push(`thread ${threadId}: stopped after ${EXPORT_MAX_PAGES} pages (${turns.length} turns); the export is cut there`);
      break;
    }
    const params = { threadId, itemsView: 'full' as const, sortDirection: 'asc' as const, limit, ...(cursor ? { cursor } : {}) };
    const res = readTurnsPage(await conn.request('thread/turns/list', params, { timeoutMs: opts.timeoutMs ?? EXPORT_READ_TIMEOUT_MS }));
    if (!res) throw new Error(`Codex answered thread/turns/list for ${threadId} without a "data" list`);
    turns.push(...res.turns);
    const next = res.nextCursor;
    if (!next) break;
    if (seen.has(next) || res.turns.length === 0) {
      warnings.push(`thread ${threadId}: Codex repeated a page cursor after ${turns.length} turns; the export is cut there`);
      break;
    }
    seen.add(next);
    cursor = next;
  }
  return { turns, warnings };
}

/** A hint for the Codex read errors measured on 0.169.0 that mean "the rollout is not there". */
function readHint(message: string): string {
  return /not loaded|missing source rollout|no rollout/i.test(message)
    ? ' (its history is not in this CODEX_HOME: the rollout file was removed, or the thread belongs to another CODEX_HOME)'
    : '';
}

/**
 * Reads the sessions' threads on a live connection (`CodexConnection`, core/codex/connection.ts; the
 * thread need not be loaded in it) and turns them into rows, sessions in the order given, turns oldest
 * first (`chronological`, then `turnRows`). `conn` may be null when no session has a thread (then only the skip warnings
 * come back; a session with a thread would count as unreadable). Never starts a turn, never asks the model; installs no handler on `conn`.
 * Never throws for one session: a session whose `threadId` is null has no turns yet (a note, not a
 * warning; `toMarkdown` still gives it a heading and "No turns yet"); a thread
 * Codex cannot read gives a warning naming it and its id in `failed`; a thread that yields no turns or
 * no rows gives a warning; items not understood are counted per session in a warning naming their
 * kinds and Codex's version (nothing disappears silently).
 */
export async function readSessionRows(
  conn: CodexConnection | null,
  sessions: ExportSession[],
  meta: { chat: string; profile: string },
  opts: ReadOptions,
): Promise<ExportResult> {
  const rows: ExportRow[] = [];
  const warnings: string[] = [];
  const notes: string[] = [];
  const failed: string[] = [];
  const ids = sessions.map((s) => s.id);
  const name = (s: ExportSession): string => sessionName(s, ids);
  for (const s of sessions) {
    if (!s.threadId) {
      notes.push(`${name(s)} has no turns yet: nothing to export from it`);
      continue;
    }
    let turns: unknown[];
    try {
      if (!conn) throw new Error('no Codex connection was given');
      const read = await readThreadTurns(conn, s.threadId, opts);
      turns = chronological(read.turns);
      warnings.push(...read.warnings.map((w) => `${name(s)}: ${w}`));
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      warnings.push(`${name(s)}: Codex could not read thread ${s.threadId}: ${message}${readHint(message)}`);
      failed.push(s.threadId);
      continue;
    }
    const before = rows.length;
    const unknown = new Map<string, number>();
    let partial = 0;
    for (const turn of turns) {
      if (readTurn(turn).partial) partial++;
      const out = turnRows(turn, { chat: meta.chat, profile: meta.profile, session: s.id }, opts);
      rows.push(...out.rows);
      for (const k of out.unknown) unknown.set(k, (unknown.get(k) ?? 0) + 1);
    }
    const count = [...unknown.values()].reduce((a, b) => a + b, 0);
    if (count) {
      const kinds = [...unknown.entries()].map(([k, n]) => (n > 1 ? `${k} ×${n}` : k)).join(', ');
      warnings.push(
        `${name(s)}: ${count} item${count === 1 ? '' : 's'} not understood (${kinds}), left out: Codex ${conn.version ?? '(version unknown)'} may be newer than this Angelia supports (codex 0.171.0)`,
      );
    }
    if (partial)
      warnings.push(`${name(s)}: Codex gave only a summary of the items of ${partial} turn${partial === 1 ? '' : 's'}; tool calls may be missing from them`);
    if (!turns.length) warnings.push(`${name(s)}: Codex returned no turns for thread ${s.threadId}; nothing exported from it`);
    else if (rows.length === before)
      warnings.push(`${name(s)}: ${turns.length} turn${turns.length === 1 ? '' : 's'} read from thread ${s.threadId}, but none held anything to export`);
  }
  return { rows, warnings, notes, failed };
}

/** JSON Lines: one row per line (keys in README "Export" order), each line ending with "\n"; "" for no rows. */
export function toJsonl(rows: ExportRow[]): string {
  return rows
    .map(
      (r) =>
        JSON.stringify({
          ts: r.ts,
          chat: r.chat,
          profile: r.profile,
          backend: r.backend,
          session: r.session,
          role: r.role,
          text: r.text,
          ...(r.tools ? { tools: r.tools } : {}),
        }) + '\n',
    )
    .join('');
}

/** `2026-11-30T21:30:37.000Z` → `2026-11-30 21:30:37 UTC`; "" for null. */
function shortTime(ts: string | null): string {
  return ts ? `${ts.slice(0, 10)} ${ts.slice(11, 19)} UTC` : '';
}

/** A code fence longer than any backtick run in `text` (at least three). */
function fence(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((m) => m.length));
  return '`'.repeat(Math.max(3, longest + 1));
}

/**
 * A readable Markdown document: a title naming the chat and profile, then per session (in the order of
 * `meta.sessions`; rows of a session not listed come last under its id) a `## <label>` heading with the
 * session and thread ids, then each row: `**You**` / `**Agent**` (with the tools used) followed by the
 * text as written, and tool rows as `**Tool** \`name\`` followed by a fenced block. A session with no
 * rows keeps its heading and says so instead of vanishing: `_No turns yet._` when it has no
 * thread, `_Nothing exported from this session._` when its thread gave nothing.
 */
export function toMarkdown(rows: ExportRow[], meta: { chat: string; profile: string; sessions: ExportSession[] }): string {
  const out: string[] = [`# Chat \`${meta.chat}\` (profile \`${meta.profile}\`)`, ''];
  const order = [...meta.sessions];
  for (const r of rows) if (!order.some((s) => s.id === r.session)) order.push({ id: r.session, threadId: null, label: '' });
  const ids = order.map((s) => s.id);
  for (const s of order) {
    const own = rows.filter((r) => r.session === s.id);
    const when = own.find((r) => r.ts)?.ts ?? null;
    out.push(`## ${s.label || `Session ${shortId(s.id, ids)}`}`, '');
    out.push(`Session \`${s.id}\` · thread ${s.threadId ? `\`${s.threadId}\`` : '(none yet)'}${when ? ` · ${shortTime(when)}` : ''}`, '');
    if (!own.length) out.push(s.threadId ? '_Nothing exported from this session._' : '_No turns yet._', '');
    for (const r of own) {
      const time = r.ts ? ` · ${shortTime(r.ts)}` : '';
      if (r.role === 'tool') {
        const f = fence(r.text);
        out.push(`**Tool** \`${r.tools?.[0] ?? 'tool'}\`${time}`, '', `${f}text`, r.text, f, '');
      } else if (r.role === 'user') {
        out.push(`**You**${time}`, '', r.text || '_(empty message)_', '');
      } else {
        const tools = r.tools?.length ? ` · tools: ${r.tools.map((t) => `\`${t}\``).join(', ')}` : '';
        out.push(`**Agent**${time}${tools}`, '', r.text || '_(no message)_', '');
      }
    }
  }
  return out.join('\n').replace(/\n+$/, '\n');
}
