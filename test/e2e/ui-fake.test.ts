/**
 * End to end, with the fake core: the BUILT renderer (out/renderer) served by the headless host, driven
 * in Chromium. Screenshots go to test-results/screenshots/. `npm test` builds before vitest; alone, run
 * `npx electron-vite build` first.
 */
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type RunningHost } from '../../src/main/host/server';
import type { ApprovalView } from '../../src/shared/contract';
import { CWD, createFakeCore, type FakeCoreOptions } from '../fixtures/fakeCore';

const ROOT = resolve(__dirname, '../..');
const RENDERER = join(ROOT, 'out/renderer');
const SHOTS = join(ROOT, 'test-results/screenshots');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

function checkBuild(): void {
  const index = join(RENDERER, 'index.html');
  if (!existsSync(index)) throw new Error(`The built renderer is missing (${index}). Run \`npx electron-vite build\` first (\`npm test\` does).`);
  if (newestMtime(join(ROOT, 'src/renderer')) > statSync(index).mtimeMs) {
    throw new Error('out/renderer is older than src/renderer: run `npx electron-vite build` again (`npm test` does).');
  }
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install -y chromium, or set CHROMIUM_PATH.`);
}

let browser: Browser;
const hosts: RunningHost[] = [];

beforeAll(async () => {
  checkBuild();
  mkdirSync(SHOTS, { recursive: true });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--headless', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic'],
  });
});

afterAll(async () => {
  await browser?.close();
  for (const h of hosts) await h.close();
});

/** Starts a host over a fresh fake core and opens its URL; page errors and console errors are collected. */
async function openApp(width: number, opts: FakeCoreOptions = {}): Promise<{ page: Page; host: RunningHost; problems: string[] }> {
  const host = await startHost({ core: createFakeCore(opts).core, rendererDir: RENDERER });
  hosts.push(host);
  const page = await browser.newPage({ viewport: { width, height: 720 } });
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  await page.goto(host.url);
  return { page, host, problems };
}

const shot = (page: Page, name: string): Promise<Buffer> => page.screenshot({ path: join(SHOTS, `${name}.png`) });
const textOf = (page: Page, testId: string) => () => page.getByTestId(testId).last().textContent();

describe('the window against the headless host (fake core)', () => {
  it('sends a message, streams the answer and the command, and answers the approval with Allow', async () => {
    const { page, host, problems } = await openApp(420);
    const row = page.getByTestId('chat-list-item').first();
    await row.waitFor();
    expect(await row.textContent()).toContain('demo');
    expect(page.url()).not.toContain(host.token);
    await shot(page, '01-chat-list-narrow');

    await row.click();
    const input = page.getByTestId('composer-input');
    await input.fill('List the files, then make a notes file');
    await input.press('Enter');

    await expect.poll(() => page.getByTestId('user-message').first().textContent()).toBe('List the files, then make a notes file');
    await expect.poll(textOf(page, 'agent-message')).toContain('I will list the files in demo first, then create notes.txt.');
    expect(await page.getByTestId('agent-message').first().locator('strong').textContent()).toBe('list the files');
    const command = page.getByTestId('command-item').first();
    await expect.poll(() => command.getAttribute('data-status')).toBe('completed');
    expect(await command.getByTestId('command-output').textContent()).toContain('README.md');
    expect(await command.getByTestId('command-exit').textContent()).toBe('exit code 0');

    const card = page.getByTestId('approval-card').first();
    await card.waitFor();
    await expect.poll(() => card.getAttribute('data-state')).toBe('pending');
    expect(await card.getByTestId('approval-command').textContent()).toContain('touch notes.txt');
    expect(await card.locator('button').allTextContents()).toEqual(['Allow', 'Deny', 'Deny and stop']);
    await expect.poll(() => page.getByTestId('state-badge').first().textContent()).toBe('needs you');
    await shot(page, '02-approval-pending-narrow');

    await card.getByTestId('approval-allow').click();
    await expect.poll(() => card.getAttribute('data-state')).toBe('answered');
    expect(await card.getByTestId('approval-status').textContent()).toBe('Allowed — from this window');
    await page.getByTestId('turn-end').waitFor();
    await expect.poll(textOf(page, 'agent-message')).toContain('Created notes.txt.');
    await expect.poll(() => page.getByTestId('state-badge').first().textContent()).toBe('idle');
    await shot(page, '03-turn-done-narrow');

    await card.getByTestId('approval-deny').click();
    expect(await card.getByTestId('approval-note').textContent()).toBe('Already answered: Allowed — from this window');
    expect(await card.getAttribute('data-state')).toBe('answered');
    await card.screenshot({ path: join(SHOTS, '04-card-already-answered.png') });

    await page.setViewportSize({ width: 1100, height: 720 });
    await page.getByTestId('chat-list').waitFor();
    await shot(page, '05-wide');
    await page.emulateMedia({ colorScheme: 'dark' });
    await shot(page, '06-wide-dark');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows a refused agent with its reason and no way to send, and full access in red', async () => {
    const { page, problems } = await openApp(420, {
      extraChats: [
        { id: 'research', state: 'refused', refusal: 'Codex 0.150.0 is older than 0.157.0, the oldest version Angelia trusts.\nFix: npm install -g @openai/codex@0.169.0, or remove `bin` from profiles.research.' },
        { id: 'household', enforcement: 'disabled', lastLine: 'Cleaned the downloads folder.' },
      ],
    });
    const rows = page.getByTestId('chat-list-item');
    await expect.poll(() => rows.count()).toBe(3);
    const household = page.locator('[data-testid="chat-list-item"][data-chat-id="household"]');
    expect(await household.getByTestId('enforcement-badge').textContent()).toBe('FULL ACCESS');
    await shot(page, '07-list-refused-and-full-access');

    await page.locator('[data-testid="chat-list-item"][data-chat-id="research"]').click();
    expect(await page.getByTestId('refusal').textContent()).toContain('older than 0.157.0');
    expect(await page.getByTestId('composer-input').isDisabled()).toBe(true);
    expect(await page.getByTestId('send-button').isDisabled()).toBe(true);
    expect(await page.getByTestId('composer-blocked').textContent()).toContain('this agent was refused to start');
    await shot(page, '08-refused-chat');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows a file change as its diff and a folder request against the profile, with only the offered buttons', async () => {
    const base = { chatId: 'demo', profile: 'demo', command: null, cwd: null, createdAt: '2025-01-01T00:00:00Z', state: 'pending', answer: null, by: null } as const;
    const diff = '--- a/README.md\n+++ b/README.md\n@@ -1,2 +1,2 @@\n # Demo\n-old line\n+new line\n';
    const approvals: ApprovalView[] = [
      { ...base, id: 'fc', kind: 'fileChange', title: 'Edit README.md', reason: null, requested: null, changes: [{ path: `${CWD}/README.md`, kind: 'update', diff }], answers: ['allow', 'allowForSession', 'deny', 'cancel'] },
      { ...base, id: 'perm', kind: 'permissions', title: 'More access for this turn', reason: 'I need to update the shared notes', changes: [], requested: { read: [], write: ['/home/user/other-repo', '/home/user/shared/notes'], network: false }, answers: ['allow', 'deny'] },
    ];
    const { page, problems } = await openApp(420, {
      addDirs: ['/home/user/shared'],
      seed: { items: [{ type: 'approval', id: 'i-fc', approvalId: 'fc' }, { type: 'approval', id: 'i-perm', approvalId: 'perm' }], approvals },
    });
    const row = page.getByTestId('chat-list-item').first();
    await expect.poll(() => row.getByTestId('pending-count').textContent()).toBe('2');
    await row.click();

    const [fileCard, permCard] = [page.locator('[data-approval-id="fc"]'), page.locator('[data-approval-id="perm"]')];
    await fileCard.waitFor();
    expect(await fileCard.getByTestId('diff').textContent()).toContain('+new line');
    expect(await fileCard.locator('button').allTextContents()).toEqual(['Allow', 'Allow for this session', 'Deny', 'Deny and stop']);
    expect(await permCard.getByTestId('approval-access').textContent()).toBe(
      '+ write /home/user/other-repo, this turn only\n= write /home/user/shared/notes (the profile already allows it)\n',
    );
    expect(await permCard.locator('button').allTextContents()).toEqual(['Allow', 'Deny']);
    await shot(page, '09-file-change-and-permissions');

    await fileCard.getByTestId('approval-cancel').click();
    await expect.poll(() => fileCard.getByTestId('approval-status').textContent()).toBe('Denied and stopped — from this window');
    await permCard.getByTestId('approval-deny').click();
    await expect.poll(() => page.getByTestId('state-badge').first().textContent()).toBe('idle');
    expect(problems).toEqual([]);
    await page.close();
  });
});
