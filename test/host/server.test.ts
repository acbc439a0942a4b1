import { request } from 'node:http';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ATTACH_MAX_BYTES, WS_MAX_MESSAGE_BYTES, type AppEvent, type WsServerMessage } from '../../src/shared/contract';
import { CSP } from '../../src/main/electron/security';
import { startHost, type RunningHost } from '../../src/main/host/server';
import { createFakeCore, type FakeCore } from '../fixtures/fakeCore';

let dir: string;
let host: RunningHost;
let fake: FakeCore;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'angelia-host-'));
  const renderer = join(dir, 'renderer');
  await mkdir(join(renderer, 'assets'), { recursive: true });
  await writeFile(join(renderer, 'index.html'), '<!doctype html><title>Angelia test</title>');
  await writeFile(join(renderer, 'assets', 'app.js'), 'console.log("app")');
  await writeFile(join(renderer, 'assets', 'app.css'), 'body{}');
  await writeFile(join(dir, 'secret.txt'), 'TOP SECRET');
  await symlink(join(dir, 'secret.txt'), join(renderer, 'link.txt'));
  fake = createFakeCore({ step: 0 });
  host = await startHost({ core: fake.core, rendererDir: renderer, port: 0 });
});

afterAll(async () => {
  await host.close();
  await rm(dir, { recursive: true, force: true });
});

/** A raw HTTP GET with a chosen Host header and an unnormalised path. */
function get(path: string, hostHeader = `127.0.0.1:${host.port}`): Promise<{ status: number; type: string; body: string; csp: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: host.port, path, method: 'GET', headers: { host: hostHeader } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          type: String(res.headers['content-type'] ?? ''),
          body,
          csp: String(res.headers['content-security-policy'] ?? ''),
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

/** A raw HTTP request (POST /attach by default) with the given headers and body; the answer parsed as JSON when it is. */
function post(
  path: string,
  body: Buffer,
  headers: Record<string, string> = {},
  method = 'POST',
): Promise<{ status: number; json: unknown; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const length = headers['transfer-encoding'] === 'chunked' ? {} : { 'content-length': String(body.length) };
    const req = request({ host: '127.0.0.1', port: host.port, path, method, headers: { host: `127.0.0.1:${host.port}`, ...length, ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => {
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = text;
        }
        resolve({ status: res.statusCode ?? 0, json, headers: res.headers });
      });
    });
    // The host may answer (and close) before it read the whole body: that is the point of a refusal.
    req.on('error', (e: NodeJS.ErrnoException) => (e.code === 'EPIPE' || e.code === 'ECONNRESET' ? undefined : reject(e)));
    // In pieces, so a chunked body really streams.
    for (let at = 0; at < body.length; at += 1024 * 1024) req.write(body.subarray(at, at + 1024 * 1024));
    req.end();
  });
}

const bearer = (): Record<string, string> => ({ authorization: `Bearer ${host.token}` });

/** Opens a WebSocket; resolves with the socket when open, or the HTTP status when the upgrade is refused. */
function open(query: string, headers: Record<string, string> = {}): Promise<{ ws: WebSocket } | { refused: number }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}/ws${query}`, { headers });
    ws.once('open', () => resolve({ ws }));
    ws.once('unexpected-response', (_req, res) => {
      resolve({ refused: res.statusCode ?? 0 });
      ws.terminate();
    });
    ws.once('error', (e) => reject(e));
  });
}

async function connect(): Promise<{ ws: WebSocket; messages: WsServerMessage[]; next: (pred: (m: WsServerMessage) => boolean) => Promise<WsServerMessage> }> {
  const r = await open(`?token=${encodeURIComponent(host.token)}`);
  if (!('ws' in r)) throw new Error(`refused with ${r.refused}`);
  const messages: WsServerMessage[] = [];
  const waiters: Array<{ pred: (m: WsServerMessage) => boolean; resolve: (m: WsServerMessage) => void }> = [];
  r.ws.on('message', (data) => {
    const m = JSON.parse(data.toString()) as WsServerMessage;
    messages.push(m);
    for (const w of [...waiters]) {
      if (w.pred(m)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(m);
      }
    }
  });
  const next = (pred: (m: WsServerMessage) => boolean): Promise<WsServerMessage> => {
    const seen = messages.find(pred);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => waiters.push({ pred, resolve }));
  };
  return { ws: r.ws, messages, next };
}

const resultOf = (id: string | number) => (m: WsServerMessage) => m.type === 'result' && m.id === id;

describe('access', () => {
  it('prints a 127.0.0.1 URL carrying the token in the fragment', () => {
    expect(host.url).toBe(`http://127.0.0.1:${host.port}/#token=${host.token}`);
    expect(host.token.length).toBeGreaterThanOrEqual(32);
  });

  it('will not start with a guessable token', async () => {
    await expect(startHost({ core: fake.core, rendererDir: dir, token: 'abc' })).rejects.toThrow(/at least 16/);
  });

  it('refuses a WebSocket without a token', async () => {
    expect(await open('')).toEqual({ refused: 401 });
  });

  it('refuses a WebSocket with a wrong token', async () => {
    expect(await open(`?token=${host.token.slice(0, -1)}x`)).toEqual({ refused: 401 });
    expect(await open('?token=short')).toEqual({ refused: 401 });
  });

  it('refuses a foreign Host header (DNS rebinding), on the WebSocket and for files', async () => {
    expect(await open(`?token=${host.token}`, { host: `evil.example:${host.port}` })).toEqual({ refused: 421 });
    expect((await get('/', `evil.example:${host.port}`)).status).toBe(421);
    expect((await get('/', '127.0.0.1:1')).status).toBe(421);
  });

  it('refuses a foreign Origin and accepts its own', async () => {
    expect(await open(`?token=${host.token}`, { origin: 'http://evil.example' })).toEqual({ refused: 403 });
    const ok = await open(`?token=${host.token}`, { origin: `http://localhost:${host.port}`, host: `localhost:${host.port}` });
    expect('ws' in ok).toBe(true);
    if ('ws' in ok) ok.ws.close();
  });
});

describe('contract over the WebSocket', () => {
  it('answers an invoke with its result', async () => {
    const c = await connect();
    c.ws.send(JSON.stringify({ type: 'invoke', id: 1, channel: 'chats:list', input: {} }));
    const m = await c.next(resultOf(1));
    expect(m).toMatchObject({ type: 'result', id: 1, result: { ok: true, value: [{ id: 'demo', profile: 'demo', state: 'idle' }] } });
    c.ws.close();
  });

  it('answers an unknown channel, bad input and malformed messages with error results, and keeps serving', async () => {
    const c = await connect();
    c.ws.send(JSON.stringify({ type: 'invoke', id: 'a', channel: 'fs:read', input: {} }));
    c.ws.send(JSON.stringify({ type: 'invoke', id: 'b', channel: 'chats:send', input: { chatId: 'demo' } }));
    c.ws.send('not json');
    c.ws.send(JSON.stringify({ type: 'shout', id: 'c' }));
    c.ws.send(Buffer.from([1, 2, 3]), { binary: true });
    expect(await c.next(resultOf('a'))).toMatchObject({ result: { ok: false, error: { code: 'bad-channel' } } });
    expect(await c.next(resultOf('b'))).toMatchObject({ result: { ok: false, error: { code: 'bad-input' } } });
    expect(await c.next(resultOf('c'))).toMatchObject({ result: { ok: false, error: { code: 'bad-message' } } });
    await c.next((m) => m.type === 'result' && m.id === null && !m.result.ok && /binary/.test(m.result.error.message));
    c.ws.send(JSON.stringify({ type: 'invoke', id: 2, channel: 'profiles:list', input: {} }));
    expect(await c.next(resultOf(2))).toMatchObject({ result: { ok: true, value: [{ name: 'demo' }] } });
    c.ws.close();
  });

  it('pushes core events to every connection and unsubscribes closed ones', async () => {
    const a = await connect();
    const b = await connect();
    const before = fake.subscribers();
    a.ws.send(JSON.stringify({ type: 'invoke', id: 1, channel: 'chats:send', input: { chatId: 'demo', text: 'hello' } }));
    const isApproval = (m: WsServerMessage): boolean => m.type === 'event' && m.event.event === 'approval:updated';
    const ev = (await b.next(isApproval)) as { type: 'event'; event: AppEvent };
    await a.next(isApproval);
    expect(ev.event.payload).toMatchObject({ state: 'pending', answers: ['allow', 'deny', 'cancel'] });
    const userItem = a.messages.find((m) => m.type === 'event' && m.event.event === 'chat:item' && m.event.payload.item.type === 'user');
    expect(userItem).toMatchObject({ event: { payload: { item: { text: 'hello' } } } });
    const id = (ev.event.payload as { id: string }).id;
    a.ws.send(JSON.stringify({ type: 'invoke', id: 2, channel: 'approvals:answer', input: { id, answer: 'allow' } }));
    expect(await a.next(resultOf(2))).toMatchObject({ result: { ok: true, value: { outcome: 'answered', answer: 'allow' } } });
    await b.next((m) => m.type === 'event' && m.event.event === 'chat:item' && m.event.payload.item.type === 'turnEnd');
    const closed = new Promise((r) => a.ws.once('close', r));
    a.ws.close();
    await closed;
    await expect.poll(() => fake.subscribers()).toBe(before - 1);
    b.ws.close();
  });
});

describe('static files', () => {
  it("serves index.html for / and assets with their content types, under the renderer's CSP", async () => {
    const index = await get('/');
    expect(index).toMatchObject({ status: 200, type: 'text/html; charset=utf-8' });
    expect(index.csp).toBe(CSP);
    expect(CSP).toContain("connect-src 'self';");
    expect(index.body).toContain('Angelia test');
    expect(await get('/assets/app.js')).toMatchObject({ status: 200, type: 'text/javascript; charset=utf-8', body: 'console.log("app")' });
    expect(await get('/assets/app.css')).toMatchObject({ status: 200, type: 'text/css; charset=utf-8' });
    expect((await get('/assets/missing.js')).status).toBe(404);
    expect((await get('/assets')).status).toBe(404);
  });

  it('refuses every way out of the renderer folder', async () => {
    for (const path of [
      '/../secret.txt',
      '/assets/../../secret.txt',
      '/%2e%2e/secret.txt',
      '/..%2fsecret.txt',
      '/..%5csecret.txt',
      '/%2e%2e%2f%2e%2e%2fsecret.txt',
      '/link.txt',
      '/%00',
      '/%E0%A4%A',
    ]) {
      const r = await get(path);
      expect(r.status, path).toBe(404);
      expect(r.body, path).not.toContain('TOP SECRET');
    }
  });
});

describe('files: POST /attach, and the WebSocket message cap', () => {
  it('takes a file over HTTP with the token and hands it to chats:attach', async () => {
    const bytes = Buffer.from('first line\nsecond line\n');
    const r = await post(`/attach?chatId=demo&name=${encodeURIComponent('notes from the meeting.txt')}`, bytes, {
      ...bearer(),
      origin: `http://127.0.0.1:${host.port}`,
      'content-type': 'application/octet-stream',
    });
    expect(r).toMatchObject({ status: 200, json: { ok: true, value: { path: '.inbox/notes_from_the_meeting.txt' } } });
    expect(fake.attached.at(-1)).toEqual({ chatId: 'demo', name: 'notes from the meeting.txt', size: bytes.length, path: '.inbox/notes_from_the_meeting.txt' });
    const seen = fake.received.filter((x) => x.channel === 'chats:attach').at(-1);
    expect(seen?.input).toEqual({ chatId: 'demo', name: 'notes from the meeting.txt', dataBase64: bytes.toString('base64') });
  });

  it('takes a file of exactly 25 MB, more than a WebSocket message may carry', async () => {
    const bytes = Buffer.alloc(ATTACH_MAX_BYTES, 7);
    expect(Math.ceil(bytes.length / 3) * 4).toBeGreaterThan(WS_MAX_MESSAGE_BYTES);
    const r = await post('/attach?chatId=demo&name=big.bin', bytes, bearer());
    expect(r).toMatchObject({ status: 200, json: { ok: true, value: { path: '.inbox/big.bin' } } });
    expect(fake.attached.at(-1)).toMatchObject({ name: 'big.bin', size: ATTACH_MAX_BYTES });
  });

  it('refuses a file over 25 MB with 413 and a clear error, by Content-Length or by counting', async () => {
    const before = fake.attached.length;
    const over = Buffer.alloc(ATTACH_MAX_BYTES + 1, 1);
    const declared = await post('/attach?chatId=demo&name=over.bin', over, bearer());
    expect(declared).toMatchObject({
      status: 413,
      json: { ok: false, error: { code: 'too-big', message: 'the file is larger than 25 MB; files over 25 MB are refused' } },
    });
    // Chunked (no Content-Length): the host counts and stops at the cap.
    const counted = await post('/attach?chatId=demo&name=over.bin', over, { ...bearer(), 'transfer-encoding': 'chunked' });
    expect(counted).toMatchObject({ status: 413, json: { ok: false, error: { code: 'too-big' } } });
    expect(fake.attached.length).toBe(before);
  });

  it('refuses an upload without the token, from a foreign origin, with another method or without chat and name', async () => {
    const before = fake.attached.length;
    const bytes = Buffer.from('x');
    expect(await post('/attach?chatId=demo&name=a.txt', bytes)).toMatchObject({ status: 401, json: { ok: false, error: { code: 'unauthorized' } } });
    expect(await post('/attach?chatId=demo&name=a.txt', bytes, { authorization: `Bearer ${host.token}x` })).toMatchObject({ status: 401 });
    expect(await post(`/attach?chatId=demo&name=a.txt&token=${host.token}`, bytes)).toMatchObject({ status: 401 });
    expect(await post('/attach?chatId=demo&name=a.txt', bytes, { ...bearer(), origin: 'http://evil.example' })).toMatchObject({
      status: 403,
      json: { ok: false, error: { code: 'forbidden' } },
    });
    expect(await post('/attach?chatId=demo&name=a.txt', bytes, bearer(), 'PUT')).toMatchObject({ status: 405, headers: { allow: 'POST' } });
    expect(await post('/attach?chatId=demo', bytes, bearer())).toMatchObject({ status: 400, json: { ok: false, error: { code: 'bad-input' } } });
    expect(await post('/attach?chatId=demo&name=a.txt', bytes, { ...bearer(), host: `evil.example:${host.port}` })).toMatchObject({ status: 421 });
    expect(fake.attached.length).toBe(before);
  });

  it("passes the core's refusal on as the JSON result", async () => {
    const r = await post('/attach?chatId=nobody&name=a.txt', Buffer.from('x'), bearer());
    expect(r).toMatchObject({ status: 200, json: { ok: false, error: { code: 'unknown-chat', message: 'no chat named "nobody"' } } });
  });

  it('closes a WebSocket that sends a message over the cap with 1009 (message too big); a new one works', async () => {
    const c = await connect();
    const closed = new Promise<number>((resolve) => c.ws.once('close', (code) => resolve(code)));
    c.ws.send(JSON.stringify({ type: 'invoke', id: 1, channel: 'chats:send', input: { chatId: 'demo', text: 'x'.repeat(WS_MAX_MESSAGE_BYTES) } }));
    expect(await closed).toBe(1009);
    const again = await connect();
    again.ws.send(JSON.stringify({ type: 'invoke', id: 2, channel: 'chats:list', input: {} }));
    expect(await again.next(resultOf(2))).toMatchObject({ result: { ok: true } });
    again.ws.close();
  });
});
