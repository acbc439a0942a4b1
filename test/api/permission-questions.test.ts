/**
 * The approval routes with an agent question (fake core): GET /permissions shows its questions, POST
 * /permission carries `answers` / `content` to the core's answer, the `permission` event carries them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiEventSchema } from '../../src/main/api/core';
import { EX_QUESTION } from '../../src/main/api/routeKit';
import { createFakeApiCore } from './fakeApiCore';
import { apiDirs, call, startTestApi, type ApiDirs } from './helpers';

let dirs: ApiDirs;
beforeAll(async () => {
  dirs = await apiDirs();
});
afterAll(() => dirs.cleanup());

describe('agent questions over the API', () => {
  it('GET /permissions shows the questions; POST /permission passes answers and content to the core', async () => {
    const fake = createFakeApiCore({ question: true });
    const t = await startTestApi(fake.core, dirs);
    try {
      const list = (await call(dirs.socket, 'GET', '/permissions', { token: t.owner })).body as { permissions: Record<string, unknown>[] };
      const row = list.permissions.find((p) => p.id === EX_QUESTION);
      expect(row).toMatchObject({ tool: 'userInput', answers: ['allow', 'deny'], isBlocking: true });
      expect((row?.questions as { id: string }[]).map((q) => q.id)).toEqual(['db']);
      expect(list.permissions.find((p) => p.tool === 'command')).not.toHaveProperty('questions');

      const bad = await call(dirs.socket, 'POST', '/permission', { token: t.owner, body: { id: EX_QUESTION, allow: true, answers: { db: 'SQLite' } } });
      expect(bad.status).toBe(400);
      const res = await call(dirs.socket, 'POST', '/permission', {
        token: t.owner,
        body: { id: EX_QUESTION, answer: 'allow', answers: { db: ['SQLite'] }, content: { x: 1 } },
      });
      expect(res.body).toEqual({ ok: true, answer: 'allow', by: 'api' });
      expect(fake.answers).toEqual([{ id: EX_QUESTION, answer: 'allow', opts: { answers: { db: ['SQLite'] }, content: { x: 1 } } }]);
    } finally {
      await t.api.close();
    }
  });

  it('the permission event may carry questions, isBlocking and an elicitation; without them it is unchanged', () => {
    const base = { event: 'permission', key: 'coder', at: 'now', turn: null, id: 'x', tool: 'command', preview: 'p', detail: null, answers: ['allow'] };
    expect(ApiEventSchema.safeParse(base).success).toBe(true);
    const question = { id: 'q', header: 'H', question: 'Q?', isOther: false, isSecret: false, options: null };
    expect(ApiEventSchema.safeParse({ ...base, tool: 'userInput', questions: [question], isBlocking: false }).success).toBe(true);
    const elicitation = { serverName: 's', mode: 'url', message: 'm', fields: [], url: 'https://a.example/', domain: 'a.example' };
    expect(ApiEventSchema.safeParse({ ...base, tool: 'elicitation', elicitation }).success).toBe(true);
    expect(ApiEventSchema.safeParse({ ...base, given: {} }).success).toBe(false);
  });
});
