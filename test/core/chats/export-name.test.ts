/**
 * The file the chat's `/export` writes is named by the session's short id — the END of its id, as
 * `/resume` shows it (sessions.ts `shortId`) — never by its start: Codex thread ids are UUIDv7, whose
 * first characters are a clock shared by sessions made close together, so two sessions' exports looked
 * alike (a user saw this).
 */
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportFileName } from '../../../src/main/core/chats/export';
import { baseAnswers, completing, FakeConn, makeChat, notices, type Answer } from './fakes';

// Two UUIDv7 ids made in the same millisecond range: the first 18 characters are the same.
const A = '019a3c5e-7b21-7d44-a1c9-3e5f7a9b1c2d';
const B = '019a3c5e-7b21-7d44-b8e0-0c4d6f1a9e37';

describe('exportFileName', () => {
  it('<chat>-<end of the id>-<UTC time>.md, different for ids that share their start', () => {
    const at = new Date('2026-03-01T10:20:30.456Z');
    expect(exportFileName('coder', A, [], at)).toBe('coder-7a9b1c2d-2026-03-01T10-20-30-456Z.md');
    expect(exportFileName('coder', B, [], at)).toBe('coder-6f1a9e37-2026-03-01T10-20-30-456Z.md');
    // Ids that end alike get a longer short id, as /resume shows them.
    expect(exportFileName('c', 'aaaa-11112222', ['bbbb-11112222'], at)).toBe('c-a-11112222-2026-03-01T10-20-30-456Z.md');
  });
});

describe('/export in a chat', () => {
  it("names each session's file by its short id, so two sessions made together do not look alike", async () => {
    const threadStart =
      (id: string): Answer =>
      () => ({ thread: { id }, approvalsReviewer: 'user', sandbox: { type: 'dangerFullAccess' }, model: 'gpt-5.5' });
    const turns: Answer = () => ({ data: [], nextCursor: null, backwardsCursor: null });
    const first = new FakeConn({ ...baseAnswers(), 'thread/start': threadStart(A), 'turn/start': completing(), 'thread/turns/list': turns });
    const second = new FakeConn({ ...baseAnswers(), 'thread/start': threadStart(B), 'turn/start': completing(), 'thread/turns/list': turns });
    const { chat } = await makeChat([first, second]);
    for (const text of ['one', '/export', '/new', 'two', '/export']) {
      chat.send(text);
      await chat.idle();
    }
    const files = notices(chat.transcript.all())
      .flatMap((n) => /^Exported \d+ rows to (\S+)/.exec(n)?.[1] ?? [])
      .map((f) => basename(f));
    expect(files).toHaveLength(2);
    expect(files[0]).toMatch(/^c-7a9b1c2d-\d{4}-\d\d-\d\dT[\d-]+Z\.md$/);
    expect(files[1]).toMatch(/^c-6f1a9e37-\d{4}-\d\d-\d\dT[\d-]+Z\.md$/);
    expect(files.join(' ')).not.toContain(A.slice(0, 8));
  });
});
