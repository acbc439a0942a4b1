/**
 * `angelia demo` as a user starts it: the built CLI prints the UI's address, the UI and the contract
 * answer there, and Ctrl-C stops it and removes the demo folder.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import { describe, expect, it } from 'vitest';

const CLI = join(__dirname, '..', '..', 'bin', 'angelia.js');

describe('angelia demo', () => {
  it('serves the UI and the demo chat, and cleans up on Ctrl-C', async () => {
    const child = spawn(process.execPath, [CLI, 'demo'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((r) => child.on('close', r));
    try {
      await expect.poll(() => out, { timeout: 60_000 }).toMatch(/Ctrl-C stops/);
      const url = /serving on (http:\/\/127\.0\.0\.1:\d+)\/#token=(\S+)/.exec(out);
      const folder = /Demo folder: (\S+)/.exec(out)?.[1];
      expect(url && folder).toBeTruthy();
      const [, base, token] = url as RegExpExecArray;
      expect(existsSync(folder as string)).toBe(true);
      const page = await fetch(`${base}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="root">');
      const ws = new WebSocket(`${base!.replace('http', 'ws')}/ws?token=${token}`);
      const chats = await new Promise<unknown>((resolve, reject) => {
        ws.on('open', () => ws.send(JSON.stringify({ type: 'invoke', id: 1, channel: 'chats:list', input: {} })));
        ws.on('message', (m) => {
          const msg = JSON.parse(String(m)) as { type: string; id?: number; result?: unknown };
          if (msg.type === 'result' && msg.id === 1) resolve(msg.result);
        });
        ws.on('error', reject);
      });
      ws.close();
      expect(chats).toMatchObject({ ok: true, value: [{ id: 'demo', profile: 'demo', state: 'idle' }] });
      child.kill('SIGINT');
      expect(await exited).toBe(0);
      expect(existsSync(folder as string)).toBe(false);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
