/** `angelia sessions` output (cli/commands/sessions.ts): the stable JSON row and the readable table; `setMeta` of the store. */
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionSummary } from '../../src/shared/sessions';
import { jsonRow, sessionsTable } from '../../src/main/cli/commands/sessions';
import { SessionStore } from '../../src/main/core/chats/sessions';

const s = (id: string, extra: Partial<SessionSummary> = {}): SessionSummary => ({
  chatId: 'coder',
  id,
  name: null,
  preview: 'first message',
  createdAt: '2025-06-01T09:30:00.000Z',
  updatedAt: '2025-06-01T10:00:00.000Z',
  turns: 2,
  archived: false,
  active: false,
  ...extra,
});

describe('jsonRow', () => {
  it('has exactly the stable keys, in order', () => {
    expect(Object.keys(jsonRow(s('019a-1', { active: true, turns: 9 })))).toEqual(['id', 'name', 'preview', 'createdAt', 'updatedAt', 'archived']);
  });
});

describe('sessionsTable', () => {
  it('escapes control and bidi characters of a name or message (they come from agents)', () => {
    const out = sessionsTable([s('019a-1', { name: 'ok\x1b[2K\rpwned', preview: 'a\u202Eb' })]);
    for (const raw of ['\x1b', '\r', '\u202e']) expect(out).not.toContain(raw);
    expect(out).toContain('\\x1b[2K');
    expect(out).toContain('\\u{202E}');
  });

  it.each([
    [[], 'no sessions\n'],
    [
      [s('0000000000-aaaaaaaa')],
      /^ SESSION\s+CREATED\s+UPDATED\s+TURNS\s+NAME · FIRST MESSAGE\n …aaaaaaaa\s+\d{4}-\d\d-\d\d \d\d:\d\d\s+\S+ \S+\s+2\s+first message\n$/,
    ],
    [[s('0000000000-bbbbbbbb', { name: 'Named', active: true })], /\*…bbbbbbbb .* "Named" · first message\n$/],
    [[s('0000000000-cccccccc', { preview: null })], /\(no message\)\n$/],
  ])('%#', (rows, out) => {
    if (typeof out === 'string') expect(sessionsTable(rows)).toBe(out);
    else expect(sessionsTable(rows)).toMatch(out);
  });
  it('shows a long first message on one line, cut', () => {
    const text = sessionsTable([s('x-12345678', { preview: `line one\n${'word '.repeat(40)}` })]);
    expect(text.trim().split('\n')).toHaveLength(2);
    expect(text).toContain('line one word');
    expect(text).toContain('…');
  });
});

describe('SessionStore.setMeta', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  it('keeps name and archived in the row; archiving the active row leaves the chat with none', () => {
    dir = mkdtempSync(join(__dirname, '..', '..', '.angelia-test', 'sessions-meta-'));
    const store = new SessionStore(join(dir, 'sessions.json'));
    const row = store.startNew('coder', 'coder');
    store.setMeta('coder', row.id, { name: 'Named' });
    expect(store.active('coder')).toMatchObject({ id: row.id, name: 'Named' });
    store.setMeta('coder', row.id, { archived: true });
    expect(store.active('coder')).toBeNull();
    expect(new SessionStore(join(dir, 'sessions.json')).history('coder')[0]).toMatchObject({ name: 'Named', archived: true });
    expect(() => store.setMeta('coder', 'nope', { name: 'x' })).toThrow(/no session nope/);
  });
});
