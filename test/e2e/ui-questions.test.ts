/**
 * End to end, with the fake core: agent questions and MCP elicitations answered in the window (the
 * BUILT renderer, out/renderer, served by the headless host, driven in Chromium). A question card with a
 * choice, a secret and a free text is answered (Submit waits for all three; the secret is masked as it
 * is typed and never shown again); an elicitation form is checked (messages under the wrong fields) and
 * accepted with Enter; a URL elicitation shows its full domain and opens only on a click. What reached
 * the core's `approvals:answer` is checked exactly. Screenshots: test-results/screenshots/questions-*.png.
 * Run `npx electron-vite build` first (`npm test` does). The host serves a copy of the build taken in
 * beforeAll (test/fixtures/builtRenderer.ts): a build run meanwhile in the same tree empties out/renderer
 * for a moment, and a page loaded then stayed blank (a 30 s wait for the chat row, seen once).
 */
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type RunningHost } from '../../src/main/host/server';
import type { ApprovalView } from '../../src/shared/contract';
import { copyBuiltRenderer } from '../fixtures/builtRenderer';
import { createFakeCore, type FakeCore } from '../fixtures/fakeCore';
import { elicitationApproval, questionApproval, toolGateApproval, urlElicitationApproval } from '../fixtures/fakeCore/questions';

const ROOT = resolve(__dirname, '../..');
const SHOTS = join(ROOT, 'test-results/screenshots');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SECRET = 'tok-SECRET-4242';

let browser: Browser;
let renderer: { dir: string; remove: () => void } | undefined;
const hosts: RunningHost[] = [];

beforeAll(async () => {
  renderer = copyBuiltRenderer();
  if (statSync(join(ROOT, 'src/renderer/src/features/approvals/QuestionCard.tsx')).mtimeMs > statSync(join(renderer.dir, 'index.html')).mtimeMs)
    throw new Error('out/renderer is older than QuestionCard.tsx: run `npx electron-vite build` again.');
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
  renderer?.remove();
});

/** A fake core whose "demo" chat holds `approvals` (each with its card item), opened in a 420-wide window with the chat shown. */
async function openWith(approvals: ApprovalView[], height = 900, init?: () => void): Promise<{ page: Page; fake: FakeCore; problems: string[] }> {
  const fake = createFakeCore({ seed: { items: approvals.map((a) => ({ type: 'approval' as const, id: `i-${a.id}`, approvalId: a.id })), approvals } });
  if (!renderer) throw new Error('beforeAll did not copy the built renderer');
  const host = await startHost({ core: fake.core, rendererDir: renderer.dir });
  hosts.push(host);
  const page = await browser.newPage({ viewport: { width: 420, height } });
  if (init) await page.addInitScript(init);
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  await page.goto(host.url);
  await page.getByTestId('chat-list-item').first().click();
  return { page, fake, problems };
}

/** The inputs of every `approvals:answer` the fake core received. */
const answersSent = (fake: FakeCore): unknown[] => fake.received.filter((r) => r.channel === 'approvals:answer').map((r) => r.input);
const card = (page: Page, id: string): Locator => page.locator(`[data-approval-id="${id}"]`);
const shot = (target: Page | Locator, name: string): Promise<Buffer> => target.screenshot({ path: join(SHOTS, `questions-${name}.png`) });

describe('agent questions in the window (fake core)', () => {
  it('Submit waits for every answer; the secret is masked, sent once, and never shown again', async () => {
    const { page, fake, problems } = await openWith([questionApproval()]);
    const q = card(page, 'q-1');
    await q.waitFor();
    const submit = q.getByTestId('question-allow');
    expect(await submit.isDisabled()).toBe(true);
    expect(await q.getByTestId('question-hint').textContent()).toBe('Answer every question to submit (3 left)');

    // An option, then another answer typed in Other (which picks Other), then back to an option.
    await q.getByText('staging', { exact: true }).click();
    const other = q.locator('[data-question-id="target"][data-testid="question-input"]');
    await other.fill('canary');
    expect(await q.locator('input[type="radio"]').nth(2).isChecked()).toBe(true);
    await q.getByText('production', { exact: true }).click();

    const secret = q.locator('[data-question-id="token"][data-testid="question-input"]');
    expect(await secret.getAttribute('type')).toBe('password');
    await secret.fill(SECRET);
    expect(await secret.getAttribute('value')).not.toBe(SECRET);
    expect(await submit.isDisabled()).toBe(true);
    await q.locator('[data-question-id="note"][data-testid="question-input"]').fill('Faster builds');
    expect(await submit.isDisabled()).toBe(false);
    expect(await page.content()).not.toContain(SECRET);
    await shot(q, 'card-pending');

    await submit.click();
    await expect.poll(() => q.getAttribute('data-state')).toBe('answered');
    expect(answersSent(fake)).toEqual([{ id: 'q-1', answer: 'allow', answers: { target: ['production'], token: [SECRET], note: ['Faster builds'] } }]);
    expect(await q.getByTestId('approval-status').textContent()).toBe('Answered — answered in the window');
    expect(await q.getByTestId('question-given-answer').allTextContents()).toEqual(['production', '••••••', 'Faster builds']);
    expect(await q.locator('input').count()).toBe(0);
    expect(await page.content()).not.toContain(SECRET);
    await shot(q, 'card-answered');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('Skip sends the empty answer; a question that does not block says the agent goes on', async () => {
    const { page, fake, problems } = await openWith([questionApproval({ isBlocking: false })]);
    const q = card(page, 'q-1');
    await q.waitFor();
    expect(await q.getByTestId('question-not-blocking').textContent()).toBe('The agent may go on without waiting for this answer.');
    await q.getByTestId('question-deny').click();
    await expect.poll(() => q.getByTestId('approval-status').textContent()).toBe('Skipped — answered in the window');
    expect(answersSent(fake)).toEqual([{ id: 'q-1', answer: 'deny' }]);
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('MCP elicitations in the window (fake core)', () => {
  it('a form: wrong fields are marked, nothing is sent until they are right, Enter accepts with the content typed', async () => {
    const { page, fake, problems } = await openWith([elicitationApproval()], 1100);
    const e = card(page, 'e-1');
    await e.waitFor();
    expect(await e.getByTestId('elicit-message').textContent()).toBe('To order the seats, billing needs a few details. <script>alert(1)</script>');
    const input = (name: string): Locator => e.locator(`[data-testid="elicit-input"][data-field="${name}"]`);
    const problemOf = (name: string): Locator => e.locator(`[data-testid="elicit-problem"][data-field="${name}"]`);

    await input('email').fill('ada@');
    expect(await problemOf('email').textContent()).toBe('Enter an email address (name@example.com).');
    await input('seats').fill('99');
    await e.getByTestId('elicit-allow').click();
    expect(await problemOf('seats').textContent()).toBe('Enter a whole number from 1 to 50.');
    expect(await problemOf('plan').textContent()).toBe('Choose one.');
    expect(await e.getByTestId('elicit-summary').textContent()).toBe('Fix the 3 fields marked below.');
    expect(answersSent(fake)).toEqual([]);
    await shot(e, 'form-problems');

    await input('email').fill('ada@example.com');
    await input('seats').fill('12');
    await e.getByText('Team', { exact: true }).click();
    await e.getByText('Audit log', { exact: true }).click();
    await input('start').fill('2025-03-01');
    await e.getByText('I accept the <b>terms</b>').click();
    expect(await e.getByTestId('elicit-problem').count()).toBe(0);
    await shot(e, 'form-filled');
    await input('email').press('Enter');
    await expect.poll(() => e.getAttribute('data-state')).toBe('answered');
    expect(answersSent(fake)).toEqual([
      { id: 'e-1', answer: 'allow', content: { email: 'ada@example.com', seats: 12, plan: 'team', addons: ['audit'], start: '2025-03-01', terms: true } },
    ]);
    expect(await e.getByTestId('approval-status').textContent()).toBe('Accepted — answered in the window');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('URL mode: the full domain and address; Open opens it only when clicked; Decline and Cancel', async () => {
    const view = urlElicitationApproval();
    // What the page asks the browser to open (a browser tab has no host opener: window.open, without a link back).
    const { page, fake, problems } = await openWith([view, elicitationApproval({ id: 'e-3' })], 900, () => {
      const w = window as unknown as { opened: unknown[][]; open: (...a: unknown[]) => null };
      w.opened = [];
      w.open = (...a: unknown[]) => (w.opened.push(a), null);
    });
    const opened = (): Promise<unknown[][]> => page.evaluate(() => (window as unknown as { opened: unknown[][] }).opened);
    const u = card(page, 'e-2');
    await u.waitFor();
    expect(await u.getByTestId('elicit-domain').textContent()).toBe('accounts.example.com.login-check.example.net');
    expect(await u.getByTestId('elicit-url').textContent()).toBe(view.elicitation?.url);
    expect(await opened()).toEqual([]);
    await shot(u, 'url-pending');
    await u.getByTestId('elicit-open').click();
    expect(await u.getByTestId('elicit-open').textContent()).toBe('Open accounts.example.com.login-check.example.net');
    expect(await opened()).toEqual([[view.elicitation?.url, '_blank', 'noopener,noreferrer']]);

    await u.getByTestId('elicit-deny').click();
    await expect.poll(() => u.getByTestId('approval-status').textContent()).toBe('Declined — answered in the window');
    expect(await u.getByTestId('elicit-open').count()).toBe(0);
    const f = card(page, 'e-3');
    await f.getByTestId('elicit-cancel').click();
    await expect.poll(() => f.getByTestId('approval-status').textContent()).toBe('Cancelled — answered in the window');
    expect(answersSent(fake)).toEqual([
      { id: 'e-2', answer: 'deny' },
      { id: 'e-3', answer: 'cancel' },
    ]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("Codex's gate before an MCP tool reads as an approval; Allow for this session is sent as such", async () => {
    const { page, fake, problems } = await openWith([toolGateApproval()]);
    const g = card(page, 'e-4');
    await g.waitFor();
    expect(await g.getAttribute('data-mode')).toBe('toolGate');
    expect(await g.getByTestId('elicit-params').textContent()).toBe('Text: remember the milk\nTags: home, errands');
    expect(await g.locator('.approval-buttons button').allTextContents()).toEqual(['Allow once', 'Allow for this session', 'Deny', 'Deny and stop']);
    await shot(g, 'tool-gate');
    await g.getByTestId('elicit-allowForSession').click();
    await expect.poll(() => g.getByTestId('approval-status').textContent()).toBe('Allowed for this session — answered in the window');
    expect(answersSent(fake)).toEqual([{ id: 'e-4', answer: 'allowForSession' }]);
    expect(problems).toEqual([]);
    await page.close();
  });
});
