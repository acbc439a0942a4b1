import { request } from 'node:http';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { AppEvent, WsServerMessage } from '../../src/shared/contract';
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
function get(path: string, hostHeader = `127.0.0.1:${host.port}`): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: host.port, path, method: 'GET', headers: { host: hostHeader } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), body }));
    });
    req.on('error', reject);
    req.end();
  });
}

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
  it('serves index.html for / and assets with their content types', async () => {
    const index = await get('/');
    expect(index).toMatchObject({ status: 200, type: 'text/html; charset=utf-8' });
    expect(index.body).toContain('Angelia test');
    expect(await get('/assets/app.js')).toMatchObject({ status: 200, type: 'text/javascript; charset=utf-8', body: 'console.log("app")' });
    expect(await get('/assets/app.css')).toMatchObject({ status: 200, type: 'text/css; charset=utf-8' });
    expect((await get('/assets/missing.js')).status).toBe(404);
    expect((await get('/assets')).status).toBe(404);
  });

  it('refuses every way out of the renderer folder', async () => {
    for (const path of ['/../secret.txt', '/assets/../../secret.txt', '/%2e%2e/secret.txt', '/..%2fsecret.txt', '/..%5csecret.txt', '/%2e%2e%2f%2e%2e%2fsecret.txt', '/link.txt', '/%00', '/%E0%A4%A']) {
      const r = await get(path);
      expect(r.status, path).toBe(404);
      expect(r.body, path).not.toContain('TOP SECRET');
    }
  });
});
