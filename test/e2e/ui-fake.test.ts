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
import { CWD, createFakeCore, type FakeCore, type FakeCoreOptions } from '../fixtures/fakeCore';

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
async function openApp(width: number, opts: FakeCoreOptions = {}): Promise<{ page: Page; host: RunningHost; fake: FakeCore; problems: string[] }> {
  const fake = createFakeCore(opts);
  const host = await startHost({ core: fake.core, rendererDir: RENDERER });
  hosts.push(host);
  const page = await browser.newPage({ viewport: { width, height: 720 } });
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  await page.goto(host.url);
  return { page, host, fake, problems };
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
    expect(await card.locator('button').allTextContents()).toEqual(['Allow', 'Deny', 'Deny and stop', 'Deny with a reason…']);
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
    expect(await card.getByTestId('approval-note').textContent()).toBe('Already answered (Allowed, from this window)');
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
    const base = { chatId: 'demo', profile: 'demo', command: null, cwd: null, createdAt: '2025-01-01T00:00:00Z', state: 'pending', answer: null, by: null, granted: null, denyReason: null } as const;
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
    expect(await fileCard.locator('button').allTextContents()).toEqual(['Allow', 'Allow for this session', 'Deny', 'Deny and stop', 'Deny with a reason…']);
    expect(await permCard.getByTestId('grant-option').allTextContents()).toEqual([
      '+ write /home/user/other-repo, this turn only',
      '= write /home/user/shared/notes (the profile already allows it)',
    ]);
    expect(await permCard.locator('button').allTextContents()).toEqual(['Allow', 'Deny', 'Deny with a reason…']);
    await shot(page, '09-file-change-and-permissions');

    await fileCard.getByTestId('approval-cancel').click();
    await expect.poll(() => fileCard.getByTestId('approval-status').textContent()).toBe('Denied and stopped — from this window');
    await permCard.getByTestId('approval-deny').click();
    await expect.poll(() => page.getByTestId('state-badge').first().textContent()).toBe('idle');
    expect(problems).toEqual([]);
    await page.close();
  });
});

/** The inputs the fake core received on `channel`. */
const inputsOf = (fake: FakeCore, channel: string): unknown[] => fake.received.filter((r) => r.channel === channel).map((r) => r.input);

/** A seeded pending approval of the demo chat. */
function seeded(over: Partial<ApprovalView> & { id: string }): ApprovalView {
  return {
    chatId: 'demo', profile: 'demo', kind: 'command', title: 'Run make', command: 'make', cwd: CWD, reason: null, changes: [], requested: null,
    answers: ['allow', 'deny'], createdAt: '2025-01-01T00:00:00Z', state: 'pending', answer: null, by: null, granted: null, denyReason: null, ...over,
  };
}

describe('chats in full (fake core)', () => {
  it('steers a message into the running turn and queues another with Enter', async () => {
    const { page, fake, problems } = await openApp(420);
    await page.getByTestId('chat-list-item').first().click();
    const input = page.getByTestId('composer-input');
    expect(await page.getByTestId('steer-button').count()).toBe(0);
    await input.fill('List the files');
    await input.press('Enter');
    await page.getByTestId('approval-card').first().waitFor();
    await page.getByTestId('steer-button').waitFor();
    expect(await page.getByTestId('send-button').textContent()).toBe('Queue');

    await input.fill('Only the markdown files, please');
    await input.press('Control+Enter');
    const steered = page.locator('[data-testid="user-message"][data-via="steer"]');
    await steered.waitFor();
    expect(await steered.textContent()).toBe('Only the markdown files, please');
    expect(await page.getByTestId('user-via').first().textContent()).toBe('steered into the running turn');
    expect(inputsOf(fake, 'chats:send')).toContainEqual({ chatId: 'demo', text: 'Only the markdown files, please', steer: true });

    await input.fill('Then summarise README.md');
    await input.press('Enter');
    await expect.poll(() => page.getByTestId('composer-queued').textContent()).toMatch(/^1 queued — it goes in when the current turn ends/);
    expect(await page.getByTestId('queued-badge').textContent()).toBe('1 queued');
    expect(inputsOf(fake, 'chats:send')).toContainEqual({ chatId: 'demo', text: 'Then summarise README.md' });
    await input.fill('And count them');
    await page.getByTestId('steer-button').click();
    await expect.poll(() => steered.count()).toBe(2);
    await shot(page, '10-steered-and-queued');

    await page.getByTestId('approval-allow').first().click();
    // The queued message becomes its own turn once the first one ends.
    await expect.poll(() => page.locator('[data-testid="user-message"][data-via="turn"]').allTextContents()).toEqual(['List the files', 'Then summarise README.md']);
    await expect.poll(() => page.getByTestId('composer-queued').count()).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('denies with a reason: the core gets the reason, the card and the chat show it', async () => {
    const { page, fake, problems } = await openApp(420);
    await page.getByTestId('chat-list-item').first().click();
    const input = page.getByTestId('composer-input');
    await input.fill('Make a notes file');
    await input.press('Enter');
    const card = page.getByTestId('approval-card').first();
    await expect.poll(() => card.getAttribute('data-state')).toBe('pending');

    await card.getByTestId('deny-with-reason').click();
    const reason = card.getByTestId('deny-reason-input');
    await reason.waitFor();
    expect(await card.getByTestId('deny-reason-send').isDisabled()).toBe(true);
    await reason.fill('Write the notes into docs/ instead');
    await shot(page, '11-deny-reason-open');
    await card.getByTestId('deny-reason-send').click();

    await expect.poll(() => card.getByTestId('approval-status').textContent()).toBe('Denied — from this window');
    expect(await card.getByTestId('approval-deny-reason').textContent()).toBe('Reason given: “Write the notes into docs/ instead”');
    expect(inputsOf(fake, 'approvals:answer')).toEqual([{ id: 'approval-1', answer: 'deny', reason: 'Write the notes into docs/ instead' }]);
    const told = page.locator('[data-testid="user-message"][data-via="denyReason"]');
    await told.waitFor();
    expect(await told.textContent()).toBe('Write the notes into docs/ instead');
    expect(await page.getByTestId('user-via').last().textContent()).toBe('reason given with a Deny');
    await page.getByTestId('turn-end').waitFor();
    await shot(page, '12-denied-with-reason');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('grants a subset of a permissions request, offers Deny and stop only when asked, and says when another answer won', async () => {
    const { page, fake, problems } = await openApp(1100, {
      seed: {
        items: [{ type: 'approval', id: 'i-p', approvalId: 'perm' }, { type: 'approval', id: 'i-one', approvalId: 'one' }, { type: 'approval', id: 'i-race', approvalId: 'race' }],
        approvals: [
          seeded({ id: 'perm', kind: 'permissions', title: 'More access for this turn', command: null, cwd: null, reason: 'Sync the data and publish it', requested: { read: [], write: ['/home/user/other-repo', '/home/user/data'], network: true } }),
          seeded({ id: 'one', kind: 'permissions', title: 'Write one folder', command: null, cwd: null, requested: { read: [], write: ['/home/user/scratch'], network: false }, answers: ['allow', 'deny', 'cancel'] }),
          seeded({ id: 'race', title: 'Run make test', command: 'make test' }),
        ],
      },
    });
    await page.getByTestId('chat-list-item').first().click();
    const [perm, one, race] = ['perm', 'one', 'race'].map((id) => page.locator(`[data-approval-id="${id}"]`));
    await perm!.waitFor();

    // Deny and stop only where Codex offered cancel.
    expect(await perm!.getByTestId('approval-cancel').count()).toBe(0);
    expect(await race!.getByTestId('approval-cancel').count()).toBe(0);
    expect(await one!.getByTestId('approval-cancel').textContent()).toBe('Deny and stop');
    // One folder: no checkboxes.
    expect(await one!.getByTestId('grant-picker').count()).toBe(0);

    const options = perm!.getByTestId('grant-option');
    expect(await options.allTextContents()).toEqual(['+ write /home/user/other-repo, this turn only', '+ write /home/user/data, this turn only', '+ network, this turn only']);
    expect(await perm!.locator('input[type="checkbox"]:checked').count()).toBe(3);
    await perm!.locator('[data-key="write:/home/user/data"] input').uncheck();
    await shot(page, '13-grant-subset-and-deny-and-stop');
    await perm!.getByTestId('approval-allow').click();
    await expect.poll(() => perm!.getByTestId('approval-status').textContent()).toBe('Allowed — from this window');
    expect(await perm!.getByTestId('approval-granted').textContent()).toBe('Granted: write /home/user/other-repo, network');
    expect(await perm!.getByTestId('approval-not-granted').textContent()).toBe('Not granted: write /home/user/data');
    expect(inputsOf(fake, 'approvals:answer')).toEqual([{ id: 'perm', answer: 'allow', grant: { read: [], write: ['/home/user/other-repo'], network: true } }]);

    // Everything checked: Allow sends no grant, and the whole request is granted.
    await one!.getByTestId('approval-allow').click();
    await expect.poll(() => one!.getByTestId('approval-granted').textContent()).toBe('Granted: write /home/user/scratch');
    expect(inputsOf(fake, 'approvals:answer')[1]).toEqual({ id: 'one', answer: 'allow' });

    // A notification answered first; its event is still on the way when the window's click arrives.
    fake.answerElsewhere('race', 'allow', 'notification', { quiet: true });
    await race!.getByTestId('approval-deny').click();
    await expect.poll(() => race!.getByTestId('approval-note').textContent()).toBe('Already answered (Allowed, from a notification)');
    expect(await race!.getByTestId('approval-status').textContent()).toBe('Allowed — from a notification');
    await race!.screenshot({ path: join(SHOTS, '14-lost-the-race.png') });
    await expect.poll(() => page.getByTestId('state-badge').first().textContent()).toBe('idle');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows error kinds, restarts a crashed agent, and shows what an agent is doing', async () => {
    const { page, fake, problems } = await openApp(1100, {
      extraChats: [
        {
          id: 'research', state: 'error', enforcement: 'managed', lastLine: 'Codex stopped', label: 'Read the papers folder',
          items: [
            { type: 'user', id: 'u1', text: 'Read the papers folder', via: 'turn' },
            { type: 'error', id: 'e1', message: 'You have hit your usage limit. Try again at 14:00, or pick another model with /model.', detail: null, kind: 'usageLimit' },
            { type: 'error', id: 'e2', message: 'Codex stopped (exit code 137).', detail: 'last stderr lines:\nthread panicked at core/src/exec.rs:12', kind: 'crashed', action: 'restart' },
          ],
        },
        { id: 'household', activity: 'Compacting…', state: 'working', enforcement: 'managed', label: 'Tidy the downloads folder' },
      ],
    });
    const household = page.locator('[data-testid="chat-list-item"][data-chat-id="household"]');
    await household.waitFor();
    expect(await household.getByTestId('activity-badge').textContent()).toBe('Compacting…');
    expect(await household.getByTestId('row-label').textContent()).toBe('Tidy the downloads folder');

    await page.locator('[data-testid="chat-list-item"][data-chat-id="research"]').click();
    const errors = page.getByTestId('error-item');
    await expect.poll(() => errors.count()).toBe(2);
    expect(await page.getByTestId('error-kind').allTextContents()).toEqual(['usage limit', 'crashed']);
    expect(await errors.nth(0).getByTestId('restart-button').count()).toBe(0);
    const restart = errors.nth(1).getByTestId('restart-button');
    expect(await restart.textContent()).toBe('Restart');
    await shot(page, '15-errors-and-restart');

    await restart.click();
    await expect.poll(() => page.getByTestId('restart-button').count()).toBe(0);
    expect(inputsOf(fake, 'chats:restart')).toEqual([{ chatId: 'research' }]);
    await expect.poll(() => page.getByTestId('notice').last().textContent()).toBe('Codex is running again; the conversation continues where it was.');
    await expect.poll(() => page.getByTestId('chat-pane').getByTestId('state-badge').textContent()).toBe('idle');

    await household.click();
    expect(await page.getByTestId('chat-pane').getByTestId('activity-badge').textContent()).toBe('Compacting…');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('opens a new chat on a profile, tells the chats apart, and lists its sessions', async () => {
    const { page, fake, problems } = await openApp(1100);
    await page.getByTestId('chat-list-item').first().waitFor();
    await page.getByTestId('new-chat-button').click();
    const item = page.locator('[data-testid="new-chat-profile"][data-profile="demo"]');
    await item.waitFor();
    await shot(page, '16-new-chat-menu');
    await item.click();

    await expect.poll(() => page.getByTestId('chat-pane').getAttribute('data-chat-id')).toBe('demo-2');
    expect(inputsOf(fake, 'chats:create')).toEqual([{ profile: 'demo' }]);
    expect(await page.getByTestId('new-chat-menu').count()).toBe(0);
    const rows = page.getByTestId('chat-list-item');
    expect(await rows.getByTestId('chat-name').allTextContents()).toEqual(['demo', 'demo · #2']);
    expect(await page.getByTestId('chat-pane').getByTestId('chat-name').textContent()).toBe('demo · #2');
    expect(await page.locator('[data-chat-id="demo-2"].chat-row').getAttribute('aria-current')).toBe('true');

    const input = page.getByTestId('composer-input');
    await input.fill('Draft the release notes for 0.2');
    await input.press('Enter');
    await expect.poll(() => page.getByTestId('session-label').textContent()).toBe('Draft the release notes for 0.2');
    await expect.poll(() => page.locator('[data-chat-id="demo-2"]').getByTestId('row-label').textContent()).toBe('Draft the release notes for 0.2');
    await expect.poll(() => page.getByTestId('model-line').textContent()).toBe(' · gpt-5.1-codex · effort medium');

    await page.getByTestId('sessions-button').click();
    const session = page.getByTestId('session-row');
    await session.waitFor();
    expect(await session.textContent()).toContain('Draft the release notes for 0.2');
    expect(await session.getAttribute('data-active')).toBe('true');
    await page.getByTestId('approval-card').first().waitFor();
    await shot(page, '17-two-chats-of-one-profile');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('hints at the commands after "/", and shows their answers in the chat', async () => {
    const { page, fake, problems } = await openApp(420);
    await page.getByTestId('chat-list-item').first().click();
    const input = page.getByTestId('composer-input');
    await input.fill('/');
    const hints = page.getByTestId('command-hint');
    await expect.poll(() => hints.count()).toBe(9);
    expect(await hints.first().textContent()).toContain('/new');
    await shot(page, '18-command-hints');

    await input.fill('/st');
    await expect.poll(() => hints.evaluateAll((els) => els.map((e) => e.getAttribute('data-command')))).toEqual(['stop', 'status']);
    await input.press('ArrowDown');
    await input.press('Tab');
    expect(await input.inputValue()).toBe('/status');
    await input.press('Enter');
    const notice = page.getByTestId('notice').last();
    await notice.waitFor();
    expect(await notice.evaluate((el) => el.tagName)).toBe('PRE');
    expect(await notice.textContent()).toContain('angelia · profile demo');
    expect(inputsOf(fake, 'chats:send')).toEqual([{ chatId: 'demo', text: '/status' }]);
    expect(await input.inputValue()).toBe('');
    expect(await page.getByTestId('command-hints').count()).toBe(0);

    await input.fill('/help');
    await input.press('Enter');
    await expect.poll(() => page.getByTestId('notice').last().textContent()).toContain('/resume — ');

    await page.getByTestId('command-hint').first().waitFor({ state: 'detached' });
    await input.fill('/model gpt-5.1-codex-mini');
    expect(await page.getByTestId('command-hints').count()).toBe(0);
    await input.press('Enter');
    await expect.poll(() => page.getByTestId('model-line').textContent()).toBe(' · gpt-5.1-codex-mini (this session)');
    await input.fill('/effort high');
    await input.press('Enter');
    await expect.poll(() => page.getByTestId('model-line').textContent()).toBe(' · gpt-5.1-codex-mini (this session) · effort high (this session)');
    await shot(page, '19-command-answers');
    expect(problems).toEqual([]);
    await page.close();
  });
});
