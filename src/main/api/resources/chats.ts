/**
 * The loopback API's chat routes (routes.ts holds the table): the event stream `/events`, a chat's
 * `/sessions` and its recent `/history` as this process saw it.
 */
import { z } from 'zod';
import type { ChatItem } from '../../../shared/contract';
import { ApiEventSchema } from '../core';
import { ApiError } from '../errors';
import { chatKey, EX_SESSION, EX_TURN, json, KeyQuery, type StreamRoute } from '../routeKit';

const EventsQuery = z.object({ key: chatKey.optional() }).strict();

const HistoryQuery = z
  .object({
    key: chatKey,
    session: z.string().min(1).max(200).optional().describe('must be the active session (the only one kept here)'),
    limit: z
      .string()
      .regex(/^(?:[1-9][0-9]?|[1-4][0-9]{2}|500)$/, { error: 'must be a whole number from 1 to 500' })
      .optional()
      .describe('items per page, 1–500 (default 50); anything else is refused (400)'),
    before: z
      .string()
      .regex(/^[0-9]{1,9}$/)
      .optional()
      .describe('the cursor of the previous page'),
  })
  .strict();

const SessionRow = z
  .object({ id: z.string(), threadId: z.string().nullable(), label: z.string(), turns: z.number().int(), lastUsedAt: z.string(), active: z.boolean() })
  .strict();

const Sessions = z.object({ active: z.string().nullable(), sessions: z.array(SessionRow) }).strict();

const HistoryItem = z.object({ role: z.enum(['user', 'assistant', 'tool']), text: z.string(), tools: z.array(z.string()).optional() }).strict();

const History = z
  .object({
    session: z.string().nullable(),
    supported: z.boolean(),
    items: z.array(HistoryItem),
    more: z.boolean(),
    cursor: z.string().optional().describe('pass as `before` for the older page'),
  })
  .strict();

function historyOf(item: ChatItem): z.infer<typeof HistoryItem> | null {
  if (item.type === 'user') return { role: 'user', text: item.text };
  if (item.type === 'agent') return { role: 'assistant', text: item.text };
  if (item.type === 'command') return { role: 'tool', text: item.output, tools: [item.command] };
  if (item.type === 'fileChange') return { role: 'tool', text: item.changes.map((c) => `${c.kind} ${c.path}\n${c.diff}`).join('\n'), tools: ['fileChange'] };
  return null;
}

/** `GET /events`: the API's event stream (SSE), one chat's or every chat's. */
export const eventsRoute: StreamRoute = {
  kind: 'sse',
  id: 'events',
  method: 'GET',
  path: '/events',
  access: ['owner'],
  summary: 'The event stream (SSE)',
  description:
    'Server-sent events: `turn`, `progress`, `out`, `permission`, `permission-answered`, `turn-end`, each a JSON object with `key` and `at` ' +
    "(and `turn`, the id `/turn` answered). `?key=` keeps one chat's. A `: ping` comment every 15 s; a client that lets over 1 MiB pile up unread is disconnected.",
  query: EventsQuery,
  body: null,
  response: ApiEventSchema,
  errors: {},
  examples: [
    {
      name: 'out',
      summary: 'one event (the `data:` line of `event: out`)',
      caller: 'owner',
      query: { key: 'coder' },
      status: 200,
      response: { event: 'out', key: 'coder', at: '2025-06-01T09:30:12.000Z', turn: EX_TURN, text: 'All 212 tests pass.' },
    },
  ],
  open: async (ctx, sink) => {
    const { key } = ctx.query as z.infer<typeof EventsQuery>;
    return ctx.deps.core.subscribe((e) => {
      if (key === undefined || e.key === key) sink(e);
    });
  },
};

/** `GET /sessions`: a chat's sessions, newest first. */
export const sessionsRoute = json({
  id: 'sessions',
  method: 'GET',
  path: '/sessions',
  access: ['owner'],
  summary: "A chat's sessions",
  description: 'The active session and the 10 most recently used, newest first.',
  query: KeyQuery,
  body: null,
  response: Sessions,
  errors: {},
  examples: [
    {
      name: 'one',
      summary: 'one session',
      caller: 'owner',
      query: { key: 'coder' },
      status: 200,
      response: {
        active: EX_SESSION,
        sessions: [
          { id: EX_SESSION, threadId: EX_SESSION, label: 'Run the tests and fix what fails.', turns: 3, lastUsedAt: '2025-06-01T09:30:12.000Z', active: true },
        ],
      },
    },
  ],
  handle: async (ctx) => {
    const sessions = await ctx.deps.core.sessions(ctx.query.key);
    return { active: sessions.find((s) => s.active)?.id ?? null, sessions };
  },
});

/** `GET /history`: the active session's messages as this process saw them, paged. */
export const historyRoute = json({
  id: 'history',
  method: 'GET',
  path: '/history',
  access: ['owner'],
  summary: "A chat's recent messages",
  description: "The active session's messages as this Angelia process saw them, newest page first (`angelia export` reads the whole history from Codex).",
  query: HistoryQuery,
  body: null,
  response: History,
  errors: {},
  examples: [
    {
      name: 'page',
      summary: 'the newest page',
      caller: 'owner',
      query: { key: 'coder', limit: '2' },
      status: 200,
      response: {
        session: EX_SESSION,
        supported: true,
        items: [
          { role: 'user', text: 'Run the tests.' },
          { role: 'assistant', text: 'All 212 tests pass.' },
        ],
        more: true,
        cursor: '4',
      },
    },
  ],
  handle: async (ctx) => {
    const { key, session, limit, before } = ctx.query;
    const active = (await ctx.deps.core.sessions(key)).find((s) => s.active)?.id ?? null;
    if (session !== undefined && session !== active)
      throw new ApiError(404, 'unknown-session', "only the active session's messages are kept here; `angelia export --session` reads older ones");
    const all = (await ctx.deps.core.items(key)).map(historyOf).filter((i): i is z.infer<typeof HistoryItem> => i !== null);
    const n = Number(limit ?? 50);
    const end = before === undefined ? all.length : Math.min(Number(before), all.length);
    const start = Math.max(0, end - n);
    return { session: active, supported: true, items: all.slice(start, end), more: start > 0, ...(start > 0 ? { cursor: String(start) } : {}) };
  },
});
