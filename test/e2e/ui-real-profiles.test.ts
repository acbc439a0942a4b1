/**
 * End to end on the real stack, profiles: the built renderer served by the headless host over the real
 * core (orchestrator + profile service), the real pinned Codex (0.169.0) in the real sandbox, and the
 * scripted model, driven in Chromium.
 *
 * - A folder added to a profile in the editor: the plan and the effective permission table show before
 *   Save; Save edits the table in place (its comments kept), keeps `<table>.bak`, accepts, compiles and
 *   shows the sandbox probes passing; an agent in a new chat of that profile can now write the folder
 *   (it could not before); the policy inspector shows the table in force, attested.
 * - The table changed on disk: the banner, the field diff, Accept; the core runs on the new value (a
 *   new chat's Codex asks the model with the new model id).
 * - A new profile created from the editor: folder, starter CLAUDE.md, table section, a chat, probes.
 *
 * Screenshots: test-results/screenshots/real-1*.png.
 */
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchReasons } from '../../src/main/core/launch/check';
import { gatherFacts } from '../../src/main/core/compile/gather';
import { compileCheck } from '../../src/main/core/compile/write';
import { loadAccepted } from '../../src/main/core/table/accepted';
import { sectionShot, shot, startRealWindow, type RealWindow } from '../fixtures/realWindow';

const TOP_COMMENT = '# My agents. Keep this comment: Angelia edits the table in place.\n';
const DEMO_COMMENT = '# demo keeps the notes — this comment stays too\n';

let w: RealWindow;
let page: Page;
let problems: string[];
/** The table as it was written before the window opened (comments included). */
let original: string;

beforeAll(async () => {
  w = await startRealWindow(
    { demo: { permission_mode: 'default' } },
    {
      // Comments in the table before Angelia first reads it: the first run accepts the table as it stands.
      async beforeStart(inst) {
        const text = await readFile(inst.paths.tableFile, 'utf8');
        expect(text).toContain('[profiles.demo]\n');
        await writeFile(inst.paths.tableFile, TOP_COMMENT + text.replace('[profiles.demo]\n', `[profiles.demo]\n${DEMO_COMMENT}`));
      },
    },
  );
  original = await readFile(w.inst.paths.tableFile, 'utf8');
  ({ page, problems } = await w.open(1100, 800));
});

afterAll(async () => {
  await w?.close();
});

const lastAgent = (p: Page) => () => p.getByTestId('agent-message').last().textContent();
const profileRow = (p: Page, name: string) => p.locator(`[data-testid="profile-row"][data-profile="${name}"]`);

/** Types `text` into the composer and sends it. */
async function send(p: Page, text: string): Promise<void> {
  await p.getByTestId('composer-input').fill(text);
  await p.getByTestId('send-button').click();
}

/** The command items of a chat as the core has them (its transcript). */
const commandsOf = (chatId: string) =>
  w.orch
    .chat(chatId)
    .transcript.all()
    .filter((i) => i.type === 'command');

/**
 * What the scripted model was sent, for a failure message: per model request, its answer's source and
 * step kind, and the tool outputs it carried (so a command Codex never ran shows why).
 */
function modelTrail(): string {
  return w.inst.model
    .modelRequests()
    .map((r, i) => {
      const input = Array.isArray(r.body?.input) ? r.body.input : [];
      const outputs = input
        .filter((it) => it.type === 'function_call_output' || it.type === 'custom_tool_call_output')
        .map((it) => JSON.stringify((it as { output?: unknown }).output).slice(0, 300));
      return `#${i} ${r.source} ${r.step ? Object.keys(r.step).join('+') : '-'} outputs=${outputs.join(' | ') || '-'}`;
    })
    .join('\n');
}

/** The probes under `scope` that failed, one line each ("name op path | expected | observed | FAIL"); a probe that did not run (its path does not exist) is not a failure. */
function failingProbes(scope: Locator): Promise<string[]> {
  return scope.locator('[data-testid="probe-row"][data-pass="false"]').evaluateAll((els) =>
    els.map((e) =>
      Array.from(e.querySelectorAll('td'))
        .map((td) => td.textContent)
        .join(' | '),
    ),
  );
}

/** Opens a new chat of `profile` from the side bar's "New chat" menu; returns its id. */
async function newChat(p: Page, profile: string): Promise<string> {
  const before = await p
    .getByTestId('chat-pane')
    .getAttribute('data-chat-id')
    .catch(() => null);
  await p.getByTestId('new-chat-button').click();
  await p.locator(`[data-testid="new-chat-profile"][data-profile="${profile}"]`).click();
  await expect.poll(() => p.getByTestId('chat-pane').getAttribute('data-chat-id'), { timeout: 10_000 }).not.toBe(before);
  return (await p.getByTestId('chat-pane').getAttribute('data-chat-id'))!;
}

describe('the window over real codex: profiles, the policy and the table', { timeout: 180_000 }, () => {
  it('adds a folder in the editor: plan before Save, then the table kept, backed up, accepted, compiled, probed, and in force', async () => {
    const { inst, orch } = w;
    const { tableFile } = inst.paths;
    const folder = join(inst.root, 'shared-notes');
    mkdirSync(folder);
    const beforeTarget = join(folder, 'before.txt');
    const afterTarget = join(folder, 'from-agent.txt');

    // Before: the demo agent cannot write the folder.
    inst.model.enqueue({ exec: { cmd: `echo before > ${beforeTarget}`, login: false } }, { message: 'That folder is not mine to write.' });
    await page.locator('[data-testid="chat-list-item"][data-chat-id="demo"]').click();
    await send(page, 'write into the shared notes');
    await expect.poll(lastAgent(page), { timeout: 60_000 }).toBe('That folder is not mine to write.');
    expect(
      commandsOf('demo'),
      `the demo chat's items: ${w.orch
        .chat('demo')
        .transcript.all()
        .map((i) => i.type)
        .join(', ')}\nmodel requests:\n${modelTrail()}`,
    ).toMatchObject([{ command: expect.stringContaining(beforeTarget) as unknown, status: 'failed' }]);
    expect(await page.getByTestId('command-item').last().getAttribute('data-status')).toBe('failed');
    expect(existsSync(beforeTarget)).toBe(false);

    // The editor, opened from the profile list.
    await profileRow(page, 'demo').getByTestId('profile-edit').click();
    await expect.poll(() => page.getByTestId('name-input').inputValue(), { timeout: 10_000 }).toBe('demo');
    expect(await page.getByTestId('editor-title').textContent()).toBe('Edit profile demo');
    expect(await page.getByTestId('cwd-input').inputValue()).toBe(inst.cwd.demo);
    expect(await page.locator('[data-testid="mode-option"][data-mode="default"] input').isChecked()).toBe(true);
    expect(await page.getByTestId('save-button').isDisabled()).toBe(true);
    await expect.poll(() => page.getByTestId('preview').getAttribute('data-waiting'), { timeout: 30_000 }).toBe('false');
    await shot(page, 'real-10-editor');

    // Add the folder: the plan and the effective permission table show what Save would do.
    await page.getByTestId('add-dirs-new').fill(folder);
    await page.getByTestId('add-dirs-add').click();
    expect(await page.getByTestId('add-dirs-input').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value))).toEqual([folder]);
    expect(await page.locator('[data-testid="draft-change"][data-field="add_dirs"]').textContent()).toBe(`add_dirs: [] → ["${folder}"]`);
    const entry = page.getByTestId('preview').locator(`[data-testid="policy-entry"][data-path="${folder}"]`);
    await entry.waitFor({ timeout: 30_000 });
    expect(await entry.getAttribute('data-access')).toBe('write');
    expect(await entry.getAttribute('data-origin')).toBe('add_dirs');
    await expect
      .poll(() => page.getByTestId('preview').getByTestId('plan-line').allTextContents(), { timeout: 30_000 })
      .toContain(`+ write ${folder} (add_dirs)`);
    await expect.poll(() => page.getByTestId('preview').getAttribute('data-waiting')).toBe('false');
    expect(await page.getByTestId('save-button').isDisabled()).toBe(false);
    // Nothing is written before Save.
    expect(await readFile(tableFile, 'utf8')).toBe(original);
    expect(existsSync(`${tableFile}.bak`)).toBe(false);
    await sectionShot(page, page.getByTestId('preview'), 'real-11-editor-plan');

    await page.getByTestId('save-button').click();
    const result = page.getByTestId('save-result');
    await result.waitFor({ timeout: 150_000 });
    expect(await page.getByTestId('save-status').textContent()).toBe('Saved.');
    expect(await result.locator('h3').textContent()).toBe('✓ Saved demo');
    expect(await result.getByTestId('save-backup').textContent()).toBe(`The previous table is kept as ${tableFile}.bak.`);
    expect(await result.getByTestId('save-plan').getByTestId('plan-line').allTextContents()).toContain(`+ write ${folder} (add_dirs)`);
    expect(await page.getByTestId('draft-changes').count()).toBe(0);
    await sectionShot(page, result, 'real-12-saved-probes');
    // The probes ran in the real sandbox with the new flags, and all behaved, the new folder's write
    // included. (Soft: a failing probe is reported by name and the rest of the flow still runs.)
    const rows = result.getByTestId('probe-row');
    expect(await rows.count()).toBeGreaterThan(3);
    expect.soft(await failingProbes(result)).toEqual([]);
    expect.soft(await result.getByTestId('probe-table').getAttribute('data-pass')).toBe('true');
    expect.soft(await result.getByTestId('probe-summary').textContent()).toMatch(/^All \d+ probes behaved as the profile says\. Codex 0\.171\.0\.$/);
    expect(await result.locator('[data-testid="probe-row"][data-pass="true"]', { hasText: `write ${folder}` }).count()).toBeGreaterThan(0);

    // On disk: edited in place (both comments kept, one key added), the previous text as <table>.bak,
    // and the new text accepted.
    const written = await readFile(tableFile, 'utf8');
    expect(written).toBe(original.replace('permission_mode = "default"\n', `permission_mode = "default"\nadd_dirs = ["${folder}"]\n`));
    expect(written).toContain(TOP_COMMENT);
    expect(written).toContain(DEMO_COMMENT);
    expect(await readFile(`${tableFile}.bak`, 'utf8')).toBe(original);
    expect(statSync(`${tableFile}.bak`).mode & 0o777).toBe(0o600);
    expect(await readFile(inst.paths.acceptedTable, 'utf8')).toBe(written);
    // Compiled: `compile --check` finds nothing to write for the accepted table, the launch guard lets
    // the profile start, and the Codex argv it compiles to gives the folder write access.
    const { table } = await loadAccepted(inst.paths, { home: inst.paths.home, env: inst.env });
    expect(table.profiles.demo?.addDirs).toEqual([folder]);
    expect((await compileCheck(table, ['demo'], await gatherFacts(inst.paths))).map((c) => c.status)).toEqual(['up to date']);
    expect(await launchReasons(inst.paths.stateDir, { name: 'demo', cwd: inst.cwd.demo!, backend: 'codex', sandbox: true, permissionMode: 'default' })).toEqual(
      [],
    );
    expect(orch.profileViews().find((p) => p.name === 'demo')?.addDirs).toEqual([folder]);
    // The editor's preview now answers for the saved table.
    await expect
      .poll(() => page.getByTestId('preview').getByTestId('plan-line').allTextContents(), { timeout: 30_000 })
      .not.toContain(`+ write ${folder} (add_dirs)`);

    // A new chat of the profile starts a new Codex on the saved profile: the agent can write there now.
    await page.getByTestId('editor-close').click();
    const chatId = await newChat(page, 'demo');
    expect(chatId).toBe('demo-2');
    inst.model.enqueue({ exec: { cmd: `echo from-agent > ${afterTarget}`, login: false } }, { message: 'Wrote it into the shared notes.' });
    await send(page, 'now write into the shared notes');
    await expect.poll(lastAgent(page), { timeout: 60_000 }).toBe('Wrote it into the shared notes.');
    expect(commandsOf(chatId)).toMatchObject([{ command: expect.stringContaining(afterTarget) as unknown, status: 'completed', exitCode: 0 }]);
    expect(await page.getByTestId('command-item').last().getAttribute('data-status')).toBe('completed');
    expect(readFileSync(afterTarget, 'utf8')).toBe('from-agent\n');
    await shot(page, 'real-13-agent-writes-new-folder');

    // The policy inspector: the table in force, attested against the Codex that ran the turn.
    await profileRow(page, 'demo').getByTestId('profile-policy').click();
    const inspector = page.getByTestId('policy-inspector');
    await expect.poll(() => inspector.getByTestId('attestation').getAttribute('data-attested'), { timeout: 30_000 }).toBe('true');
    expect(await inspector.getByTestId('attestation').textContent()).toContain('Attested against Codex 0.171.0');
    // Each running chat with its own attestation: demo-2 started on the saved table; demo (if its Codex
    // still runs) keeps the grants it was started with and is marked "profile changed".
    const started = inspector.locator('[data-testid="running-attestation"][data-chat-id="demo-2"]');
    expect(await started.getByTestId('enforcement-badge').textContent()).toMatch(/managed/i);
    expect(await started.getByTestId('running-table-changed').count()).toBe(0);
    const older = inspector.locator('[data-testid="running-attestation"][data-chat-id="demo"]');
    if (await older.count()) expect(await older.getByTestId('running-table-changed').textContent()).toContain('profile changed: restart this chat to apply');
    const inForce = inspector.locator(`[data-testid="policy-entry"][data-path="${folder}"]`);
    expect(await inForce.getAttribute('data-access')).toBe('write');
    expect(await inForce.getAttribute('data-origin')).toBe('add_dirs');
    expect(await inspector.locator(`[data-testid="policy-entry"][data-path="${inst.secret}"]`).getAttribute('data-access')).toBe('deny');
    expect(await inspector.locator('.policy-table pre').textContent()).toContain(`"${folder}" = "write"`);
    // The probes of the save are shown here too.
    expect(await inspector.getByTestId('probe-row').count()).toBe(await page.getByTestId('probe-row').count());
    expect.soft(await failingProbes(inspector)).toEqual([]);
    await shot(page, 'real-14-policy-inspector');
    expect(problems).toEqual([]);
  });

  it('reviews a table changed on disk in the window and accepts it: new starts run on the new value', async () => {
    const { inst, orch } = w;
    const { tableFile } = inst.paths;
    await page.getByTestId('policy-close').click();
    expect(await page.getByTestId('table-banner').count()).toBe(0);
    const { models } = await orch.api().handlers['models:list']({ profile: 'demo' });
    const other = models.find((m) => !m.isDefault && m.id !== 'gpt-5.5')?.id;
    expect(other).toBeTruthy();

    // Someone edits the table by hand: a model for demo.
    const accepted = await readFile(tableFile, 'utf8');
    const edited = accepted.replace('permission_mode = "default"\n', `permission_mode = "default"\nmodel = "${other}"\n`);
    expect(edited).not.toBe(accepted);
    await writeFile(tableFile, edited);

    const banner = page.getByTestId('table-banner');
    await banner.waitFor({ timeout: 30_000 });
    await expect.poll(() => banner.textContent()).toContain('The table changed on disk: 1 change waits for your review.');
    // Until accepted, the core runs on the accepted table.
    expect(orch.profileViews().find((p) => p.name === 'demo')?.model).toBeNull();
    await shot(page, 'real-15-table-banner');

    await banner.getByTestId('table-review').click();
    const change = page.getByTestId('table-change');
    await expect.poll(() => change.count(), { timeout: 10_000 }).toBe(1);
    expect(await change.getAttribute('data-path')).toBe('profiles.demo.model');
    expect(await change.getAttribute('data-kind')).toBe('added');
    expect(await change.locator('.change-values').textContent()).toBe(`"${other}"`);
    await shot(page, 'real-16-table-review');

    await page.getByTestId('table-accept').click();
    await page.getByTestId('table-same').waitFor({ timeout: 30_000 });
    await expect.poll(() => banner.count(), { timeout: 10_000 }).toBe(0);
    // The core: the new table is the accepted one, and it is in force.
    expect(await readFile(inst.paths.acceptedTable, 'utf8')).toBe(edited);
    expect(await orch.api().handlers['table:changes']({})).toMatchObject({ differs: false, changes: [], error: null });
    expect(orch.profileViews().find((p) => p.name === 'demo')?.model).toBe(other);
    expect(await readFile(tableFile, 'utf8')).toBe(edited);

    // A new start runs on it: a new chat's Codex asks the model with the new model id.
    await page.getByTestId('table-close').click();
    const chatId = await newChat(page, 'demo');
    inst.model.enqueue({ message: `Running on ${other}.` });
    await send(page, 'which model are you?');
    await expect.poll(lastAgent(page), { timeout: 60_000 }).toBe(`Running on ${other}.`);
    expect((inst.model.modelRequests().at(-1)?.body as { model?: string }).model).toBe(other);
    await expect.poll(() => orch.chatViews().find((c) => c.id === chatId)?.model, { timeout: 10_000 }).toBe(other);
    expect(problems).toEqual([]);
  });

  it('creates a new profile from the editor: folder, starter CLAUDE.md, table section, chat and probes', async () => {
    const { inst, orch } = w;
    const { tableFile } = inst.paths;
    const cwd = join(inst.root, 'work', 'scribe');
    const before = await readFile(tableFile, 'utf8');

    await page.getByTestId('new-profile-button').click();
    expect(await page.getByTestId('editor-title').textContent()).toBe('New profile');
    expect(await page.getByTestId('starter-check').isChecked()).toBe(true);
    await page.getByTestId('name-input').fill('scribe');
    await page.getByTestId('cwd-input').fill(cwd);
    await page.locator('[data-testid="mode-option"][data-mode="acceptEdits"]').click();
    const plan = page.getByTestId('preview').getByTestId('plan-line');
    await expect.poll(() => plan.allTextContents(), { timeout: 30_000 }).toContain(`+ folder ${cwd} (mode 700)`);
    await expect
      .poll(() => page.getByTestId('preview').locator(`[data-testid="policy-entry"][data-path="${cwd}"]`).getAttribute('data-access'), { timeout: 30_000 })
      .toBe('write');
    expect(existsSync(cwd)).toBe(false);
    expect(await readFile(tableFile, 'utf8')).toBe(before);
    await shot(page, 'real-17-new-profile');

    await page.getByTestId('save-button').click();
    const result = page.getByTestId('save-result');
    await result.waitFor({ timeout: 150_000 });
    expect(await result.locator('h3').textContent()).toBe('✓ Created scribe');
    expect.soft(await failingProbes(result)).toEqual([]);
    await profileRow(page, 'scribe').waitFor({ timeout: 10_000 });
    await page.locator('[data-testid="chat-list-item"][data-chat-id="scribe"]').waitFor({ timeout: 10_000 });
    expect(await page.getByTestId('editor-title').textContent()).toBe('Edit profile scribe');
    await sectionShot(page, result, 'real-18-new-profile-created');

    expect(statSync(cwd).mode & 0o777).toBe(0o700);
    expect(readFileSync(join(cwd, 'CLAUDE.md'), 'utf8').startsWith('# scribe\n')).toBe(true);
    const written = await readFile(tableFile, 'utf8');
    expect(written).toBe(`${before}\n[profiles.scribe]\ncwd = "${cwd}"\npermission_mode = "acceptEdits"\n`);
    expect(written).toContain(TOP_COMMENT);
    expect(await readFile(`${tableFile}.bak`, 'utf8')).toBe(before);
    expect(await launchReasons(inst.paths.stateDir, { name: 'scribe', cwd, backend: 'codex', sandbox: true, permissionMode: 'default' })).toEqual([]);
    expect(orch.profileViews().map((p) => p.name)).toEqual(['demo', 'scribe']);
    expect(orch.chatViews().map((c) => c.id)).toContain('scribe');
    expect(problems).toEqual([]);
  });
});
