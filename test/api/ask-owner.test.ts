/**
 * `POST /ask` tells the core whether the owner asks (`owner: true`) or an agent does (`owner: false`):
 * on a thread that received a secret answer only the owner's ask copies it (docs/security-model.md
 * "Questions and elicitations"; the choice itself: chats/ask.ts `threadToAsk`, test/core/chats/chat-asks.test.ts).
 */
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { ApiCore } from '../../src/main/api/core';
import { createFakeApiCore } from './fakeApiCore';
import { apiDirs, call, startTestApi, type ApiDirs, type TestApi } from './helpers';

let dirs: ApiDirs;
beforeAll(async () => {
  dirs = await apiDirs();
});
afterAll(() => dirs.cleanup());
const running: TestApi[] = [];
afterEach(async () => {
  for (const t of running.splice(0)) await t.api.close();
});

it('the owner asks with owner: true, an agent (here a peer) with owner: false', async () => {
  const fake = createFakeApiCore({ reply: () => ({ status: 'completed', text: 'ok' }) });
  const seen: (boolean | undefined)[] = [];
  const core: ApiCore = { ...fake.core, ask: async (chatId, text, opts) => (seen.push(opts.owner), fake.core.ask(chatId, text, opts)) };
  const t = await startTestApi(core, dirs);
  running.push(t);
  expect((await call(dirs.socket, 'POST', '/ask', { token: t.owner, body: { key: 'coder', text: 'a?' } })).status).toBe(200);
  expect((await call(dirs.socket, 'POST', '/ask', { token: t.tokenFor('research'), body: { key: 'coder', text: 'b?' } })).status).toBe(200);
  expect(seen).toEqual([true, false]);
});
