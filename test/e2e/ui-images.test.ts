/**
 * End to end, with the fake core: images as agent input in the BUILT renderer (a private copy of
 * out/renderer, test/fixtures/builtRenderer.ts) served by the headless host, in Chromium. An image
 * pasted into the composer shows as a thumbnail (× removes it), is attached (`POST /attach` on this
 * host) and goes with the message as `chats:send` `images`; the sent message shows it again, read back
 * through `chats:image` as a `data:` URL, with no CSP violation. A pasted non-image keeps the plain
 * attach. Screenshots: test-results/screenshots/images-*.png and /work/notes/shots/images-*.png.
 * `npx electron-vite build` first (`npm test` builds).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { deflateSync } from 'node:zlib';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type RunningHost } from '../../src/main/host/server';
import { createFakeCore, type FakeCore } from '../fixtures/fakeCore';
import { copyBuiltRenderer } from '../fixtures/builtRenderer';

const ROOT = resolve(__dirname, '../..');
const SHOTS = join(ROOT, 'test-results/screenshots');
const NOTES_SHOTS = '/work/notes/shots';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** CRC-32 (PNG chunks). */
function crc32(buf: Buffer): number {
  let c = ~0;
  for (const b of buf) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}

/** A `width`×`height` RGB PNG: a diagonal gradient in `hue` (so a thumbnail is visibly an image). */
function gradientPng(width: number, height: number, hue: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer): Buffer => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const rows: number[] = [];
  for (let y = 0; y < height; y++) {
    rows.push(0);
    for (let x = 0; x < width; x++) {
      const t = (x + y) / (width + height);
      rows.push(...hue.map((h) => Math.round(h * t + 255 * (1 - t) * 0.3)));
    }
  }
  const sig = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([sig, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.from(rows))), chunk('IEND', Buffer.alloc(0))]);
}

let browser: Browser;
let renderer: { dir: string; remove: () => void };
const hosts: RunningHost[] = [];

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install -y chromium, or set CHROMIUM_PATH.`);
  renderer = copyBuiltRenderer();
  mkdirSync(SHOTS, { recursive: true });
  mkdirSync(NOTES_SHOTS, { recursive: true });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--headless', '--disable-gpu', '--no-first-run'] });
});

afterAll(async () => {
  await browser?.close();
  for (const h of hosts) await h.close();
  renderer?.remove();
});

/** The window on a fresh fake core, chat "demo" open; `problems` collects page errors, console errors and CSP violations. */
async function openApp(): Promise<{ page: Page; fake: FakeCore; problems: string[] }> {
  const fake = createFakeCore({ step: 5 });
  const host = await startHost({ core: fake.core, rendererDir: renderer.dir });
  hosts.push(host);
  const page = await browser.newPage({ viewport: { width: 1000, height: 720 } });
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => console.error(`csp: ${e.violatedDirective} ${e.blockedURI}`));
  });
  await page.goto(host.url);
  await page.getByTestId('chat-list-item').first().click();
  await page.getByTestId('composer-input').waitFor();
  return { page, fake, problems };
}

/** Pastes files into the composer as the clipboard would (a `paste` event carrying them). */
async function paste(page: Page, files: { name: string; type: string; base64: string }[]): Promise<void> {
  await page.getByTestId('composer-input').evaluate((el, list) => {
    const dt = new DataTransfer();
    for (const f of list) dt.items.add(new File([Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0))], f.name, { type: f.type }));
    el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
  }, files);
}

const shot = async (page: Page, name: string): Promise<void> => {
  await page.screenshot({ path: join(SHOTS, `images-${name}.png`) });
  await page.screenshot({ path: join(NOTES_SHOTS, `images-${name}.png`) });
};

const sends = (fake: FakeCore): unknown[] => fake.received.filter((r) => r.channel === 'chats:send').map((r) => r.input);

describe('images as agent input (fake core, Chromium)', () => {
  it('a pasted image shows as a thumbnail, × removes one, and the message carries the rest as images', async () => {
    const { page, fake, problems } = await openApp();
    const blue = gradientPng(160, 100, [40, 90, 230]).toString('base64');
    const orange = gradientPng(120, 120, [240, 140, 30]).toString('base64');
    await paste(page, [{ name: 'image.png', type: 'image/png', base64: blue }]);
    await paste(page, [{ name: 'chart.png', type: 'image/png', base64: orange }]);
    const drafts = page.getByTestId('image-draft');
    await expect.poll(() => page.locator('[data-testid="image-draft"][data-status="ready"]').count()).toBe(2);
    expect(await drafts.first().locator('img').getAttribute('src')).toBe(`data:image/png;base64,${blue}`);
    expect(fake.attached.map((a) => a.path)).toEqual(['.inbox/image.png', '.inbox/chart.png']);
    await page.getByTestId('composer-input').fill('What is wrong in this screenshot?');
    await shot(page, '01-composer');

    await page.getByRole('button', { name: 'Remove chart.png' }).click();
    await expect.poll(() => drafts.count()).toBe(1);
    await page.getByTestId('send-button').click();
    await expect.poll(() => sends(fake)).toEqual([{ chatId: 'demo', text: 'What is wrong in this screenshot?', images: ['.inbox/image.png'] }]);
    await expect.poll(() => drafts.count()).toBe(0);

    const sent = page.getByTestId('sent-image').locator('img');
    await sent.waitFor();
    expect(await sent.getAttribute('src')).toBe(`data:image/png;base64,${blue}`);
    expect(await page.getByTestId('user-message').first().textContent()).toContain('What is wrong in this screenshot?');
    await page
      .getByTestId('user-message')
      .first()
      .evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await shot(page, '02-sent');
    expect(problems).toEqual([]);
  });

  it('an image alone can be sent; a pasted non-image keeps the plain attach (a line and a path in the text)', async () => {
    const { page, fake, problems } = await openApp();
    await paste(page, [{ name: 'notes.txt', type: 'text/plain', base64: Buffer.from('hello').toString('base64') }]);
    await page.getByTestId('attach-line').waitFor();
    expect(await page.getByTestId('image-draft').count()).toBe(0);
    await expect.poll(() => page.getByTestId('composer-input').inputValue()).toBe('.inbox/notes.txt ');
    await page.getByTestId('composer-input').fill('');
    await expect.poll(() => page.getByTestId('send-button').isDisabled()).toBe(true);
    await paste(page, [{ name: 'image.png', type: 'image/png', base64: gradientPng(40, 40, [30, 200, 90]).toString('base64') }]);
    await page.locator('[data-testid="image-draft"][data-status="ready"]').waitFor();
    await expect.poll(() => page.getByTestId('send-button').isDisabled()).toBe(false);
    await page.getByTestId('send-button').click();
    await expect.poll(() => sends(fake)).toEqual([{ chatId: 'demo', text: '', images: ['.inbox/image.png'] }]);
    await page.getByTestId('sent-image').locator('img').waitFor();
    expect(problems).toEqual([]);
  });
});
