/**
 * The changes of one turn, as the window shows them ("Changes of this turn"): every file touched with its
 * unified diff and added / removed line counts, and totals. Two sources, measured on codex 0.169.0
 * (docs/architecture.md "A turn's changes, measured"): Codex's aggregated turn diff (`turn/diff/updated`,
 * generated `TurnDiffUpdatedNotification`), else the turn's file-change items (`FileUpdateChange`). Beside
 * it, on request, the folder's diff against git's HEAD, which Angelia's main process computes itself.
 *
 * Imports only zod (shared by the core and the renderer).
 */
import { z } from 'zod';

/** What happened to a file: created, deleted, changed, renamed (maybe changed too), or a binary change without lines. */
export const FileDiffStatus = z.enum(['added', 'deleted', 'modified', 'renamed', 'binary']);
export type FileDiffStatus = z.infer<typeof FileDiffStatus>;

/** Added and removed lines (the `+` and `-` lines of the hunks) and files counted. */
export const DiffTotals = z.object({ files: z.number().int(), added: z.number().int(), removed: z.number().int() });
export type DiffTotals = z.infer<typeof DiffTotals>;

/**
 * What a turn changed, in short, carried on its `turnEnd` item (the button "Changes of this turn"):
 * the totals and the paths touched (at most `SUMMARY_PATHS`, the rest counted in `totals.files`).
 */
export const TurnChanges = z.object({ totals: DiffTotals, paths: z.array(z.string()) });
export type TurnChanges = z.infer<typeof TurnChanges>;

/** How many paths a `TurnChanges` names. */
export const SUMMARY_PATHS = 20;

/**
 * One file of a diff. `patch` is the file's own section of the unified diff, verbatim (`diff --git` header,
 * `---`/`+++` lines, hunks); the sections of a diff's files joined in order give the whole patch back.
 * `patch` is empty when the diff was too large to keep (`clipped` on the view).
 */
export const FileDiff = z.object({
  path: z.string(),
  /** The path before a rename; null otherwise. */
  oldPath: z.string().nullable(),
  status: FileDiffStatus,
  added: z.number().int(),
  removed: z.number().int(),
  patch: z.string(),
});
export type FileDiff = z.infer<typeof FileDiff>;

/**
 * A diff as the window shows it. `clipped`: the text was over the bound Angelia keeps, so only the files
 * and counts are left (`note` says how large it was).
 */
export const DiffView = z.object({
  files: z.array(FileDiff),
  totals: DiffTotals,
  clipped: z.boolean(),
  note: z.string().nullable(),
});
export type DiffView = z.infer<typeof DiffView>;

/**
 * Where a turn's diff comes from: `codex` (the aggregated `turn/diff/updated`: what apply_patch changed,
 * each file against its state before the turn first touched it), `fileChanges` (rebuilt from the turn's
 * file-change items, one section per change; Codex's record keeps these after a restart), or `none`.
 */
export const TurnDiffSource = z.enum(['codex', 'fileChanges', 'none']);
export type TurnDiffSource = z.infer<typeof TurnDiffSource>;

/** `chats:turnDiff`: one turn's changes; `running` while the turn is still going (the diff may grow). */
export const TurnDiffView = DiffView.extend({
  chatId: z.string(),
  turnId: z.string().nullable(),
  source: TurnDiffSource,
  running: z.boolean(),
});
export type TurnDiffView = z.infer<typeof TurnDiffView>;

/**
 * `chats:headDiff`: the profile folder's working tree against git's HEAD (`git diff HEAD`, run by
 * Angelia's main process, never by the agent). `ok`: the diff, the repository's top folder and the
 * untracked files (not in `git diff HEAD`; at most `MAX_UNTRACKED` named). `not-a-repo`: the folder is in no
 * git repository (the window shows no HEAD tab). `unavailable`: git is missing, refused or failed; `message`
 * says why and what to do.
 */
export const HeadDiffView = z.discriminatedUnion('state', [
  DiffView.extend({ state: z.literal('ok'), root: z.string(), untracked: z.array(z.string()), untrackedMore: z.number().int() }),
  z.object({ state: z.literal('not-a-repo'), folder: z.string() }),
  z.object({ state: z.literal('unavailable'), folder: z.string(), message: z.string() }),
]);
export type HeadDiffView = z.infer<typeof HeadDiffView>;

/** How many untracked files a `HeadDiffView` names. */
export const MAX_UNTRACKED = 200;

/** `chats:turnDiff` input: the turn by Codex's turn id (a `turnEnd` item's `turnId`); absent: the running turn, else the last. */
export const TurnDiffRequest = z.object({ chatId: z.string(), turnId: z.string().max(200).optional() }).strict();

/** `chats:headDiff` input. */
export const HeadDiffRequest = z.object({ chatId: z.string() }).strict();
