/**
 * Turn diffs kept across restarts: Codex's record of a thread (`thread/turns/list`, codex 0.169.0) keeps a
 * turn's file-change items but not its aggregated `turn/diff/updated`, so at each turn's end the chat
 * writes the latest one here, in `<state>/private/turn-diffs/` (denied to every agent with the rest of
 * `private/`): `<turnId>.json` (source, totals, files and counts) and `<turnId>.diff` (the text).
 *
 * Bounds (docs/architecture.md "A turn's changes, measured"): a diff over `MAX_TURN_DIFF_BYTES` keeps only
 * its files and counts (no `.diff`; the view says how large it was); at most `MAX_KEPT_TURNS` turns and
 * `MAX_KEPT_BYTES` of text are kept, the oldest dropped first. A dropped or unreadable turn falls back to
 * its file-change items, read from Codex's record.
 */
import { mkdirSync, readdirSync, readFileSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { z } from 'zod';
import { DiffTotals, FileDiffStatus, TurnDiffSource, type DiffView } from '../../../../shared/turnDiff';
import { readJsonSync, writeJsonSync } from '../../instance/jsonStore';

/** The largest diff text kept whole (bytes, UTF-8); a larger one keeps its files and counts only. */
export const MAX_TURN_DIFF_BYTES = 4 * 1024 * 1024;
/** How many turns' diffs are kept. */
export const MAX_KEPT_TURNS = 200;
/** How many bytes of diff text are kept in all. */
export const MAX_KEPT_BYTES = 64 * 1024 * 1024;
/** How many files a kept record names (a clipped diff shows them without text). */
export const MAX_KEPT_FILES = 5000;

const FileRow = z.object({ path: z.string(), oldPath: z.string().nullable(), status: FileDiffStatus, added: z.number().int(), removed: z.number().int() });

/** `<turnId>.json`. */
const TurnRecord = z.object({
  version: z.literal(1),
  chatId: z.string(),
  threadId: z.string().nullable(),
  turnId: z.string(),
  source: TurnDiffSource,
  savedAt: z.string(),
  /** Bytes of the diff text (UTF-8), also when it was too large to keep. */
  bytes: z.number().int(),
  clipped: z.boolean(),
  note: z.string().nullable(),
  totals: DiffTotals,
  files: z.array(FileRow),
});
export type TurnRecord = z.infer<typeof TurnRecord>;

/** A turn id that may name a file here (Codex's are UUIDv7); anything else is never written or read. */
export const safeTurnId = (id: string): boolean => /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/.test(id);

/** What a turn's end hands the store. */
export interface SavedTurn {
  chatId: string;
  threadId: string | null;
  turnId: string;
  source: 'codex' | 'fileChanges';
  /** The diff text; null when it was clipped (over `MAX_TURN_DIFF_BYTES`). */
  text: string | null;
  bytes: number;
  view: DiffView;
}

/** The turn-diff folder of one instance (`dir`, created mode 700 at the first write). */
export class TurnDiffStore {
  constructor(readonly dir: string) {}

  /** Writes a turn's record (and its text), then drops the oldest beyond the bounds. Throws the fs error. */
  save(t: SavedTurn): void {
    if (!safeTurnId(t.turnId)) return;
    const record: TurnRecord = {
      version: 1,
      chatId: t.chatId,
      threadId: t.threadId,
      turnId: t.turnId,
      source: t.source,
      savedAt: new Date().toISOString(),
      bytes: t.bytes,
      clipped: t.text === null,
      note: t.view.note,
      totals: t.view.totals,
      files: t.view.files.slice(0, MAX_KEPT_FILES).map(({ patch: _patch, ...row }) => row),
    };
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    // The text first: a record is never left naming text that is not there.
    if (t.text !== null) writeFileAtomic.sync(this.textFile(t.turnId), t.text, { mode: 0o600, fsync: false });
    else this.remove(this.textFile(t.turnId));
    writeJsonSync(this.recordFile(t.turnId), record, { fsync: false });
    this.prune();
  }

  /** A turn's record, or null (none kept, unreadable, or not a safe id). */
  record(turnId: string): TurnRecord | null {
    if (!safeTurnId(turnId)) return null;
    const r = readJsonSync(this.recordFile(turnId), TurnRecord);
    return r.kind === 'ok' ? r.data : null;
  }

  /** A turn's diff text, or null (clipped, dropped or unreadable). */
  text(turnId: string): string | null {
    if (!safeTurnId(turnId)) return null;
    try {
      return readFileSync(this.textFile(turnId), 'utf8');
    } catch {
      return null;
    }
  }

  /** Drops the oldest turns (by the record's modification time) beyond `MAX_KEPT_TURNS` and `MAX_KEPT_BYTES`. */
  prune(): void {
    let names: string[];
    try {
      names = readdirSync(this.dir).filter((n) => n.endsWith('.json'));
    } catch {
      return;
    }
    const rows = names
      .map((n) => {
        const id = n.slice(0, -'.json'.length);
        return { id, at: mtime(join(this.dir, n)), bytes: size(this.textFile(id)) };
      })
      .sort((a, b) => b.at - a.at);
    let kept = 0;
    let bytes = 0;
    for (const row of rows) {
      kept++;
      bytes += row.bytes;
      if (kept <= MAX_KEPT_TURNS && bytes <= MAX_KEPT_BYTES) continue;
      this.remove(this.textFile(row.id));
      this.remove(this.recordFile(row.id));
    }
  }

  private recordFile(turnId: string): string {
    return join(this.dir, `${turnId}.json`);
  }

  private textFile(turnId: string): string {
    return join(this.dir, `${turnId}.diff`);
  }

  private remove(file: string): void {
    try {
      unlinkSync(file);
    } catch {
      // Already gone.
    }
  }
}

function mtime(file: string): number {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

function size(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}
