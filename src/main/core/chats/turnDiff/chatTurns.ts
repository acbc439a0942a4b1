/**
 * A chat's turn diffs: the latest `turn/diff/updated` of each turn held in memory (chatEvents.ts), the
 * turn's summary put on its `turnEnd` item and its diff kept in the store at its end (turn/run.ts), the
 * summary of a past turn read back from Codex's record (history.ts), and the view `chats:turnDiff` answers.
 * Protocol: codex 0.169.0 `TurnDiffUpdatedNotification` {threadId, turnId, diff}; docs/architecture.md
 * "A turn's changes, measured".
 */
import type { ChatItem } from '../../../../shared/contract';
import { SUMMARY_PATHS, type TurnChanges, type TurnDiffView } from '../../../../shared/turnDiff';
import type { ChatInside } from '../inside';
import { readDiff } from './parse';
import { TurnDiffStore, safeTurnId } from './store';
import { boundDiff, boundFileChanges, fileChangesOfTurn, summaryOf, turnAsked, type BoundedDiff } from './view';

const storeOf = (c: ChatInside): TurnDiffStore | null => (c.deps.turnDiffDir ? new TurnDiffStore(c.deps.turnDiffDir) : null);

/** `turn/diff/updated` of the chat's Codex: the turn's latest diff (`turnId` absent: the running turn's). */
export function onTurnDiff(c: ChatInside, turnId: string | null, threadId: string | null, diff: string): void {
  const id = turnId ?? c.turn.turnId;
  if (id) c.turnDiffs.updated(id, threadId ?? c.threadId, diff);
}

/**
 * At a turn's end (before its `turnEnd` item is pushed): the fields that item carries, `turnId` and, when
 * files changed, `changes`; Codex's diff (else the turn's file-change items, which Codex's record keeps
 * anyway) is written to the store. A failed write only loses the diff after a restart.
 */
export function turnEndDiff(c: ChatInside, turnId: string | null): { turnId?: string; changes?: TurnChanges } {
  if (!turnId) return {};
  const live = c.turnDiffs.get(turnId);
  const base = c.lastPlan?.spawn.cwd ?? null;
  const bounded: BoundedDiff | null = live ? boundDiff(live.text) : boundFileChanges(fileChangesOfTurn(c.transcript.all(), null) ?? [], base);
  const changes = summaryOf(bounded);
  if (live && bounded && changes) {
    try {
      storeOf(c)?.save({
        chatId: c.deps.chatId,
        threadId: live.threadId,
        turnId,
        source: 'codex',
        text: bounded.text,
        bytes: bounded.bytes,
        view: bounded.view,
      });
    } catch {
      // Kept in memory for this run; after a restart the turn's file-change items stand in.
    }
  }
  return { turnId, ...(changes ? { changes } : {}) };
}

/** The summary of a past turn read from Codex's record: the store's, else that of `items` (the turn's own items). */
export function pastTurnChanges(c: ChatInside, turnId: string | null, items: readonly ChatItem[]): TurnChanges | null {
  const rec = turnId ? storeOf(c)?.record(turnId) : null;
  if (rec && rec.chatId === c.deps.chatId) return rec.files.length ? { totals: rec.totals, paths: rec.files.slice(0, SUMMARY_PATHS).map((f) => f.path) } : null;
  return summaryOf(boundFileChanges(fileChangesOfTurn(items, null) ?? [], c.lastPlan?.spawn.cwd ?? null));
}

/**
 * `chats:turnDiff`: the changes of turn `asked` (absent: the running turn, else the last one), from the
 * first source that has them: Codex's diff held in memory, the store, the turn's file-change items in the
 * transcript (paths relative to `folder`, the profile's). A turn with none: `source: "none"`, no files.
 */
export function turnDiffView(c: ChatInside, asked: string | undefined, folder: string | null): TurnDiffView {
  const items = c.transcript.all();
  const running = c.turnWaiter ? c.turn.turnId : null;
  const turnId = turnAsked(items, asked, running);
  const isRunning = turnId !== null && turnId === running;
  const head = { chatId: c.deps.chatId, turnId, running: isRunning || (turnId === null && c.turnWaiter !== null) };
  if (turnId) {
    const live = c.turnDiffs.get(turnId);
    if (live) return { ...head, source: 'codex', ...boundDiff(live.text).view };
    const store = safeTurnId(turnId) ? storeOf(c) : null;
    const rec = store?.record(turnId);
    if (store && rec && rec.chatId === c.deps.chatId) {
      const text = rec.clipped ? null : store.text(turnId);
      if (text !== null) return { ...head, source: rec.source, ...readDiff(text) };
      return { ...head, source: rec.source, files: rec.files.map((f) => ({ ...f, patch: '' })), totals: rec.totals, clipped: true, note: rec.note };
    }
  }
  const changes = fileChangesOfTurn(items, isRunning || turnId === null ? null : turnId) ?? [];
  const fromItems = boundFileChanges(changes, folder ?? c.lastPlan?.spawn.cwd ?? null);
  if (fromItems) return { ...head, source: 'fileChanges', ...fromItems.view };
  return { ...head, source: 'none', files: [], totals: { files: 0, added: 0, removed: 0 }, clipped: false, note: null };
}
