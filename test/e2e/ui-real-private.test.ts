/**
 * End to end on the real stack (built renderer, headless host, orchestrator, real pinned Codex 0.169.0
 * in the real sandbox, scripted model, Chromium): the agent asks to read and write Angelia's state
 * folder and one outside folder. The card lists `<state>` as never granted and offers only the outside
 * folder; the user clicks Allow; Codex receives a grant without `<state>`, and the agent's next command
 * can neither read the owner token (`<state>/private/api.token`) nor plant a file in `<state>`. Screenshot:
 * test-results/screenshots/real-private-01-card.png.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
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

describe('the window over real codex: a request for private state', { timeout: 120_000 }, () => {
  it('shows <state> as never granted, and Allow grants only the outside folder', async () => {
    const { outside, paths } = w.inst;
    const state = paths.stateDir;
    const target = join(outside, 'report.txt');
    const probe = [
      `echo planted > '${join(state, 'planted.txt')}' && echo PLANTED`,
      `cat '${paths.apiToken}' && echo TOKEN-READ`,
      `echo report > '${target}' && echo REPORT-WRITTEN`,
      'exit 0',
    ].join('; ');
    w.inst.model.enqueue(
      { requestPermissions: { reason: 'read the chats and save the report', permissions: { file_system: { read: [state], write: [state, outside] } } } },
      { exec: { cmd: probe, login: false } },
      { message: 'Saved the report.' },
    );
    await page.getByTestId('chat-list-item').first().click();
    await page.getByTestId('composer-input').fill('save a report');
    await page.getByTestId('send-button').click();
    const card = page.locator('[data-testid="approval-card"][data-state="pending"]');
    await card.waitFor({ timeout: 60_000 });

    expect(await card.locator('.approval-title').textContent()).toContain(`never granted: write ${state}, read ${state}`);
    // What can be granted: the outside folder only (one entry: no checkboxes); what never is: listed apart.
    expect(await card.getByTestId('approval-access').textContent()).toBe(`+ write ${outside} (not in the profile)\n`);
    expect(await card.getByTestId('approval-refused').textContent()).toBe(
      `✗ write ${state} — never granted: Angelia's private state\n✗ read ${state} — never granted: Angelia's private state\n`,
    );
    // No "Add … to the profile" link for the state folder.
    expect(await card.getByTestId('add-folder-link').allTextContents()).toEqual([`Add ${outside} to the demo profile…`]);
    await shot(page, 'real-private-01-card');

    const id = await card.getAttribute('data-approval-id');
    await card.getByTestId('approval-allow').click();
    const settled = page.locator(`[data-approval-id="${id}"]`);
    await expect.poll(() => settled.getByTestId('approval-status').textContent(), { timeout: 30_000 }).toBe('Allowed for this turn — answered in the window');
    expect(await settled.getByTestId('approval-granted').textContent()).toBe(`Granted: write ${outside}`);
    await expect.poll(lastAgent(page), { timeout: 60_000 }).toBe('Saved the report.');

    // On the wire: Codex asked for <state> and received a grant without it.
    const reply = w.replies.find((r) => r.method === 'item/permissions/requestApproval');
    expect(reply?.result).toMatchObject({ scope: 'turn', permissions: { fileSystem: { write: [outside] } } });
    expect(JSON.stringify(reply?.result)).not.toContain(state);
    // The agent's next command: the report is written; the token is not read; nothing is planted in <state>
    // (checked on the host: <state> is not granted, so a write there lands in the sandbox's own in-memory
    // root and vanishes with the command; docs/security-model.md "Filesystem: private by default").
    const cmd = w.orch
      .chat('demo')
      .transcript.all()
      .filter((i) => i.type === 'command')
      .at(-1);
    const output = cmd?.type === 'command' ? cmd.output : '';
    expect(output).toContain('REPORT-WRITTEN');
    expect(output).not.toMatch(/TOKEN-READ/);
    expect(output).not.toContain(readFileSync(paths.apiToken, 'utf8').trim());
    expect(readFileSync(target, 'utf8')).toBe('report\n');
    expect(existsSync(join(state, 'planted.txt'))).toBe(false);
    expect(problems).toEqual([]);
  });
});
