/**
 * A chat's past turns read back from Codex's record (`thread/turns/list`, itemsView "full", export.ts
 * `readThreadTurns`): in front of the transcript at the first view (after a restart of Angelia, or for
 * turns `angelia run` did), and after the "Resumed …" notice of `/resume`. Read on the chat's own process
 * when it runs, else on a short-lived app-server started with the profile's launch plan and stopped after
 * the read: no thread is resumed, no turn started, the model is never asked; only the version gate
 * (codex/session.ts `gateVersion`) applies. Protocol: codex 0.169.0 `ThreadTurnsListParams`.
 */
import type { ChatItem } from '../../../shared/contract';
import { chatItemOf } from '../codex/items';
import { readTurn } from '../codex/turns';
import { gateVersion } from '../codex/session';
import { id8 } from './commands';
import { chronological, readThreadTurns } from './export';
import type { ChatInside } from './inside';
import { pastTurnChanges } from './turnDiff/chatTurns';

/** "N turn(s)". */
const turnsText = (count: number): string => `${count} turn${count === 1 ? '' : 's'}`;

/**
 * The active session's past turns put in front of the transcript (ids "history-…"), after a notice
 * "Earlier in this session …"; turns this chat object ran itself are left out. Throws what `readPast` throws.
 */
export async function loadHistory(c: ChatInside): Promise<void> {
  const row = c.deps.sessions.active(c.deps.chatId);
  if (!row?.threadId || !row.started || row.turns === 0) return;
  const threadId = row.threadId;
  const { count, items: past } = await readPast(c, threadId, { skipOwn: true, idPrefix: 'history-' });
  if (!count) return;
  past.unshift({
    type: 'notice',
    id: c.transcript.localId('history'),
    text: `Earlier in this session (${turnsText(count)}, read from Codex's record of thread ${id8(threadId)}):`,
  });
  c.transcript.prepend(past);
  c.changed();
}

/**
 * After `/resume` switched to a session that has turns: its turns appended after the "Resumed …"
 * notice, under "This session so far (N turns, …)". Ids start "history-" plus a prefix of this read (a
 * session resumed twice is shown twice, never merged into its first showing). Throws what `readPast` throws.
 */
export async function showResumed(c: ChatInside, threadId: string): Promise<void> {
  const { count, items } = await readPast(c, threadId, { skipOwn: false, idPrefix: `history-${c.transcript.localId('r')}-` });
  if (!count) return;
  c.transcript.push({
    type: 'notice',
    id: c.transcript.localId('history'),
    text: `This session so far (${turnsText(count)}, read from Codex's record of thread ${id8(threadId)}):`,
  });
  for (const item of items) c.transcript.push(item);
  c.changed();
}

/**
 * The finished turns of `threadId` as transcript items, oldest first, each turn's items then its turn
 * end; reasoning is left out, and with `skipOwn` the turns this chat object ran. Item ids get `idPrefix`.
 * Throws when Codex cannot be started, its version is refused, or the read fails.
 */
async function readPast(c: ChatInside, threadId: string, opts: { skipOwn: boolean; idPrefix: string }): Promise<{ count: number; items: ChatItem[] }> {
  let conn = c.conn;
  let own = false;
  if (!conn) {
    const plan = await c.deps.plan();
    conn = await c.deps.startCodex(plan.spawn);
    own = true;
  }
  let turns: unknown[];
  try {
    gateVersion(conn);
    turns = chronological((await readThreadTurns(conn, threadId)).turns);
  } finally {
    if (own) await conn.stop();
  }
  const past: ChatItem[] = [];
  let count = 0;
  for (const raw of turns) {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) continue;
    const turn = readTurn(raw);
    if (turn.status === 'inProgress' || (opts.skipOwn && turn.id !== null && c.ownTurns.has(turn.id))) continue;
    count++;
    const from = past.length;
    for (const read of turn.items) {
      const item = read.view ? chatItemOf(read.view, true) : null;
      if (!item || item.type === 'reasoning') continue;
      past.push({ ...item, id: `${opts.idPrefix}${item.id}`, ...(item.type === 'user' ? { via: 'turn' as const } : {}) });
    }
    const status = turn.status === 'failed' || turn.status === 'interrupted' ? turn.status : 'completed';
    const message = status === 'failed' ? turn.errorMessage : null;
    // Codex's turn id and what it changed in files (the store's summary, else its file-change items: turnDiff/chatTurns.ts).
    const changes = pastTurnChanges(c, turn.id, past.slice(from));
    const diff = { ...(turn.id ? { turnId: turn.id } : {}), ...(changes ? { changes } : {}) };
    past.push({ type: 'turnEnd', id: `${opts.idPrefix}turn-${turn.id ?? c.transcript.localId('turn')}`, status, reason: message, ...diff });
  }
  return { count, items: past };
}
