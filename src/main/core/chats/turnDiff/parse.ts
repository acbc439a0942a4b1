/**
 * Unified diffs read into the window's shape (src/shared/turnDiff.ts), pure. A diff in git's dialect
 * (Codex's `turn/diff/updated`, `git diff HEAD`) is cut into one section per file at its `diff --git` lines,
 * each kept verbatim as the file's `patch`, and read with jsdiff's `parsePatch` for the names, the kind of
 * change and the `+`/`-` line counts. A turn's file-change items (codex 0.169.0 `FileUpdateChange`: an added
 * file's content, a deleted file's content, or an update's bare hunks) are written as such a diff first
 * (`diffOfFileChanges`), so both sources read the same. docs/architecture.md "A turn's changes, measured".
 */
import { relative, isAbsolute } from 'node:path';
import { formatPatch, parsePatch, type StructuredPatch, type StructuredPatchHunk } from 'diff';
import { SUMMARY_PATHS, type DiffTotals, type DiffView, type FileDiff, type FileDiffStatus, type TurnChanges } from '../../../../shared/turnDiff';

/** One change of a file-change item (codex/items.ts `changeSchema`: path, kind `add` | `delete` | `update`, diff). */
export interface FileChangeInput {
  path: string;
  kind: string;
  diff: string;
}

const GIT_HEADER = /^diff --git /;

/** The sections of `text`, one per file, cut before each `diff --git` line; text with none is one section. */
export function splitSections(text: string): string[] {
  if (!text) return [];
  const parts = text.split(/^(?=diff --git )/m).filter((s) => s.length > 0);
  // Text before the first header (none in git's or Codex's output) stays with the first section.
  if (parts.length > 1 && !GIT_HEADER.test(parts[0] ?? '')) {
    const [head, first, ...rest] = parts;
    return [`${head ?? ''}${first ?? ''}`, ...rest];
  }
  return parts;
}

/** A name of a git patch without its `a/` or `b/` prefix; null for `/dev/null` or none. */
function plainName(name: string | undefined, git: boolean): string | null {
  if (!name || name === '/dev/null') return null;
  return git ? name.replace(/^[ab]\//, '') : name;
}

/** The path named by a `diff --git a/X b/Y` line (Y), for a section jsdiff could not read. */
function headerPath(section: string): string {
  const line = section.split('\n', 1)[0] ?? '';
  const m = /^diff --git "?a\/(.*?)"? "?b\/(.*?)"?$/.exec(line);
  return m?.[2] ?? (line.replace(GIT_HEADER, '') || '(unnamed)');
}

/** Added and removed lines of `hunks`. */
function countLines(hunks: readonly StructuredPatchHunk[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const h of hunks)
    for (const l of h.lines) {
      if (l.startsWith('+')) added++;
      else if (l.startsWith('-')) removed++;
    }
  return { added, removed };
}

/** Added and removed lines counted from the text alone (a section jsdiff could not read). */
function countText(section: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  let inHunk = false;
  for (const l of section.split('\n')) {
    if (l.startsWith('@@')) inHunk = true;
    else if (!inHunk) continue;
    else if (l.startsWith('+')) added++;
    else if (l.startsWith('-')) removed++;
  }
  return { added, removed };
}

function statusOf(p: StructuredPatch): FileDiffStatus {
  if (p.isBinary) return 'binary';
  if (p.isCreate || (p.oldFileName === '/dev/null' && p.newFileName !== '/dev/null')) return 'added';
  if (p.isDelete || p.newFileName === '/dev/null') return 'deleted';
  if (p.isRename) return 'renamed';
  return 'modified';
}

/** One file's section read into a `FileDiff`; a section jsdiff refuses is still shown, counted from its text. */
export function readSection(section: string): FileDiff {
  let parsed: StructuredPatch | undefined;
  try {
    parsed = parsePatch(section)[0];
  } catch {
    parsed = undefined;
  }
  if (!parsed) return { path: headerPath(section), oldPath: null, status: 'modified', ...countText(section), patch: section };
  const git = parsed.isGit === true;
  const oldName = plainName(parsed.oldFileName, git);
  const newName = plainName(parsed.newFileName, git);
  const status = statusOf(parsed);
  const path = (status === 'deleted' ? oldName : newName) ?? oldName ?? headerPath(section);
  return { path, oldPath: status === 'renamed' && oldName !== path ? oldName : null, status, ...countLines(parsed.hunks), patch: section };
}

/** Totals of `files`. */
export function totalsOf(files: readonly Pick<FileDiff, 'added' | 'removed'>[]): DiffTotals {
  return { files: files.length, added: files.reduce((n, f) => n + f.added, 0), removed: files.reduce((n, f) => n + f.removed, 0) };
}

/** A whole unified diff read into the window's shape (nothing clipped). */
export function readDiff(text: string): DiffView {
  const files = splitSections(text).map(readSection);
  return { files, totals: totalsOf(files), clipped: false, note: null };
}

/** The whole patch of a view: its files' sections joined (what "Copy patch" and "Save patch" give). */
export function patchOf(view: Pick<DiffView, 'files'>): string {
  return view.files.map((f) => f.patch).join('');
}

/** A file's lines as hunk lines with prefix `sign`, and git's marker when the last line has no newline. */
function contentLines(content: string, sign: '+' | '-'): string[] {
  if (!content) return [];
  const lines = content.split('\n');
  const ends = content.endsWith('\n');
  if (ends) lines.pop();
  const out = lines.map((l) => `${sign}${l}`);
  if (!ends) out.push('\\ No newline at end of file');
  return out;
}

/** `path` as the diff names it: relative to `base` when inside it, else as given. */
function shownPath(path: string, base: string | null): string {
  if (!base || !isAbsolute(path)) return path;
  const rel = relative(base, path);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}

/** One change of a file-change item as a git-style section. */
function sectionOfChange(change: FileChangeInput, base: string | null): string {
  const name = shownPath(change.path, base);
  const a = `a/${name}`;
  const b = `b/${name}`;
  if (change.kind === 'add' || change.kind === 'delete') {
    const adding = change.kind === 'add';
    const lines = contentLines(change.diff, adding ? '+' : '-');
    const n = lines.filter((l) => !l.startsWith('\\')).length;
    const hunks: StructuredPatchHunk[] = n
      ? // jsdiff's convention: a side of no lines still starts at 1 (formatPatch writes it as `-0,0`).
        [{ oldStart: 1, oldLines: adding ? 0 : n, newStart: 1, newLines: adding ? n : 0, lines }]
      : [];
    const patch: StructuredPatch = adding
      ? { oldFileName: '/dev/null', newFileName: b, oldHeader: '', newHeader: '', hunks, isGit: true, isCreate: true }
      : { oldFileName: a, newFileName: '/dev/null', oldHeader: '', newHeader: '', hunks, isGit: true, isDelete: true };
    return `${formatPatch(patch)}`;
  }
  let hunks: StructuredPatchHunk[];
  try {
    hunks = parsePatch(change.diff)[0]?.hunks ?? [];
  } catch {
    hunks = [];
  }
  if (!hunks.length && change.diff) {
    // Not hunks jsdiff can read: kept as text under the file's header.
    const body = change.diff.endsWith('\n') ? change.diff : `${change.diff}\n`;
    return `diff --git ${a} ${b}\n--- ${a}\n+++ ${b}\n${body}`;
  }
  return formatPatch({ oldFileName: a, newFileName: b, oldHeader: '', newHeader: '', hunks, isGit: true });
}

/**
 * A turn's file-change items (each item's `changes`, in order) written as one git-style diff: one section
 * per change, paths relative to `base` (the chat's folder) when inside it. A file changed twice has two
 * sections, each against the state before that change (Codex's own turn diff merges them).
 */
export function diffOfFileChanges(changes: readonly FileChangeInput[], base: string | null): string {
  return changes.map((c) => sectionOfChange(c, base)).join('');
}

/** What a `turnEnd` item carries of a view: totals and the first `SUMMARY_PATHS` paths; null when no file changed. */
export function changesOf(view: Pick<DiffView, 'files' | 'totals'>): TurnChanges | null {
  if (!view.files.length) return null;
  return { totals: view.totals, paths: view.files.slice(0, SUMMARY_PATHS).map((f) => f.path) };
}

/** The view with every file's text dropped (names and counts kept), and a note saying why. */
export function clipView(view: DiffView, note: string): DiffView {
  return { files: view.files.map((f) => ({ ...f, patch: '' })), totals: view.totals, clipped: true, note };
}

/** "1.5 MiB" / "300 KiB" / "12 bytes". */
export function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KiB`;
  return `${bytes} bytes`;
}
