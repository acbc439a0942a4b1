/**
 * The desktop path end to end: the BUILT main bundle (out/main/index.js) runs in a child Node process
 * under the Electron double (test/fixtures/electronDouble/: app, Tray, Menu, Notification,
 * BrowserWindow, ipcMain … typed against Electron 45's own definitions), its windows show the BUILT
 * renderer in Chromium, and the page talks to main through the REAL built preload (out/preload/index.cjs,
 * run per document in the double's renderer world) and the REAL IPC binding (src/main/electron/ipc.ts as
 * bundled). Behind it the real core, the real pinned Codex in its sandbox and the scripted model.
 *
 * The app starts to the tray only (a start at login); "Open Angelia" opens the window; a command the
 * agent asks to run outside the sandbox raises ONE notification with Allow / Deny (the entry sees macOS,
 * the core its own Linux: electronDouble/platform.ts), pressing Allow answers Codex and settles the card;
 * a second request answered in the window closes its notification; "Quit" leaves no process behind.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolOutput } from '../../src/main/demo/scriptedModel';
import { checkMainBuild, startDesktopApp, type DesktopApp } from '../fixtures/electronDouble/harness';
import type { Snapshot } from '../fixtures/electronDouble/protocol';
import { processesOf } from '../fixtures/electronDouble/procs';
import { makeInstance, type TestInstance } from '../fixtures/instance';
import { checkBuild } from '../fixtures/realWindow';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Generous for a loaded 2-core machine: a real Codex start and turn, Chromium, and the child's own start. */
const LONG = { timeout: 90_000 };

let inst: TestInstance;
let browser: Browser;
let app: DesktopApp;
let page: Page;
let problems: string[] = [];

beforeAll(async () => {
  checkBuild();
  checkMainBuild();
  // A private HOME: see makeInstance's `privateHome`.
  inst = await makeInstance({ demo: { permission_mode: 'default' } }, { privateHome: true });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    // The window loads the built renderer from file:// as Electron does; its module scripts need file access.
    args: [
      '--no-sandbox',
      '--headless',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-sync',
      '--allow-file-access-from-files',
    ],
  });
  app = startDesktopApp(inst.env, browser);
});

afterAll(async () => {
  await app?.close();
  // Anything of this instance still alive failed the test below; end it by pid so nothing outlives the run.
  if (inst) for (const p of processesOf(inst.root)) process.kill(p.pid, 'SIGKILL');
  await browser?.close();
  await inst?.cleanup();
});

const pendingCard = (p: Page) => p.locator('[data-testid="approval-card"][data-state="pending"]');
const lastAgent = (p: Page) => () => p.getByTestId('agent-message').last().textContent();
/** The approval notifications (those with buttons), oldest first. */
const approvals = (s: Snapshot) => s.notifications.filter((n) => n.actions.length > 0);

async function send(p: Page, text: string): Promise<void> {
  await p.getByTestId('composer-input').fill(text);
  await p.getByTestId('send-button').click();
}

/** The output Codex sent the model for the exec call the model made in the request answered with `cmd`. */
function outputSent(cmd: string): string | undefined {
  const requests = inst.model.modelRequests();
  const asked = requests.find((r) => JSON.stringify(r.step ?? null).includes(cmd));
  const callId = asked?.callIds[0];
  if (!callId) return undefined;
  return requests
    .filter((r) => r.index > asked.index)
    .map((r) => toolOutput(r.body, callId))
    .find((o) => o !== undefined);
}

describe('the desktop app: built main, preload and IPC under the Electron double', { timeout: 180_000 }, () => {
  it('starts to the tray: a tray with its tooltip and menu, IPC bound, no window', async () => {
    const s = await app.until('the tray', (snap) => snap.trays.length === 1 && snap);
    expect(s).toMatchObject({ ready: true, singleInstanceLock: true, windows: [], errorBoxes: [] });
    expect(s.trays[0]).toMatchObject({ template: true, destroyed: false, title: '' });
    expect(s.trays[0]?.image).toMatch(/resources\/trayTemplate\.png$/);
    expect(s.trays[0]?.toolTip).toMatch(/^Angelia/);
    expect(s.ipcHandlers).toEqual(expect.arrayContaining(['angelia:invoke', 'angelia:pickFolder', 'angelia:openExternal']));
    expect(s.appListeners).toEqual(expect.arrayContaining(['second-instance', 'window-all-closed', 'before-quit', 'web-contents-created']));
    const labels = (await app.trayMenu()).map((i) => i.label);
    expect(labels).toEqual(expect.arrayContaining(['Open Angelia', 'Start at login', 'Quit']));
    expect((await app.snapshot()).windows).toEqual([]);
  });

  it('"Open Angelia" shows the built renderer, talking through the real preload and IPC', async () => {
    await app.clickTrayMenu('Open Angelia');
    const w = await app.page(1);
    ({ page, problems } = w);
    // The chats come over the preload's invoke and the bundled IPC binding; if they never do, say what the page said.
    await page
      .getByTestId('chat-list-item')
      .first()
      .waitFor(LONG)
      .catch((e: Error) => {
        throw new Error(`The window listed no chat: ${e.message}\n${problems.join('\n') || '(no page errors)'}\n${app.output()}`);
      });
    const win = await app.until('the window shown', (s) => s.windows[0]?.visible && s.windows[0]);
    expect(win).toMatchObject({ title: 'Angelia', sandbox: true, contextIsolation: true, destroyed: false });
    expect(win?.preload).toMatch(/out\/preload\/index\.cjs$/);
    expect(win?.url).toMatch(/^file:\/\/.*\/out\/renderer\/index\.html$/);
    expect(await page.getByTestId('chat-list-item').first().getByTestId('chat-name').textContent()).toBe('demo');
    expect(problems).toEqual([]);
  });

  it('a command outside the sandbox raises ONE notification; Allow there answers Codex and settles the card', async () => {
    const target = join(inst.outside, 'escalated.txt');
    const cmd = `echo approved > ${target} && cat ${target}`;
    inst.model.enqueue(
      { exec: { cmd, login: false, sandbox_permissions: 'require_escalated', justification: 'write the report next door' } },
      { message: 'Wrote the report outside.' },
    );
    await page.getByTestId('chat-list-item').first().click();
    await send(page, 'write the report outside');
    const card = pendingCard(page);
    await card.waitFor(LONG);
    const n = await app.until('a notification with buttons', (s) => approvals(s)[0]);
    expect(approvals(await app.snapshot())).toHaveLength(1);
    expect(n).toMatchObject({ shown: 1, closed: 0, closeButtonText: 'Later' });
    expect(n.actions).toEqual(expect.arrayContaining(['Allow', 'Deny']));
    expect(n.title).toMatch(/^demo /);
    expect(n.body).toContain(cmd);
    expect(existsSync(target)).toBe(false);

    const id = await card.getAttribute('data-approval-id');
    await app.pressNotification(n.id, n.actions.indexOf('Allow'));
    const settled = page.locator(`[data-approval-id="${id}"]`);
    await expect.poll(() => settled.getByTestId('approval-status').textContent(), LONG).toBe('Allowed once — answered from a notification');
    await expect.poll(lastAgent(page), LONG).toBe('Wrote the report outside.');
    expect(readFileSync(target, 'utf8')).toBe('approved\n');
    expect(outputSent(cmd)).toContain('approved');
    const after = approvals(await app.snapshot());
    expect(after).toHaveLength(1);
    expect(after[0]?.closed).toBeGreaterThanOrEqual(1);
    expect(await pendingCard(page).count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it('a request answered in the window closes its notification', async () => {
    const target = join(inst.outside, 'second.txt');
    const cmd = `echo second > ${target}`;
    inst.model.enqueue({ exec: { cmd, login: false, sandbox_permissions: 'require_escalated', justification: 'once more' } }, { message: 'Second done.' });
    await send(page, 'once more outside');
    const card = pendingCard(page);
    await card.waitFor(LONG);
    const second = await app.until('a second notification with buttons', (s) => approvals(s)[1]);
    expect(approvals(await app.snapshot())).toHaveLength(2);
    expect(second).toMatchObject({ shown: 1, closed: 0 });
    expect(second.body).toContain(cmd);

    const id = await card.getAttribute('data-approval-id');
    await card.getByTestId('approval-allow').click();
    await expect
      .poll(() => page.locator(`[data-approval-id="${id}"]`).getByTestId('approval-status').textContent(), LONG)
      .toBe('Allowed once — answered in the window');
    await app.until('the second notification closed', (s) => approvals(s)[1]?.closed === 1);
    await expect.poll(lastAgent(page), LONG).toBe('Second done.');
    expect(readFileSync(target, 'utf8')).toBe('second\n');
    expect(problems).toEqual([]);
  });

  it('"Quit" in the tray menu stops every agent and the app: no process of the instance remains', async () => {
    const before = processesOf(inst.root);
    await app.clickTrayMenu('Quit');
    const exit = await app.exited;
    expect(exit, app.output()).toEqual({ code: 0, signal: null });
    await expect.poll(() => processesOf(inst.root), { timeout: 15_000 }).toEqual([]);
    // Not vacuous: the app and its Codex were running just before.
    expect(before.some((p) => p.pid === app.child.pid)).toBe(true);
    expect(before.some((p) => /codex/.test(p.command))).toBe(true);
  });
});
