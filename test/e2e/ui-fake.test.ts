/**
 * End to end, with the fake core: the BUILT renderer (out/renderer) served by the headless host, driven
 * in Chromium. Screenshots go to test-results/screenshots/. `npm test` builds before vitest; alone, run
 * `npx electron-vite build` first.
 */
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSP, RENDERER_CSP } from '../../src/main/electron/security';
import { startHost, type RunningHost } from '../../src/main/host/server';
import type { ApprovalView, ChatItem } from '../../src/shared/contract';
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
    args: [
      '--no-sandbox',
      '--headless',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
    ],
  });
});

afterAll(async () => {
  await browser?.close();
  for (const h of hosts) await h.close();
});

/** Records every CSP violation of the page (from its first script on) in `window.cspViolations`. */
async function watchCsp(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { cspViolations: string[] };
    w.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => w.cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
}

/**
 * Starts a host over a fresh fake core and opens its URL in a `width`×`height` window (400×600 is the
 * menu-bar popover, src/main/electron/windows.ts POPOVER_SIZE); page errors and console errors are collected.
 */
async function openApp(
  width: number,
  opts: FakeCoreOptions = {},
  height = 720,
): Promise<{ page: Page; host: RunningHost; fake: FakeCore; problems: string[] }> {
  const fake = createFakeCore(opts);
  const host = await startHost({ core: fake.core, rendererDir: RENDERER });
  hosts.push(host);
  const page = await browser.newPage({ viewport: { width, height } });
  await watchCsp(page);
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

/** A screenshot of a panel whose body scrolls (the editor, the inspector): the window is first made tall enough to show all of it. */
async function tallShot(page: Page, name: string): Promise<void> {
  const size = page.viewportSize() ?? { width: 1100, height: 720 };
  const hidden = await page.evaluate(() => {
    const body = document.querySelector('.panel-body');
    return body ? body.scrollHeight - body.clientHeight : 0;
  });
  await page.setViewportSize({ width: size.width, height: Math.min(4000, size.height + Math.max(0, hidden)) });
  await shot(page, name);
  await page.setViewportSize(size);
}

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
    expect(await card.locator('button').allTextContents()).toEqual(['Allow once', 'Deny', 'Deny and stop', 'Deny with a reason…']);
    await expect.poll(() => page.getByTestId('state-badge').first().textContent()).toBe('needs you');
    // The command the approval is about arrived before it (as Codex sends it): waiting, not running, no caret.
    const asked = page.getByTestId('command-item').nth(1);
    await expect.poll(() => asked.getAttribute('data-status')).toBe('waiting');
    expect(await asked.getByTestId('command-status').textContent()).toBe('waiting for approval');
    expect(await asked.locator('.caret').count()).toBe(0);
    await shot(page, '02-approval-pending-narrow');

    await card.getByTestId('approval-allow').click();
    await expect.poll(() => card.getAttribute('data-state')).toBe('answered');
    expect(await card.getByTestId('approval-status').textContent()).toBe('Allowed once — answered in the window');
    await expect.poll(() => asked.getAttribute('data-status')).toBe('completed');
    await page.getByTestId('turn-end').waitFor();
    await expect.poll(textOf(page, 'agent-message')).toContain('Created notes.txt.');
    await expect.poll(() => page.getByTestId('state-badge').first().textContent()).toBe('idle');
    await shot(page, '03-turn-done-narrow');

    // A settled card has no active button.
    expect(await card.locator('button').evaluateAll((bs) => bs.map((b) => (b as HTMLButtonElement).disabled))).toEqual([true, true, true]);
    expect(await card.getAttribute('data-state')).toBe('answered');
    await card.screenshot({ path: join(SHOTS, '04-card-already-answered.png') });
    // After a reload the page never clicked it: still "answered in the window".
    await page.reload();
    const reloaded = page.getByTestId('approval-card').first();
    await page.getByTestId('chat-list-item').first().click();
    await expect.poll(() => reloaded.getByTestId('approval-status').textContent()).toBe('Allowed once — answered in the window');

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
        {
          id: 'research',
          state: 'refused',
          refusal:
            'Codex 0.150.0 is older than 0.157.0, the oldest version Angelia trusts.\nFix: npm install -g @openai/codex@0.169.0, or remove `bin` from profiles.research.',
        },
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
    const base = {
      chatId: 'demo',
      profile: 'demo',
      command: null,
      cwd: null,
      createdAt: '2025-01-01T00:00:00Z',
      state: 'pending',
      answer: null,
      by: null,
      granted: null,
      denyReason: null,
    } as const;
    const diff = '--- a/README.md\n+++ b/README.md\n@@ -1,2 +1,2 @@\n # Demo\n-old line\n+new line\n';
    const approvals: ApprovalView[] = [
      {
        ...base,
        id: 'fc',
        kind: 'fileChange',
        title: 'Edit README.md',
        reason: null,
        requested: null,
        changes: [{ path: `${CWD}/README.md`, kind: 'update', diff }],
        answers: ['allow', 'allowForSession', 'deny', 'cancel'],
      },
      {
        ...base,
        id: 'perm',
        kind: 'permissions',
        title: 'More access for this turn',
        reason: 'I need to update the shared notes',
        changes: [],
        requested: { read: [], write: ['/home/user/other-repo', '/home/user/shared/notes'], network: false },
        answers: ['allow', 'deny'],
      },
    ];
    const { page, problems } = await openApp(420, {
      addDirs: ['/home/user/shared'],
      seed: {
        items: [
          { type: 'approval', id: 'i-fc', approvalId: 'fc' },
          { type: 'approval', id: 'i-perm', approvalId: 'perm' },
        ],
        approvals,
      },
    });
    const row = page.getByTestId('chat-list-item').first();
    await expect.poll(() => row.getByTestId('pending-count').textContent()).toBe('2');
    await row.click();

    const [fileCard, permCard] = [page.locator('[data-approval-id="fc"]'), page.locator('[data-approval-id="perm"]')];
    await fileCard.waitFor();
    expect(await fileCard.getByTestId('diff').textContent()).toContain('+new line');
    expect(await fileCard.locator('button').allTextContents()).toEqual([
      'Allow once',
      'Allow for this session',
      'Deny',
      'Deny and stop',
      'Deny with a reason…',
    ]);
    expect(await permCard.getByTestId('grant-option').allTextContents()).toEqual([
      '+ write /home/user/other-repo (not in the profile)',
      '= write /home/user/shared/notes (the profile already allows it)',
    ]);
    expect(await permCard.locator('.approval-buttons button').allTextContents()).toEqual(['Allow for this turn', 'Deny', 'Deny with a reason…']);
    // Only the folder the profile does not give yet is offered for add_dirs.
    expect(await permCard.getByTestId('add-folder-link').allTextContents()).toEqual(['Add /home/user/other-repo to the demo profile…']);
    await shot(page, '09-file-change-and-permissions');

    await fileCard.getByTestId('approval-cancel').click();
    await expect.poll(() => fileCard.getByTestId('approval-status').textContent()).toBe('Denied and stopped — answered in the window');
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
    chatId: 'demo',
    profile: 'demo',
    kind: 'command',
    title: 'Run make',
    command: 'make',
    cwd: CWD,
    reason: null,
    changes: [],
    requested: null,
    answers: ['allow', 'deny'],
    createdAt: '2025-01-01T00:00:00Z',
    state: 'pending',
    answer: null,
    by: null,
    granted: null,
    denyReason: null,
    ...over,
  };
}

describe('settled cards and commands outside the sandbox (fake core)', () => {
  it('a timed-out or withdrawn card has no active button and says how it ended; an escalation says what Allow lets it do', async () => {
    const approvals: ApprovalView[] = [
      seeded({ id: 'late', state: 'timedOut', answer: 'deny', by: 'timeout', settledAt: '2025-01-01T00:10:00Z' }),
      seeded({ id: 'gone', state: 'withdrawn', by: 'codex', settledAt: '2025-01-01T00:01:00Z', withdrawnWhy: 'the turn ended' }),
      seeded({
        id: 'out',
        title: 'Run OUTSIDE the sandbox: make deploy',
        command: 'make deploy',
        answers: ['allow', 'deny', 'cancel'],
        outsideSandbox: { denied: 5 },
      }),
    ];
    const { page, problems } = await openApp(420, {
      seed: { items: approvals.map((a) => ({ type: 'approval' as const, id: `i-${a.id}`, approvalId: a.id })), approvals },
    });
    await page.getByTestId('chat-list-item').first().click();
    const [late, gone, out] = ['late', 'gone', 'out'].map((id) => page.locator(`[data-approval-id="${id}"]`));
    await out!.waitFor();
    const disabled = (card: typeof late) => card!.locator('button').evaluateAll((bs) => bs.map((b) => (b as HTMLButtonElement).disabled));
    expect(await late!.getByTestId('approval-status').textContent()).toBe('Timed out after 10 min: denied');
    expect(await disabled(late)).toEqual([true, true]);
    expect(await gone!.getByTestId('approval-status').textContent()).toBe('Withdrawn: the turn ended');
    expect(await disabled(gone)).toEqual([true, true]);
    expect(await out!.locator('[data-testid="approval-escalation"] p').allTextContents()).toEqual([
      '⚠ Runs outside the sandbox: it can change any file you can, except the 5 denied places (it cannot read those either).',
      "That includes the workspace's _shared/ folder, this profile's launch files (.codex, .claude, .agents), the angelia command every agent runs, and your home's dotfiles.",
      'Allow only if you would run it yourself.',
    ]);
    expect(await disabled(out)).toEqual([false, false, false, false]);
    await shot(page, '10-settled-and-escalation');
    expect(problems).toEqual([]);
    await page.close();
  });
});

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
    await expect
      .poll(() => page.locator('[data-testid="user-message"][data-via="turn"]').allTextContents())
      .toEqual(['List the files', 'Then summarise README.md']);
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

    await expect.poll(() => card.getByTestId('approval-status').textContent()).toBe('Denied — answered in the window');
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
        items: [
          { type: 'approval', id: 'i-p', approvalId: 'perm' },
          { type: 'approval', id: 'i-one', approvalId: 'one' },
          { type: 'approval', id: 'i-race', approvalId: 'race' },
        ],
        approvals: [
          seeded({
            id: 'perm',
            kind: 'permissions',
            title: 'More access for this turn',
            command: null,
            cwd: null,
            reason: 'Sync the data and publish it',
            requested: { read: [], write: ['/home/user/other-repo', '/home/user/data'], network: true },
          }),
          seeded({
            id: 'one',
            kind: 'permissions',
            title: 'Write one folder',
            command: null,
            cwd: null,
            requested: { read: [], write: ['/home/user/scratch'], network: false },
            answers: ['allow', 'deny', 'cancel'],
          }),
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
    expect(await options.allTextContents()).toEqual([
      '+ write /home/user/other-repo (not in the profile)',
      '+ write /home/user/data (not in the profile)',
      '+ network',
    ]);
    expect(await perm!.locator('input[type="checkbox"]:checked').count()).toBe(3);
    await perm!.locator('[data-key="write:/home/user/data"] input').uncheck();
    await shot(page, '13-grant-subset-and-deny-and-stop');
    await perm!.getByTestId('approval-allow').click();
    await expect.poll(() => perm!.getByTestId('approval-status').textContent()).toBe('Allowed for this turn — answered in the window');
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
    await expect.poll(() => race!.getByTestId('approval-note').textContent()).toBe('Already answered (Allowed once, from a notification)');
    expect(await race!.getByTestId('approval-status').textContent()).toBe('Allowed once — answered from a notification');
    await race!.screenshot({ path: join(SHOTS, '14-lost-the-race.png') });
    await expect.poll(() => page.getByTestId('state-badge').first().textContent()).toBe('idle');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows error kinds, restarts a crashed agent, and shows what an agent is doing', async () => {
    const { page, fake, problems } = await openApp(1100, {
      extraChats: [
        {
          id: 'research',
          state: 'error',
          enforcement: 'managed',
          lastLine: 'Codex stopped',
          label: 'Read the papers folder',
          items: [
            { type: 'user', id: 'u1', text: 'Read the papers folder', via: 'turn' },
            {
              type: 'error',
              id: 'e1',
              message: 'You have hit your usage limit. Try again at 14:00, or pick another model with /model.',
              detail: null,
              kind: 'usageLimit',
            },
            {
              type: 'error',
              id: 'e2',
              message: 'Codex stopped (exit code 137).',
              detail: 'last stderr lines:\nthread panicked at core/src/exec.rs:12',
              kind: 'crashed',
              action: 'restart',
            },
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

  it('fits the "New chat with…" menu in the menu-bar window (400×600): it scrolls, and every profile can be reached', async () => {
    const names = Array.from({ length: 14 }, (_, i) => `profile-${String(i + 1).padStart(2, '0')}`);
    const { page, fake, problems } = await openApp(400, { extraChats: names.map((id) => ({ id, lastLine: 'ready' })) }, 600);
    await page.getByTestId('chat-list-item').first().waitFor();
    await page.getByTestId('new-chat-button').click();
    const menu = page.getByTestId('new-chat-menu');
    await menu.waitFor();
    const box = await menu.boundingBox();
    expect(box).not.toBeNull();
    expect(box!.y).toBeGreaterThanOrEqual(0);
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.y + box!.height).toBeLessThanOrEqual(600);
    expect(box!.x + box!.width).toBeLessThanOrEqual(400);
    // 15 profiles do not fit: the menu scrolls inside the window instead of running past its edge.
    expect(await menu.evaluate((el) => el.scrollHeight > el.clientHeight && getComputedStyle(el).overflowY === 'auto')).toBe(true);
    await shot(page, '48-new-chat-menu-fits');

    const last = page.locator('[data-testid="new-chat-profile"][data-profile="profile-14"]');
    await last.scrollIntoViewIfNeeded();
    const lastBox = await last.boundingBox();
    expect(lastBox!.y + lastBox!.height).toBeLessThanOrEqual(600);
    await shot(page, '49-new-chat-menu-scrolled');
    await last.click();
    await expect.poll(() => page.getByTestId('chat-pane').getAttribute('data-chat-id')).toBe('profile-14-2');
    expect(inputsOf(fake, 'chats:create')).toEqual([{ profile: 'profile-14' }]);

    // Escape closes it.
    await page.setViewportSize({ width: 1100, height: 600 });
    await page.getByTestId('new-chat-button').click();
    await menu.waitFor();
    await page.keyboard.press('Escape');
    expect(await menu.count()).toBe(0);
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

/** The profile editor's add_dirs rows, as their input values. */
const addDirRows = (page: Page) => page.getByTestId('add-dirs-input').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));

describe('profiles, the policy and the table (fake core)', () => {
  it('edits a profile: an added folder shows in the preview (a link with its target), Save writes it with comments kept and shows the probes', async () => {
    const { page, fake, problems } = await openApp(1100);
    await page.locator('[data-testid="profile-row"][data-profile="demo"]').getByTestId('profile-edit').click();
    const editor = page.getByTestId('profile-editor');
    await expect.poll(() => page.getByTestId('name-input').inputValue()).toBe('demo');
    expect(await page.getByTestId('cwd-input').inputValue()).toBe(CWD);
    expect(await page.getByTestId('save-button').isDisabled()).toBe(true);
    expect(await page.locator('[data-testid="mode-option"][data-mode="default"] input').isChecked()).toBe(true);

    await page.getByTestId('add-dirs-new').fill('/home/user/shared-notes');
    await page.getByTestId('add-dirs-add').click();
    await page.getByTestId('add-dirs-new').fill('~/docs-link');
    await page.getByTestId('add-dirs-new').press('Enter');
    expect(await addDirRows(page)).toEqual(['/home/user/shared-notes', '~/docs-link']);

    const added = page.locator('[data-testid="policy-entry"][data-path="/home/user/shared-notes"]');
    await added.waitFor();
    expect(await added.getAttribute('data-origin')).toBe('add_dirs');
    expect(await added.getAttribute('data-access')).toBe('write');
    const link = page.locator('[data-testid="policy-entry"][data-path="/home/user/docs-link"]');
    await link.waitFor();
    expect(await link.getByTestId('policy-symlink').textContent()).toBe('→ /mnt/data/docs (a link: Codex binds the target, not the link)');
    // The warning names the row it is about.
    const linkRow = page.locator('[data-testid="add-dirs-row"][data-value="~/docs-link"]');
    expect(await linkRow.getByTestId('field-warning').textContent()).toContain('is a link to /mnt/data/docs');
    await expect.poll(() => page.getByTestId('plan-line').allTextContents()).toContain('~ profiles.demo.add_dirs = ["/home/user/shared-notes","~/docs-link"]');

    // Model and effort come from models:list; the efforts are the chosen model's, "default" (null) names
    // what Codex's config in force really uses (here: high, from the fake user's config.toml).
    await page.getByTestId('model-select').selectOption('gpt-5.1-codex-mini');
    expect(await page.getByTestId('effort-select').locator('option').allTextContents()).toEqual(['default (high)', 'medium', 'high']);
    await page.getByTestId('effort-select').selectOption('high');
    expect(await page.locator('[data-testid="draft-change"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-field')))).toEqual([
      'add_dirs',
      'model',
      'effort',
    ]);
    await expect.poll(() => page.getByTestId('preview').getAttribute('data-waiting')).toBe('false');
    await tallShot(page, '20-editor-preview');

    await page.getByTestId('save-button').click();
    const result = page.getByTestId('save-result');
    await result.waitFor();
    expect(await result.getByTestId('save-backup').textContent()).toBe('The previous table is kept as /home/user/.angelia/workspace/angelia.toml.bak.');
    const probes = result.getByTestId('probe-row');
    expect(await probes.count()).toBe(6);
    expect(await probes.evaluateAll((els) => els.map((e) => e.getAttribute('data-pass')))).toEqual(Array(6).fill('true'));
    expect(await result.getByTestId('probe-summary').textContent()).toContain('All 6 probes behaved as the profile says.');
    expect(await result.getByTestId('save-plan').textContent()).toContain('profiles.demo.model = "gpt-5.1-codex-mini"');
    expect(await page.getByTestId('save-status').textContent()).toBe('Saved.');
    const saves = inputsOf(fake, 'profiles:save') as { draft: { add_dirs: string[]; model: string; effort: string }; original: string }[];
    expect(saves).toHaveLength(1);
    expect(saves[0]).toMatchObject({
      original: 'demo',
      draft: { add_dirs: ['/home/user/shared-notes', '~/docs-link'], model: 'gpt-5.1-codex-mini', effort: 'high' },
    });
    // The table was edited in place: its comments are still there.
    const text = fake.tableText();
    expect(text).toContain("# Angelia's table.");
    expect(text).toContain('# The demo profile.');
    expect(text).toContain('add_dirs = ["/home/user/shared-notes", "~/docs-link"]');
    expect(await editor.getByTestId('draft-changes').count()).toBe(0);
    await tallShot(page, '21-editor-saved');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('resolves a relative folder against the table folder as the loader does, marks only what the loader refuses, and keeps the draft when a save is refused', async () => {
    // The demo profile's cwd is relative in the table: the loader resolves it against the table's folder.
    const { page, fake, problems } = await openApp(400, { demoCwd: 'profiles/demo' }, 600);
    await page.getByTestId('chat-list-item').first().click();
    await page.getByTestId('edit-profile').click();
    await expect.poll(() => page.getByTestId('name-input').inputValue()).toBe('demo');
    expect(await page.getByTestId('cwd-input').inputValue()).toBe('profiles/demo');
    const cwdField = page.getByTestId('field-cwd');
    await expect
      .poll(() => cwdField.getByTestId('folder-note').textContent())
      .toBe("relative to the table's folder: /home/user/.angelia/workspace/profiles/demo");
    expect(await cwdField.getByTestId('field-error').count()).toBe(0);
    expect(await cwdField.getByTestId('fix-it').count()).toBe(0);

    await page.getByTestId('add-dirs-new').fill('shared/notes');
    await page.getByTestId('add-dirs-add').click();
    const rel = page.locator('[data-testid="add-dirs-row"][data-value="shared/notes"]');
    expect(await rel.getByTestId('folder-note').textContent()).toBe("relative to the table's folder: /home/user/.angelia/workspace/shared/notes");
    expect(await rel.getByTestId('field-error').count()).toBe(0);
    await page.locator('[data-testid="policy-entry"][data-path="/home/user/.angelia/workspace/shared/notes"]').waitFor();
    await expect.poll(() => page.getByTestId('save-button').isDisabled()).toBe(false);

    // A pattern is what the loader refuses: red, in its own words, with its own fix.
    await page.getByTestId('add-dirs-new').fill('~/data/*.csv');
    await page.getByTestId('add-dirs-add').click();
    const glob = page.locator('[data-testid="add-dirs-row"][data-value="~/data/*.csv"]');
    expect(await glob.getByTestId('field-error').textContent()).toBe(
      "~/data/*.csv contains * ? [ or ], which Codex's sandbox reads as a pattern, so its rules would not hold — rename the folder without those characters",
    );
    expect(await glob.getByTestId('fix-it').count()).toBe(0);
    expect(await page.getByTestId('save-button').isDisabled()).toBe(true);
    await expect.poll(() => page.getByTestId('preview-note').textContent()).toBe('The preview waits until the fields marked in red are fixed.');
    await tallShot(page, '22-relative-path-resolved');

    await glob.getByTestId('add-dirs-remove').click();
    expect(await addDirRows(page)).toEqual(['shared/notes']);
    expect(await page.getByTestId('field-error').count()).toBe(0);
    expect(inputsOf(fake, 'profiles:preview').every((i) => !JSON.stringify(i).includes('*.csv'))).toBe(true);

    fake.failNextSave({
      code: 'missing-folder',
      message: '/home/user/.angelia/workspace/shared/notes does not exist',
      where: 'profiles.demo.add_dirs[0]',
      fix: 'create the folder first',
    });
    await expect.poll(() => page.getByTestId('save-button').isDisabled()).toBe(false);
    await page.getByTestId('save-button').click();
    await expect
      .poll(() => page.getByTestId('field-add_dirs').getByTestId('field-error').textContent())
      .toBe('Not saved: /home/user/.angelia/workspace/shared/notes does not exist — create the folder first');
    expect(await page.getByTestId('save-status').textContent()).toBe(
      'Not saved: /home/user/.angelia/workspace/shared/notes does not exist. Your edits are kept.',
    );
    expect(await addDirRows(page)).toEqual(['shared/notes']);
    expect(await page.getByTestId('cwd-input').inputValue()).toBe('profiles/demo');
    expect(fake.tableText()).not.toContain('shared/notes');
    await tallShot(page, '23-save-refused');

    // Saved as written: the table keeps the relative paths.
    await page.getByTestId('save-button').click();
    await page.getByTestId('save-result').waitFor();
    expect(fake.tableText()).toContain('add_dirs = ["shared/notes"]');
    expect(fake.tableText()).toContain('cwd = "profiles/demo"');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('names the model and effort really in force, offers only the efforts the model and the table accept, and flags one the new model does not offer', async () => {
    const { page, fake, problems } = await openApp(1100);
    await page.locator('[data-testid="profile-row"][data-profile="demo"]').getByTestId('profile-edit').click();
    await expect.poll(() => page.getByTestId('name-input').inputValue()).toBe('demo');
    const model = page.getByTestId('model-select');
    const effort = page.getByTestId('effort-select');
    // "default" is what Codex's config in force uses (config/read), not the catalog's default (gpt-5.1-codex).
    await expect.poll(() => model.locator('option').first().textContent()).toBe('default (gpt-5.1)');
    expect(await page.getByTestId('model-in-force').textContent()).toBe(
      'Left at default, it uses gpt-5.1: set in your Codex config (/home/user/.codex/config.toml).',
    );
    // gpt-5.1 offers minimal, which the table does not accept.
    expect(await effort.locator('option').allTextContents()).toEqual(['default (high)', 'low', 'medium', 'high']);
    expect(await page.getByTestId('effort-in-force').textContent()).toBe(
      'Left at default, it uses high: set in your Codex config (/home/user/.codex/config.toml).',
    );
    await page.getByTestId('section-model').scrollIntoViewIfNeeded();
    await shot(page, '46-model-effort-default-in-force');

    // gpt-6-sol offers ultra: not offered here, since the table would refuse it on save.
    await model.selectOption('gpt-6-sol');
    expect(await effort.locator('option').allTextContents()).toEqual(['default (high)', 'low', 'medium', 'high', 'xhigh', 'max']);
    await effort.selectOption('max');
    expect(await page.getByTestId('field-effort').getByTestId('field-error').count()).toBe(0);

    // A model that stops at high: max is flagged, with the nearest effort as the fix.
    await model.selectOption('gpt-5.1-codex-mini');
    const effortField = page.getByTestId('field-effort');
    expect(await effortField.getByTestId('field-error').textContent()).toBe(
      'gpt-5.1-codex-mini does not offer effort max — pick one of medium, high, or defaultUse high',
    );
    expect(await effortField.getByTestId('fix-it').textContent()).toBe('Use high');
    expect(await effort.locator('option:checked').textContent()).toBe('max (not offered)');
    expect(await page.getByTestId('save-button').isDisabled()).toBe(true);
    await tallShot(page, '45-effort-not-offered');

    await effortField.getByTestId('fix-it').click();
    expect(await effort.inputValue()).toBe('high');
    expect(await effortField.getByTestId('field-error').count()).toBe(0);
    await expect.poll(() => page.getByTestId('save-button').isDisabled()).toBe(false);
    await page.getByTestId('save-button').click();
    await page.getByTestId('save-result').waitFor();
    expect(inputsOf(fake, 'profiles:save')).toMatchObject([{ draft: { model: 'gpt-5.1-codex-mini', effort: 'high' } }]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('asks "Discard unsaved changes?" before Close, Escape, another chat or another profile drops unsaved edits', async () => {
    const { page, fake, problems } = await openApp(1100, { extraChats: [{ id: 'research', lastLine: 'Read the papers.' }] });
    await page.locator('[data-testid="profile-row"][data-profile="demo"]').getByTestId('profile-edit').click();
    await expect.poll(() => page.getByTestId('name-input').inputValue()).toBe('demo');
    await page.getByTestId('add-dirs-new').fill('/home/user/kept');
    await page.getByTestId('add-dirs-add').click();
    const dialog = page.getByTestId('leave-dialog');

    await page.getByTestId('editor-close').click();
    await dialog.waitFor();
    expect(await dialog.locator('strong').textContent()).toBe('Discard unsaved changes?');
    expect(await page.getByTestId('leave-text').textContent()).toBe('Your edits to add_dirs are not saved. Discard drops them; the table stays as it is.');
    expect(await dialog.locator('button').allTextContents()).toEqual(['Keep editing', 'Discard']);
    await shot(page, '47-discard-unsaved');
    await page.getByTestId('leave-keep').click();
    expect(await dialog.count()).toBe(0);
    expect(await addDirRows(page)).toEqual(['/home/user/kept']);

    // Escape asks too; Escape again keeps editing.
    await page.keyboard.press('Escape');
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    expect(await dialog.count()).toBe(0);
    expect(await page.getByTestId('profile-editor').count()).toBe(1);

    // Another chat: asked; kept.
    await page.locator('[data-chat-id="research"].chat-row').click();
    await dialog.waitFor();
    await page.getByTestId('leave-keep').click();
    expect(await page.getByTestId('profile-editor').count()).toBe(1);
    expect(await addDirRows(page)).toEqual(['/home/user/kept']);

    // Another profile: asked; Discard drops the edits and opens it.
    await page.locator('[data-testid="profile-row"][data-profile="research"]').getByTestId('profile-edit').click();
    await dialog.waitFor();
    await page.getByTestId('leave-discard').click();
    await expect.poll(() => page.getByTestId('editor-title').textContent()).toBe('Edit profile research');
    await expect.poll(() => page.getByTestId('name-input').inputValue()).toBe('research');
    expect(await addDirRows(page)).toEqual([]);

    // Nothing unsaved: Escape closes at once. The discarded edits never reached the table.
    await page.keyboard.press('Escape');
    expect(await page.getByTestId('profile-editor').count()).toBe(0);
    expect(await dialog.count()).toBe(0);
    await page.locator('[data-testid="profile-row"][data-profile="demo"]').getByTestId('profile-edit').click();
    await expect.poll(() => page.getByTestId('name-input').inputValue()).toBe('demo');
    expect(await addDirRows(page)).toEqual([]);
    expect(inputsOf(fake, 'profiles:save')).toEqual([]);
    expect(fake.tableText()).not.toContain('/home/user/kept');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows a plain red warning when the sandbox is turned off', async () => {
    const { page, problems } = await openApp(1100);
    await page.locator('[data-testid="profile-row"][data-profile="demo"]').getByTestId('profile-edit').click();
    await expect.poll(() => page.getByTestId('name-input').inputValue()).toBe('demo');
    expect(await page.getByTestId('sandbox-warning').count()).toBe(0);
    await page.getByTestId('sandbox-check').uncheck();
    const warning = page.getByTestId('sandbox-warning');
    expect(await warning.textContent()).toContain('runs without a sandbox: everything on this machine');
    expect(await warning.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(198, 40, 40)');
    await expect.poll(() => page.getByTestId('policy-table').textContent()).toContain('No filesystem entries');
    expect(await page.getByTestId('section-access').getByTestId('field-warning').textContent()).toContain('no sandbox: Codex runs with full access');
    expect(await page.locator('[data-testid="draft-change"][data-field="sandbox"]').textContent()).toBe('sandbox: true → false');
    await tallShot(page, '24-sandbox-off');
    await page.emulateMedia({ colorScheme: 'dark' });
    await tallShot(page, '24b-sandbox-off-dark');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows the mode in force: attested while running, "profile changed" with Restart, and FULL ACCESS at the next start when cold', async () => {
    const { page, fake, problems } = await openApp(1100, {
      extraChats: [
        { id: 'danger', enforcement: 'managed', lastLine: 'Wrote the report.' },
        { id: 'other', lastLine: 'Not started yet.' },
      ],
    });
    await page.locator('[data-testid="chat-list-item"][data-chat-id="danger"]').click();
    const pane = page.getByTestId('chat-pane');
    await expect.poll(() => pane.getByTestId('mode-line').textContent()).toBe(' · default · approval on-request');
    expect(await pane.getByTestId('mode-line').getAttribute('data-source')).toBe('attested');
    expect(await pane.getByTestId('enforcement-badge').textContent()).toBe('managed sandbox');

    // The editor (here another window) saves `danger` as plan, and `other` with sandbox = false.
    const save = fake.core.handlers['profiles:save'];
    await save({ draft: { ...(await fake.core.handlers['profiles:get']({ name: 'danger' })), permission_mode: 'plan' }, original: 'danger' });
    await save({ draft: { ...(await fake.core.handlers['profiles:get']({ name: 'other' })), sandbox: false }, original: 'other' });
    const changed = pane.getByTestId('profile-changed');
    await expect.poll(() => changed.count()).toBe(1);
    expect(await changed.textContent()).toContain('profile changed: restart this chat to apply (mode default → plan, approval on-request → never)');
    // The running process keeps what it was attested with: the header says so, not the table.
    expect(await pane.getByTestId('mode-line').textContent()).toBe(' · default · approval on-request');
    const cold = page.locator('[data-testid="chat-list-item"][data-chat-id="other"]').getByTestId('enforcement-badge');
    await expect.poll(() => cold.textContent()).toBe('FULL ACCESS — next start');
    expect(await cold.getAttribute('data-source')).toBe('next-start');
    expect(await cold.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(198, 40, 40)');
    await shot(page, '26b-profile-changed-while-running');

    await page.getByTestId('open-policy').click();
    const inspector = page.getByTestId('policy-inspector');
    await expect.poll(() => inspector.getByTestId('running-attestation').count()).toBe(1);
    expect(await inspector.getByTestId('policy-table-heading').textContent()).toBe('Table in force (applies at next start)');
    expect(await inspector.getByTestId('running-attestation').textContent()).toContain('danger · Attested against Codex 0.169.0');
    expect(await inspector.getByTestId('running-table-changed').textContent()).toContain('profile changed: restart this chat to apply');
    await inspector.getByTestId('policy-close').click();

    await page.getByTestId('restart-to-apply').click();
    await expect.poll(() => pane.getByTestId('mode-line').textContent()).toBe(' · plan · approval never');
    expect(await pane.getByTestId('profile-changed').count()).toBe(0);
    expect(inputsOf(fake, 'chats:restart')).toEqual([{ chatId: 'danger' }]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('inspects a policy: entries with their origin, network, attestation or "not started yet", and the probes', async () => {
    const { page, fake, problems } = await openApp(1100, {
      extraChats: [
        { id: 'research', enforcement: 'managed', lastLine: 'Read the papers.' },
        { id: 'household', enforcement: 'disabled', lastLine: 'Cleaned the downloads folder.' },
      ],
    });
    await page.locator('[data-testid="profile-row"][data-profile="demo"]').getByTestId('profile-policy').click();
    const inspector = page.getByTestId('policy-inspector');
    await inspector.getByTestId('attestation').waitFor();
    expect(await inspector.getByTestId('attestation').getAttribute('data-attested')).toBe('false');
    expect(await inspector.getByTestId('attestation').textContent()).toContain('Not started yet.');
    const ssh = inspector.locator('[data-testid="policy-entry"][data-path="/home/user/.ssh"]');
    expect(await ssh.getAttribute('data-access')).toBe('deny');
    expect(await ssh.locator('.pe-origin').textContent()).toBe('always (floor)');
    expect(await inspector.locator(`[data-testid="policy-entry"][data-path="${CWD}"]`).getAttribute('data-origin')).toBe('cwd');
    expect(await inspector.getByTestId('policy-network').textContent()).toContain("Network: on — through Codex's network proxy");
    await inspector.getByTestId('run-probes').click();
    await inspector.getByTestId('probe-table').waitFor();
    expect(await inspector.getByTestId('probe-table').getAttribute('data-pass')).toBe('true');
    expect(inputsOf(fake, 'profiles:verify')).toEqual([{ name: 'demo' }]);
    await tallShot(page, '25-policy-not-started-probes');

    await page.locator('[data-testid="profile-row"][data-profile="research"]').getByTestId('profile-policy').click();
    await expect.poll(() => page.getByTestId('policy-inspector').getAttribute('data-profile')).toBe('research');
    await expect.poll(() => page.getByTestId('attestation').getAttribute('data-attested')).toBe('true');
    expect(await page.getByTestId('attestation').textContent()).toContain('Attested against Codex 0.169.0');
    expect(await page.getByTestId('attestation').getByTestId('enforcement-badge').textContent()).toBe('managed sandbox');
    await shot(page, '26-policy-attested');

    await page.locator('[data-testid="profile-row"][data-profile="household"]').getByTestId('profile-policy').click();
    await expect.poll(() => page.getByTestId('policy-inspector').getAttribute('data-profile')).toBe('household');
    expect(await page.getByTestId('inspector-no-sandbox').textContent()).toContain('runs without a sandbox: everything on this machine');
    await page.getByTestId('run-probes').click();
    await page.getByTestId('probe-table').waitFor();
    expect(await page.getByTestId('probe-summary').textContent()).toContain('3 of 4 probes did not behave as the profile says.');
    expect(await page.locator('[data-testid="probe-row"][data-pass="false"]').count()).toBe(3);
    await tallShot(page, '27-policy-no-sandbox-probes-fail');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('says when the table changed on disk, shows the field diff, and accepts it; a table that does not load can only be discarded', async () => {
    const { page, fake, problems } = await openApp(1100);
    await page.getByTestId('chat-list-item').first().waitFor();
    expect(await page.getByTestId('table-banner').count()).toBe(0);
    fake.changeTable({
      changes: [
        { path: ['profiles', 'demo', 'add_dirs'], kind: 'item-added', after: '/home/user/agent-wrote-this' },
        { path: ['profiles', 'demo', 'permission_mode'], kind: 'changed', before: 'default', after: 'bypassPermissions' },
      ],
    });
    const banner = page.getByTestId('table-banner');
    await banner.waitFor();
    expect(await banner.textContent()).toContain('The table changed on disk: 2 changes wait for your review.');
    await shot(page, '28-table-banner');

    await banner.getByTestId('table-review').click();
    const rows = page.getByTestId('table-change');
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.nth(0).textContent()).toBe('profiles.demo.add_dirsitem added"/home/user/agent-wrote-this"');
    expect(await rows.nth(1).getAttribute('data-kind')).toBe('changed');
    expect(await rows.nth(1).locator('.change-values').textContent()).toBe('"default" → "bypassPermissions"');
    await shot(page, '29-table-review');

    await page.getByTestId('table-accept').click();
    await page.getByTestId('table-same').waitFor();
    await expect.poll(() => banner.count()).toBe(0);
    await expect.poll(() => page.locator('[data-testid="profile-row"][data-profile="demo"]').textContent()).toContain('bypassPermissions');
    expect(inputsOf(fake, 'table:accept')).toEqual([{}]);

    // Changed again, this time broken; the window learns it on load too.
    fake.changeTable({
      changes: [],
      error: { message: 'duplicate key "cwd" in [profiles.demo]', where: 'angelia.toml line 9', fix: 'remove one of the two cwd lines' },
    });
    await page.reload();
    await banner.waitFor();
    expect(await banner.textContent()).toContain('does not load');
    await banner.getByTestId('table-review').click();
    expect(await page.getByTestId('table-load-error').textContent()).toContain('duplicate key "cwd" in [profiles.demo]');
    expect(await page.getByTestId('table-accept').isDisabled()).toBe(true);
    await shot(page, '30-table-broken');
    await page.getByTestId('table-discard').click();
    await expect.poll(() => banner.count()).toBe(0);
    expect(inputsOf(fake, 'table:discard')).toEqual([{}]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('opens the editor with a requested or refused folder added to add_dirs, and writes nothing until Save', async () => {
    const refused = "touch: cannot touch '/home/user/elsewhere/notes.txt': Permission denied\n";
    const { page, fake, problems } = await openApp(420, {
      seed: {
        items: [
          { type: 'command', id: 'c-denied', command: 'touch /home/user/elsewhere/notes.txt', cwd: CWD, output: refused, exitCode: 1, status: 'failed' },
          { type: 'approval', id: 'i-perm', approvalId: 'perm' },
        ],
        approvals: [
          seeded({
            id: 'perm',
            kind: 'permissions',
            title: 'More access for this turn',
            command: null,
            cwd: null,
            reason: 'Write the report next to the data',
            requested: { read: [], write: ['/home/user/other-repo'], network: false },
          }),
        ],
      },
    });
    await page.getByTestId('chat-list-item').first().click();
    const card = page.locator('[data-approval-id="perm"]');
    await card.waitFor();
    await shot(page, '31-add-folder-links');
    await card.getByTestId('add-folder-link').click();
    await expect.poll(() => addDirRows(page)).toEqual(['/home/user/other-repo']);
    expect(await page.getByTestId('editor-title').textContent()).toBe('Edit profile demo');
    expect(await page.locator('[data-testid="draft-change"][data-field="add_dirs"]').textContent()).toBe('add_dirs: [] → ["/home/user/other-repo"]');
    await page.locator('[data-testid="policy-entry"][data-path="/home/user/other-repo"]').waitFor();
    // The added row is shown (scrolled to and marked) until the next edit.
    const addedRow = page.locator('[data-testid="add-dirs-row"][data-value="/home/user/other-repo"]');
    expect(await addedRow.getAttribute('class')).toContain('just-added');
    await expect
      .poll(() =>
        addedRow.evaluate((el) => {
          const r = el.getBoundingClientRect();
          const body = document.querySelector('.panel-body')?.getBoundingClientRect();
          return body !== undefined && r.top >= body.top && r.bottom <= body.bottom;
        }),
      )
      .toBe(true);
    await shot(page, '32-editor-prefilled');

    // Closing with the folder unsaved asks first; kept, the editor stays as it was.
    await page.getByTestId('editor-close').click();
    await page.getByTestId('leave-dialog').waitFor();
    await page.getByTestId('leave-keep').click();
    expect(await addDirRows(page)).toEqual(['/home/user/other-repo']);
    // Discarded, the window goes back to the chat, where the failed command offers its refused folder.
    await page.getByTestId('editor-close').click();
    await page.getByTestId('leave-discard').click();
    const command = page.getByTestId('command-item').first();
    expect(await command.getByTestId('add-folder-link').textContent()).toBe('Add /home/user/elsewhere to the demo profile…');
    await command.getByTestId('add-folder-link').click();
    await expect.poll(() => addDirRows(page)).toEqual(['/home/user/elsewhere']);
    expect(inputsOf(fake, 'profiles:save')).toEqual([]);
    expect(await card.count()).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('creates a new profile with a starter CLAUDE.md', async () => {
    const { page, fake, problems } = await openApp(1100);
    await page.getByTestId('new-profile-button').click();
    expect(await page.getByTestId('editor-title').textContent()).toBe('New profile');
    expect(await page.getByTestId('starter-check').isChecked()).toBe(true);
    await page.getByTestId('name-input').fill('research');
    await page.getByTestId('cwd-input').fill('~/projects/research');
    await page.locator('[data-testid="mode-option"][data-mode="plan"]').click();
    await expect.poll(() => page.locator(`[data-testid="policy-entry"][data-path="/home/user/projects/research"]`).getAttribute('data-access')).toBe('read');
    await expect.poll(() => page.getByTestId('plan-line').allTextContents()).toContain('+ [profiles.research] in angelia.toml');
    await tallShot(page, '33-new-profile');

    await page.getByTestId('save-button').click();
    await page.getByTestId('save-result').waitFor();
    expect(await page.getByTestId('save-result').locator('h3').textContent()).toBe('✓ Created research');
    expect(fake.created).toEqual([{ name: 'research', starterClaudeMd: true }]);
    expect(inputsOf(fake, 'profiles:create')).toMatchObject([
      { starterClaudeMd: true, draft: { name: 'research', cwd: '~/projects/research', permission_mode: 'plan' } },
    ]);
    await page.locator('[data-testid="profile-row"][data-profile="research"]').waitFor();
    expect(fake.tableText()).toContain('[profiles.research]\ncwd = "~/projects/research"\npermission_mode = "plan"');
    expect(await page.getByTestId('editor-title').textContent()).toBe('Edit profile research');
    await tallShot(page, '34-new-profile-created');
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('the transcript and dropped files (fake core)', () => {
  it('renders a 5 000-item chat as a window of DOM nodes, starts at the end, follows new items and scrolls back to the start', async () => {
    const items: ChatItem[] = Array.from({ length: 5000 }, (_, i): ChatItem =>
      i % 2 === 0 ? { type: 'notice', id: `n${i}`, text: `Line #${i}` } : { type: 'agent', id: `a${i}`, text: `Answer **#${i}**: all good.`, done: true },
    );
    const { page, problems } = await openApp(1100, { extraChats: [{ id: 'long', items, lastLine: 'Answer #4999' }] });
    await page.locator('[data-testid="chat-list-item"][data-chat-id="long"]').click();
    const transcript = page.getByTestId('transcript');
    // The 5 000 items load after the click: wait on them with the page's timeout (expect.poll's default is 1 s).
    await page.locator('[data-testid="transcript"][data-count="5000"]').waitFor();
    const last = page.locator('[data-item-index="4999"]');
    await last.waitFor();
    // `sel` in the scroller's view, and `alsoRendered` (when given) in the DOM, read in one go.
    const inView = (sel: string, alsoRendered: string | null = null) =>
      page.evaluate(
        ([s, also]) => {
          const el = document.querySelector(s);
          const box = document.querySelector('[data-testid="transcript"] [data-virtuoso-scroller]')?.getBoundingClientRect();
          if (!el || !box || (also !== null && !document.querySelector(also))) return false;
          const r = el.getBoundingClientRect();
          return r.bottom <= box.bottom + 1 && r.top >= box.top - 1;
        },
        [sel, alsoRendered] as const,
      );
    // react-virtuoso first renders the initial item alone, in view (a probe that measures an item's height),
    // then the range around it: the window is counted once the item before the last is rendered too.
    await expect.poll(() => inView('[data-item-index="4999"]', '[data-item-index="4998"]'), { timeout: 15_000 }).toBe(true);
    const rendered = await page.locator('[data-testid="transcript"] [data-item-index]').count();
    expect(rendered).toBeGreaterThan(10);
    expect(rendered).toBeLessThan(300);
    expect(await page.locator('[data-item-index="0"]').count()).toBe(0);
    await shot(page, '35-long-chat-end');

    // A new turn streams in at the end and the view follows it.
    await page.getByTestId('composer-input').fill('Keep going');
    await page.getByTestId('composer-input').press('Enter');
    const card = page.getByTestId('approval-card').last();
    await card.waitFor();
    await expect
      .poll(async () => inView(`[data-item-index="${(await transcript.getAttribute('data-count').then(Number)) - 1}"]`), { timeout: 15_000 })
      .toBe(true);

    await page.locator('[data-testid="transcript"] [data-virtuoso-scroller]').evaluate((el) => el.scrollTo({ top: 0 }));
    await page.locator('[data-item-index="0"]').waitFor();
    await expect.poll(() => inView('[data-item-index="0"]'), { timeout: 15_000 }).toBe(true);
    expect(await page.locator('[data-item-index="4999"]').count()).toBe(0);
    expect(await page.locator('[data-testid="transcript"] [data-item-index]').count()).toBeLessThan(300);
    await shot(page, '36-long-chat-start');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('attaches a dropped file, puts its path into the message, and refuses a file over 25 MB', async () => {
    const { page, fake, problems } = await openApp(420);
    await page.getByTestId('chat-list-item').first().click();
    const pane = page.getByTestId('chat-pane');
    await page.getByTestId('composer-input').fill('Summarise');
    const files = await page.evaluateHandle(() => {
      const dt = new DataTransfer();
      dt.items.add(new File(['hello world'], 'notes.txt', { type: 'text/plain' }));
      return dt;
    });
    await pane.dispatchEvent('dragenter', { dataTransfer: files });
    await page.getByTestId('drop-overlay').waitFor();
    expect(await page.getByTestId('drop-overlay').textContent()).toContain('.inbox/ (25 MB at most each)');
    await shot(page, '37-drop-overlay');
    await pane.dispatchEvent('drop', { dataTransfer: files });
    const line = page.locator('[data-testid="attach-line"][data-status="attached"]');
    await line.waitFor();
    expect(await line.textContent()).toBe('Attached → .inbox/notes.txt×');
    expect(await page.getByTestId('drop-overlay').count()).toBe(0);
    expect(await page.getByTestId('composer-input').inputValue()).toBe('Summarise .inbox/notes.txt ');
    expect(fake.attached).toEqual([{ chatId: 'demo', name: 'notes.txt', size: 11, path: '.inbox/notes.txt' }]);
    expect(inputsOf(fake, 'chats:attach')).toEqual([{ chatId: 'demo', name: 'notes.txt', dataBase64: Buffer.from('hello world').toString('base64') }]);

    const big = await page.evaluateHandle(() => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(26 * 1024 * 1024)], 'big.bin'));
      return dt;
    });
    await pane.dispatchEvent('drop', { dataTransfer: big });
    const refused = page.locator('[data-testid="attach-line"][data-status="refused"]');
    await refused.waitFor();
    expect(await refused.textContent()).toBe('Not attached: big.bin is 26.0 MB; files over 25 MB are refused×');
    expect(fake.attached).toHaveLength(1);

    // Over the WebSocket's 2 MB message cap, under the 25 MB file cap: it goes over HTTP (POST /attach) and the link stays up.
    const mid = await page.evaluateHandle(() => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(3 * 1024 * 1024).fill(120)], 'scan.pdf'));
      return dt;
    });
    await pane.dispatchEvent('drop', { dataTransfer: mid });
    await expect.poll(() => page.locator('[data-testid="attach-line"][data-status="attached"]').count()).toBe(2);
    expect(fake.attached.at(-1)).toEqual({ chatId: 'demo', name: 'scan.pdf', size: 3 * 1024 * 1024, path: '.inbox/scan.pdf' });
    expect(await page.getByTestId('composer-input').inputValue()).toBe('Summarise .inbox/notes.txt .inbox/scan.pdf ');
    expect(await page.getByTestId('banner').count()).toBe(0);
    await shot(page, '38-attached-and-refused');

    await page.getByTestId('send-button').click();
    await expect.poll(() => page.getByTestId('user-message').first().textContent()).toBe('Summarise .inbox/notes.txt .inbox/scan.pdf');
    expect(await page.getByTestId('attach-line').count()).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('renderer loose ends (fake core)', () => {
  it("runs under the strict CSP: the meta and the header say connect-src 'self' only, and the WebSocket still connects", async () => {
    const { page, host, problems } = await openApp(420);
    await page.getByTestId('chat-list-item').first().waitFor();
    expect(await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content')).toBe(RENDERER_CSP);
    const res = await fetch(`http://127.0.0.1:${host.port}/`);
    expect(res.headers.get('content-security-policy')).toBe(CSP);
    // A round trip over the socket under that policy: send, stream, approval.
    await page.getByTestId('chat-list-item').first().click();
    await page.getByTestId('composer-input').fill('Hello');
    await page.getByTestId('composer-input').press('Enter');
    await page.getByTestId('approval-card').first().waitFor();
    expect(await page.getByTestId('banner').count()).toBe(0);
    // ws: to a host the policy does not name is refused (so 'self' is what let ours through).
    const foreign = await page.evaluate(
      () =>
        new Promise<string>((resolve) => {
          document.addEventListener('securitypolicyviolation', (e) => resolve(`${e.violatedDirective} ${e.blockedURI}`), { once: true });
          try {
            new WebSocket('ws://localhost:1/ws');
          } catch (e) {
            resolve(`threw ${(e as Error).name}`);
          }
        }),
    );
    expect(foreign).toMatch(/^(connect-src ws:\/\/localhost:1|threw SecurityError)/);
    const violations = await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
    expect(violations.filter((v) => !v.includes('localhost:1'))).toEqual([]);
    expect(problems.filter((p) => !p.includes('localhost:1'))).toEqual([]);
    await page.close();
  });

  it('names who answered truthfully: the window, the tray; and labels each Allow with its scope', async () => {
    const { page, fake, problems } = await openApp(1100, {
      seed: {
        items: [
          { type: 'approval', id: 'i-w', approvalId: 'w' },
          { type: 'approval', id: 'i-race', approvalId: 'race' },
          { type: 'approval', id: 'i-t', approvalId: 't' },
        ],
        approvals: [
          seeded({ id: 'w', title: 'Run make lint', command: 'make lint' }),
          seeded({ id: 'race', title: 'Run make test', command: 'make test', answers: ['allow', 'allowForSession', 'deny'] }),
          seeded({
            id: 't',
            kind: 'permissions',
            title: 'More access: write /home/user/data',
            command: null,
            cwd: null,
            requested: { read: [], write: ['/home/user/data'], network: false },
            answers: ['allow', 'allowForSession', 'deny'],
          }),
        ],
      },
    });
    await page.getByTestId('chat-list-item').first().click();
    const [w, race, t] = ['w', 'race', 't'].map((id) => page.locator(`[data-approval-id="${id}"]`));
    await t!.waitFor();
    expect(await race!.locator('.approval-buttons button').allTextContents()).toEqual(['Allow once', 'Allow for this session', 'Deny', 'Deny with a reason…']);
    expect(await t!.locator('.approval-buttons button').allTextContents()).toEqual([
      'Allow for this turn',
      'Allow for this session',
      'Deny',
      'Deny with a reason…',
    ]);
    expect(await t!.getByTestId('approval-access').textContent()).toBe('+ write /home/user/data (not in the profile)\n');
    await shot(page, '39-allow-scopes');

    // Answered in a window (this page did not click): said from the recorded source, and nothing more can be clicked.
    fake.answerElsewhere('w', 'deny', 'window');
    await expect.poll(() => w!.getByTestId('approval-status').textContent()).toBe('Denied — answered in the window');
    expect(await w!.locator('.approval-buttons button').evaluateAll((bs) => bs.map((b) => (b as HTMLButtonElement).disabled))).toEqual([true, true]);
    // Another window won the race against this window's click.
    fake.answerElsewhere('race', 'allowForSession', 'window', { quiet: true });
    await race!.getByTestId('approval-deny').click();
    await expect.poll(() => race!.getByTestId('approval-note').textContent()).toBe('Already answered (Allowed for this session, from another window)');
    expect(await race!.getByTestId('approval-status').textContent()).toBe('Allowed for this session — answered in the window');
    fake.answerElsewhere('t', 'allowForSession', 'tray');
    await expect.poll(() => t!.getByTestId('approval-status').textContent()).toBe('Allowed for this session — answered from the tray');
    expect(await t!.getByTestId('approval-granted').textContent()).toBe('Granted: write /home/user/data');
    await shot(page, '40-answered-elsewhere');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('sends text as typed, says how to send text that begins with "/", and answers an unknown command', async () => {
    const { page, fake, problems } = await openApp(420);
    await page.getByTestId('chat-list-item').first().click();
    const input = page.getByTestId('composer-input');

    await input.fill('/');
    await page.getByTestId('command-hints').waitFor();
    expect(await page.getByTestId('slash-tip').textContent()).toBe('Start with // to send text beginning with /');
    await input.fill('//');
    expect(await page.getByTestId('command-hints').count()).toBe(0);
    expect(await page.getByTestId('slash-tip').textContent()).toBe('Goes to the agent as text: “/”');
    await input.fill('/zzz');
    expect(await page.getByTestId('command-hints').count()).toBe(0);
    expect(await page.getByTestId('slash-tip').textContent()).toBe('/zzz is not a command. Start with // to send text beginning with /.');
    await shot(page, '41-slash-tip');
    await input.press('Enter');
    await expect
      .poll(() => page.getByTestId('notice').last().textContent())
      .toBe('Unknown command /zzz. /help lists the commands; start with // to send it as a message.');

    await input.fill('//etc/hosts is empty');
    expect(await page.getByTestId('slash-tip').textContent()).toBe('Goes to the agent as text: “/etc/hosts is empty”');
    await input.press('Enter');
    await expect.poll(() => page.getByTestId('user-message').first().textContent()).toBe('/etc/hosts is empty');
    expect(await input.inputValue()).toBe('');
    expect(await page.getByTestId('slash-tip').count()).toBe(0);

    // A leading space is kept (the core reads it as an ordinary message); only the blank end goes.
    await page.getByTestId('approval-card').first().waitFor();
    await input.fill(' /usr/bin is missing  ');
    await input.press('Enter');
    await expect.poll(() => page.getByTestId('composer-queued').count()).toBe(1);
    // All blanks are not sent.
    await input.fill('   ');
    expect(await page.getByTestId('send-button').isDisabled()).toBe(true);
    await input.press('Enter');
    expect(inputsOf(fake, 'chats:send')).toEqual([
      { chatId: 'demo', text: '/zzz' },
      { chatId: 'demo', text: '//etc/hosts is empty' },
      { chatId: 'demo', text: ' /usr/bin is missing' },
    ]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows Stop while a turn is starting; it cancels the turn and drops the queue', async () => {
    const { page, fake, problems } = await openApp(420, { holdStart: true });
    await page.getByTestId('chat-list-item').first().click();
    const input = page.getByTestId('composer-input');
    expect(await page.getByTestId('stop-button').count()).toBe(0);
    await input.fill('Summarise the repo');
    await input.press('Enter');
    await expect.poll(() => page.getByTestId('chat-pane').getByTestId('state-badge').textContent()).toBe('starting');
    const stop = page.getByTestId('stop-button');
    await stop.waitFor();
    await input.fill('Then list the TODOs');
    await input.press('Enter');
    await expect.poll(() => page.getByTestId('queued-badge').textContent()).toBe('1 queued');
    // Nothing to steer into yet.
    expect(await page.getByTestId('steer-button').count()).toBe(0);
    expect(await page.getByTestId('composer-queued').textContent()).toBe('1 queued — it goes in when the current turn ends.');
    await shot(page, '42-stop-while-starting');

    await stop.click();
    await expect.poll(() => page.getByTestId('chat-pane').getByTestId('state-badge').textContent()).toBe('idle');
    expect(inputsOf(fake, 'chats:interrupt')).toEqual([{ chatId: 'demo' }]);
    await expect.poll(() => page.getByTestId('notice').last().textContent()).toBe('Stopped before the turn started. 1 queued message dropped.');
    expect(await page.getByTestId('queued-badge').count()).toBe(0);
    expect(await page.getByTestId('stop-button').count()).toBe(0);

    // A turn that did start shows Stop too, and Stop ends it.
    await input.fill('Try again');
    await input.press('Enter');
    await stop.waitFor();
    fake.startTurn('demo');
    await page.getByTestId('approval-card').first().waitFor();
    await stop.click();
    await expect.poll(() => page.getByTestId('turn-end').last().getAttribute('data-status')).toBe('interrupted');
    await expect.poll(() => page.getByTestId('approval-card').first().getAttribute('data-state')).toBe('withdrawn');
    expect(await page.getByTestId('stop-button').count()).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('follows #chat=<id> and #review=table on load and on hashchange; the list preview is plain text', async () => {
    const extraChats = [{ id: 'research', lastLine: 'Read **three** papers on `sandboxing`, see [notes](https://example.com/n)' }];
    const { page, host, fake, problems } = await openApp(420, { extraChats });
    const row = page.locator('[data-testid="chat-list-item"][data-chat-id="research"]');
    await row.waitFor();
    expect(await row.getByTestId('row-last').textContent()).toBe('Read three papers on sandboxing, see notes');
    await shot(page, '43-plain-preview');

    await page.evaluate(() => {
      window.location.hash = 'chat=research';
    });
    await expect.poll(() => page.getByTestId('chat-pane').getAttribute('data-chat-id')).toBe('research');
    expect(await page.evaluate(() => window.location.hash)).toBe('');
    // The same route again (a second click on the same notification) opens it again.
    await page.getByRole('button', { name: 'Back to the chats' }).click();
    expect(await page.getByTestId('chat-pane').count()).toBe(0);
    await page.evaluate(() => {
      window.location.hash = 'chat=research';
    });
    await expect.poll(() => page.getByTestId('chat-pane').getAttribute('data-chat-id')).toBe('research');

    fake.changeTable({ changes: [{ path: ['profiles', 'demo', 'model'], kind: 'changed', before: null, after: 'gpt-5.1' }] });
    await page.evaluate(() => {
      window.location.hash = 'review=table';
    });
    await page.getByTestId('table-review-panel').waitFor();
    await expect.poll(() => page.getByTestId('table-change').count()).toBe(1);
    expect(inputsOf(fake, 'table:changes').length).toBeGreaterThanOrEqual(2);

    // Opened on a route: the chat opens once the list is loaded; the token still works.
    const second = await browser.newPage({ viewport: { width: 420, height: 720 } });
    await second.goto(`${host.url}&chat=research`);
    await expect.poll(() => second.getByTestId('chat-pane').getAttribute('data-chat-id')).toBe('research');
    expect(await second.evaluate(() => window.location.hash)).toBe('');
    await shot(second, '44-opened-on-chat');
    await second.close();
    const third = await browser.newPage({ viewport: { width: 1100, height: 720 } });
    await third.goto(`${host.url}&review=table`);
    await third.getByTestId('table-review-panel').waitFor();
    await expect.poll(() => third.getByTestId('table-change').count()).toBe(1);
    await third.close();
    expect(problems).toEqual([]);
    await page.close();
  });
});
