/**
 * Which diff stands for a turn, and how much of it is kept, pure: Codex's aggregated `turn/diff/updated`
 * when the turn sent one, else the turn's completed file-change items found in the transcript (between the
 * turn end before it and its own), and the size bound of store.ts applied to either. docs/architecture.md
 * "A turn's changes, measured".
 */
import type { ChatItem } from '../../../../shared/contract';
import type { DiffView, TurnChanges } from '../../../../shared/turnDiff';
import { changesOf, clipView, diffOfFileChanges, readDiff, sizeText, type FileChangeInput } from './parse';
import { MAX_TURN_DIFF_BYTES } from './store';

/** A diff text with the bound applied: the view, the text to keep (null when clipped) and its size in bytes. */
export interface BoundedDiff {
  view: DiffView;
  text: string | null;
  bytes: number;
}

/** The note of a view whose text was over the bound (`bytes` of `max`). */
export function clippedNote(bytes: number, max = MAX_TURN_DIFF_BYTES): string {
  return `This diff is ${sizeText(bytes)}, over the ${sizeText(max)} Angelia keeps for a turn: its files and line counts are shown, not its lines. "Against HEAD" shows the folder as it is now.`;
}

/** `text` read and bounded: over `max` bytes (UTF-8) only the files and counts are kept. */
export function boundDiff(text: string, max = MAX_TURN_DIFF_BYTES): BoundedDiff {
  const bytes = Buffer.byteLength(text, 'utf8');
  const view = readDiff(text);
  if (bytes <= max) return { view, text, bytes };
  return { view: clipView(view, clippedNote(bytes, max)), text: null, bytes };
}

/**
 * The completed file changes of one turn in `items` (a chat's transcript, oldest first), in order: those
 * after the turn end before the one whose `turnId` is `turnId`, up to it. `turnId` null: those after the
 * last turn end (the running turn). Null when `turnId` names no turn end in `items`.
 */
export function fileChangesOfTurn(items: readonly ChatItem[], turnId: string | null): FileChangeInput[] | null {
  let end = items.length;
  if (turnId !== null) {
    end = items.findIndex((i) => i.type === 'turnEnd' && i.turnId === turnId);
    if (end < 0) return null;
  }
  let start = end - 1;
  while (start >= 0 && items[start]?.type !== 'turnEnd') start--;
  const out: FileChangeInput[] = [];
  for (const item of items.slice(start + 1, end)) if (item.type === 'fileChange' && item.status === 'completed') out.push(...item.changes);
  return out;
}

/** A turn's file changes as a bounded diff (paths relative to `base` when inside it); null when there are none. */
export function boundFileChanges(changes: readonly FileChangeInput[], base: string | null, max = MAX_TURN_DIFF_BYTES): BoundedDiff | null {
  if (!changes.length) return null;
  return boundDiff(diffOfFileChanges(changes, base), max);
}

/** What a turn end carries of a bounded diff (`changesOf`), or nothing when no file changed. */
export const summaryOf = (d: BoundedDiff | null): TurnChanges | null => (d ? changesOf(d.view) : null);

/** The turn id a view request stands for: the one asked, else the running turn's, else the last turn end's that has one. */
export function turnAsked(items: readonly ChatItem[], asked: string | undefined, running: string | null): string | null {
  if (asked) return asked;
  if (running) return running;
  for (let i = items.length - 1; i >= 0; i--) {
    const it = items[i];
    if (it?.type === 'turnEnd' && it.turnId) return it.turnId;
  }
  return null;
}
