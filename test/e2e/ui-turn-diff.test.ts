/**
 * End to end, with the fake core: "Changes of this turn" in the BUILT renderer (out/renderer) in Chromium.
 * A turn whose diff is large (fakeCore/turnDiff.ts: a 20 000-line new file and two small files) opens from
 * its turn end; the view scrolls to the end and folds a file while the DOM holds only a window of the
 * lines; copy and save give the whole patch; "Against HEAD" shows the folder's diff. Screenshots:
 * test-results/screenshots/turn-diff-*.png. `npx electron-vite build` first (`npm test` builds).
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type RunningHost } from '../../src/main/host/server';
import { createFakeCore } from '../fixtures/fakeCore';
import { BIG_FILE, BIG_LINES, BIG_TURN, bigDiff, turnItems } from '../fixtures/fakeCore/turnDiff';

const ROOT = resolve(__dirname, '../..');
const RENDERER = join(ROOT, 'out/renderer');
const SHOTS = join(ROOT, 'test-results/screenshots');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

let browser: Browser;
const hosts: RunningHost[] = [];

beforeAll(async () => {
  if (!existsSync(join(RENDERER, 'index.html'))) throw new Error('The built renderer is missing: run `npx electron-vite build` first (`npm test` does).');
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install -y chromium, or set CHROMIUM_PATH.`);
  mkdirSync(SHOTS, { recursive: true });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--headless', '--disable-gpu', '--no-first-run'] });
});

afterAll(async () => {
  await browser?.close();
  for (const h of hosts) await h.close();
});

/** The window on a fake core whose chat "demo" holds a turn with the large diff; `problems` collects page errors. */
async function openApp(width: number, height: number): Promise<{ page: Page; problems: string[] }> {
  const fake = createFakeCore({ seed: { items: turnItems(BIG_TURN), approvals: [] } });
  const host = await startHost({ core: fake.core, rendererDir: RENDERER });
  hosts.push(host);
  const context = await browser.newContext({ viewport: { width, height }, acceptDownloads: true });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(host.url).origin });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  await page.goto(host.url);
  return { page, problems };
}

const shot = (page: Page, name: string): Promise<Buffer> => page.screenshot({ path: join(SHOTS, `turn-diff-${name}.png`) });
const lineCount = (page: Page): Promise<number> => page.getByTestId('diff-line').count();
/** Scrolls the diff's virtual list to its very end. */
const scrollToEnd = (page: Page): Promise<void> =>
  page.evaluate(() => {
    const el = document.querySelector('[data-testid="diff-list"]');
    if (el) el.scrollTop = el.scrollHeight;
  });

describe('Changes of this turn (fake core, Chromium)', () => {
  it('opens a 20 000-line diff from the turn end, scrolls to its end and folds a file with only a window of lines in the DOM', async () => {
    const { page, problems } = await openApp(1100, 760);
    await page.getByTestId('chat-list-item').first().click();
    const button = page.getByTestId('turn-changes');
    await button.waitFor();
    expect(await button.textContent()).toBe(`Changes: 3 files +${BIG_LINES + 3} −2`);
    await shot(page, '01-turn-end');
    await button.click();

    const dialog = page.getByTestId('turn-diff');
    await dialog.waitFor();
    await expect.poll(() => page.getByTestId('diff-totals').textContent()).toBe(`3 files, +${BIG_LINES + 3} −2`);
    await expect.poll(() => lineCount(page)).toBeGreaterThan(10);
    const files = page.getByTestId('diff-file');
    expect(await files.first().getAttribute('data-path')).toBe(BIG_FILE);
    // Virtualised: of ~20 000 lines only those near the view are in the DOM.
    expect(await lineCount(page)).toBeLessThan(300);
    await shot(page, '02-open');

    // To the end: the last file's last line is shown, still with a window of lines only.
    await expect
      .poll(async () => {
        await scrollToEnd(page);
        return page.getByTestId('diff-line').last().textContent();
      })
      .toBe('+Another line');
    expect(await lineCount(page)).toBeLessThan(300);
    // A line with markup is shown as text, never as HTML.
    await expect
      .poll(async () => {
        await scrollToEnd(page);
        return page.getByTestId('diff-line').filter({ hasText: '<b>markup</b>' }).count();
      })
      .toBe(1);
    expect(await dialog.locator('b').count()).toBe(0);
    await shot(page, '03-end');

    // Fold the large file: its lines leave the list; the two small files' lines are all that is left.
    await page.evaluate(() => {
      const el = document.querySelector('[data-testid="diff-list"]');
      if (el) el.scrollTop = 0;
    });
    await files.first().click();
    await expect.poll(() => files.first().getAttribute('aria-expanded')).toBe('false');
    await expect.poll(() => lineCount(page)).toBe(18);
    expect(await page.getByTestId('diff-line').filter({ hasText: 'export const row' }).count()).toBe(0);
    await shot(page, '04-folded');
    expect(problems).toEqual([]);
  });

  it('copies and saves the whole patch, and shows the folder against HEAD', async () => {
    const { page, problems } = await openApp(900, 640);
    await page.getByTestId('chat-list-item').first().click();
    await page.getByTestId('turn-changes').click();
    await page.getByTestId('turn-diff').waitFor();
    await expect.poll(() => page.getByTestId('diff-totals').textContent()).toContain('3 files');

    await page.getByTestId('diff-copy').click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(bigDiff());
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('diff-save').click()]);
    expect(download.suggestedFilename()).toBe(`demo-turn-${BIG_TURN.slice(-8)}.patch`);
    const saved = await download.path();
    expect(readFileSync(saved, 'utf8')).toBe(bigDiff());

    await page.getByTestId('diff-tab-head').click();
    await expect.poll(() => page.getByTestId('diff-totals').textContent()).toBe('1 file, +2 −1');
    expect(await page.getByTestId('diff-untracked').textContent()).toContain('notes.txt');
    await shot(page, '05-head');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('turn-diff').count()).toBe(0);
    expect(problems).toEqual([]);
  });
});
