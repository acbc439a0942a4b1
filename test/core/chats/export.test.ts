/**
 * Export formatting from recorded thread JSON: the turns below are what codex 0.169.0 answered to
 * `thread/turns/list {itemsView:"full", sortDirection:"asc"}` after scripted turns (a message, a command,
 * a patch), trimmed of nothing but ids. The connection is a fake that serves them page by page.
 */
import { describe, expect, it } from 'vitest';
import type { CodexConnection } from '../../../src/main/core/codex/connection';
import { scripted } from '../../fixtures/scriptedRequest';
import type { SessionRow } from '../../../src/main/core/chats/sessions';
import { chronological, readSessionRows, readThreadTurns, toJsonl, toMarkdown, turnRows, type ExportRow } from '../../../src/main/core/chats/export';
import { toolName, userText } from '../../../src/main/core/codex/turns';
import { pickSession } from '../../../src/main/cli/commands/export';

const T = '01a22e5d-dece-7590-ba9e-81318aee4a3f';
const ctx = { chat: 'coder', profile: 'coder', session: T };

const turn1 = {
  id: '01a22e5d-ee70-7e83-b68f-31d355898149',
  rootTurnId: '01a22e5d-ee70-7e83-b68f-31d355898149',
  items: [
    {
      type: 'userMessage',
      id: 'u1',
      clientId: null,
      content: [{ type: 'text', text: 'first question', text_elements: [] }],
      startedAtMs: 1796074238137,
      completedAtMs: 1796074238137,
    },
    {
      type: 'agentMessage',
      moderation: null,
      id: 'msg_1',
      text: 'first answer',
      phase: null,
      memoryCitation: null,
      delivery: null,
      questions: null,
      startedAtMs: 1796074238277,
      completedAtMs: 1796074238277,
    },
  ],
  itemsView: 'full',
  status: 'completed',
  error: null,
  startedAt: 1796074237,
  completedAt: 1796074238,
  durationMs: 355,
};
const turn2 = {
  id: '01a22e5d-f17d-7c93-95ef-bc5b715a0edf',
  rootTurnId: '01a22e5d-f17d-7c93-95ef-bc5b715a0edf',
  items: [
    {
      type: 'userMessage',
      id: 'u2',
      clientId: null,
      content: [{ type: 'text', text: 'run echo', text_elements: [] }],
      startedAtMs: 1796074238654,
      completedAtMs: 1796074238654,
    },
    {
      type: 'commandExecution',
      id: 'call_1',
      pluginId: null,
      scriptPath: null,
      command: "/bin/bash -c 'echo hi'",
      cwd: '/w/coder',
      processId: '44267',
      source: 'unifiedExecStartup',
      status: 'completed',
      commandActions: [{ type: 'unknown', command: 'echo hi' }],
      aggregatedOutput: 'hi\n',
      exitCode: 0,
      durationMs: 146,
      startedAtMs: 1796074239100,
      completedAtMs: 1796074239246,
    },
    {
      type: 'agentMessage',
      moderation: null,
      id: 'msg_2',
      text: 'ran it',
      phase: null,
      memoryCitation: null,
      delivery: null,
      questions: null,
      startedAtMs: 1796074239371,
      completedAtMs: 1796074239372,
    },
  ],
  itemsView: 'full',
  status: 'completed',
  error: null,
  startedAt: 1796074238,
  completedAt: 1796074239,
  durationMs: 873,
};
const turn3 = {
  id: '01a22e5e-5598-7460-952a-e5f1401b518a',
  rootTurnId: null,
  items: [
    {
      type: 'userMessage',
      id: 'u3',
      clientId: null,
      content: [
        { type: 'text', text: 'patch it', text_elements: [] },
        { type: 'localImage', path: '/w/shot.png' },
      ],
    },
    { type: 'reasoning', id: 'r1', summary: ['thinking'], content: [] },
    { type: 'agentMessage', id: 'msg_3', text: 'before patch', phase: null },
    {
      type: 'fileChange',
      id: 'call_2',
      changes: [{ path: '/w/coder/note.txt', kind: { type: 'add' }, diff: 'hello\n' }],
      status: 'completed',
      startedAtMs: 1796074265233,
      completedAtMs: 1796074265937,
    },
    { type: 'agentMessage', id: 'msg_4', text: 'patched', phase: null },
  ],
  itemsView: 'full',
  status: 'completed',
  error: null,
  startedAt: 1796074264,
  completedAt: 1796074266,
  durationMs: 1130,
};

const iso = (s: number) => new Date(s * 1000).toISOString();

/** A CodexConnection serving `pages` (or throwing `fail`) to thread/turns/list, recording every request. */
function fakeConn(
  pages: Record<string, Array<{ data: unknown[]; nextCursor: string | null }>>,
  opts: { fail?: Record<string, string>; version?: string } = {},
) {
  const requests: Array<{ method: string; params: Record<string, unknown> }> = [];
  const conn: CodexConnection = {
    version: opts.version ?? '0.169.0',
    request: scripted(async (method, params) => {
      const p = params as Record<string, unknown>;
      requests.push({ method, params: p });
      const tid = String(p.threadId);
      if (opts.fail?.[tid]) throw new Error(opts.fail[tid]);
      const list = pages[tid] ?? [];
      const index = p.cursor ? Number(JSON.parse(String(p.cursor)).page) : 0;
      return { ...list[index], backwardsCursor: null };
    }),
    onServerRequest: () => undefined,
    onEvent: () => undefined,
    exited: new Promise(() => undefined),
    stop: async () => undefined,
    kill: () => undefined,
  };
  return { conn, requests };
}
const cursor = (page: number) => JSON.stringify({ requestedThreadId: T, page });

describe('turnRows', () => {
  it('gives the user row at the turn start and the assistant row at its end', () => {
    const { rows, unknown } = turnRows(turn1, ctx, { tools: false });
    expect(unknown).toEqual([]);
    expect(rows).toEqual([
      { ts: iso(1796074237), chat: 'coder', profile: 'coder', backend: 'codex', session: T, role: 'user', text: 'first question' },
      { ts: iso(1796074238), chat: 'coder', profile: 'coder', backend: 'codex', session: T, role: 'assistant', text: 'first answer' },
    ]);
  });

  it('names the tools on the assistant row, and with tools adds the command and its output as a tool row', () => {
    expect(turnRows(turn2, ctx, { tools: false }).rows.map((r) => [r.role, r.text, r.tools])).toEqual([
      ['user', 'run echo', undefined],
      ['assistant', 'ran it', ['shell']],
    ]);
    const withTools = turnRows(turn2, ctx, { tools: true }).rows;
    expect(withTools.map((r) => r.role)).toEqual(['user', 'tool', 'assistant']);
    expect(withTools[1]).toMatchObject({
      role: 'tool',
      text: "$ /bin/bash -c 'echo hi'\nhi\n[exit 0]",
      tools: ['shell'],
      ts: new Date(1796074239100).toISOString(),
    });
  });

  it('joins agent messages with a blank line, shows images as [image], skips reasoning and renders a diff', () => {
    const { rows, unknown } = turnRows(turn3, ctx, { tools: true });
    expect(unknown).toEqual([]);
    expect(rows.map((r) => [r.role, r.text])).toEqual([
      ['user', 'patch it\n[image]'],
      ['tool', 'add /w/coder/note.txt\nhello'],
      ['assistant', 'before patch\n\npatched'],
    ]);
    expect(rows[2]?.tools).toEqual(['apply_patch']);
  });

  it('counts items it does not understand, and says when a turn failed or was interrupted', () => {
    const failed = { ...turn1, status: 'failed', error: { message: 'Usage limit reached' }, items: [turn1.items[0], { type: 'hologram', id: 'h' }, 42] };
    const out = turnRows(failed, ctx, { tools: false });
    expect(out.unknown).toEqual(['hologram', '(no type)']);
    expect(out.rows.map((r) => [r.role, r.text])).toEqual([
      ['user', 'first question'],
      ['assistant', '[turn failed: Usage limit reached]'],
    ]);
    expect(turnRows({ ...turn1, status: 'interrupted' }, ctx, { tools: false }).rows[1]?.text).toBe('first answer\n\n[turn interrupted]');
  });

  it('leaves ts null when Codex recorded no time', () => {
    const rows = turnRows({ ...turn1, startedAt: null, completedAt: null }, ctx, { tools: false }).rows;
    expect(rows.map((r) => r.ts)).toEqual([null, null]);
  });
});

describe('tool names and user text', () => {
  it('maps each tool item kind to the name the model knows', () => {
    expect(toolName({ type: 'commandExecution' })).toBe('shell');
    expect(toolName({ type: 'fileChange' })).toBe('apply_patch');
    expect(toolName({ type: 'webSearch' })).toBe('web_search');
    expect(toolName({ type: 'imageView' })).toBe('view_image');
    expect(toolName({ type: 'imageGeneration' })).toBe('image_generation');
    expect(toolName({ type: 'mcpToolCall', server: 'docs', tool: 'search' })).toBe('docs.search');
    expect(toolName({ type: 'dynamicToolCall', tool: 'lookup', namespace: null })).toBe('lookup');
    expect(toolName({ type: 'collabAgentToolCall', tool: 'spawnAgent' })).toBe('spawn_agent');
    expect(toolName({ type: 'agentMessage' })).toBeNull();
  });

  it('renders other tool rows with their arguments and results', () => {
    const mcp = {
      type: 'mcpToolCall',
      id: 'm',
      server: 'docs',
      tool: 'search',
      status: 'completed',
      arguments: { q: 'x' },
      result: { content: [{ type: 'text', text: 'found' }] },
      error: null,
    };
    const turn = { ...turn1, items: [turn1.items[0], mcp, { type: 'webSearch', id: 'w', query: 'codex', action: null, results: null }] };
    const rows = turnRows(turn, ctx, { tools: true }).rows;
    expect(rows.filter((r) => r.role === 'tool').map((r) => r.text)).toEqual(['docs.search {"q":"x"}\nfound', 'web_search codex']);
    expect(rows.at(-1)).toMatchObject({ role: 'assistant', text: '', tools: ['docs.search', 'web_search'] });
  });

  it('reads user input parts', () => {
    expect(
      userText([
        { type: 'text', text: 'a' },
        { type: 'image', url: 'https://x' },
        { type: 'mention', name: 'f', path: '/f' },
      ]),
    ).toBe('a\n[image]\n[@f]');
    expect(userText(null)).toBe('');
  });
});

describe('readSessionRows', () => {
  it('pages thread/turns/list oldest first with itemsView full and never calls anything else', async () => {
    const { conn, requests } = fakeConn({
      [T]: [
        { data: [turn1], nextCursor: cursor(1) },
        { data: [turn2], nextCursor: cursor(2) },
        { data: [turn3], nextCursor: null },
      ],
    });
    const { rows, warnings, failed } = await readSessionRows(
      conn,
      [{ id: T, threadId: T, label: 'first question' }],
      { chat: 'coder', profile: 'coder' },
      { tools: false, pageSize: 1 },
    );
    expect(warnings).toEqual([]);
    expect(failed).toEqual([]);
    expect(rows.map((r) => `${r.role}:${r.text}`)).toEqual([
      'user:first question',
      'assistant:first answer',
      'user:run echo',
      'assistant:ran it',
      'user:patch it\n[image]',
      'assistant:before patch\n\npatched',
    ]);
    expect(requests.map((r) => r.method)).toEqual(['thread/turns/list', 'thread/turns/list', 'thread/turns/list']);
    expect(requests[0]?.params).toEqual({ threadId: T, itemsView: 'full', sortDirection: 'asc', limit: 1 });
    expect(requests[2]?.params).toEqual({ threadId: T, itemsView: 'full', sortDirection: 'asc', limit: 1, cursor: cursor(2) });
  });

  it('skips a session without a thread, names a thread Codex cannot read, and warns about an empty one', async () => {
    const other = '01a22e5e-0000-7000-8000-000000000000';
    const empty = '01a22e5e-1111-7000-8000-100000000000';
    const { conn } = fakeConn(
      { [empty]: [{ data: [], nextCursor: null }], [T]: [{ data: [turn1], nextCursor: null }] },
      { fail: { [other]: `thread not loaded: ${other}` } },
    );
    const sessions = [
      { id: 'aaaaaaaa-new', threadId: null, label: '' },
      { id: other, threadId: other, label: 'gone' },
      { id: empty, threadId: empty, label: 'nothing' },
      { id: T, threadId: T, label: 'first question' },
    ];
    const { rows, warnings, notes, failed } = await readSessionRows(conn, sessions, { chat: 'coder', profile: 'coder' }, { tools: false });
    expect(rows).toHaveLength(2);
    expect(failed).toEqual([other]);
    // A session with no thread has no turns yet: a note, not a warning.
    expect(notes).toEqual(['session …aaaa-new has no turns yet: nothing to export from it']);
    expect(warnings).toHaveLength(2);
    // The two ids share their last 11 characters, so their short ids grow until they differ.
    expect(warnings[0]).toContain(`session …000000000000 ("gone"): Codex could not read thread ${other}: thread not loaded: ${other}`);
    expect(warnings[0]).toContain('rollout file was removed');
    expect(warnings[1]).toBe(`session …100000000000 ("nothing"): Codex returned no turns for thread ${empty}; nothing exported from it`);
  });

  it('counts items not understood in one warning naming their kinds and the Codex version', async () => {
    const odd = { ...turn1, items: [...turn1.items, { type: 'hologram', id: 'h1' }, { type: 'hologram', id: 'h2' }, { type: 'séance', id: 's' }] };
    const { conn } = fakeConn({ [T]: [{ data: [odd], nextCursor: null }] }, { version: '0.180.0' });
    const { rows, warnings } = await readSessionRows(conn, [{ id: T, threadId: T, label: 'q' }], { chat: 'c', profile: 'p' }, { tools: false });
    expect(rows).toHaveLength(2);
    expect(warnings).toEqual([
      `session …8aee4a3f ("q"): 3 items not understood (hologram ×2, séance), left out: Codex 0.180.0 may be newer than this Angelia supports (codex 0.171.0)`,
    ]);
  });

  it('warns when every item of the turns is unknown, so the session never vanishes silently', async () => {
    const { conn } = fakeConn({ [T]: [{ data: [{ ...turn1, items: [{ type: 'hologram', id: 'h' }] }], nextCursor: null }] });
    const { rows, warnings } = await readSessionRows(conn, [{ id: T, threadId: T, label: '' }], { chat: 'c', profile: 'p' }, { tools: false });
    expect(rows).toEqual([]);
    expect(warnings[1]).toBe(`session …8aee4a3f: 1 turn read from thread ${T}, but none held anything to export`);
  });

  it('stops paging when Codex repeats a cursor', async () => {
    const { conn, requests } = fakeConn({
      [T]: [
        { data: [turn1], nextCursor: cursor(1) },
        { data: [turn2], nextCursor: cursor(1) },
      ],
    });
    const { turns, warnings } = await readThreadTurns(conn, T, { pageSize: 1 });
    expect(turns).toHaveLength(2);
    expect(requests).toHaveLength(2);
    expect(warnings[0]).toMatch(/repeated a page cursor after 2 turns/);
  });

  it('with no connection, only sessions without a thread can be exported', async () => {
    const r = await readSessionRows(
      null,
      [
        { id: 'x', threadId: null, label: '' },
        { id: T, threadId: T, label: '' },
      ],
      { chat: 'c', profile: 'p' },
      { tools: false },
    );
    expect(r.failed).toEqual([T]);
    expect(r.warnings).toHaveLength(1);
    expect(r.notes).toEqual(['session x has no turns yet: nothing to export from it']);
  });
});

describe('formats', () => {
  const rows: ExportRow[] = [...turnRows(turn1, ctx, { tools: true }).rows, ...turnRows(turn2, ctx, { tools: true }).rows];

  it('JSONL: one object a line, keys in the order ts, chat, profile, backend, session, role, text, tools; tools only when there are any', () => {
    const text = toJsonl(rows);
    const lines = text.split('\n');
    expect(lines).toHaveLength(6);
    expect(lines.at(-1)).toBe('');
    expect(lines[0]).toBe(
      `{"ts":"${iso(1796074237)}","chat":"coder","profile":"coder","backend":"codex","session":"${T}","role":"user","text":"first question"}`,
    );
    expect(JSON.parse(lines[4] ?? '')).toMatchObject({ role: 'assistant', text: 'ran it', tools: ['shell'] });
    expect(toJsonl([])).toBe('');
  });

  it('Markdown: a heading per session, You/Agent blocks, tool rows fenced', () => {
    const md = toMarkdown(rows, {
      chat: 'coder',
      profile: 'coder',
      sessions: [
        { id: T, threadId: T, label: 'first question' },
        { id: 'bbbbbbbb-2', threadId: null, label: '' },
      ],
    });
    expect(md).toBe(
      [
        '# Chat `coder` (profile `coder`)',
        '',
        '## first question',
        '',
        `Session \`${T}\` · thread \`${T}\` · 2026-11-30 21:30:37 UTC`,
        '',
        '**You** · 2026-11-30 21:30:37 UTC',
        '',
        'first question',
        '',
        '**Agent** · 2026-11-30 21:30:38 UTC',
        '',
        'first answer',
        '',
        '**You** · 2026-11-30 21:30:38 UTC',
        '',
        'run echo',
        '',
        '**Tool** `shell` · 2026-11-30 21:30:39 UTC',
        '',
        '```text',
        "$ /bin/bash -c 'echo hi'",
        'hi',
        '[exit 0]',
        '```',
        '',
        '**Agent** · 2026-11-30 21:30:39 UTC · tools: `shell`',
        '',
        'ran it',
        '',
        '## Session …bbbbbb-2',
        '',
        'Session `bbbbbbbb-2` · thread (none yet)',
        '',
        '_No turns yet._',
        '',
      ].join('\n'),
    );
  });

  it('Markdown: a fence longer than any backtick run inside a tool row', () => {
    const row: ExportRow = {
      ts: null,
      chat: 'c',
      profile: 'p',
      backend: 'codex',
      session: 's',
      role: 'tool',
      text: '$ cat x.md\n```js\n1\n```',
      tools: ['shell'],
    };
    const md = toMarkdown([row], { chat: 'c', profile: 'p', sessions: [{ id: 's', threadId: 't', label: 'L' }] });
    expect(md).toContain('````text\n$ cat x.md\n```js\n1\n```\n````');
  });
});

describe('pickSession (--session)', () => {
  const row = (id: string, label = ''): SessionRow => ({
    id,
    threadId: id,
    created_at: '',
    last_used_at: '',
    turns: 1,
    started: true,
    label,
    enforcement: null,
    model: null,
    effort: null,
  });
  // UUIDv7 thread ids made seconds apart: the first 8 characters are the same.
  const rows = [row('01a22f64-a2d2-7c80-895c-c7f1a3d8fb2e'), row('01a22f64-b7d0-7b53-ab4d-bb2386d9dca0'), row('01a23999-0000-7000-8000-0000000c0003', 'third')];
  it('takes the start or the end of an id (at least 5 characters), the short id as shown, and says when it is ambiguous', () => {
    expect(pickSession(rows, '01A22F64-B')).toEqual({ row: rows[1] });
    expect(pickSession(rows, 'a3d8fb2e')).toEqual({ row: rows[0] });
    expect(pickSession(rows, '…86d9dca0')).toEqual({ row: rows[1] });
    expect(pickSession(rows, '9999')).toEqual({ error: expect.stringMatching(/"9999" is too short: give at least 5 characters/) });
    expect(pickSession(rows, '01a22f64')).toEqual({ error: '"01a22f64" is ambiguous: matches 2 sessions (…a3d8fb2e, …86d9dca0); give the id as listed.' });
    expect(pickSession(rows, 'fffff')).toEqual({
      error: 'No session of this chat matches "fffff". Its sessions: …a3d8fb2e, …86d9dca0, …000c0003 "third" (e.g. --session a3d8fb2e).',
    });
  });
});

describe('chronological', () => {
  it("orders turns by startedAt, keeps ties in Codex's order, and leaves the order alone when a turn has no time", () => {
    const a = { id: 'a', startedAt: 30 };
    const b = { id: 'b', startedAt: 10 };
    const c = { id: 'c', startedAt: 10 };
    expect(chronological([a, b, c])).toEqual([b, c, a]);
    expect(chronological([a, { id: 'x' }, b])).toEqual([a, { id: 'x' }, b]);
  });

  it('readSessionRows exports a thread Codex listed newest first in chronological order', async () => {
    const { conn } = fakeConn({ [T]: [{ data: [turn2, turn1], nextCursor: null }] });
    const { rows } = await readSessionRows(conn, [{ id: T, threadId: T, label: '' }], { chat: 'c', profile: 'p' }, { tools: false });
    expect(rows.map((r) => r.text)).toEqual(['first question', 'first answer', 'run echo', 'ran it']);
  });
});

describe('an empty session', () => {
  it('Markdown keeps its heading and says "No turns yet"; JSON Lines has no row and the note says why', async () => {
    const empty = { id: '01a22f65-37d0-7b53-ab4d-bb2386d9dca0', threadId: null, label: '' };
    const r = await readSessionRows(null, [empty], { chat: 'coder', profile: 'coder' }, { tools: false });
    expect(r).toEqual({ rows: [], warnings: [], failed: [], notes: ['session …86d9dca0 has no turns yet: nothing to export from it'] });
    expect(toMarkdown(r.rows, { chat: 'coder', profile: 'coder', sessions: [empty] })).toBe(
      ['# Chat `coder` (profile `coder`)', '', '## Session …86d9dca0', '', `Session \`${empty.id}\` · thread (none yet)`, '', '_No turns yet._', ''].join('\n'),
    );
    expect(toJsonl(r.rows)).toBe('');
  });
});
