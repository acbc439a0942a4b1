/**
 * Every route's authorisation matrix, generated from the route table: no token, a wrong token, the
 * agent token of the targeted chat, the agent token of another chat, and the owner token. Each route
 * is called with its first successful documented example (its `from` left out: the token speaks for
 * the caller) against a fresh fake core; a call that is allowed must answer 200 with a body its
 * schema accepts, one that is not must answer 401 / 403 without touching the core. The owner-only
 * fields of `/turn` (`reply`, `plain`, `files`, `{path, from}` files) get the same five callers.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { routes, type Route } from '../../src/main/api/routes';
import type { CallerClass } from '../../src/main/api/auth';
import { createFakeApiCore, type FakeApiCore } from './fakeApiCore';
import { apiDirs, call, startTestApi, type ApiDirs, type TestApi } from './helpers';

const CALLERS = ['no token', 'wrong token', 'agent of the chat', 'agent of another chat', 'owner'] as const;
type Who = (typeof CALLERS)[number];

let dirs: ApiDirs;
let fake: FakeApiCore;
let t: TestApi;

beforeEach(async () => {
  dirs = await apiDirs();
  await writeFile(join(dirs.outside, 'chart.png'), Buffer.alloc(48213, 7));
  fake = createFakeApiCore();
  t = await startTestApi(fake.core, dirs);
});

afterEach(async () => {
  await t.api.close();
  await dirs.cleanup();
});

/** The request a route is tried with: its first 2xx example, `from` removed, local paths for files. */
function requestOf(route: Route): { query?: Record<string, string>; body?: Record<string, unknown> } {
  const ex = route.examples.find((e) => e.status === 200);
  if (!ex) throw new Error(`route ${route.path} has no 200 example`);
  const body = ex.body === undefined ? undefined : { ...(ex.body as Record<string, unknown>) };
  if (body) delete body.from;
  if (route.path === '/send-media' && body) body.path = join(dirs.outside, 'chart.png');
  return { ...(ex.query ? { query: ex.query } : {}), ...(body ? { body } : {}) };
}

function targetOf(req: ReturnType<typeof requestOf>): string | null {
  const key = req.body?.key ?? req.query?.key;
  return typeof key === 'string' ? key : null;
}

/** The caller class the table says this caller has for this request (null: no valid token). */
function classOf(who: Who, target: string | null): CallerClass | null {
  if (who === 'no token' || who === 'wrong token') return null;
  if (who === 'owner') return 'owner';
  const chat = who === 'agent of the chat' ? (target ?? 'coder') : 'research';
  return chat === target ? 'chat' : 'peer';
}

function tokenOf(who: Who, target: string | null): string | null {
  if (who === 'no token') return null;
  if (who === 'wrong token') return 'not-a-token-of-this-angelia-0123456789';
  if (who === 'owner') return t.owner;
  return t.tokenFor(who === 'agent of the chat' ? (target ?? 'coder') : 'research');
}

const protectedRoutes = routes.filter((r) => r.access !== 'public');

describe('authorisation matrix (from the route table)', () => {
  it('covers every route that needs a token, and the others answer without one', async () => {
    expect(protectedRoutes.length).toBeGreaterThanOrEqual(10);
    for (const r of routes.filter((x) => x.access === 'public')) {
      const res = await call(dirs.socket, r.method, r.path);
      expect(res.status, r.path).toBe(200);
    }
  });

  for (const route of protectedRoutes) {
    for (const who of CALLERS) {
      it(`${route.method} ${route.path} — ${who}`, async () => {
        const req = requestOf(route);
        const target = targetOf(req);
        const cls = classOf(who, target);
        const path = req.query ? `${route.path}?${new URLSearchParams(req.query).toString()}` : route.path;
        const res = await call(dirs.socket, route.method, path, {
          token: tokenOf(who, target),
          ...(req.body ? { body: req.body } : {}),
          sse: route.kind === 'sse',
        });
        const allowed = cls !== null && route.access !== 'public' && route.access.includes(cls);
        if (cls === null) {
          expect(res.status).toBe(401);
          expect(res.body).toMatchObject({ code: 'unauthorized' });
        } else if (!allowed) {
          expect(res.status).toBe(403);
          expect(res.body).toMatchObject({ code: 'forbidden' });
        } else {
          expect(res.status, res.text).toBe(200);
          if (route.kind === 'sse') expect(res.type).toMatch(/^text\/event-stream/);
          else expect(route.response.safeParse(res.body).success, res.text).toBe(true);
        }
        if (!allowed) {
          expect(fake.posts).toEqual([]);
          expect(fake.turns).toEqual([]);
          expect(fake.asks).toEqual([]);
          expect(fake.answers).toEqual([]);
          expect(fake.accountCalls).toEqual([]);
        }
      });
    }
  }
});

/** `/turn` bodies with an owner-only field (paths filled in per test). */
const OWNER_FIELDS: Record<string, (chart: string) => Record<string, unknown>> = {
  'reply: caller': () => ({ key: 'coder', text: 'List the failing tests.', reply: 'caller' }),
  plain: () => ({ key: 'coder', text: '/compact as typed', plain: true }),
  'files (a path)': (chart) => ({ key: 'coder', text: 'Look at this.', files: [chart] }),
  'files ({path, from})': (chart) => ({ key: 'coder', text: 'Look at this.', files: [{ path: chart, from: 'research' }] }),
};

describe('authorisation matrix of the owner-only fields of /turn', () => {
  for (const [field, body] of Object.entries(OWNER_FIELDS)) {
    for (const who of CALLERS) {
      it(`POST /turn with ${field} — ${who}`, async () => {
        const res = await call(dirs.socket, 'POST', '/turn', { token: tokenOf(who, 'coder'), body: body(join(dirs.outside, 'chart.png')) });
        const cls = classOf(who, 'coder');
        if (cls === null) {
          expect(res.status).toBe(401);
        } else if (cls !== 'owner') {
          expect(res.status, res.text).toBe(403);
          expect(res.body).toEqual({ error: 'only the owner gives a turn with reply, plain or files', code: 'forbidden' });
        } else {
          expect(res.status, res.text).toBe(200);
          expect(fake.turns).toHaveLength(1);
          expect(fake.turns[0]?.app).toBe(field === 'reply: caller');
          if (field === 'plain') expect(fake.turns[0]?.text).toBe('/compact as typed');
          if (field.startsWith('files')) expect(fake.attached).toEqual([{ chatId: 'coder', name: 'chart.png', size: 48213 }]);
        }
        if (cls !== 'owner') {
          expect(fake.turns).toEqual([]);
          expect(fake.attached).toEqual([]);
        }
      });
    }
  }
});
