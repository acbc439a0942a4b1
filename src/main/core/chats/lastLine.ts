/**
 * The chat's last line kept with its active session row (sessions.ts `last_line`), so the chat list shows
 * it after a restart of Angelia. Written only when it changed and no turn is starting or running (at most
 * once or twice per turn: a turn's items stream without a write).
 */
import type { ChatInside } from './inside';

/**
 * Writes the transcript's last line to the chat's active session row when it differs from `kept` (the
 * `<row id>\n<line>` written last) and returns what is kept now. Nothing is written while a turn starts
 * or runs, or when the chat has no session row yet. A write that fails returns `kept` unchanged, so it is
 * tried again at the next change (the line is only for the list; the list shows it from memory meanwhile).
 */
export function keepLastLine(chat: Pick<ChatInside, 'state' | 'transcript' | 'deps'>, kept: string | null): string | null {
  if (chat.state === 'working' || chat.state === 'starting') return kept;
  const line = chat.transcript.lastLine();
  if (!line) return kept;
  const row = chat.deps.sessions.active(chat.deps.chatId);
  if (!row || `${row.id}\n${line}` === kept) return kept;
  try {
    chat.deps.sessions.setLastLine(chat.deps.chatId, row.id, line);
    return `${row.id}\n${line}`;
  } catch {
    return kept;
  }
}
