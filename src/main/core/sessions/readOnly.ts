/**
 * A session opened read-only (docs/architecture.md "Sessions"): its turns read from Codex's record
 * (`thread/turns/list`, itemsView "full", chats/export.ts `readThreadTurns`; codex 0.169.0
 * `ThreadTurnsListParams`) and made into transcript items as the chat shows past turns (chats/history.ts):
 * each turn's items then its turn end, reasoning left out. Nothing is resumed, no model is asked.
 */
import type { ChatItem } from '../../../shared/contract';
import { chronological, readThreadTurns } from '../chats/export';
import type { CodexConnection } from '../codex/connection';
import { chatItemOf } from '../codex/items';
import { readTurn } from '../codex/turns';

/** Item ids of a read-only view start with this (never confused with a live chat's). */
export const READ_ONLY_PREFIX = 'past-';

/** The transcript items of raw Codex turns (oldest first), pure. Turns still running are left out. */
export function itemsOfTurns(turns: readonly unknown[]): ChatItem[] {
  const out: ChatItem[] = [];
  let n = 0;
  for (const raw of chronological(turns)) {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) continue;
    const turn = readTurn(raw);
    if (turn.status === 'inProgress') continue;
    n++;
    for (const read of turn.items) {
      const item = read.view ? chatItemOf(read.view, true) : null;
      if (!item || item.type === 'reasoning') continue;
      out.push({ ...item, id: `${READ_ONLY_PREFIX}${item.id}`, ...(item.type === 'user' ? { via: 'turn' as const } : {}) });
    }
    const status = turn.status === 'failed' || turn.status === 'interrupted' ? turn.status : 'completed';
    out.push({ type: 'turnEnd', id: `${READ_ONLY_PREFIX}turn-${turn.id ?? n}`, status, reason: status === 'failed' ? turn.errorMessage : null });
  }
  return out;
}

/** Every finished turn of `threadId` as transcript items. Throws what `readThreadTurns` throws. */
export async function readOnlyItems(conn: CodexConnection, threadId: string): Promise<ChatItem[]> {
  return itemsOfTurns((await readThreadTurns(conn, threadId)).turns);
}
