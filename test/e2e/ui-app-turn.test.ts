/**
 * End to end, with the fake core: the BUILT renderer (out/renderer) served by the headless host, driven
 * in Chromium. An app turn (API `POST /turn` with `reply: "caller"`: its user item is marked `app`) is
 * shown as one marked row, folded once it ended, open while it runs, and never as a normal reply; the
 * turns around it stay as they are. Run `npx electron-vite build` first (`npm test` does).
 */
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type RunningHost } from '../../src/main/host/server';
import type { ChatItem } from '../../src/shared/contract';
import { createFakeCore } from '../fixtures/fakeCore';

const ROOT = resolve(__dirname, '../..');
const RENDERER = join(ROOT, 'out/renderer');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

let browser: Browser;
const hosts: RunningHost[] = [];

beforeAll(async () => {
  const index = join(RENDERER, 'index.html');
  if (!existsSync(index)) throw new Error(`The built renderer is missing (${index}). Run \`npx electron-vite build\` first (\`npm test\` does).`);
  if (statSync(join(ROOT, 'src/renderer/src/features/chat/AppTurn.tsx')).mtimeMs > statSync(index).mtimeMs)
    throw new Error('out/renderer is older than AppTurn.tsx: run `npx electron-vite build` again.');
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install -y chromium, or set CHROMIUM_PATH.`);
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--headless', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});

afterAll(async () => {
  await browser?.close();
  for (const h of hosts) await h.close();
});

const ITEMS: ChatItem[] = [
  { type: 'user', id: 'u1', text: 'Run the tests.', via: 'turn' },
  { type: 'agent', id: 'a1', text: 'All 212 tests pass.', done: true },
  { type: 'turnEnd', id: 't1', status: 'completed', reason: null },
  { type: 'user', id: 'u2', text: 'List the failing tests, one per line.', via: 'turn', apiTurn: 'api-1', app: true },
  { type: 'command', id: 'c2', command: 'npm test -- --reporter=dot', cwd: '/w', output: 'ok', exitCode: 0, status: 'completed' },
  { type: 'agent', id: 'a2', text: 'NONE-FAILING-ANSWER', done: true },
  { type: 'turnEnd', id: 't2', status: 'completed', reason: null, apiTurn: 'api-1' },
  { type: 'user', id: 'u3', text: 'Now deploy.', via: 'turn' },
  { type: 'agent', id: 'a3', text: 'Deployed.', done: true },
  { type: 'turnEnd', id: 't3', status: 'completed', reason: null },
  { type: 'user', id: 'u4', text: 'Which version is live?', via: 'turn', apiTurn: 'api-2', app: true },
  { type: 'agent', id: 'a4', text: 'STILL-WRITING', done: false },
];

describe('an app turn in the window', () => {
  it('is one marked row: folded with its status once ended, open while it runs; the other turns are shown as ever', async () => {
    const fake = createFakeCore({ seed: { items: ITEMS, approvals: [] } });
    const host = await startHost({ core: fake.core, rendererDir: RENDERER });
    hosts.push(host);
    const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    await page.goto(host.url);
    const row = page.getByTestId('chat-list-item').first();
    await row.waitFor();
    await row.click();
    const rows = page.getByTestId('app-turn');
    await expect.poll(() => rows.count()).toBe(2);
    const [done, running] = [rows.nth(0), rows.nth(1)];
    expect(await done.getAttribute('data-status')).toBe('answered');
    expect(await done.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    expect(await done.locator('summary').textContent()).toBe(
      'App turn List the failing tests, one per line. · answered, answer sent to the program that asked',
    );
    // Folded: the answer is not shown as a reply.
    expect(await page.getByText('NONE-FAILING-ANSWER').isVisible()).toBe(false);
    expect(await running.getAttribute('data-status')).toBe('running');
    expect(await running.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
    await expect.poll(() => page.getByText('STILL-WRITING').isVisible()).toBe(true);
    // The ordinary turns around them.
    expect(await page.getByText('All 212 tests pass.').isVisible()).toBe(true);
    expect(await page.getByText('Deployed.').isVisible()).toBe(true);
    // Opening the folded row shows the request and every item of the turn.
    await done.locator('summary').click();
    await expect.poll(() => page.getByText('NONE-FAILING-ANSWER').isVisible()).toBe(true);
    expect(await done.getByTestId('user-message').textContent()).toBe('List the failing tests, one per line.');
    expect(await done.getByText('npm test -- --reporter=dot').count()).toBeGreaterThan(0);
    expect(problems).toEqual([]);
    await page.close();
  });
});
