/**
 * The account routes (api/resources/account.ts) on the fake core: the owner reads the account, signs in
 * with an API key, ChatGPT or a device code, cancels a pending sign-in and signs out; an agent's token,
 * over the socket or through its chat's mailbox, gets 403 and the core is never asked; the API key is in
 * no answer, error or reported error, whatever Codex or the body says (`redact`, `redactFailure`). The
 * owner's `POST /usage/resume` (api/resources/usage.ts) is held to the same: owner only.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callMailbox } from '../../src/main/api/mailboxClient';
import { redactFailure } from '../../src/main/api/resources/account';
import type { ApiCore } from '../../src/main/api/core';
import { ensureMailbox } from '../../src/main/core/launch/mailbox';
import { AppFailure } from '../../src/shared/result';
import { createFakeApiCore, type FakeApiCore } from './fakeApiCore';
import { apiDirs, call, startTestApi, type ApiDirs, type TestApi } from './helpers';

const KEY = 'sk-proj-angelia-secret-0123456789';

let dirs: ApiDirs;
let fake: FakeApiCore;
let t: TestApi | null = null;
let reported: unknown[];

beforeEach(async () => {
  dirs = await apiDirs();
  fake = createFakeApiCore();
  reported = [];
});

afterEach(async () => {
  await t?.api.close();
  t = null;
  await dirs.cleanup();
});

/** Starts the API over `core` (default: the fake's), recording what it reports as errors. */
async function start(core: ApiCore = fake.core, extra: Parameters<typeof startTestApi>[2] = {}): Promise<TestApi> {
  t = await startTestApi(core, dirs, { onError: (e) => reported.push(e), ...extra });
  return t;
}

/** Everything an answer and the reported errors say, as one text (to look for the key in). */
const everything = (text: string): string => [text, ...reported.map((e) => (e instanceof Error ? `${e.message} ${e.stack ?? ''}` : String(e)))].join('\n');

describe('the account routes, as the owner', () => {
  it('reads, signs in with a key, starts and cancels a ChatGPT sign-in, and signs out', async () => {
    const { owner } = await start();
    const before = await call(dirs.socket, 'GET', '/account', { token: owner });
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ signedIn: true, method: 'chatgpt' });

    const keyed = await call(dirs.socket, 'POST', '/account/login', { token: owner, body: { method: 'apiKey', apiKey: KEY } });
    expect(keyed.status, keyed.text).toBe(200);
    expect(keyed.body).toMatchObject({ method: 'apiKey', state: 'completed', loginId: null, error: null });
    expect(keyed.text).not.toContain(KEY);
    expect((await call(dirs.socket, 'GET', '/account', { token: owner })).body).toMatchObject({ signedIn: true, method: 'apiKey', email: null });

    const browser = await call(dirs.socket, 'POST', '/account/login', { token: owner, body: { method: 'chatgpt' } });
    expect(browser.body).toMatchObject({ method: 'chatgpt', state: 'pending', authUrl: expect.stringMatching(/^https:\/\/auth\.openai\.com\//) });
    const loginId = (browser.body as { loginId: string }).loginId;
    expect(await call(dirs.socket, 'POST', '/account/login/cancel', { token: owner, body: { loginId } })).toMatchObject({
      status: 200,
      body: { cancelled: true },
    });
    expect(await call(dirs.socket, 'POST', '/account/login/cancel', { token: owner, body: { loginId } })).toMatchObject({
      status: 200,
      body: { cancelled: false },
    });

    const out = await call(dirs.socket, 'POST', '/account/logout', { token: owner });
    expect(out.status).toBe(200);
    expect(out.body).toMatchObject({ signedIn: false, method: null });
    expect(fake.accountCalls).toEqual(['read', 'login:apiKey', 'read', 'login:chatgpt', `cancel:${loginId}`, `cancel:${loginId}`, 'logout']);
  });

  it('answers 502 when Codex cannot read its account and 503 without Codex, with the reason', async () => {
    const unreadable = new AppFailure({ code: 'account-unreadable', message: 'Codex could not read its account: broken pipe', where: '/home/me/.codex' });
    const missing = new AppFailure({ code: 'codex-missing', message: 'no codex executable found' });
    const { owner } = await start({
      ...fake.core,
      account: async () => {
        throw unreadable;
      },
      logout: async () => {
        throw missing;
      },
    });
    expect(await call(dirs.socket, 'GET', '/account', { token: owner })).toMatchObject({
      status: 502,
      body: { code: 'account-unreadable', error: 'Codex could not read its account: broken pipe' },
    });
    expect(await call(dirs.socket, 'POST', '/account/logout', { token: owner })).toMatchObject({
      status: 503,
      body: { code: 'codex-missing', error: 'no codex executable found' },
    });
  });
});

describe('POST /usage/resume', () => {
  it("the owner lifts a home's pause: the core is asked for that home and its usage answers", async () => {
    const { owner } = await start();
    const res = await call(dirs.socket, 'POST', '/usage/resume', { token: owner, body: { codexHome: '/home/me/.codex' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ codexHome: '/home/me/.codex', pausedUntil: null });
    expect(fake.accountCalls).toEqual(['resume:/home/me/.codex']);
    expect((await call(dirs.socket, 'POST', '/usage/resume', { token: owner, body: {} })).status).toBe(400);
  });
});

describe("an agent's token", () => {
  const ROUTES = [
    { method: 'GET', path: '/account' },
    { method: 'POST', path: '/account/login', body: { method: 'apiKey', apiKey: KEY } },
    { method: 'POST', path: '/account/login', body: { method: 'chatgpt' } },
    { method: 'POST', path: '/account/login/cancel', body: { loginId: 'any-login' } },
    { method: 'POST', path: '/account/logout' },
    { method: 'POST', path: '/usage/resume', body: { codexHome: '/home/me/.codex' } },
  ] as const;

  it('gets 403 on every account route over the socket, and the core is never asked', async () => {
    const { tokenFor } = await start();
    for (const r of ROUTES) {
      for (const chat of ['coder', 'vault']) {
        const res = await call(dirs.socket, r.method, r.path, { token: tokenFor(chat), ...('body' in r ? { body: r.body } : {}) });
        expect(res.status, `${r.method} ${r.path} as ${chat}`).toBe(403);
        expect(res.body).toEqual({ error: 'this token may not do that', code: 'forbidden' });
      }
    }
    expect(fake.accountCalls).toEqual([]);
  });

  it("gets 403 through its chat's mailbox too", async () => {
    const { tokenFor } = await start(fake.core, { mailboxes: true, mailboxRescanMs: 100 });
    const box = await ensureMailbox(dirs.state, 'coder', { chat: 'coder', token: tokenFor('coder') });
    for (const r of ROUTES) {
      const res = await callMailbox({
        mailbox: box,
        request: { token: tokenFor('coder'), method: r.method, path: r.path, ...('body' in r ? { body: r.body } : {}) } as never,
        timeoutMs: 10_000,
      });
      expect(res, `${r.method} ${r.path}`).toEqual({ status: 403, body: { error: 'this token may not do that', code: 'forbidden' } });
    }
    expect(fake.accountCalls).toEqual([]);
  });
});

describe('the API key is in no answer, error or report', () => {
  it('when Codex refuses it, fails with it, or throws it', async () => {
    let mode: 'refused' | 'app' | 'error' = 'refused';
    const { owner } = await start({
      ...fake.core,
      login: async (req) => {
        const said = `Codex said: invalid key ${req.method === 'apiKey' ? req.apiKey : ''}!`;
        if (mode === 'app') throw new AppFailure({ code: 'codex-missing', message: said, fix: `retry without ${KEY}` });
        if (mode === 'error') throw new Error(said);
        return { loginId: null, method: 'apiKey', state: 'failed', authUrl: null, verificationUrl: null, userCode: null, error: said };
      },
    });
    const body = { method: 'apiKey', apiKey: KEY };
    const refused = await call(dirs.socket, 'POST', '/account/login', { token: owner, body });
    expect(refused.status).toBe(200);
    expect(refused.body).toMatchObject({ state: 'failed', error: 'Codex said: invalid key …!' });
    mode = 'app';
    const app = await call(dirs.socket, 'POST', '/account/login', { token: owner, body });
    expect(app).toMatchObject({ status: 503, body: { code: 'codex-missing', error: 'Codex said: invalid key …!', fix: 'retry without …' } });
    mode = 'error';
    const internal = await call(dirs.socket, 'POST', '/account/login', { token: owner, body });
    expect(internal).toMatchObject({ status: 500, body: { code: 'internal' } });
    expect(reported.length).toBeGreaterThan(0);
    for (const text of [refused.text, app.text, internal.text]) expect(everything(text)).not.toContain(KEY);
  });

  it('when the body is wrong: errors name the field, never the value', async () => {
    const { owner } = await start();
    const bodies = [
      { method: 'chatgpt', apiKey: KEY },
      { method: 'apiKey', apiKey: KEY, remember: true },
      { method: KEY },
      { method: 'apiKey', apiKey: `${KEY}${'x'.repeat(4096)}` },
      { method: 'apiKey', key: KEY },
    ];
    for (const body of bodies) {
      const res = await call(dirs.socket, 'POST', '/account/login', { token: owner, body });
      expect(res.status, res.text).toBe(400);
      expect(res.body).toMatchObject({ code: 'bad-request', error: expect.stringMatching(/^body/) });
      expect(everything(res.text)).not.toContain(KEY);
    }
    expect(fake.accountCalls).toEqual([]);
  });
});

describe('redactFailure', () => {
  const cases: { name: string; thrown: unknown; want: { kind: 'app'; app: object } | { kind: 'error'; message: string } }[] = [
    {
      name: 'an AppFailure keeps its code; message, fix and where lose the key',
      thrown: new AppFailure({ code: 'refused', message: `bad ${KEY}`, fix: `not ${KEY}`, where: `/k/${KEY}` }),
      want: { kind: 'app', app: { code: 'refused', message: 'bad …', fix: 'not …', where: '/k/…' } },
    },
    {
      name: 'an AppFailure without fix or where gains none',
      thrown: new AppFailure({ code: 'x', message: 'plain' }),
      want: { kind: 'app', app: { code: 'x', message: 'plain' } },
    },
    { name: 'an Error becomes an Error without the key', thrown: new Error(`${KEY}${KEY} twice`), want: { kind: 'error', message: '…… twice' } },
    { name: 'a thrown string becomes an Error', thrown: `said ${KEY}`, want: { kind: 'error', message: 'said …' } },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const out = redactFailure(c.thrown, KEY);
      if (c.want.kind === 'app') {
        expect(out).toBeInstanceOf(AppFailure);
        expect((out as AppFailure).app).toEqual(c.want.app);
        expect((out as AppFailure).message).not.toContain(KEY);
      } else {
        expect(out).not.toBeInstanceOf(AppFailure);
        expect((out as Error).message).toBe(c.want.message);
      }
    });
  }

  it('with no secret (not an API-key sign-in) changes no word', () => {
    expect((redactFailure(new Error('as it was'), '') as Error).message).toBe('as it was');
  });
});
