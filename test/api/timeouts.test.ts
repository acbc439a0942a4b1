/**
 * Request timeouts of the API socket (api/server.ts REQUEST_TIMEOUT_MS, 30 s; shorter here): a request
 * whose body does not arrive whole in time is answered 408 `request-timeout` (JSON) and its connection
 * closed; a body the handler never reads does not hold the connection open either (Node's backstop);
 * a body sent slowly but in time is served; and the event stream (`GET /events`), whose request has no
 * body, stays open past every timeout and keeps delivering events. Raw sockets, so the test controls
 * every byte sent.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/main/api/openapi';
import { routes } from '../../src/main/api/routes';
import { HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS } from '../../src/main/api/server';
import { createFakeApiCore, type FakeApiCore } from './fakeApiCore';
import { apiDirs, startTestApi, type ApiDirs, type TestApi } from './helpers';

const TIMEOUT_MS = 400;

let dirs: ApiDirs;
beforeAll(async () => {
  dirs = await apiDirs();
});
afterAll(() => dirs.cleanup());

const running: TestApi[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  for (const t of running.splice(0)) await t.api.close();
});

async function serve(extra: Parameters<typeof startTestApi>[2] = {}): Promise<{ t: TestApi; fake: FakeApiCore }> {
  const fake = createFakeApiCore();
  const t = await startTestApi(fake.core, dirs, { requestTimeoutMs: TIMEOUT_MS, ...extra });
  running.push(t);
  return { t, fake };
}

/** A raw connection to the API socket: everything it receives, and a promise of its close. */
function open(): Promise<{
  socket: Socket;
  received: () => string;
  closed: Promise<void>;
  waitFor(re: RegExp | ((text: string) => boolean)): Promise<string>;
}> {
  return new Promise((resolve, reject) => {
    const socket = connect({ path: dirs.socket });
    sockets.push(socket);
    let text = '';
    const waiters: { ok: (t: string) => boolean; done: (t: string) => void }[] = [];
    socket.setEncoding('utf8');
    socket.on('data', (c: string) => {
      text += c;
      for (const w of waiters.splice(0)) {
        if (w.ok(text)) w.done(text);
        else waiters.push(w);
      }
    });
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    socket.once('error', reject);
    socket.once('connect', () =>
      resolve({
        socket,
        received: () => text,
        closed,
        waitFor: (want) =>
          new Promise((done) => {
            const ok = typeof want === 'function' ? want : (t: string): boolean => want.test(t);
            if (ok(text)) done(text);
            else waiters.push({ ok, done });
          }),
      }),
    );
  });
}

function head(method: string, path: string, token: string | null, length: number | null): string {
  return `${method} ${path} HTTP/1.1\r\nHost: localhost\r\n${token ? `Authorization: Bearer ${token}\r\n` : ''}${length !== null ? `Content-Type: application/json\r\nContent-Length: ${length}\r\n` : ''}\r\n`;
}

describe('a request must arrive whole in time', () => {
  it('the documented defaults: the head within 10 s, the body within 30 s', () => {
    expect(HEADERS_TIMEOUT_MS).toBe(10_000);
    expect(REQUEST_TIMEOUT_MS).toBe(30_000);
  });

  it('a body that stops half way is answered 408 (JSON) and the connection is closed; nothing is posted', async () => {
    const { t, fake } = await serve();
    const c = await open();
    const body = JSON.stringify({ key: 'coder', text: 'never finished' });
    c.socket.write(head('POST', '/send', t.owner, body.length + 20) + body);
    await c.closed;
    const answer = c.received();
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toMatch(/\r\nconnection: close\r\n/i);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({
      error: `the request did not arrive whole within ${TIMEOUT_MS / 1000} s; send the body at once`,
      code: 'request-timeout',
    });
    expect(fake.posts).toEqual([]);
  });

  it('a body the handler never reads (a GET, a refused token) does not hold the connection open', async () => {
    await serve();
    for (const [method, path, token] of [
      ['GET', '/healthz', null],
      ['POST', '/send', 'x'.repeat(32)],
    ] as const) {
      const c = await open();
      c.socket.write(`${head(method, path, token, 100)}{"partial":`);
      await c.closed;
      // Answered at once (200, 401); the unread rest of the body then ends the connection (Node's backstop).
      expect(c.received(), `${method} ${path}`).toMatch(method === 'GET' ? /^HTTP\/1\.1 200 / : /^HTTP\/1\.1 401 /);
    }
  });

  it('a body sent in pieces within the time is served', async () => {
    const { t, fake } = await serve({ requestTimeoutMs: 5_000 });
    const c = await open();
    const body = JSON.stringify({ key: 'coder', text: 'slow but in time' });
    c.socket.write(head('POST', '/send', t.owner, Buffer.byteLength(body)) + body.slice(0, 10));
    await new Promise((r) => setTimeout(r, 200));
    c.socket.write(body.slice(10));
    const answer = await c.waitFor(/\r\n\r\n\{.*\}$/s);
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(fake.posts.at(-1)?.post.text).toBe('slow but in time');
  });
});

describe('the OpenAPI document', () => {
  it('names 408 for every route that takes a body, and the timeouts in its description', () => {
    const doc = openApiDocument(routes) as { info: { description: string }; paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    for (const r of routes.filter((x) => x.body)) expect(Object.keys(doc.paths[r.path]![r.method.toLowerCase()]!.responses), r.path).toContain('408');
    expect(doc.info.description).toContain("within 30 s of the request's head (408 `request-timeout`");
  });
});

describe('the event stream is not timed', () => {
  it('stays open well past the request timeout and its backstop, pinging, and still delivers events', async () => {
    const { t, fake } = await serve({ pingMs: 50 });
    const c = await open();
    c.socket.write(head('GET', '/events?key=coder', t.owner, null));
    await c.waitFor(/^HTTP\/1\.1 200 [\s\S]*text\/event-stream/);
    // Three times the request timeout (twice its backstop) in pings, with the connection open throughout.
    const pings = Math.ceil((3 * TIMEOUT_MS) / 50) + 2;
    await c.waitFor((text) => text.split(': ping\n\n').length > pings);
    expect(c.socket.destroyed).toBe(false);
    fake.emit({ event: 'out', key: 'coder', at: '2025-06-01T00:00:00.000Z', turn: null, text: 'still here' });
    const text = await c.waitFor(/still here/);
    expect(text).toContain(
      `event: out\ndata: ${JSON.stringify({ event: 'out', key: 'coder', at: '2025-06-01T00:00:00.000Z', turn: null, text: 'still here' })}`,
    );
    expect(text).not.toMatch(/ 408 /);
  });
});
