/**
 * On real Codex (pinned npm package, 0.169.0) in the real Linux sandbox with the scripted model: an image
 * attached to a chat (`chats:attach`) and named in `chats:send` `images` reaches the model's request as
 * an `input_image` part whose `data:` URL decodes to the file's bytes; the user item records Angelia's
 * private copy, served back by `chats:image`, also after a restart (read from Codex's record). A steer
 * carries its image too. Refused (clear error, no user item, no model request): a symbolic link in the
 * inbox pointing outside, a path outside the inbox, a non-image named `.png`
 * (docs/security-model.md "What an image input lets Codex read").
 */
import { readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatItem } from '../../src/shared/contract';
import { AppFailure } from '../../src/shared/result';
import { Orchestrator } from '../../src/main/core/chats/orchestrator';
import { startCodexClient } from '../../src/main/core/codex/start';
import { memoryAudit } from '../../src/main/core/approvals/audit';
import { makeInstance, type TestInstance } from '../fixtures/instance';
import { until } from '../fixtures/until';

/** A 1×1 PNG (its IDAT made here so the bytes are ours). */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==', 'base64');
/** A 2×1 RGB PNG, built here (CRC-32 and zlib), so a second, different image is a valid one. */
function twoPixelPng(): Buffer {
  const crc = (buf: Buffer): number => {
    let c = ~0;
    for (const b of buf) {
      c ^= b;
      for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
    }
    return ~c >>> 0;
  };
  const chunk = (type: string, data: Buffer): Buffer => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), body.length + 4);
    return out;
  };
  const ihdr = Buffer.from([0, 0, 0, 2, 0, 0, 0, 1, 8, 2, 0, 0, 0]);
  const pixels = Buffer.from([0, 255, 0, 0, 0, 0, 255]);
  return Buffer.concat([PNG.subarray(0, 8), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(pixels)), chunk('IEND', Buffer.alloc(0))]);
}
const PNG2 = twoPixelPng();

let inst: TestInstance | null = null;
let orchs: Orchestrator[] = [];
afterEach(async () => {
  await Promise.all(orchs.map((o) => o.shutdown()));
  orchs = [];
  await inst?.cleanup();
  inst = null;
});

async function orchestrator(i: TestInstance): Promise<Orchestrator> {
  const o = await Orchestrator.create({ paths: i.paths, env: i.env, startCodex: startCodexClient, audit: memoryAudit() });
  orchs.push(o);
  return o;
}

/** Every `input_image` URL of the user messages in a model request. */
function imageUrls(body: unknown): string[] {
  const input = (body as { input?: { role?: string; content?: unknown }[] }).input ?? [];
  return input
    .filter((i) => i.role === 'user' && Array.isArray(i.content))
    .flatMap((i) => (i.content as { type?: string; image_url?: string }[]).filter((p) => p.type === 'input_image').map((p) => p.image_url ?? ''));
}

const dataOf = (url: string): Buffer => {
  expect(url).toMatch(/^data:image\/png;base64,/);
  return Buffer.from(url.slice(url.indexOf(',') + 1), 'base64');
};

async function failure(p: Promise<unknown>): Promise<AppFailure> {
  const e = await p.then(
    () => null,
    (x: unknown) => x,
  );
  expect(e, 'must fail').toBeInstanceOf(AppFailure);
  return e as AppFailure;
}

const users = (items: ChatItem[]) => items.filter((i): i is Extract<ChatItem, { type: 'user' }> => i.type === 'user');

describe('an image reaches the model as an image', () => {
  it('attached, sent with the text: the request carries the bytes; the transcript, chats:image and a restart show it', async () => {
    inst = await makeInstance({ coder: {} }, { privateHome: true });
    inst.model.enqueue({ message: 'a tiny picture' });
    const o = await orchestrator(inst);
    const h = o.api().handlers;
    const { path } = await h['chats:attach']({ chatId: 'coder', name: 'shot.png', dataBase64: PNG.toString('base64') });
    expect(path).toBe(join(inst.cwd.coder!, '.inbox', 'shot.png'));
    await h['chats:send']({ chatId: 'coder', text: 'what is this?', images: [path] });
    await o.chat('coder').idle();

    const request = inst.model.modelRequests().at(-1)!;
    const urls = imageUrls(request.body);
    expect(urls).toHaveLength(1);
    expect(dataOf(urls[0]!)).toEqual(PNG);
    const [user] = users(o.chat('coder').transcript.all());
    expect(user).toMatchObject({ text: 'what is this?', images: [{ name: 'shot.png' }] });
    const copy = user!.images![0]!.path;
    expect(copy.startsWith(join(inst.paths.privateDir, 'images') + '/')).toBe(true);
    expect(await readFile(copy)).toEqual(PNG);
    expect(await h['chats:image']({ chatId: 'coder', path: copy })).toEqual({ mime: 'image/png', dataBase64: PNG.toString('base64') });
    // The agent's own file is still in .inbox; changing it now cannot change what Codex was given.
    await writeFile(path, 'replaced after the send');

    await o.shutdown();
    orchs = orchs.filter((x) => x !== o);
    const again = await orchestrator(inst);
    const past = users(await again.api().handlers['chats:items']({ chatId: 'coder' }));
    expect(past[0]).toMatchObject({ text: 'what is this?', images: [{ path: copy, name: 'shot.png' }], id: expect.stringMatching(/^history-/) });
    expect((await again.api().handlers['chats:image']({ chatId: 'coder', path: copy })).dataBase64).toBe(PNG.toString('base64'));
  });

  it('a steer into the running turn carries its image', async () => {
    inst = await makeInstance({ coder: {} }, { privateHome: true });
    inst.model.enqueue({ exec: { cmd: 'sleep 2; echo slept', login: false } }, { message: 'done' });
    const o = await orchestrator(inst);
    const h = o.api().handlers;
    const chat = o.chat('coder');
    await h['chats:send']({ chatId: 'coder', text: 'start working' });
    await until('the command started', () => chat.transcript.all().some((i) => i.type === 'command'));
    const { path } = await h['chats:attach']({ chatId: 'coder', name: 'wide.png', dataBase64: PNG2.toString('base64') });
    expect(await h['chats:send']({ chatId: 'coder', text: 'also look at this', images: [path], steer: true })).toMatchObject({ steered: true });
    await chat.idle();
    const urls = imageUrls(inst.model.modelRequests().at(-1)!.body);
    expect(urls.map((u) => dataOf(u))).toEqual([PNG2]);
    expect(users(chat.transcript.all()).at(-1)).toMatchObject({ via: 'steer', text: 'also look at this', images: [{ name: 'wide.png' }] });
  });
});

describe('what is refused: a clear error, nothing sent', () => {
  it('a link in the inbox pointing outside, a path outside the inbox, a non-image named .png', async () => {
    inst = await makeInstance({ coder: {} }, { privateHome: true });
    const o = await orchestrator(inst);
    const h = o.api().handlers;
    const inbox = join(inst.cwd.coder!, '.inbox');
    const { path: good } = await h['chats:attach']({ chatId: 'coder', name: 'good.png', dataBase64: PNG.toString('base64') });
    await writeFile(join(inst.outside, 'outside.png'), PNG);
    await symlink(join(inst.outside, 'outside.png'), join(inbox, 'linked.png'));
    await symlink(inst.secret, join(inbox, 'secret.png'));
    const { path: fake } = await h['chats:attach']({ chatId: 'coder', name: 'fake.png', dataBase64: Buffer.from('not an image').toString('base64') });

    const cases: [string, string, RegExp][] = [
      [join(inbox, 'linked.png'), 'image-link', /linked\.png is a symbolic link; only a file attached to the chat is sent/],
      [join(inbox, 'secret.png'), 'image-link', /is a symbolic link/],
      [join(inst.outside, 'outside.png'), 'image-outside-inbox', /is not a file attached to this chat/],
      [join(inbox, '..', '..', '..', 'outside', 'outside.png'), 'image-outside-inbox', /is not a file attached to this chat/],
      [fake, 'image-not-image', /fake\.png is not a PNG, JPEG, GIF or WebP image \(by its content\)/],
    ];
    for (const [path, code, message] of cases) {
      const e = await failure(h['chats:send']({ chatId: 'coder', text: 'look', images: [good, path] }));
      expect(e.app.code, path).toBe(code);
      expect(e.app.message, path).toMatch(message);
    }
    expect(users(o.chat('coder').transcript.all())).toEqual([]);
    expect(o.chat('coder').view().queued).toBe(0);
    expect(inst.model.modelRequests()).toEqual([]);
  });
});
