/**
 * A turn's changes on real codex (pinned 0.169.0) with the scripted model, through the orchestrator: a turn
 * that edits TWO files with apply_patch carries its Codex turn id and summary on its turn end, and
 * `chats:turnDiff` gives both files (counts, content) from Codex's `turn/diff/updated`; a shell write makes
 * no turn diff (measured: docs/architecture.md "A turn's changes, measured") but shows against HEAD; the
 * profile's folder is a git repository and `chats:headDiff` gives it against HEAD; after a restart the turn
 * read back from Codex's record keeps its summary and its diff (the store).
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Orchestrator } from '../../src/main/core/chats/orchestrator';
import { startCodexClient } from '../../src/main/core/codex/start';
import type { ChatItem } from '../../src/shared/contract';
import { makeInstance, turnOn, type TestInstance } from '../fixtures/instance';

let inst: TestInstance;
let cwd = '';
const git = (...args: string[]): string => execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd, encoding: 'utf8' });
const turnEndOf = (items: ChatItem[]): Extract<ChatItem, { type: 'turnEnd' }> | undefined =>
  items.find((i): i is Extract<ChatItem, { type: 'turnEnd' }> => i.type === 'turnEnd');

beforeAll(async () => {
  inst = await makeInstance({ coder: {} });
  cwd = inst.cwd.coder ?? '';
  // The profile's folder is a git repository of its own, with one committed file.
  git('init', '-q');
  writeFileSync(join(cwd, 'b.txt'), 'one\ntwo\nthree\n');
  git('add', 'b.txt');
  git('commit', '-qm', 'init');
});

afterAll(async () => {
  await inst?.cleanup();
});

describe("a turn's changes on real codex", () => {
  let turnId = '';

  it('a turn that edits two files: its turn end, its diff and the folder against HEAD', async () => {
    inst.model.enqueue(
      { patch: `*** Begin Patch\n*** Add File: ${join(cwd, 'a.txt')}\n+hello\n+world\n*** End Patch\n` },
      { patch: `*** Begin Patch\n*** Update File: ${join(cwd, 'b.txt')}\n@@\n one\n-two\n+TWO\n three\n*** End Patch\n` },
      { exec: { cmd: 'echo shell > c.txt', login: false } },
      { message: 'edited' },
    );
    const o = await Orchestrator.create({ paths: inst.paths, env: inst.env, startCodex: startCodexClient });
    try {
      const items = await turnOn(o, 'coder', 'edit two files');
      const end = turnEndOf(items);
      expect(end).toMatchObject({
        status: 'completed',
        turnId: expect.any(String),
        changes: { totals: { files: 2, added: 3, removed: 1 }, paths: ['a.txt', 'b.txt'] },
      });
      turnId = end?.turnId ?? '';
      const h = o.api().handlers;
      const diff = await h['chats:turnDiff']({ chatId: 'coder', turnId });
      expect(diff).toMatchObject({ chatId: 'coder', turnId, source: 'codex', running: false, clipped: false, totals: { files: 2, added: 3, removed: 1 } });
      expect(diff.files.map((f) => [f.path, f.status, f.added, f.removed])).toEqual([
        ['a.txt', 'added', 2, 0],
        ['b.txt', 'modified', 1, 1],
      ]);
      expect(diff.files[0]?.patch).toContain('+hello\n+world\n');
      expect(diff.files[1]?.patch).toContain('-two\n+TWO\n');
      // The shell's c.txt is not in Codex's turn diff (only apply_patch edits are)…
      expect(diff.files.some((f) => f.path === 'c.txt')).toBe(false);
      // …but the folder against HEAD shows b.txt changed, and a.txt and c.txt untracked.
      const head = await h['chats:headDiff']({ chatId: 'coder' });
      expect(head).toMatchObject({ state: 'ok', root: cwd, totals: { files: 1, added: 1, removed: 1 } });
      // (also the launch files Angelia's compile wrote there, .claude/ and the .codex placeholder)
      if (head.state === 'ok') expect(head.untracked).toEqual(expect.arrayContaining(['a.txt', 'c.txt']));
      if (head.state === 'ok') expect(head.files[0]).toMatchObject({ path: 'b.txt', patch: expect.stringContaining('+TWO') });
    } finally {
      await o.shutdown();
    }
  });

  it('after a restart, the turn read back from Codex keeps its summary and its diff', async () => {
    const o = await Orchestrator.create({ paths: inst.paths, env: inst.env, startCodex: startCodexClient });
    try {
      const h = o.api().handlers;
      const items = await h['chats:items']({ chatId: 'coder' });
      const end = items.find((i) => i.type === 'turnEnd' && i.turnId === turnId);
      expect(end).toMatchObject({ changes: { totals: { files: 2, added: 3, removed: 1 } } });
      const diff = await h['chats:turnDiff']({ chatId: 'coder', turnId });
      expect(diff).toMatchObject({ source: 'codex', totals: { files: 2, added: 3, removed: 1 } });
      expect(diff.files[0]?.patch).toContain('+hello\n+world\n');
    } finally {
      await o.shutdown();
    }
  });
});
