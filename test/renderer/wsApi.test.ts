import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { AppEvent } from '../../src/shared/contract';
import { startHost, type RunningHost } from '../../src/main/host/server';
import { createWsApi, wsUrlFor, type LinkStatus, type SocketLike } from '../../src/renderer/src/api/wsApi';
import { tokenFromHash } from '../../src/renderer/src/api/client';
import { createFakeCore } from '../fixtures/fakeCore';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'angelia-wsapi-'));
  await writeFile(join(dir, 'index.html'), '<!doctype html>');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const nodeSocket = (url: string): SocketLike => new WebSocket(url) as unknown as SocketLike;

function statusesOf(api: { onStatus(l: (s: LinkStatus) => void): () => void }): { seen: LinkStatus[]; reach: (s: LinkStatus, times?: number) => Promise<void> } {
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
