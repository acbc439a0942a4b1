/**
 * The "Changes of this turn" view as rows for one virtual list, pure: per file a header row (path, status,
 * counts; a click collapses it) and, unless collapsed, one row per line of its unified diff, each with its
 * kind for colour. Also the words of counts and the whole patch's file name. Lines are text: the view draws
 * them as React text, never as HTML. Shapes: src/shared/turnDiff.ts.
 */
import type { DiffTotals, FileDiff, FileDiffStatus } from '../../../../shared/turnDiff';

/** What a diff line is: `add` (+), `del` (-), `hunk` (@@), `meta` (diff --git, index, ---/+++, modes, \ No newline), `ctx`. */
export type LineKind = 'add' | 'del' | 'hunk' | 'meta' | 'ctx';

/** One row of the list. */
export type DiffRow = { kind: 'file'; file: number } | { kind: 'line'; file: number; line: number; text: string; type: LineKind };

/** The kind of one line of a unified diff, once inside a hunk (`inHunk`) or in the file's header. */
export function lineKind(text: string, inHunk: boolean): LineKind {
  if (text.startsWith('@@')) return 'hunk';
  if (!inHunk) return 'meta';
  if (text.startsWith('+')) return 'add';
  if (text.startsWith('-')) return 'del';
  if (text.startsWith('\\')) return 'meta';
  return 'ctx';
}

/** A file's patch as lines with their kinds (the last newline ends the last line, it makes no empty row). */
export function fileLines(patch: string): { text: string; type: LineKind }[] {
  if (!patch) return [];
  const lines = patch.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  let inHunk = false;
  return lines.map((text) => {
    if (text.startsWith('diff --git ')) inHunk = false;
    const type = lineKind(text, inHunk);
    if (type === 'hunk') inHunk = true;
    return { text, type };
  });
}

/**
 * The rows of `files` with the files whose index is in `collapsed` folded to their header. `linesOf` gives
 * a file's lines (memoised by the caller: a 20 000-line file is split once, not on every fold).
 */
export function diffRows(files: readonly FileDiff[], collapsed: ReadonlySet<number>, linesOf: (i: number) => { text: string; type: LineKind }[]): DiffRow[] {
  const rows: DiffRow[] = [];
  files.forEach((_f, i) => {
    rows.push({ kind: 'file', file: i });
    if (collapsed.has(i)) return;
    linesOf(i).forEach((l, n) => rows.push({ kind: 'line', file: i, line: n, text: l.text, type: l.type }));
  });
  return rows;
}

/** "+12 −3" (a true minus sign). */
export const countsText = (c: { added: number; removed: number }): string => `+${c.added} −${c.removed}`;

/** "3 files, +12 −3". */
export const totalsText = (t: DiffTotals): string => `${t.files} file${t.files === 1 ? '' : 's'}, ${countsText(t)}`;

/** The word shown beside a file's path. */
export const STATUS_WORD: Record<FileDiffStatus, string> = { added: 'new', deleted: 'deleted', modified: 'changed', renamed: 'renamed', binary: 'binary' };

/** The whole patch of `files` (their sections joined, as the core's parse.ts `patchOf`). */
export const patchText = (files: readonly FileDiff[]): string => files.map((f) => f.patch).join('');

/** The file name "Save patch" offers: `<chat>-turn-<last 8 of the turn id>.patch`, or `<chat>-HEAD.patch`. */
export function patchFileName(chatId: string, what: { turnId: string | null } | 'head'): string {
  const safe = (s: string): string => s.replace(/[^A-Za-z0-9_.-]/g, '_');
  if (what === 'head') return `${safe(chatId)}-HEAD.patch`;
  return `${safe(chatId)}-turn-${what.turnId ? safe(what.turnId.slice(-8)) : 'latest'}.patch`;
}
