/**
 * The "Changes of this turn" rows (renderer features/turnDiff/diffRows.ts), pure: each line's kind, the
 * rows with folded files, the words of counts and the patch's file name.
 */
import { describe, expect, it } from 'vitest';
import { countsText, diffRows, fileLines, lineKind, patchFileName, patchText, totalsText } from '../../src/renderer/src/features/turnDiff/diffRows';
import type { FileDiff } from '../../src/shared/turnDiff';

const PATCH = 'diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n keep\n-old\n+new\n\\ No newline at end of file\n';
const file = (path: string, patch: string): FileDiff => ({ path, oldPath: null, status: 'modified', added: 1, removed: 1, patch });

describe('lineKind', () => {
  const cases: Array<[string, boolean, string]> = [
    ['@@ -1 +1 @@', false, 'hunk'],
    ['--- a/x', false, 'meta'],
    ['+++ b/x', false, 'meta'],
    ['+added', true, 'add'],
    ['-removed', true, 'del'],
    ['--- looks like a header but is a removed line', true, 'del'],
    [' context', true, 'ctx'],
    ['\\ No newline at end of file', true, 'meta'],
  ];
  it.each(cases)('%j (in a hunk: %s) is %s', (text, inHunk, kind) => {
    expect(lineKind(text, inHunk)).toBe(kind);
  });
});

describe('fileLines and diffRows', () => {
  it('reads a patch as kinded lines, the trailing newline making no empty row', () => {
    expect(fileLines(PATCH).map((l) => l.type)).toEqual(['meta', 'meta', 'meta', 'hunk', 'ctx', 'del', 'add', 'meta']);
    expect(fileLines('')).toEqual([]);
  });

  it('gives a header per file and the lines of the files not folded', () => {
    const files = [file('a.txt', PATCH), file('b.txt', PATCH)];
    const lines = files.map((f) => fileLines(f.patch));
    const linesOf = (i: number) => lines[i] ?? [];
    const open = diffRows(files, new Set(), linesOf);
    expect(open).toHaveLength(2 + 2 * 8);
    const folded = diffRows(files, new Set([0]), linesOf);
    expect(folded.map((r) => (r.kind === 'file' ? `file ${r.file}` : `line ${r.file}`)).slice(0, 3)).toEqual(['file 0', 'file 1', 'line 1']);
    expect(folded).toHaveLength(2 + 8);
  });
});

describe('words', () => {
  it('counts, totals, the whole patch and the file name', () => {
    expect(countsText({ added: 12, removed: 3 })).toBe('+12 −3');
    expect(totalsText({ files: 1, added: 0, removed: 2 })).toBe('1 file, +0 −2');
    expect(totalsText({ files: 3, added: 5, removed: 0 })).toBe('3 files, +5 −0');
    expect(patchText([file('a', 'A\n'), file('b', 'B\n')])).toBe('A\nB\n');
    expect(patchFileName('demo', { turnId: '019a-aaaa-bbbb-cccc-12345678' })).toBe('demo-turn-12345678.patch');
    expect(patchFileName('my chat/x', { turnId: null })).toBe('my_chat_x-turn-latest.patch');
    expect(patchFileName('demo', 'head')).toBe('demo-HEAD.patch');
  });
});
