/**
 * `angelia run` beside a running Angelia on the same instance: the app holds its chats' threads, so run
 * refuses (exit 3) and names `angelia turn` instead of starting a second Codex (which Codex refuses, or,
 * with --new, left the app on the old thread while sessions.json named the new one). A socket that refuses
 * (left by a process that died) is not a running Angelia.
 */
import { createServer, type Server } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runningAngelia } from '../../src/main/cli/running';
import { angelia, initInstance, type CliInstance } from './cli';

let inst: CliInstance | null = null;
let server: Server | null = null;
afterEach(async () => {
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = null;
  await inst?.cleanup();
  inst = null;
});

function listen(path: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const s = createServer((c) => c.destroy());
    s.once('error', reject);
    s.listen(path, () => resolve(s));
  });
}

describe('angelia run beside a running Angelia', () => {
  it('refuses with exit 3 naming angelia turn (text and --json); nothing answers on the socket: not running', async () => {
    inst = await initInstance('run-beside-app');
    const sock = join(inst.state, 'api.sock');
    expect(await runningAngelia(inst.env)).toBeNull();
    server = await listen(sock);
    expect(await runningAngelia(inst.env)).toBe(sock);

    const text = await angelia(inst.env, 'run', 'assistant', 'hello', '--new');
    expect(text.code).toBe(3);
    expect(text.stderr).toContain('Angelia is running on this instance');
    expect(text.stderr).toContain('angelia turn assistant <message>');

    const json = await angelia(inst.env, 'run', 'assistant', 'hello', '--json');
    expect(json.code).toBe(3);
    const last = JSON.parse(json.stdout.trim().split('\n').at(-1) ?? '{}') as { type?: string; ok?: boolean; reason?: string };
    expect(last).toMatchObject({ type: 'turn-end', ok: false });
    expect(last.reason).toContain('angelia turn');
  });

  it('a socket file nobody listens on (a process that died) is not a running Angelia', async () => {
    inst = await initInstance('run-beside-dead');
    writeFileSync(join(inst.state, 'api.sock'), '');
    expect(await runningAngelia(inst.env)).toBeNull();
  });
});
