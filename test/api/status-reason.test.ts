/**
 * `GET /status` and `angelia status` say why a chat is refused or in error: the row's `reason` is the
 * chat's refusal (with its fix) or, for an error, its last line; null for a chat that is fine. The text
 * form prints it after the state, escaped for the terminal (an error's last line can be the agent's text).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiCore } from '../../src/main/api/core';
import { runStatus } from '../../src/main/cli/commands/status';
import { createFakeApiCore } from './fakeApiCore';
import { apiDirs, call, startTestApi, type ApiDirs, type TestApi } from './helpers';

const REFUSAL = 'refused: the user layer /h/.codex/config.toml sets sandbox_mode; remove it there.';
let dirs: ApiDirs;
let t: TestApi;
beforeAll(async () => {
  dirs = await apiDirs();
  const fake = createFakeApiCore().core;
  const core: ApiCore = {
    ...fake,
    chats: async () =>
      (await fake.chats()).map((c) =>
        c.id === 'research'
          ? { ...c, state: 'refused' as const, refusal: REFUSAL }
          : c.id === 'vault'
            ? { ...c, state: 'error' as const, refusal: null, lastLine: 'Codex exited (signal SIGKILL)\u001b[2J' }
            : c,
      ),
  };
  t = await startTestApi(core, dirs);
});
afterAll(async () => {
  await t?.api.close();
  await dirs?.cleanup();
});

describe('a chat that is refused or in error says why', () => {
  it('GET /status: reason is the refusal, the error line, or null', async () => {
    const res = await call(dirs.socket, 'GET', '/status', { token: t.owner });
    expect(res.status).toBe(200);
    const rows = (res.body as { chats: { chat: string; state: string; reason: string | null }[] }).chats;
    expect(rows.find((r) => r.chat === 'research')).toMatchObject({ state: 'refused', reason: REFUSAL });
    expect(rows.find((r) => r.chat === 'vault')).toMatchObject({ state: 'error', reason: 'Codex exited (signal SIGKILL)\u001b[2J' });
    expect(rows.find((r) => r.chat === 'coder')).toMatchObject({ state: 'working', reason: null });
  });

  it('angelia status prints the reason after the state, with control characters escaped', async () => {
    let out = '';
    const code = await runStatus([], {
      env: { ANGELIA_STATE_DIR: dirs.state, HOME: dirs.home, ANGELIA_API_SOCK: dirs.socket, ANGELIA_API_TOKEN: t.owner },
      cwd: dirs.root,
      stdout: (s) => void (out += s),
      stderr: () => undefined,
      stdin: async () => '',
    });
    expect(code).toBe(0);
    // The refusal's own "refused: " is not said twice after the state.
    expect(out).toContain('  research (research): refused (the user layer /h/.codex/config.toml sets sandbox_mode; remove it there.)');
    expect(out).toMatch(/ {2}vault \(vault\): error \(Codex exited \(signal SIGKILL\)\S*\[2J\)/);
    expect(out).not.toContain('\u001b');
    expect(out).toMatch(/ {2}coder \(coder\): working · 1 waiting for you/);
  });
});
