/**
 * End to end, with the fake core: the BUILT renderer (out/renderer) served by the headless host, driven
 * in Chromium. The sign-in screen (signed out → ChatGPT link → signed in → sign out; a device code; an API
 * key that leaves no trace on the page), the usage meters (the header's rate limits and the composer's
 * context, with /compact from 90 %) showing exactly the numbers the fake core reports, and a chat paused
 * at a usage limit, lifted by "Try now" (the queued message is then sent). Screenshots go to test-results/screenshots/usage-*.png. Run `npx electron-vite build`
 * first (`npm test` does).
 */
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type RunningHost } from '../../src/main/host/server';
import type { AccountView } from '../../src/shared/account';
import type { ChatUsage, HomeUsage } from '../../src/shared/usage';
import { pausedText } from '../../src/shared/usageText';
import { createFakeCore, FAKE_AUTH_URL, FAKE_CODEX_HOME, FAKE_DEVICE, type FakeCore, type FakeCoreOptions } from '../fixtures/fakeCore';

const ROOT = resolve(__dirname, '../..');
const RENDERER = join(ROOT, 'out/renderer');
const SHOTS = join(ROOT, 'test-results/screenshots');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

let browser: Browser;
const hosts: RunningHost[] = [];

beforeAll(async () => {
  const index = join(RENDERER, 'index.html');
  if (!existsSync(index)) throw new Error(`The built renderer is missing (${index}). Run \`npx electron-vite build\` first (\`npm test\` does).`);
  if (statSync(join(ROOT, 'src/renderer/src/features/account/SignIn.tsx')).mtimeMs > statSync(index).mtimeMs)
    throw new Error('out/renderer is older than SignIn.tsx: run `npx electron-vite build` again.');
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

/** A fresh fake core behind the headless host, opened in a `width`×`height` window (400×600: the menu-bar popover). */
async function openApp(width: number, opts: FakeCoreOptions = {}, height = 600): Promise<{ page: Page; fake: FakeCore; problems: string[] }> {
  const fake = createFakeCore(opts);
  const host = await startHost({ core: fake.core, rendererDir: RENDERER });
  hosts.push(host);
  const page = await browser.newPage({ viewport: { width, height } });
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  await page.goto(host.url);
  return { page, fake, problems };
}

const shot = (page: Page, name: string): Promise<Buffer> => page.screenshot({ path: join(SHOTS, `usage-${name}.png`) });
const text = (page: Page, testId: string) => () => page.getByTestId(testId).first().textContent();

const signedIn: AccountView = {
  codexHome: FAKE_CODEX_HOME,
  signedIn: true,
  method: 'chatgpt',
  email: 'ada@example.com',
  plan: 'plus',
  requiresOpenaiAuth: true,
};
const MIN = 60_000;
const at = (ms: number): string => new Date(Date.now() + ms).toISOString();
/** The fake core's home with a 5-hour window at `primary` % (resets in 2 h 14 min) and a weekly one at `weekly` %. */
const limits = (primary: number, weekly: number, pausedUntil: string | null = null): HomeUsage => ({
  codexHome: FAKE_CODEX_HOME,
  rateLimits: {
    primary: { usedPercent: primary, windowMinutes: 300, resetsAt: at(134 * MIN + 30_000) },
    secondary: { usedPercent: weekly, windowMinutes: 10080, resetsAt: at((3 * 24 + 4) * 60 * MIN + 30_000) },
  },
  reportedAt: new Date().toISOString(),
  pausedUntil,
});
const chatUsage = (contextPercent: number, last: number, session: number): ChatUsage => ({
  lastTurn: { input: last - 400, output: 400, total: last, contextWindow: 272_000 },
  session: { input: session - 2000, output: 2000, total: session, contextWindow: 272_000 },
  contextPercent,
});

describe('sign-in in the window (fake core)', () => {
  it('signed out: the banner and the chip; ChatGPT by its link; signed in with email and plan; sign out', async () => {
    const { page, fake, problems } = await openApp(400);
    await page.getByTestId('sign-in-banner').waitFor();
    expect(await page.getByTestId('account-chip').textContent()).toBe('Sign in');
    await shot(page, '01-signed-out-popover');

    await page.getByTestId('sign-in-banner-open').click();
    await page.getByTestId('sign-in-panel').waitFor();
    expect(await page.getByTestId('account-status').textContent()).toContain('Codex is not signed in.');
    expect(await page.getByTestId('sign-in-banner').count()).toBe(0);
    await shot(page, '02-sign-in-screen');

    await page.getByTestId('sign-in-chatgpt').click();
    const link = page.getByTestId('login-url');
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe(FAKE_AUTH_URL);
    // A browser tab cannot open the system browser: the link is shown to click.
    expect(await page.getByTestId('login-open').count()).toBe(0);
    await shot(page, '03-chatgpt-pending');

    // The fake numbers its sign-ins from 1 (fakeCore/account.ts); Codex finishing it in the browser is this call.
    fake.completeLogin('fake-login-1', { email: 'ada@example.com', plan: 'plus' });
    await page.getByTestId('login-done').waitFor();
    await expect.poll(text(page, 'account-email')).toBe('ada@example.com');
    expect(await page.getByTestId('account-plan').textContent()).toBe('Plus');
    await expect.poll(() => page.getByTestId('account-chip').textContent()).toBe('ChatGPT');
    await shot(page, '04-signed-in');

    await page.getByTestId('sign-out').click();
    await page.getByTestId('sign-in-ways').waitFor();
    expect(await page.getByTestId('account-status').getAttribute('data-signed-in')).toBe('false');
    expect(fake.received.map((r) => r.channel).filter((c) => c.startsWith('account:'))).toEqual(['account:read', 'account:login', 'account:logout']);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('a device code shows the page and the code, and Cancel gives the ways back', async () => {
    const { page, fake, problems } = await openApp(400);
    await page.getByTestId('account-chip').click();
    await page.getByTestId('sign-in-device').click();
    await expect.poll(text(page, 'device-code')).toBe(FAKE_DEVICE.userCode);
    expect(await page.getByTestId('login-url').getAttribute('href')).toBe(FAKE_DEVICE.verificationUrl);
    await shot(page, '05-device-code');
    await page.getByTestId('login-cancel').click();
    await page.getByTestId('sign-in-ways').waitFor();
    expect(fake.received.some((r) => r.channel === 'account:loginCancel')).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('an API key goes once in account:login and is left nowhere on the page', async () => {
    const { page, fake, problems } = await openApp(400);
    await page.getByTestId('account-chip').click();
    const input = page.getByTestId('api-key-input');
    expect(await input.getAttribute('type')).toBe('password');
    await input.fill('sk-test-0123456789');
    await page.getByTestId('api-key-submit').click();
    await expect.poll(() => page.getByTestId('account-status').textContent()).toContain('Signed in with an API key.');
    expect(fake.received.filter((r) => r.channel === 'account:login').map((r) => r.input)).toEqual([{ method: 'apiKey', apiKey: 'sk-test-0123456789' }]);
    expect(await page.evaluate(() => document.documentElement.outerHTML.includes('sk-test-0123456789'))).toBe(false);
    expect(await page.evaluate(() => JSON.stringify(sessionStorage) + JSON.stringify(localStorage))).not.toContain('sk-test');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('a turn that failed signed out offers the sign-in', async () => {
    const { page, problems } = await openApp(400, {
      seed: {
        items: [
          { type: 'user', id: 'u1', text: 'hello', via: 'turn' },
          {
            type: 'error',
            id: 'e1',
            kind: 'unauthorized',
            message: 'Codex is not signed in, or the model provider refused its sign-in (HTTP 401)',
            detail: 'Sign in: the window\u2019s Sign in, or `angelia login`.',
          },
          { type: 'turnEnd', id: 't1', status: 'failed', reason: 'Codex is not signed in' },
        ],
        approvals: [],
      },
    });
    await page.getByTestId('chat-list-item').first().click();
    await page.getByTestId('sign-in-offer').click();
    await page.getByTestId('sign-in-panel').waitFor();
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('usage in the window (fake core)', () => {
  it('shows the rate limits, tokens and context the fake core reports; /compact from 90 %; a paused chat still queues', async () => {
    const pausedUntil = at(95 * MIN);
    const { page, fake, problems } = await openApp(
      400,
      {
        account: signedIn,
        usage: [limits(42, 77, pausedUntil)],
        extraChats: [
          { id: 'research', usage: chatUsage(64, 12_345, 45_600), lastLine: 'Read the three papers.' },
          { id: 'writer', usage: chatUsage(92, 31_000, 250_000), pausedUntil, lastLine: 'Drafted chapter 2.' },
        ],
      },
      600,
    );
    // Header: the fullest window (the week, 77 %), every window with its reset in the tooltip.
    const meter = page.getByTestId('usage-meter');
    await meter.waitFor();
    expect(await page.getByTestId('usage-meter-value').textContent()).toBe('77 %');
    expect(await meter.getAttribute('data-level')).toBe('warn');
    const title = await meter.getAttribute('title');
    expect(title).toContain('5 h: 42 % used · resets in 2 h 14 min');
    expect(title).toContain('week: 77 % used · resets in 3 d 4 h');
    expect(await page.getByTestId('sign-in-banner').count()).toBe(0);

    // The paused chat in the list.
    const paused = pausedText(pausedUntil, new Date())!;
    const writerRow = page.locator('[data-testid="chat-list-item"][data-chat-id="writer"]');
    expect(await writerRow.getByTestId('paused-until').textContent()).toBe(paused);
    expect(await page.locator('[data-testid="chat-list-item"][data-chat-id="research"]').getByTestId('paused-until').count()).toBe(0);
    await shot(page, '06-list-meter-and-paused');

    // A chat at 64 %: percent and tokens, no /compact.
    await page.locator('[data-testid="chat-list-item"][data-chat-id="research"]').click();
    await expect.poll(text(page, 'context-percent')).toBe('context 64 %');
    expect(await page.getByTestId('context-tokens').textContent()).toBe('turn 12.3k · session 45.6k tokens');
    expect(await page.getByTestId('context-meter').getAttribute('title')).toBe('last turn 12.3k tokens · session 45.6k tokens (context window 272k)');
    expect(await page.getByTestId('compact-button').count()).toBe(0);
    await shot(page, '07-context-meter');

    // The paused chat at 92 %: "paused until", the composer still queues, and /compact is offered and sent.
    await page.getByRole('button', { name: 'Back to the chats' }).click();
    await page.locator('[data-testid="chat-list-item"][data-chat-id="writer"]').click();
    await expect.poll(text(page, 'context-percent')).toBe('context 92 %');
    expect(await page.getByTestId('chat-pane').getByTestId('paused-until').textContent()).toBe(paused);
    expect(await page.getByTestId('composer-input').isDisabled()).toBe(false);
    await shot(page, '08-paused-chat-compact');
    await page.getByTestId('compact-button').click();
    await expect.poll(() => fake.received.filter((r) => r.channel === 'chats:send').map((r) => r.input)).toContainEqual({ chatId: 'writer', text: '/compact' });

    // A message sent while paused waits; "Try now" lifts the pause and the chat sends it.
    await page.getByTestId('composer-input').fill('Draft chapter 3');
    await page.getByTestId('composer-input').press('Enter');
    await expect.poll(text(page, 'queued-badge')).toBe('1 queued');
    expect(await page.getByTestId('user-message').count()).toBe(0);
    await shot(page, '08b-paused-try-now');
    await page.getByTestId('chat-pane').getByTestId('usage-try-now').click();
    await expect.poll(() => page.getByTestId('chat-pane').getByTestId('paused-until').count()).toBe(0);
    expect(await page.getByTestId('chat-pane').getByTestId('usage-try-now').count()).toBe(0);
    await expect.poll(() => page.getByTestId('user-message').first().textContent()).toBe('Draft chapter 3');
    expect(fake.received.filter((r) => r.channel === 'usage:resume').map((r) => r.input)).toEqual([{ codexHome: FAKE_CODEX_HOME }]);

    // New numbers from the core are shown as they come.
    fake.setUsage(limits(95, 80));
    await expect.poll(text(page, 'usage-meter-value')).toBe('95 %');
    expect(await meter.getAttribute('data-level')).toBe('high');

    await page.setViewportSize({ width: 1100, height: 640 });
    await page.getByTestId('chat-list').waitFor();
    await shot(page, '09-wide');
    await page.emulateMedia({ colorScheme: 'dark' });
    await shot(page, '10-wide-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    // The meter opens the account, with every window listed.
    await page.getByTestId('account-chip').click();
    await page.getByTestId('sign-in-panel').waitFor();
    expect(await page.getByTestId('usage-row').allTextContents()).toEqual(['5 h95 % usedresets in 2 h 14 min', 'week80 % usedresets in 3 d 4 h']);
    expect(await page.getByTestId('account-email').textContent()).toBe('ada@example.com');
    await shot(page, '11-account-and-usage');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('the account screen: a paused home with "Try now", which lifts the pause', async () => {
    const pausedUntil = at(95 * MIN);
    const { page, fake, problems } = await openApp(400, {
      account: signedIn,
      usage: [limits(100, 60, pausedUntil)],
      extraChats: [{ id: 'writer', pausedUntil }],
    });
    await page.getByTestId('account-chip').click();
    const paused = page.getByTestId('usage-paused');
    await paused.waitFor();
    expect(await paused.getByTestId('paused-until').textContent()).toBe(pausedText(pausedUntil, new Date()));
    await shot(page, '12-account-paused');
    await paused.getByTestId('usage-try-now').click();
    await expect.poll(() => page.getByTestId('usage-paused').count()).toBe(0);
    expect(fake.received.filter((r) => r.channel === 'usage:resume').map((r) => r.input)).toEqual([{ codexHome: FAKE_CODEX_HOME }]);
    expect(await page.getByTestId('usage-row').count()).toBe(2);
    expect(problems).toEqual([]);
    await page.close();
  });
});
