/**
 * The mailbox channel outside any sandbox (the sandbox itself: test/integration/api-mailbox.test.ts):
 * request files in a chat's mailbox answered by the same handler as the socket, with the same tokens;
 * hostile entries (symbolic links, FIFOs, oversized or broken files, hard links) refused without being
 * followed or blocking; dot-names ignored; the client falling back from the socket to the mailbox.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { link, lstat, mkdir, readdir, readFile, rename, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, locateApi, type ApiEndpoint } from '../../src/main/api/client';
import { MAX_REQUEST_BYTES, requestName, responseName } from '../../src/main/api/mailboxProtocol';
import { callMailbox } from '../../src/main/api/mailboxClient';
import { SOCKET_ONLY } from '../../src/main/api/handler';
import { ensureMailbox, IDENTITY_FILE, mailboxDirFor } from '../../src/main/core/launch/mailbox';
import { createFakeApiCore, type FakeApiCore } from './fakeApiCore';
import { apiDirs, startTestApi, type ApiDirs, type TestApi } from './helpers';

/**
 * Writes a request the way the protocol asks a client to (mailboxProtocol.ts): a dot-name first, then
 * renamed into place, so the server never reads it half-written (a plain writeFile was read empty under
 * load and answered 400 "not JSON").
 */
async function putRequest(box: string, id: string, data: string): Promise<void> {
  const tmp = join(box, `.put-${id}`);
  await writeFile(tmp, data);
  await rename(tmp, join(box, requestName(id)));
}

let dirs: ApiDirs;
let fake: FakeApiCore;
let t: TestApi;
const reports: string[] = [];
let coderBox = '';
let researchBox = '';

beforeAll(async () => {
  dirs = await apiDirs();
  fake = createFakeApiCore({ cwd: { coder: join(dirs.outside, 'code') } });
  t = await startTestApi(fake.core, dirs, { mailboxes: true, report: (m) => reports.push(m), mailboxRescanMs: 100 });
  coderBox = await ensureMailbox(dirs.state, 'coder', { chat: 'coder', token: t.tokenFor('coder') });
  researchBox = await ensureMailbox(dirs.state, 'research', { chat: 'research', token: t.tokenFor('research') });
  await mkdir(join(dirs.outside, 'code'), { recursive: true });
});

afterAll(async () => {
  await t?.api.close();
  await dirs?.cleanup();
});

/** Writes a request file as an agent would (a dot-name renamed into place) and waits for its answer. */
async function post(box: string, request: Record<string, unknown>): Promise<{ status: number; body: unknown }> {
  return callMailbox({ mailbox: box, request: request as never, timeoutMs: 10_000 });
}

/** Waits until `cond` holds (checked every 50 ms, at most 10 s). */
async function until(cond: () => Promise<boolean> | boolean): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await cond()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('condition not met in 10 s');
}

describe("a chat's mailbox", () => {
  it('is a folder of mode 700 named by a hash of the chat, holding the identity file (mode 600)', async () => {
    expect(coderBox).toBe(mailboxDirFor(dirs.state, 'coder'));
    expect(coderBox).toMatch(/\/mailbox\/[0-9a-f]{16}$/);
    expect((await lstat(coderBox)).mode & 0o777).toBe(0o700);
    expect((await lstat(join(coderBox, IDENTITY_FILE))).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(join(coderBox, IDENTITY_FILE), 'utf8'))).toEqual({ api: 1, chat: 'coder', token: t.tokenFor('coder') });
  });

  it('answers a request through the same routes and checks as the socket, and deletes it', async () => {
    const out = await post(coderBox, {
      token: t.tokenFor('coder'),
      from: 'coder',
      method: 'POST',
      path: '/send',
      body: { key: 'coder', text: 'through the mailbox' },
    });
    expect(out).toEqual({ status: 200, body: { ok: true } });
    expect(fake.posts.at(-1)).toEqual({ chatId: 'coder', post: { label: 'from coder', text: 'through the mailbox', files: [] } });
    const peer = await post(researchBox, {
      token: t.tokenFor('research'),
      from: 'research',
      method: 'POST',
      path: '/turn',
      body: { key: 'coder', text: 'check the build', from: 'research' },
    });
    expect(peer.status).toBe(200);
    expect(fake.turns.at(-1)).toMatchObject({ chatId: 'coder', text: '[from research]\n\ncheck the build' });
    expect((await readdir(coderBox)).filter((n) => !n.startsWith('.')).sort()).toEqual([IDENTITY_FILE]);
    expect(await post(coderBox, { token: null, method: 'GET', path: '/healthz' })).toEqual({
      status: 200,
      body: { ok: true, api: 1, features: ['files', 'openapi'] },
    });
  });

  it("takes only the token of its own chat: not the owner's, not another chat's, and `from` must be its chat", async () => {
    const owner = await post(coderBox, { token: t.owner, method: 'GET', path: '/status' });
    expect(owner).toEqual({ status: 401, body: { error: 'that token does not belong to the chat whose mailbox carried it', code: 'unauthorized' } });
    const other = await post(coderBox, { token: t.tokenFor('research'), method: 'POST', path: '/send', body: { key: 'research', text: 'as research' } });
    expect(other.status).toBe(401);
    const none = await post(coderBox, { token: 'x'.repeat(20), method: 'POST', path: '/send', body: { key: 'coder', text: 'hi' } });
    expect(none).toEqual({ status: 401, body: { error: 'that token names nobody', code: 'unauthorized' } });
    const from = await post(coderBox, { token: t.tokenFor('coder'), from: 'research', method: 'POST', path: '/send', body: { key: 'coder', text: 'hi' } });
    expect(from).toEqual({ status: 403, body: { error: '`from` must be your own chat', code: 'forbidden' } });
    const peerMedia = await post(researchBox, {
      token: t.tokenFor('research'),
      method: 'POST',
      path: '/send-media',
      body: { key: 'coder', path: '/etc/hostname', from: 'research' },
    });
    expect(peerMedia).toEqual({ status: 403, body: { error: 'files go only into your own chat', code: 'forbidden' } });
  });

  it('refuses the event stream (socket only), malformed and oversized requests', async () => {
    const sse = await post(coderBox, { token: t.tokenFor('coder'), method: 'GET', path: '/events' });
    expect(sse).toEqual({ status: 400, body: { error: SOCKET_ONLY, code: 'socket-only' } });
    const bad = await post(coderBox, { token: t.tokenFor('coder'), method: 'DELETE', path: '/send' });
    expect(bad.status).toBe(400);
    expect((bad.body as { error: string }).error).toMatch(/^the request file: method:/);
    const id = randomUUID();
    await writeFile(join(coderBox, `.${id}`), 'not json');
    await rename(join(coderBox, `.${id}`), join(coderBox, requestName(id)));
    await until(() => existsSync(join(coderBox, responseName(id))));
    expect(JSON.parse(await readFile(join(coderBox, responseName(id)), 'utf8'))).toEqual({
      api: 1,
      id,
      status: 400,
      body: { error: 'the request file is not JSON', code: 'bad-json' },
    });
    const big = randomUUID();
    await putRequest(coderBox, big, JSON.stringify({ api: 1, token: null, method: 'GET', path: '/healthz', pad: 'x'.repeat(MAX_REQUEST_BYTES) }));
    await until(() => existsSync(join(coderBox, responseName(big))));
    expect(JSON.parse(await readFile(join(coderBox, responseName(big)), 'utf8')).status).toBe(413);
  });

  it('never follows a symbolic link, never blocks on a FIFO, refuses a hard-linked file, and ignores dot-names', async () => {
    const target = join(dirs.outside, 'target.json');
    const content = JSON.stringify({ api: 1, token: t.tokenFor('coder'), method: 'POST', path: '/send', body: { key: 'coder', text: 'via a link' } });
    await writeFile(target, content);
    const viaLink = randomUUID();
    await symlink(target, join(coderBox, requestName(viaLink)));
    const fifo = randomUUID();
    execFileSync('mkfifo', [join(coderBox, requestName(fifo))]);
    const hard = randomUUID();
    await writeFile(join(coderBox, `keep-${hard}`), content);
    await link(join(coderBox, `keep-${hard}`), join(coderBox, requestName(hard)));
    const dotted = randomUUID();
    await writeFile(join(coderBox, `.${requestName(dotted)}`), content);
    const posted = fake.posts.length;
    for (const id of [viaLink, fifo, hard]) await until(() => existsSync(join(coderBox, responseName(id))));
    const status = async (id: string): Promise<number> => (JSON.parse(await readFile(join(coderBox, responseName(id)), 'utf8')) as { status: number }).status;
    expect([await status(viaLink), await status(fifo), await status(hard)]).toEqual([400, 400, 400]);
    expect(existsSync(join(coderBox, requestName(viaLink)))).toBe(false);
    expect(existsSync(join(coderBox, requestName(fifo)))).toBe(false);
    expect(await readFile(target, 'utf8')).toBe(content);
    expect(existsSync(join(coderBox, `.${requestName(dotted)}`))).toBe(true);
    expect(existsSync(join(coderBox, responseName(dotted)))).toBe(false);
    expect(fake.posts.length).toBe(posted);
    expect(reports.some((r) => /symbolic link/.test(r))).toBe(true);
    expect(reports.some((r) => /FIFO/.test(r))).toBe(true);
  });

  it("writes its answer over whatever the agent planted at the answer's name, without following it", async () => {
    const id = randomUUID();
    const victim = join(dirs.outside, 'victim.txt');
    await writeFile(victim, 'untouched');
    await symlink(victim, join(coderBox, responseName(id)));
    await putRequest(coderBox, id, JSON.stringify({ api: 1, token: null, method: 'GET', path: '/healthz' }));
    await until(async () => (await lstat(join(coderBox, responseName(id)))).isFile());
    expect(await readFile(victim, 'utf8')).toBe('untouched');
    expect(JSON.parse(await readFile(join(coderBox, responseName(id)), 'utf8')).status).toBe(200);
  });

  it("serves no folder that is not a chat's", async () => {
    const stray = join(dirs.state, 'mailbox', 'not-a-chat');
    await mkdir(stray, { recursive: true });
    const id = randomUUID();
    await writeFile(join(stray, requestName(id)), JSON.stringify({ api: 1, token: null, method: 'GET', path: '/healthz' }));
    await post(coderBox, { token: null, method: 'GET', path: '/healthz' });
    await new Promise((r) => setTimeout(r, 300));
    expect(existsSync(join(stray, requestName(id)))).toBe(true);
    expect(existsSync(join(stray, responseName(id)))).toBe(false);
  });
});

describe('the client picks the channel', () => {
  /** An agent's endpoint: its identity file, the given socket path. */
  function agent(socketPath: string): ApiEndpoint {
    return locateApi({ HOME: dirs.home, ANGELIA_STATE_DIR: dirs.state, ANGELIA_MAILBOX: coderBox, ANGELIA_API_SOCK: socketPath });
  }

  it('reads the chat and token from the identity file when the environment has none', () => {
    expect(agent(dirs.socket)).toEqual({ socketPath: dirs.socket, token: t.tokenFor('coder'), from: 'coder', mailbox: coderBox });
  });

  it('uses the socket when it connects, and the mailbox when the socket is missing or refuses', async () => {
    const before = fake.posts.length;
    await callApi(agent(dirs.socket), 'POST', '/send', { key: 'coder', text: 'over the socket' });
    const missing = join(dirs.root, 'no-such.sock');
    await callApi(agent(missing), 'POST', '/send', { key: 'coder', text: 'through the mailbox' });
    expect(fake.posts.slice(before).map((p) => p.post.text)).toEqual(['over the socket', 'through the mailbox']);
    await expect(callApi(agent(missing), 'POST', '/ask', { key: 'coder', text: 'me?' })).rejects.toMatchObject({
      status: 403,
      message: 'an agent cannot ask its own chat (its own turn is running)',
    });
  });

  it('says Angelia is not running when nothing takes the request, and takes the request back', async () => {
    const lone = join(dirs.root, 'lone-box');
    await mkdir(lone, { mode: 0o700 });
    await writeFile(join(lone, IDENTITY_FILE), JSON.stringify({ api: 1, chat: 'coder', token: t.tokenFor('coder') }));
    const ep = locateApi({ HOME: dirs.home, ANGELIA_STATE_DIR: dirs.state, ANGELIA_MAILBOX: lone, ANGELIA_API_SOCK: join(dirs.root, 'no-such.sock') });
    await expect(callApi(ep, 'GET', '/healthz', undefined, { pickupMs: 300 })).rejects.toMatchObject({
      code: 'not-running',
      message: expect.stringMatching(/^Angelia is not running \(the socket .* gave ENOENT, and nothing took the request from the mailbox .* within 0\.3 s\)$/),
    });
    expect((await readdir(lone)).sort()).toEqual([IDENTITY_FILE]);
  });
});
