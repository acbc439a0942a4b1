/**
 * End to end on the real stack, chats and approvals: the built renderer served by the headless host
 * over the real core (orchestrator), the real pinned Codex (0.169.0) in the real sandbox, and the
 * scripted model, driven in Chromium. A chat streams; a command outside the sandbox is allowed from its
 * card; a folder request is shown as a diff against the profile and granted for the turn only (the
 * reply on the wire has `scope: "turn"`, and the profile does not keep it; a folder the agent can
 * already write is listed, never granted again); the sessions panel lists
 * the chat's sessions. Screenshots go to
 * test-results/screenshots/real-0*.png. The profile editor, the
 * policy inspector and the table review are in ui-real-profiles.test.ts.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shot, startRealWindow, type RealWindow } from '../fixtures/realWindow';

let w: RealWindow;
let page: Page;
let problems: string[];

beforeAll(async () => {
  w = await startRealWindow({ demo: { permission_mode: 'default' } });
  ({ page, problems } = await w.open(420));
});

afterAll(async () => {
  await w?.close();
});

const lastAgent = (p: Page) => () => p.getByTestId('agent-message').last().textContent();
const pendingCard = (p: Page) => p.locator('[data-testid="approval-card"][data-state="pending"]');
/** The test ids of a card's buttons, in order. */
const offered = (card: Locator) => card.locator('.approval-buttons button').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')));
const stateBadge = (p: Page) => () => p.getByTestId('chat-pane').getByTestId('state-badge').textContent();

/** Types `text` into the composer and sends it. */
async function send(p: Page, text: string): Promise<void> {
  await p.getByTestId('composer-input').fill(text);
  await p.getByTestId('send-button').click();
}

describe('the window over real codex: chats and approvals', { timeout: 120_000 }, () => {
  it('lists the chats, then streams an answer into the open chat', async () => {
    const row = page.getByTestId('chat-list-item').first();
    await row.waitFor();
    expect(await row.getByTestId('chat-name').textContent()).toBe('demo');
    await shot(page, 'real-01-chat-list');

    // 40 deltas 100 ms apart: the answer streams for about 4 s.
    const answer = 'I looked through your folder one file at a time. Here is **what I found**: two notes and a plan.';
    w.inst.model.enqueue({ message: answer, chunks: 40, delayMs: 100 });
    await row.click();
    await send(page, 'what is in my folder?');
    const streaming = page.locator('[data-testid="agent-message"][data-done="false"]');
    // Caught while it streams: part of the answer is shown and the item is not done yet.
    await expect
      .poll(async () => (await streaming.count()) > 0 && ((await streaming.first().textContent()) ?? '').length >= 20, { timeout: 60_000 })
      .toBe(true);
    await shot(page, 'real-02-streaming');
    const partial =
      (await streaming
        .first()
        .textContent()
        .catch(() => null)) ?? '';

    await expect.poll(() => page.locator('[data-testid="agent-message"][data-done="true"]').count(), { timeout: 60_000 }).toBe(1);
    const final = await page.getByTestId('agent-message').last().textContent();
    expect(final).toBe('I looked through your folder one file at a time. Here is what I found: two notes and a plan.');
    expect(await page.getByTestId('agent-message').last().locator('strong').textContent()).toBe('what I found');
    expect(partial.length).toBeLessThan(final!.length);
    await expect.poll(() => page.getByTestId('chat-pane').getByTestId('enforcement-badge').textContent(), { timeout: 10_000 }).toMatch(/managed/i);
    await expect.poll(stateBadge(page), { timeout: 10_000 }).toBe('idle');
    expect(problems).toEqual([]);
  });

  it('asks before a command runs outside the sandbox, and runs it when allowed from the card', async () => {
    const target = join(w.inst.outside, 'escalated.txt');
    const cmd = `echo approved > ${target}`;
    w.inst.model.enqueue(
      { exec: { cmd, login: false, sandbox_permissions: 'require_escalated', justification: 'write the report next door' } },
      { message: 'Wrote the report outside.' },
    );
    await send(page, 'write the report outside');
    const card = pendingCard(page);
    await card.waitFor({ timeout: 60_000 });
    expect(await card.locator('.approval-title').textContent()).toContain('Run OUTSIDE the sandbox');
    // Codex shows the command as the shell runs it: `/bin/bash -c '<cmd>'`.
    expect(await card.getByTestId('approval-command').textContent()).toBe(`$ /bin/bash -c '${cmd}'`);
    expect(await card.locator('.approval-reason').textContent()).toBe('“write the report next door”');
    // What Codex offered for an escalation (availableDecisions), Deny always added (serverRequests.ts).
    expect(await offered(card)).toEqual(expect.arrayContaining(['approval-allow', 'approval-deny']));
    expect(await card.getByTestId('approval-allow').textContent()).toBe('Allow once');
    await expect.poll(stateBadge(page), { timeout: 10_000 }).toBe('needs you');
    expect(existsSync(target)).toBe(false);
    await shot(page, 'real-03-approval-command');

    const id = await card.getAttribute('data-approval-id');
    await card.getByTestId('approval-allow').click();
    const settled = page.locator(`[data-approval-id="${id}"]`);
    await expect.poll(() => settled.getByTestId('approval-status').textContent(), { timeout: 30_000 }).toBe('Allowed once — answered in the window');
    await expect.poll(lastAgent(page), { timeout: 60_000 }).toBe('Wrote the report outside.');
    expect(readFileSync(target, 'utf8')).toBe('approved\n');
    // On the wire: the command approval was answered with exactly `accept`.
    const reply = w.replies.find((r) => r.method === 'item/commandExecution/requestApproval');
    expect(reply?.result).toEqual({ decision: 'accept' });
    expect(w.orch.broker.all().find((a) => a.id === id)).toMatchObject({ kind: 'command', state: 'answered', answer: 'allow', by: 'window' });
    expect(problems).toEqual([]);
  });

  it('shows a folder request as a diff against the profile and grants it for this turn only', async () => {
    const { outside } = w.inst;
    const cwd = w.inst.cwd.demo!;
    const notes = join(cwd, 'notes');
    mkdirSync(notes, { recursive: true });
    const archive = join(w.inst.root, 'archive');
    mkdirSync(archive, { recursive: true });
    const target = join(outside, 'granted.txt');
    w.inst.model.enqueue(
      { requestPermissions: { reason: 'save the report next door', permissions: { file_system: { write: [outside, archive, notes] } } } },
      { exec: { cmd: `echo report > ${target}`, login: false } },
      { message: 'Saved the report.' },
    );
    await send(page, 'save a report outside');
    const card = pendingCard(page);
    await card.waitFor({ timeout: 60_000 });
    // The diff against the profile: what it adds (+), each one can be unchecked. A folder the agent can
    // already write is not granted again (it could swap it for a symbolic link after the answer): "=".
    const lines = await card.getByTestId('grant-option').allTextContents();
    expect(lines).toEqual([`+ write ${outside} (not in the profile)`, `+ write ${archive} (not in the profile)`]);
    expect(await card.getByTestId('approval-refused').textContent()).toBe(
      `= write ${notes} — already writable, not granted again: it lies in ${cwd} (the profile's folder)\n`,
    );
    // Offered: for this turn, for this session, Deny. The test grants for the turn.
    expect(await offered(card)).toEqual(['approval-allow', 'approval-allowForSession', 'approval-deny', 'deny-with-reason']);
    expect(await card.getByTestId('approval-allow').textContent()).toBe('Allow for this turn');
    expect(await card.getByTestId('approval-allowForSession').textContent()).toBe('Allow for this session');
    expect(await card.getByTestId('add-folder-link').allTextContents()).toEqual([`Add ${outside} to the demo profile…`, `Add ${archive} to the demo profile…`]);
    expect(await card.locator('.approval-reason').textContent()).toBe('“save the report next door”');
    await shot(page, 'real-04-permissions-diff');

    const id = await card.getAttribute('data-approval-id');
    await card.getByTestId('approval-allow').click();
    const settled = page.locator(`[data-approval-id="${id}"]`);
    await expect.poll(() => settled.getByTestId('approval-status').textContent(), { timeout: 30_000 }).toBe('Allowed for this turn — answered in the window');
    expect(await settled.getByTestId('approval-granted').textContent()).toBe(`Granted: write ${outside}, write ${archive}`);
    await expect.poll(lastAgent(page), { timeout: 60_000 }).toBe('Saved the report.');
    expect(readFileSync(target, 'utf8')).toBe('report\n');

    // On the wire: everything grantable, granted for the TURN (not the session); never the agent's own folder.
    const reply = w.replies.find((r) => r.method === 'item/permissions/requestApproval');
    expect(reply?.result).toMatchObject({ scope: 'turn', permissions: { fileSystem: { write: [outside, archive] } } });
    expect(JSON.stringify(reply?.result)).not.toContain(notes);
    expect(w.orch.broker.all().find((a) => a.id === id)).toMatchObject({
      kind: 'permissions',
      state: 'answered',
      answer: 'allow',
      by: 'window',
      granted: { write: [outside, archive] },
    });

    // After the turn the profile still does not have it: not in the table, not in force, and the next
    // turn's command cannot write there.
    expect(w.orch.profileViews().find((p) => p.name === 'demo')?.addDirs).toEqual([]);
    expect(readFileSync(w.inst.paths.tableFile, 'utf8')).not.toContain(outside);
    const later = join(outside, 'next-turn.txt');
    w.inst.model.enqueue({ exec: { cmd: `echo later > ${later}`, login: false } }, { message: 'That folder is closed again.' });
    await send(page, 'write there once more');
    await expect.poll(lastAgent(page), { timeout: 60_000 }).toBe('That folder is closed again.');
    expect(existsSync(later)).toBe(false);
    expect(
      w.orch
        .chat('demo')
        .transcript.all()
        .filter((i) => i.type === 'command')
        .at(-1),
    ).toMatchObject({ command: expect.stringContaining(later) as unknown, status: 'failed' });
    const refused = page.getByTestId('command-item').last();
    // Not granted, the folder is not in the sandbox at all (docs/security-model.md "Filesystem: private by default").
    expect(await refused.getByTestId('command-output').textContent()).toMatch(/Permission denied|Read-only file system|No such file or directory/);
    expect(await pendingCard(page).count()).toBe(0);
    await shot(page, 'real-05-grant-ended');
    expect(problems).toEqual([]);
  });

  it('starts a new session with /new and lists both in the sessions panel', async () => {
    await send(page, '/new');
    w.inst.model.enqueue({ message: 'A fresh start.' });
    await send(page, 'hello again');
    await expect.poll(lastAgent(page), { timeout: 60_000 }).toBe('A fresh start.');
    await expect.poll(() => page.getByTestId('session-label').textContent(), { timeout: 10_000 }).toBe('hello again');

    await page.getByTestId('sessions-button').click();
    const rows = page.getByTestId('session-row');
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(2);
    expect(await rows.nth(0).getAttribute('data-active')).toBe('true');
    expect(await rows.nth(0).locator('.session-label').textContent()).toBe('hello again');
    expect(await rows.nth(1).getAttribute('data-active')).toBe('false');
    expect(await rows.nth(1).locator('.session-label').textContent()).toBe('what is in my folder?');
    expect(await rows.nth(1).getByTestId('session-resume').textContent()).toBe('Resume');
    expect(w.orch.sessionViews('demo').map((s) => s.label)).toEqual(['hello again', 'what is in my folder?']);
    await shot(page, 'real-06-sessions');
    expect(problems).toEqual([]);
  });
});
