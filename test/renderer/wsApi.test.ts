import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { WS_MAX_MESSAGE_BYTES, type AppEvent } from '../../src/shared/contract';
import { startHost, type RunningHost } from '../../src/main/host/server';
import { createWsApi, wsUrlFor, type LinkStatus, type SocketLike } from '../../src/renderer/src/api/wsApi';
import { tokenFromHash } from '../../src/renderer/src/api/client';
import { httpUploader } from '../../src/renderer/src/api/upload';
import { createFakeCore } from '../fixtures/fakeCore';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'angelia-wsapi-'));
  await writeFile(join(dir, 'index.html'), '<!doctype html>');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const nodeSocket = (url: string): SocketLike => new WebSocket(url) as unknown as SocketLike;

function statusesOf(api: { onStatus(l: (s: LinkStatus) => void): () => void }): {
  seen: LinkStatus[];
  reach: (s: LinkStatus, times?: number) => Promise<void>;
} {
  const seen: LinkStatus[] = [];
  api.onStatus((s) => seen.push(s));
  return { seen, reach: (s, times = 1) => expect.poll(() => seen.filter((x) => x === s).length, { timeout: 10_000 }).toBeGreaterThanOrEqual(times) };
}

describe('the WebSocket client', () => {
  it('reads the token from the URL fragment and builds the /ws address of its own host', () => {
    expect(tokenFromHash('#token=abc-_9')).toBe('abc-_9');
    expect(tokenFromHash('#other=1&token=t')).toBe('t');
    expect(tokenFromHash('')).toBeNull();
    expect(tokenFromHash('#token=')).toBeNull();
    expect(wsUrlFor({ protocol: 'http:', host: '127.0.0.1:4000' }, 'a b')).toBe('ws://127.0.0.1:4000/ws?token=a%20b');
  });

  it('invokes, receives events, and comes back after the host restarts', async () => {
    const fake = createFakeCore({ step: 0 });
    let host: RunningHost = await startHost({ core: fake.core, rendererDir: dir });
    const { port, token } = host;
    const api = createWsApi({ url: `ws://127.0.0.1:${port}/ws?token=${token}`, createSocket: nodeSocket, minDelay: 20, maxDelay: 200 });
    const status = statusesOf(api);
    const events: AppEvent[] = [];
    api.onEvent((e) => events.push(e));
    try {
      await status.reach('open');
      const list = await api.invoke('chats:list', {});
      expect(list).toMatchObject({ ok: true, value: [{ id: 'demo' }] });
      await api.invoke('chats:send', { chatId: 'demo', text: 'hi' });
      await expect.poll(() => events.some((e) => e.event === 'approval:updated')).toBe(true);

      await host.close();
      await status.reach('closed');
      expect(await api.invoke('chats:list', {})).toMatchObject({ ok: false, error: { code: 'disconnected' } });

      host = await startHost({ core: fake.core, rendererDir: dir, port, token });
      await status.reach('open', 2);
      expect(await api.invoke('profiles:list', {})).toMatchObject({ ok: true, value: [{ name: 'demo' }] });
    } finally {
      api.close();
      await host.close();
    }
  });

  it('never opens with a wrong token', async () => {
    const fake = createFakeCore({ step: 0 });
    const host = await startHost({ core: fake.core, rendererDir: dir });
    const api = createWsApi({ url: `ws://127.0.0.1:${host.port}/ws?token=wrong`, createSocket: nodeSocket, minDelay: 20, maxDelay: 40 });
    const status = statusesOf(api);
    try {
      await status.reach('closed', 2);
      expect(status.seen).not.toContain('open');
      expect(fake.subscribers()).toBe(0);
    } finally {
      api.close();
      await host.close();
    }
  });
});

describe('big messages and files', () => {
  it("does not send a message over the host's cap: it answers too-big and the link stays up", async () => {
    const fake = createFakeCore({ step: 0 });
    const host = await startHost({ core: fake.core, rendererDir: dir });
    const api = createWsApi({ url: `ws://127.0.0.1:${host.port}/ws?token=${host.token}`, createSocket: nodeSocket, minDelay: 20, maxDelay: 40 });
    const status = statusesOf(api);
    try {
      await status.reach('open');
      // Multi-byte text: under the cap in UTF-16 units, over it in UTF-8 bytes.
      const r = await api.invoke('chats:attach', { chatId: 'demo', name: 'x.bin', dataBase64: 'é'.repeat(WS_MAX_MESSAGE_BYTES / 2 + 10) });
      expect(r).toMatchObject({ ok: false, error: { code: 'too-big', message: 'this is more than Angelia takes in one message (2 MB)' } });
      expect(fake.received.filter((x) => x.channel === 'chats:attach')).toEqual([]);
      expect(await api.invoke('chats:list', {})).toMatchObject({ ok: true });
      expect(status.seen.filter((x) => x === 'closed')).toEqual([]);
    } finally {
      api.close();
      await host.close();
    }
  });

  it('says so when the host closed the link over a message too big (1009)', async () => {
    const sockets: Array<{ onclose: ((ev: unknown) => void) | null; onopen: ((ev: unknown) => void) | null; sent: string[] }> = [];
    const api = createWsApi({
      url: 'ws://127.0.0.1:1/ws?token=t',
      minDelay: 10_000,
      maxDelay: 10_000,
      createSocket: () => {
        const s = {
          readyState: 1,
          onopen: null,
          onclose: null,
          onerror: null,
          onmessage: null,
          sent: [] as string[],
          send(d: string) {
            s.sent.push(d);
          },
          close: () => undefined,
        };
        sockets.push(s);
        return s;
      },
    });
    try {
      sockets[0]!.onopen?.({});
      const pending = api.invoke('chats:list', {});
      sockets[0]!.onclose?.({ code: 1009 });
      expect(await pending).toMatchObject({
        ok: false,
        error: { code: 'too-big', message: 'a message was larger than Angelia takes (2 MB), so the connection was closed' },
      });
    } finally {
      api.close();
    }
  });

  it("uploads a file over HTTP with the token in a header, and shows the host's refusals as errors", async () => {
    const fake = createFakeCore({ step: 0 });
    const host = await startHost({ core: fake.core, rendererDir: dir });
    try {
      const origin = `http://127.0.0.1:${host.port}`;
      const upload = httpUploader(origin, host.token);
      const bytes = new Uint8Array(3 * 1024 * 1024).fill(65);
      expect(await upload('demo', 'scan (1).pdf', new Blob([bytes]))).toEqual({ ok: true, value: { path: '.inbox/scan__1_.pdf' } });
      expect(fake.attached).toEqual([{ chatId: 'demo', name: 'scan (1).pdf', size: bytes.length, path: '.inbox/scan__1_.pdf' }]);
      expect(await httpUploader(origin, 'not-the-token')('demo', 'a.txt', new Blob(['x']))).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
      expect(await upload('nobody', 'a.txt', new Blob(['x']))).toMatchObject({ ok: false, error: { code: 'unknown-chat' } });
      expect(await httpUploader('http://127.0.0.1:1', host.token)('demo', 'a.txt', new Blob(['x']))).toMatchObject({
        ok: false,
        error: { code: 'disconnected' },
      });
    } finally {
      await host.close();
    }
  });
});
