/**
 * The sessions store (`<state>/sessions.json`, seed-spec §1.5): per chat, the active session and a
 * history of sessions. A session row takes the thread id Codex mints; it is resumed only once it is
 * materialized (a turn started on it: field case B22). Written atomically, mode 600; the previous
 * version is kept as `sessions.json.bak` (mode 600) before every write.
 */
import { copyFileSync, existsSync, readFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { randomUUID } from 'node:crypto';
import writeFileAtomic from 'write-file-atomic';
import { z } from 'zod';
import { AppFailure } from '../../../shared/result';

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
});
export type SessionRow = z.infer<typeof SessionRow>;

const ChatRecord = z.object({ profile: z.string(), active: z.string().nullable(), history: z.array(SessionRow) });
const StoreFile = z.object({ version: z.literal(1), chats: z.record(z.string(), ChatRecord) });
type StoreFile = z.infer<typeof StoreFile>;

/** The sessions store over one file. Every mutation is written before it returns. */
export class SessionStore {
  private data: StoreFile;
  constructor(private readonly file: string) {
    this.data = { version: 1, chats: {} };
    if (existsSync(file)) {
      let raw: unknown;
      try {
        raw = JSON.parse(readFileSync(file, 'utf8'));
      } catch (e) {
        throw new AppFailure({ code: 'sessions-unreadable', message: `the sessions store cannot be read: ${(e as Error).message}`, where: file, fix: 'restore it from sessions.json.bak or move it aside' });
      }
      const parsed = StoreFile.safeParse(raw);
      if (!parsed.success) throw new AppFailure({ code: 'sessions-invalid', message: `the sessions store is not valid: ${parsed.error.issues[0]?.message ?? ''}`, where: file, fix: 'restore it from a backup or move it aside' });
      this.data = parsed.data;
    }
  }

  /** The active row of a chat, minted (and made active) when there is none. */
  ensureActive(chatId: string, profile: string): SessionRow {
    const chat = (this.data.chats[chatId] ??= { profile, active: null, history: [] });
    const row = chat.history.find((r) => r.id === chat.active);
    if (row) return row;
    return this.startNew(chatId, profile);
  }

  /** Mints a new row and makes it active; old rows stay in history. */
  startNew(chatId: string, profile: string): SessionRow {
    const chat = (this.data.chats[chatId] ??= { profile, active: null, history: [] });
    const now = new Date().toISOString();
    const row: SessionRow = { id: randomUUID(), threadId: null, created_at: now, last_used_at: now, turns: 0, started: false, label: '', enforcement: null, model: null, effort: null };
    chat.history.push(row);
    chat.active = row.id;
    this.save();
    return row;
  }

  /** Binds the active row to the thread Codex minted (the row takes the thread id). */
  bindThread(chatId: string, rowId: string, threadId: string, enforcement: SessionRow['enforcement']): SessionRow {
    const row = this.row(chatId, rowId);
    const chat = this.data.chats[chatId];
    if (chat && chat.active === row.id) chat.active = threadId;
    row.id = threadId;
    row.threadId = threadId;
    row.enforcement = enforcement;
    this.save();
    return row;
  }

  /** Marks a turn started on the row (materialized) and fills an empty label from the message. */
  recordTurn(chatId: string, rowId: string, text: string): void {
    const row = this.row(chatId, rowId);
    row.started = true;
    row.turns += 1;
    row.last_used_at = new Date().toISOString();
    if (!row.label) row.label = text.replace(/\s+/g, ' ').trim().slice(0, 60);
    this.save();
  }

  /** Rows of a chat, most recently used first (10 by default). */
  list(chatId: string, limit = 10): SessionRow[] {
    const chat = this.data.chats[chatId];
    if (!chat) return [];
    return [...chat.history].sort((a, b) => b.last_used_at.localeCompare(a.last_used_at)).slice(0, limit);
  }

  /** Every chat id in the store with its profile, in creation order. */
  chats(): Array<{ chatId: string; profile: string }> {
    return Object.entries(this.data.chats).map(([chatId, c]) => ({ chatId, profile: c.profile }));
  }

  /** Registers a chat with no session yet (a new chat on a profile); a no-op when it exists. */
  addChat(chatId: string, profile: string): void {
    if (this.data.chats[chatId]) return;
    this.data.chats[chatId] = { profile, active: null, history: [] };
    this.save();
  }

  /** The active row of a chat, or null when it has none (nothing is minted). */
  active(chatId: string): SessionRow | null {
    const chat = this.data.chats[chatId];
    return chat?.history.find((r) => r.id === chat.active) ?? null;
  }

  /**
   * Makes a row active by `/resume` selector: a 1–2 digit 1-based index into `list(chatId)` or a unique,
   * case-insensitive id prefix of at least 5 characters. Returns the row, or null when none (or several) match.
   */
  setActive(chatId: string, selector: string): SessionRow | null {
    const chat = this.data.chats[chatId];
    if (!chat) return null;
    const sel = selector.trim().toLowerCase();
    let row: SessionRow | undefined;
    if (/^\d{1,2}$/.test(sel)) row = this.list(chatId)[Number(sel) - 1];
    else if (sel.length >= 5) {
      const hits = chat.history.filter((r) => r.id.toLowerCase().startsWith(sel));
      row = hits.length === 1 ? hits[0] : undefined;
    }
    if (!row) return null;
    chat.active = row.id;
    row.last_used_at = new Date().toISOString();
    this.save();
    return row;
  }

  /** Sets (string) or clears (null) the active row's session-only model/effort override; fields left out stay. Throws when the chat has no active row. */
  setOverride(chatId: string, change: { model?: string | null; effort?: string | null }): SessionRow {
    const row = this.active(chatId);
    if (!row) throw new Error(`chat ${chatId} has no active session`);
    if (change.model !== undefined) row.model = change.model;
    if (change.effort !== undefined) row.effort = change.effort;
    this.save();
    return row;
  }

  /** How many sessions a chat has in its history. */
  count(chatId: string): number {
    return this.data.chats[chatId]?.history.length ?? 0;
  }

  private row(chatId: string, rowId: string): SessionRow {
    const row = this.data.chats[chatId]?.history.find((r) => r.id === rowId);
    if (!row) throw new Error(`no session ${rowId} in chat ${chatId}`);
    return row;
  }

  private save(): void {
    mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
    if (existsSync(this.file)) copyFileSync(this.file, `${this.file}.bak`);
    writeFileAtomic.sync(this.file, JSON.stringify(this.data, null, 2) + '\n', { mode: 0o600 });
  }
}
