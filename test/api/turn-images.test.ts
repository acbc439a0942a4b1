/**
 * `POST /turn {images}`: each image is checked like a turn's files (send-media checks), must be a PNG,
 * JPEG, GIF or WebP by content and at most 10 MiB, is copied into the profile's `.inbox/` after every
 * check that can refuse the turn, and its copy's path goes to the core's `turn` as `images` (the core
 * checks it again and gives Codex a private copy: core/chats/images.ts), never as a `[file: …]` line.
 * `files` and the other fields keep their behaviour. Over a real socket, with a core whose `attach`
 * writes real files.
 */
import { mkdir, readdir, rm, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ApiCore } from '../../src/main/api/core';
import { MAX_IMAGE_BYTES } from '../../src/shared/images';
import { createFakeApiCore } from './fakeApiCore';
import { apiDirs, call, startTestApi, type ApiDirs, type TestApi } from './helpers';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==', 'base64');

let dirs: ApiDirs;
let inbox: string;
let shot: string;
let fakePng: string;
let big: string;
let report: string;
const running: TestApi[] = [];

beforeAll(async () => {
  dirs = await apiDirs();
  inbox = join(dirs.outside, 'code', '.inbox');
  shot = join(dirs.outside, 'shot.png');
  fakePng = join(dirs.outside, 'fake.png');
  big = join(dirs.outside, 'big.png');
  report = join(dirs.outside, 'report.txt');
  await writeFile(shot, PNG);
  await writeFile(fakePng, 'not an image at all');
  await writeFile(big, PNG);
  await truncate(big, MAX_IMAGE_BYTES + 1);
  await writeFile(report, 'the report');
});
afterAll(() => dirs.cleanup());
beforeEach(() => rm(inbox, { recursive: true, force: true }));
afterEach(async () => {
  for (const t of running.splice(0)) await t.api.close();
});

/** The fake core with an `attach` writing real files into `inbox`; every `turn` call's options recorded. */
async function serve() {
  const fake = createFakeApiCore();
  const base = fake.core;
  const turns: { text: string; opts: Parameters<ApiCore['turn']>[2] }[] = [];
  const core: ApiCore = {
    ...base,
    attach: async (chatId, name, data) => {
      await base.attach(chatId, name, data);
      await mkdir(inbox, { recursive: true });
      const path = join(inbox, name);
      await writeFile(path, data, { flag: 'wx' });
      return { path };
    },
    turn: async (chatId, text, opts) => {
      turns.push({ text, opts });
      return base.turn(chatId, text, opts);
    },
  };
  const t = await startTestApi(core, dirs);
  running.push(t);
  return { t, fake, turns };
}

const inboxFiles = async (): Promise<string[]> => (await readdir(inbox).catch(() => [])).sort();

describe('POST /turn with images', () => {
  it('an image is copied into .inbox and given to the core as an image, files still as lines', async () => {
    const { t, turns } = await serve();
    const res = await call(dirs.socket, 'POST', '/turn', { token: t.owner, body: { key: 'coder', text: 'look', files: [report], images: [shot] } });
    expect(res.status, res.text).toBe(200);
    expect(await inboxFiles()).toEqual(['report.txt', 'shot.png']);
    expect(turns).toEqual([{ text: `look\n[file: ${join(inbox, 'report.txt')}]`, opts: { images: [join(inbox, 'shot.png')] } }]);
  });

  it('images alone make a turn (no text)', async () => {
    const { t, turns } = await serve();
    const res = await call(dirs.socket, 'POST', '/turn', { token: t.owner, body: { key: 'coder', images: [{ path: shot, name: 'screen.png' }] } });
    expect(res.status, res.text).toBe(200);
    expect(turns).toEqual([{ text: '', opts: { images: [join(inbox, 'screen.png')] } }]);
  });

  it.each([
    ['a non-image named .png', () => fakePng, 400, 'not-image'],
    ['an image over 10 MiB', () => big, 413, 'too-large'],
    ['a missing file', () => join(dirs.outside, 'missing.png'), 404, undefined],
    ['a relative path', () => 'shot.png', 400, undefined],
  ])('%s is refused, and nothing is copied nor sent', async (_name, path, status, code) => {
    const { t, turns } = await serve();
    const res = await call(dirs.socket, 'POST', '/turn', { token: t.owner, body: { key: 'coder', text: 'look', files: [report], images: [shot, path()] } });
    expect(res.status, res.text).toBe(status);
    if (code) expect(res.body).toMatchObject({ code });
    expect(await inboxFiles()).toEqual([]);
    expect(turns).toEqual([]);
  });

  it("an agent's turn with images is refused (owner only), with the same words as for files", async () => {
    const { t, fake } = await serve();
    const res = await call(dirs.socket, 'POST', '/turn', { token: t.tokenFor('research'), body: { key: 'coder', text: 'take this', images: [shot] } });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error: 'only the owner gives a turn with reply, plain or files', code: 'forbidden' });
    expect(fake.attached).toEqual([]);
  });

  it('more than 10 images are refused by the schema', async () => {
    const { t } = await serve();
    const res = await call(dirs.socket, 'POST', '/turn', { token: t.owner, body: { key: 'coder', images: Array.from({ length: 11 }, () => shot) } });
    expect(res.status).toBe(400);
    expect(await inboxFiles()).toEqual([]);
  });
});
