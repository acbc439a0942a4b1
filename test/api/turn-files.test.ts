/**
 * `POST /turn {files}` copies nothing into the profile's `.inbox/` before everything that can refuse the
 * turn has passed: the files' checks (all of them, not one at a time), the text's length and the chat's
 * queue (429 when full). A turn refused after the copies were made (the queue filled meanwhile, a copy
 * failed) removes the copies it made. Over a real socket, with a core whose `attach` writes real files.
 */
import { mkdir, readdir, writeFile, rm as rmFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppFailure } from '../../src/shared/result';
import type { ApiCore } from '../../src/main/api/core';
import { MAX_TEXT } from '../../src/main/api/routes';
import { createFakeApiCore, type FakeApiCoreOptions } from './fakeApiCore';
import { apiDirs, call, startTestApi, type ApiDirs, type TestApi } from './helpers';

let dirs: ApiDirs;
let inbox: string;
let report: string;
let chart: string;
const running: TestApi[] = [];

beforeAll(async () => {
  dirs = await apiDirs();
  inbox = join(dirs.outside, 'code', '.inbox');
  report = join(dirs.outside, 'report.txt');
  chart = join(dirs.outside, 'chart.png');
  await writeFile(report, 'the report');
  await writeFile(chart, 'png');
  await mkdir(join(dirs.home, '.ssh'), { recursive: true });
  await writeFile(join(dirs.home, '.ssh', 'notes.txt'), 'private');
});
afterAll(() => dirs.cleanup());
beforeEach(() => rmFile(inbox, { recursive: true, force: true }));
afterEach(async () => {
  for (const t of running.splice(0)) await t.api.close();
});

/** The fake core with an `attach` that writes real files into `inbox` (and `overrides` on top). */
async function serve(opts: FakeApiCoreOptions = {}, overrides: (core: ApiCore) => Partial<ApiCore> = () => ({})) {
  const fake = createFakeApiCore(opts);
  const base = fake.core;
  const core: ApiCore = {
    ...base,
    attach: async (chatId, name, data) => {
      await base.attach(chatId, name, data);
      await mkdir(inbox, { recursive: true });
      const path = join(inbox, name);
      await writeFile(path, data, { flag: 'wx' });
      return { path };
    },
  };
  const t = await startTestApi({ ...core, ...overrides(core) }, dirs);
  running.push(t);
  return { t, fake };
}

const inboxFiles = async (): Promise<string[]> => (await readdir(inbox).catch(() => [])).sort();

describe('a turn with files copies nothing until nothing else can refuse it', () => {
  it('a full chat answers 429 and nothing is copied', async () => {
    const { t, fake } = await serve({ queueFull: ['coder'] });
    const res = await call(dirs.socket, 'POST', '/turn', { token: t.owner, body: { key: 'coder', text: 'read these', files: [report, chart] } });
    expect(res.status, res.text).toBe(429);
    expect(res.body).toMatchObject({ code: 'queue-full' });
    expect(fake.attached).toEqual([]);
    expect(await inboxFiles()).toEqual([]);
    expect(fake.turns).toEqual([]);
  });

  it('a refused file anywhere in the list refuses the turn before the first file is copied', async () => {
    const { t, fake } = await serve();
    for (const files of [
      [report, join(dirs.home, '.ssh', 'notes.txt')],
      [report, join(dirs.outside, 'missing.txt')],
      [report, 'relative.txt'],
    ]) {
      const res = await call(dirs.socket, 'POST', '/turn', { token: t.owner, body: { key: 'coder', text: 'x', files } });
      expect(res.status, files.join(' ')).toBeGreaterThanOrEqual(400);
      expect(fake.attached, files.join(' ')).toEqual([]);
    }
    expect(await inboxFiles()).toEqual([]);
  });

  it('a text that leaves no room for the file lines is refused, and its copies removed', async () => {
    const { t, fake } = await serve();
    const res = await call(dirs.socket, 'POST', '/turn', { token: t.owner, body: { key: 'coder', text: 'y'.repeat(MAX_TEXT), files: [report] } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: expect.stringMatching(/^the message is \d+ characters long; at most 100000$/) });
    expect(fake.turns).toEqual([]);
    expect(await inboxFiles()).toEqual([]);
  });

  it("an agent's turn with files is refused (owner only) before any check or copy", async () => {
    const { t, fake } = await serve();
    const res = await call(dirs.socket, 'POST', '/turn', { token: t.tokenFor('research'), body: { key: 'coder', text: 'take this', files: [report] } });
    expect(res.status).toBe(403);
    expect(fake.attached).toEqual([]);
  });

  it('when the queue fills between the check and the turn, the copies made are removed (429)', async () => {
    const { t, fake } = await serve({}, () => ({
      turn: async () => {
        throw new AppFailure({ code: 'queue-full', message: 'this chat already holds 10 messages; wait for the agent to work through them' });
      },
    }));
    const res = await call(dirs.socket, 'POST', '/turn', { token: t.owner, body: { key: 'coder', text: 'read these', files: [report, chart] } });
    expect(res.status, res.text).toBe(429);
    expect(fake.attached.map((a) => a.name)).toEqual(['report.txt', 'chart.png']);
    expect(await inboxFiles()).toEqual([]);
  });

  it('when the second copy fails, the first is removed', async () => {
    let n = 0;
    const { t } = await serve({}, (core) => ({
      attach: async (chatId, name, data) => {
        if (++n === 2) throw new AppFailure({ code: 'attach-full', message: 'the inbox is full' });
        return core.attach(chatId, name, data);
      },
    }));
    const res = await call(dirs.socket, 'POST', '/turn', { token: t.owner, body: { key: 'coder', text: 'read these', files: [report, chart] } });
    expect(res.status, res.text).toBe(409);
    expect(n).toBe(2);
    expect(await inboxFiles()).toEqual([]);
  });

  it('a turn that passes gets its copies, in order', async () => {
    const { t, fake } = await serve();
    const res = await call(dirs.socket, 'POST', '/turn', { token: t.owner, body: { key: 'coder', text: 'read these', files: [report, chart] } });
    expect(res.status, res.text).toBe(200);
    expect(await inboxFiles()).toEqual(['chart.png', 'report.txt']);
    expect(fake.turns.at(-1)?.text).toBe(`read these\n[file: ${join(inbox, 'report.txt')}]\n[file: ${join(inbox, 'chart.png')}]`);
  });
});
