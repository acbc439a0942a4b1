/**
 * A turn's changes, pure parts and the store (core/chats/turnDiff/parse.ts, view.ts, store.ts): unified
 * diffs read per file with counts (the shapes of Codex's `turn/diff/updated` measured on codex 0.169.0),
 * file-change items written as a diff, the turn's items found in a transcript, the size bound, and the
 * store's bounds.
 */
import { existsSync, readdirSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatItem } from '../../../src/shared/contract';
import { changesOf, diffOfFileChanges, patchOf, readDiff, splitSections } from '../../../src/main/core/chats/turnDiff/parse';
import { MAX_KEPT_TURNS, TurnDiffStore, safeTurnId } from '../../../src/main/core/chats/turnDiff/store';
import { boundDiff, fileChangesOfTurn, turnAsked } from '../../../src/main/core/chats/turnDiff/view';
import { makeTestDir, removeTestDir } from '../instance/testDir';

/** Codex 0.169.0's turn diff of a turn that added a.txt and changed b.txt with apply_patch (measured). */
const CODEX_DIFF =
  'diff --git a/a.txt b/a.txt\nnew file mode 100644\nindex 0000000000000000000000000000000000000000..94954abda49de8615a048f8d2e64b5de848e27a1\n--- /dev/null\n+++ b/a.txt\n@@ -0,0 +1,2 @@\n+hello\n+world\n' +
  'diff --git a/b.txt b/b.txt\nindex 4cb29ea38f70d7c61b2a3a25b02e3bdf44905402..ddc897f039f57aa91e16efa6dfde386c4255206f\n--- a/b.txt\n+++ b/b.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n';

describe('readDiff', () => {
  const cases: Array<[string, string, Array<[string, string, number, number, string | null]>]> = [
    ['empty', '', []],
    [
      "Codex's turn diff: an added and a changed file",
      CODEX_DIFF,
      [
        ['a.txt', 'added', 2, 0, null],
        ['b.txt', 'modified', 1, 1, null],
      ],
    ],
    [
      'a deleted file',
      'diff --git a/b.txt b/b.txt\ndeleted file mode 100644\nindex ddc897f..0000000\n--- a/b.txt\n+++ /dev/null\n@@ -1,3 +0,0 @@\n-one\n-TWO\n-three\n',
      [['b.txt', 'deleted', 0, 3, null]],
    ],
    [
      'a binary file',
      'diff --git a/i.png b/i.png\nnew file mode 100644\nindex 0000000..e69de29\nBinary files /dev/null and b/i.png differ\n',
      [['i.png', 'binary', 0, 0, null]],
    ],
    [
      'a rename without change',
      'diff --git a/x y.txt b/z.txt\nsimilarity index 100%\nrename from x y.txt\nrename to z.txt\n',
      [['z.txt', 'renamed', 0, 0, 'x y.txt']],
    ],
    [
      'no newline at the end',
      'diff --git a/n.txt b/n.txt\nnew file mode 100644\n--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1 @@\n+last\n\\ No newline at end of file\n',
      [['n.txt', 'added', 1, 0, null]],
    ],
    [
      'a section jsdiff refuses is counted from its text',
      'diff --git a/q.txt b/q.txt\n--- a/q.txt\n+++ b/q.txt\n@@ -1,1 +1,5 @@\n-a\n+b\n',
      [['q.txt', 'modified', 1, 1, null]],
    ],
  ];
  it.each(cases)('%s', (_name, text, want) => {
    const view = readDiff(text);
    expect(view.files.map((f) => [f.path, f.status, f.added, f.removed, f.oldPath])).toEqual(want);
    expect(view.totals).toEqual({ files: want.length, added: want.reduce((n, w) => n + w[2], 0), removed: want.reduce((n, w) => n + w[3], 0) });
    // Each file's section is verbatim: joined they give the diff back.
    expect(patchOf(view)).toBe(text);
  });

  it('cuts sections only at `diff --git` lines, never at a hunk line that looks like one', () => {
    const text = 'diff --git a/m.md b/m.md\n--- a/m.md\n+++ b/m.md\n@@ -1 +1 @@\n-diff --git a/x b/x\n+plain\n';
    expect(splitSections(text)).toHaveLength(1);
    expect(readDiff(text).files[0]).toMatchObject({ path: 'm.md', added: 1, removed: 1 });
  });
});

describe('diffOfFileChanges (codex 0.169.0 FileUpdateChange: add = content, delete = content, update = bare hunks)', () => {
  it('writes each change as a git section, paths relative to the folder, and reads back with the counts', () => {
    const text = diffOfFileChanges(
      [
        { path: '/w/a.txt', kind: 'add', diff: 'hello\nworld\n' },
        { path: '/w/b.txt', kind: 'update', diff: '@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n' },
        { path: '/w/c.txt', kind: 'delete', diff: 'x\ny' },
        { path: '/elsewhere/e.txt', kind: 'add', diff: '' },
      ],
      '/w',
    );
    expect(text).toContain('--- /dev/null\n+++ b/a.txt\n@@ -0,0 +1,2 @@\n+hello\n+world\n');
    expect(text).toContain('+++ /dev/null\n@@ -1,2 +0,0 @@\n-x\n-y\n\\ No newline at end of file\n');
    const view = readDiff(text);
    expect(view.files.map((f) => [f.path, f.status, f.added, f.removed])).toEqual([
      ['a.txt', 'added', 2, 0],
      ['b.txt', 'modified', 1, 1],
      ['c.txt', 'deleted', 0, 2],
      ['/elsewhere/e.txt', 'added', 0, 0],
    ]);
  });

  it('keeps an update it cannot read as text under the file header', () => {
    const view = readDiff(diffOfFileChanges([{ path: 'r.txt', kind: 'update', diff: 'not a hunk' }], null));
    expect(view.files[0]).toMatchObject({ path: 'r.txt', patch: expect.stringContaining('not a hunk') });
  });
});

describe('boundDiff and changesOf', () => {
  it('keeps a diff under the bound whole and clips one over it to files and counts', () => {
    expect(boundDiff(CODEX_DIFF)).toMatchObject({ text: CODEX_DIFF, view: { clipped: false, note: null } });
    const clipped = boundDiff(CODEX_DIFF, 100);
    expect(clipped.text).toBeNull();
    expect(clipped.view.clipped).toBe(true);
    expect(clipped.view.files.map((f) => [f.path, f.added, f.patch])).toEqual([
      ['a.txt', 2, ''],
      ['b.txt', 1, ''],
    ]);
    expect(clipped.view.note).toMatch(/over the 100 bytes Angelia keeps/);
  });

  it('summarises a view for the turn end, or nothing when no file changed', () => {
    expect(changesOf(readDiff(CODEX_DIFF))).toEqual({ totals: { files: 2, added: 3, removed: 1 }, paths: ['a.txt', 'b.txt'] });
    expect(changesOf(readDiff(''))).toBeNull();
  });
});

describe("a turn's items in the transcript", () => {
  const change = (id: string, path: string, status: 'completed' | 'failed' = 'completed'): ChatItem => ({
    type: 'fileChange',
    id,
    changes: [{ path, kind: 'add', diff: 'x\n' }],
    status,
  });
  const items: ChatItem[] = [
    change('f0', 'zero.txt'),
    { type: 'turnEnd', id: 'e1', status: 'completed', reason: null, turnId: 't1' },
    change('f1', 'one.txt'),
    change('f1b', 'failed.txt', 'failed'),
    { type: 'turnEnd', id: 'e2', status: 'completed', reason: null, turnId: 't2' },
    { type: 'turnEnd', id: 'e3', status: 'failed', reason: 'x' },
    change('f3', 'running.txt'),
  ];
  const cases: Array<[string | null, string[] | null]> = [
    ['t1', ['zero.txt']],
    ['t2', ['one.txt']],
    [null, ['running.txt']],
    ['unknown', null],
  ];
  it.each(cases)('turn %s: %j', (turnId, paths) => {
    expect(fileChangesOfTurn(items, turnId)?.map((c) => c.path) ?? null).toEqual(paths);
  });

  it('asks for the given turn, else the running one, else the last turn end with an id', () => {
    expect(turnAsked(items, 't1', 'run')).toBe('t1');
    expect(turnAsked(items, undefined, 'run')).toBe('run');
    expect(turnAsked(items, undefined, null)).toBe('t2');
    expect(turnAsked([], undefined, null)).toBeNull();
  });
});

describe('TurnDiffStore', () => {
  let dir = '';
  afterEach(async () => {
    if (dir) await removeTestDir(dir);
  });

  it('keeps a turn (record and text), a clipped one without text, and refuses unsafe ids', async () => {
    dir = await makeTestDir('turn-diffs');
    const store = new TurnDiffStore(join(dir, 'td'));
    const kept = boundDiff(CODEX_DIFF);
    store.save({ chatId: 'c', threadId: 'th', turnId: 'turn-1', source: 'codex', text: kept.text, bytes: kept.bytes, view: kept.view });
    expect(store.text('turn-1')).toBe(CODEX_DIFF);
    expect(store.record('turn-1')).toMatchObject({ chatId: 'c', clipped: false, totals: { files: 2, added: 3, removed: 1 } });
    const clipped = boundDiff(CODEX_DIFF, 10);
    store.save({ chatId: 'c', threadId: 'th', turnId: 'turn-1', source: 'codex', text: clipped.text, bytes: clipped.bytes, view: clipped.view });
    expect(store.text('turn-1')).toBeNull();
    expect(store.record('turn-1')).toMatchObject({ clipped: true, files: [{ path: 'a.txt', added: 2 }, { path: 'b.txt' }] });
    for (const bad of ['../x', '', '.hidden', 'a/b']) {
      expect(safeTurnId(bad)).toBe(false);
      expect(store.record(bad)).toBeNull();
    }
  });

  it(`keeps at most ${MAX_KEPT_TURNS} turns, dropping the oldest first`, async () => {
    dir = await makeTestDir('turn-diffs');
    const store = new TurnDiffStore(join(dir, 'td'));
    const kept = boundDiff(CODEX_DIFF);
    const old = Date.now() / 1000 - 3600;
    for (let i = 0; i < MAX_KEPT_TURNS; i++) {
      const turnId = `t-${String(i).padStart(4, '0')}`;
      store.save({ chatId: 'c', threadId: null, turnId, source: 'codex', text: kept.text, bytes: kept.bytes, view: kept.view });
      utimesSync(join(dir, 'td', `${turnId}.json`), old + i, old + i);
    }
    store.save({ chatId: 'c', threadId: null, turnId: 'newest', source: 'codex', text: kept.text, bytes: kept.bytes, view: kept.view });
    expect(readdirSync(join(dir, 'td')).filter((n) => n.endsWith('.json'))).toHaveLength(MAX_KEPT_TURNS);
    expect(existsSync(join(dir, 'td', 't-0000.json'))).toBe(false);
    expect(existsSync(join(dir, 'td', 't-0000.diff'))).toBe(false);
    expect(store.record('t-0001')).not.toBeNull();
    expect(store.record('newest')).not.toBeNull();
  });
});
