/**
 * End to end, with the fake core: the BUILT renderer (out/renderer) served by the headless host, driven
 * in Chromium. Find past work (features/sessions/): the chat "demo" has 200 sessions
 * (fakeCore/sessions.ts); its panel keeps only a window of rows in the DOM, scrolling reaches the last
 * one (the pages load as it scrolls), the filter narrows it, a row is renamed in place and archived
 * (gone, then listed under "Archived"); Ctrl+K opens the search over every chat, whose results show the
 * matching line with the match marked; a result opens read-only with "Resume this session", which sends
 * `/resume <id>` to its chat. Screenshots go to test-results/screenshots/sessions-*.png. Run
 * `npx electron-vite build` first (`npm test` does).
 */
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type RunningHost } from '../../src/main/host/server';
import { createFakeCore, type FakeCore } from '../fixtures/fakeCore';
import { DEMO_SESSIONS } from '../fixtures/fakeCore/sessions';

const ROOT = resolve(__dirname, '../..');
const RENDERER = join(ROOT, 'out/renderer');
const SHOTS = join(ROOT, 'test-results/screenshots');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

let browser: Browser;
const hosts: RunningHost[] = [];

beforeAll(async () => {
  const index = join(RENDERER, 'index.html');
  if (!existsSync(index)) throw new Error(`The built renderer is missing (${index}). Run \`npx electron-vite build\` first (\`npm test\` does).`);
  if (statSync(join(ROOT, 'src/renderer/src/features/sessions/SessionBrowser.tsx')).mtimeMs > statSync(index).mtimeMs)
    throw new Error('out/renderer is older than SessionBrowser.tsx: run `npx electron-vite build` again.');
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install -y chromium, or set CHROMIUM_PATH.`);
  mkdirSync(SHOTS, { recursive: true });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--headless', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});

afterAll(async () => {
  await browser?.close();
  for (const h of hosts) await h.close();
});

async function openApp(width = 1100, height = 720): Promise<{ page: Page; fake: FakeCore; problems: string[] }> {
  const fake = createFakeCore({ extraChats: [{ id: 'research', lastLine: 'ready' }] });
  const host = await startHost({ core: fake.core, rendererDir: RENDERER });
  hosts.push(host);
  const page = await browser.newPage({ viewport: { width, height } });
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  await page.goto(host.url);
  await page.getByTestId('chat-list-item').first().waitFor();
  return { page, fake, problems };
}

const shot = (page: Page, name: string): Promise<Buffer> => page.screenshot({ path: join(SHOTS, `sessions-${name}.png`) });
const inputsOf = (fake: FakeCore, channel: string): unknown[] => fake.received.filter((r) => r.channel === channel).map((r) => r.input);
/** The session id the fake gives demo's session number `n` (1 = oldest). */
const demoId = (n: number): string => `019b0000-0000-7000-8000-${String(n).padStart(12, '0')}`;

describe('find past work in the window (fake core)', () => {
  it("lists a chat's 200 sessions in a virtual list: a window of rows, scrolled to the last, filtered, renamed, archived", async () => {
    const { page, fake, problems } = await openApp();
    await page.getByTestId('chat-list-item').first().click();
    await page.getByTestId('sessions-button').click();
    await page.getByTestId('sessions-all').click();
    const browserPane = page.getByTestId('session-browser');
    await browserPane.waitFor();
    const rows = page.getByTestId('past-row');
    await rows.first().waitFor();
    // 8 of the 200 are archived (every 25th): 192 listed, newest first.
    await expect.poll(() => page.getByTestId('past-count').textContent()).toBe('192 sessions');
    expect(await rows.first().getAttribute('data-session')).toBe(demoId(DEMO_SESSIONS));
    const inDom = await rows.count();
    expect(inDom).toBeGreaterThan(3);
    expect(inDom).toBeLessThan(40);
    await shot(page, 'panel');

    // Scroll to the end: the pages load as the list scrolls, and the oldest session's row comes into view.
    const scroller = page.locator('.sessions-browser [data-testid="virtuoso-scroller"]');
    await expect
      .poll(
        async () => {
          await scroller.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
          return page.locator(`[data-testid="past-row"][data-session="${demoId(1)}"]`).count();
        },
        { timeout: 15_000 },
      )
      .toBe(1);
    expect(await rows.count()).toBeLessThan(40);
    expect(inputsOf(fake, 'sessions:list').length).toBeGreaterThanOrEqual(4);
    await shot(page, 'panel-end');

    // The filter narrows the list to the sessions whose name or messages match.
    await page.getByTestId('past-filter').fill('milestone 3');
    await expect.poll(() => page.getByTestId('past-count').textContent()).toBe('1 found');
    expect(await rows.count()).toBe(1);
    await page.getByTestId('past-filter').fill('');
    await expect.poll(() => page.getByTestId('past-count').textContent()).toBe('192 sessions');

    // Rename the newest in place.
    const newest = page.locator(`[data-testid="past-row"][data-session="${demoId(DEMO_SESSIONS)}"]`);
    await scroller.evaluate((el) => el.scrollTo({ top: 0 }));
    await newest.getByTestId('past-rename').click();
    await newest.getByTestId('past-rename-input').fill('Release 0.2 notes');
    await newest.getByTestId('past-rename-input').press('Enter');
    await expect.poll(() => newest.getByTestId('past-open').textContent()).toBe('Release 0.2 notes');
    expect(inputsOf(fake, 'sessions:rename')).toEqual([{ chatId: 'demo', session: demoId(DEMO_SESSIONS), name: 'Release 0.2 notes' }]);

    // Archive the second newest: it leaves the list, and is listed under "Archived".
    const second = page.locator(`[data-testid="past-row"][data-session="${demoId(DEMO_SESSIONS - 1)}"]`);
    await second.getByTestId('past-archive').click();
    await expect.poll(() => second.count()).toBe(0);
    await expect.poll(() => page.getByTestId('past-count').textContent()).toBe('191 sessions');
    await page.getByTestId('past-archived-toggle').check();
    await expect.poll(() => page.getByTestId('past-count').textContent()).toBe('9 sessions');
    await expect.poll(() => page.locator(`[data-testid="past-row"][data-session="${demoId(DEMO_SESSIONS - 1)}"]`).count()).toBe(1);
    await shot(page, 'panel-archived');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('searches every chat with Ctrl+K: results with the matching line; one opens read-only and resumes', async () => {
    const { page, fake, problems } = await openApp();
    await page.keyboard.press('Control+k');
    const search = page.getByTestId('search-input');
    await search.waitFor();
    await expect.poll(() => search.evaluate((el) => el === document.activeElement)).toBe(true);
    await search.fill('PELICAN');
    const hits = page.getByTestId('search-hit');
    await hits.first().waitFor();
    // Every 7th session of each chat names "pelican" in its second message (archived ones left out).
    await expect.poll(() => page.getByTestId('search-status').textContent()).toMatch(/^\d+ sessions found$/);
    expect(await hits.first().getByTestId('search-line').textContent()).toBe('Follow-up: also look at the pelican notes');
    expect(await hits.first().locator('mark').textContent()).toBe('pelican');
    expect(await hits.count()).toBeLessThan(40);
    await shot(page, 'search');
    // Every chat is searched: research's sessions too.
    await search.fill('research task 2');
    await expect.poll(() => hits.first().locator('.badge').first().textContent()).toBe('research');
    await expect.poll(() => page.getByTestId('search-status').textContent()).toBe('1 session found');

    // Narrowing: one session by its name.
    await search.fill('milestone 19');
    await expect.poll(() => hits.first().getByTestId('search-line').textContent()).toBe('name: Milestone 19');
    await expect.poll(() => page.getByTestId('search-status').textContent()).toBe('1 session found');

    // Enter opens the current result read-only; Resume sends /resume to its chat and opens it.
    await search.press('Enter');
    const past = page.getByTestId('past-session');
    await past.waitFor();
    await expect.poll(() => past.getAttribute('data-session')).toBe(demoId(190));
    await page.getByTestId('past-facts').waitFor();
    // The session's items arrive after its facts (a read of their own): wait for them, never count at once.
    await expect.poll(() => past.locator('.t-item').count()).toBe(6);
    await shot(page, 'read-only');
    // Back returns to the search as it was left; the result opens again.
    await past.getByRole('button', { name: 'Back' }).click();
    await expect.poll(() => hits.first().getByTestId('search-line').textContent()).toBe('name: Milestone 19');
    expect(await search.inputValue()).toBe('milestone 19');
    await hits.first().click();
    await past.waitFor();
    await page.getByTestId('past-resume').click();
    await expect.poll(() => page.getByTestId('chat-pane').getAttribute('data-chat-id')).toBe('demo');
    expect(inputsOf(fake, 'chats:send')).toContainEqual({ chatId: 'demo', text: `/resume ${demoId(190)}` });
    expect(problems).toEqual([]);
    await page.close();
  });
});
