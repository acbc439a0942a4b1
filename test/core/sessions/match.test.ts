/** The pure decisions of "find past work" (core/sessions/match.ts): rows listed, pages, summaries, matching lines. */
import { describe, expect, it } from 'vitest';
import type { SessionRow } from '../../../src/main/core/chats/sessions';
import { LINE_MAX, containsText, listedRows, matchingLine, nameHit, pageOf, summaryOf } from '../../../src/main/core/sessions/match';
import { threadMeta } from '../../../src/main/core/sessions/threads';

const row = (id: string, created: string, extra: Partial<SessionRow> = {}): SessionRow => ({
  id,
  threadId: id,
  created_at: created,
  last_used_at: created,
  turns: 1,
  started: true,
  label: `label ${id}`,
  enforcement: 'managed',
  model: null,
  effort: null,
  ...extra,
});

describe('listedRows', () => {
  const rows = [
    row('a', '2025-01-01T00:00:00.000Z'),
    row('b', '2025-01-03T00:00:00.000Z', { archived: true }),
    row('c', '2025-01-02T00:00:00.000Z'),
    row('d', '2025-01-04T00:00:00.000Z', { threadId: null, started: false }),
    row('e', '2025-01-05T00:00:00.000Z', { started: false }),
    row('f', '2025-01-02T00:00:00.000Z', { archived: false }),
  ];
  it.each([
    [false, ['f', 'c', 'a']],
    [true, ['b']],
  ])('archived=%s → %j (newest first, ties: the later made first; no thread or no turn: left out)', (archived, ids) => {
    expect(listedRows(rows, archived).map((r) => r.id)).toEqual(ids);
  });
});

describe('pageOf', () => {
  const all = ['a', 'b', 'c', 'd', 'e'];
  it.each([
    [undefined, 2, ['a', 'b'], '2'],
    ['2', 2, ['c', 'd'], '4'],
    ['4', 2, ['e'], null],
    ['9', 2, [], null],
    ['x', 3, ['a', 'b', 'c'], '3'],
    [null, 10, all, null],
  ])('cursor %s limit %d → %j next %s', (cursor, limit, page, next) => {
    expect(pageOf(all, cursor, limit)).toEqual({ page, nextCursor: next });
  });
});

describe('summaryOf and threadMeta', () => {
  it('takes Codex name, preview and dates (seconds → ISO) over the row', () => {
    const meta = threadMeta({ id: 't1', name: 'Named', preview: 'first message', createdAt: 1_700_000_000, updatedAt: 1_700_000_060, turns: [] });
    expect(meta).toEqual({ id: 't1', name: 'Named', preview: 'first message', createdAt: '2023-11-14T22:13:20.000Z', updatedAt: '2023-11-14T22:14:20.000Z' });
    expect(summaryOf('coder', row('t1', '2025-01-01T00:00:00.000Z', { archived: true, turns: 3 }), meta, true)).toEqual({
      chatId: 'coder',
      id: 't1',
      name: 'Named',
      preview: 'first message',
      createdAt: '2023-11-14T22:13:20.000Z',
      updatedAt: '2023-11-14T22:14:20.000Z',
      turns: 3,
      archived: true,
      active: true,
    });
  });
  it('falls back to the row when Codex could not be read (its name, label and dates)', () => {
    const r = row('t2', '2025-01-01T00:00:00.000Z', { name: 'kept', label: '' });
    expect(summaryOf('c', r, null, false)).toMatchObject({ name: 'kept', preview: null, createdAt: r.created_at, updatedAt: r.last_used_at, archived: false });
  });
  it.each([[null], [{}], [{ id: '' }], ['x']])('threadMeta(%j) is null', (raw) => {
    expect(threadMeta(raw)).toBeNull();
  });
});

describe('matchingLine', () => {
  it.each([
    [
      'the line with the range (newlines kept)',
      '... r filler \nthe needle-word sits here\nand more',
      { start: 17, end: 28 },
      'needle-word',
      'the needle-word sits here',
      { start: 4, end: 15 },
    ],
    ['found by the term when there is no range', 'Beta goes on about a pelican', null, 'PELICAN', 'Beta goes on about a pelican', { start: 21, end: 28 }],
    ["Codex's leading ... becomes …", '... filler the word here', null, 'word', '…filler the word here', { start: 12, end: 16 }],
    ["Codex's trailing ... becomes …", 'a word then ...', null, 'word', 'a word then…', { start: 2, end: 6 }],
    ['a wrong range falls back to the term', 'one two three', { start: 0, end: 3 }, 'three', 'one two three', { start: 8, end: 13 }],
    ['not found: the snippet, no match', '... no such thing', null, 'zzz', '…no such thing', null],
  ])('%s', (_what, snippet, range, term, line, match) => {
    expect(matchingLine(snippet, range, term)).toEqual({ line, match });
  });
  it('cuts a long line around the match and keeps the match in place', () => {
    const long = `${'a'.repeat(300)} needle ${'b'.repeat(300)}`;
    const hit = matchingLine(long, null, 'needle');
    expect(hit.line.length).toBeLessThanOrEqual(LINE_MAX + 2);
    expect(hit.line.startsWith('…') && hit.line.endsWith('…')).toBe(true);
    expect(hit.match && hit.line.slice(hit.match.start, hit.match.end)).toBe('needle');
  });
});

describe('nameHit and containsText', () => {
  it.each([
    ['Release notes', 'NOTES', { line: 'Release notes', match: { start: 8, end: 13 } }],
    ['Release notes', 'zzz', null],
    [null, 'x', null],
  ])('%j / %j', (name, term, out) => {
    expect(nameHit(name, term)).toEqual(out);
  });
  it.each([
    ['Hello World', 'world', true],
    ['Hello', 'bye', false],
    [null, 'x', false],
  ])('containsText(%j, %j) = %s', (hay, needle, out) => {
    expect(containsText(hay, needle)).toBe(out);
  });
});
