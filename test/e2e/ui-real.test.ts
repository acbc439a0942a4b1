/**
 * End to end on the real stack: the built renderer served by the headless host over the real core
 * (orchestrator), the real pinned Codex in the real sandbox, and the scripted model. Screenshots go to
 * test-results/screenshots/ (real-*.png).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Orchestrator } from '../../src/main/core/chats/orchestrator';
import { startCodexClient } from '../../src/main/core/codex/start';
import { memoryAudit } from '../../src/main/core/approvals/audit';
import { startHost, type RunningHost } from '../../src/main/host/server';
import { makeInstance, type TestInstance } from '../fixtures/instance';

const ROOT = resolve(__dirname, '../..');
const RENDERER = join(ROOT, 'out/renderer');
const SHOTS = join(ROOT, 'test-results/screenshots');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

let browser: Browser;
let inst: TestInstance;
let orch: Orchestrator;
let host: RunningHost;

beforeAll(async () => {
  if (!existsSync(join(RENDERER, 'index.html'))) throw new Error('The built renderer is missing: run `npx electron-vite build` first (`npm test` does).');
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install -y chromium, or set CHROMIUM_PATH.`);
  mkdirSync(SHOTS, { recursive: true });
  inst = await makeInstance({ demo: { permission_mode: 'default' } });
  orch = await Orchestrator.create({ paths: inst.paths, env: inst.env, startCodex: startCodexClient, audit: memoryAudit() });
  host = await startHost({ core: orch.api(), rendererDir: RENDERER });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--headless', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic'],
  });
});

afterAll(async () => {
  await browser?.close();
  await host?.close();
  await orch?.shutdown();
  await inst?.cleanup();
});

describe('the window over real codex', () => {
  it('streams an answer, runs a command in the sandbox and takes a folder grant from the approval card', async () => {
    const target = join(inst.outside, 'granted.txt');
    inst.model.enqueue(
      { message: 'Here is **what I found** in your folder.', chunks: 5, delayMs: 20 },
    );
    const page = await browser.newPage({ viewport: { width: 420, height: 760 } });
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(host.url);
    await page.getByTestId('chat-list-item').first().click();
    await page.getByTestId('composer-input').fill('what is in my folder?');
    await page.getByTestId('send-button').click();
    await expect.poll(() => page.getByTestId('agent-message').last().textContent(), { timeout: 60_000 }).toContain('what I found');
    await expect.poll(() => page.getByTestId('enforcement-badge').first().textContent(), { timeout: 10_000 }).toMatch(/managed/i);
    await page.screenshot({ path: join(SHOTS, 'real-01-answer.png') });

    inst.model.enqueue(
      { exec: { cmd: 'echo sandboxed-run && pwd', login: false } },
      { requestPermissions: { reason: 'save the report next door', permissions: { file_system: { write: [inst.outside] } } } },
      { exec: { cmd: `echo report > ${target}`, login: false } },
      { message: 'Saved the report.' },
    );
    await page.getByTestId('composer-input').fill('save a report outside');
    await page.getByTestId('send-button').click();
    const card = page.getByTestId('approval-card').last();
    await card.waitFor({ timeout: 60_000 });
    expect(await card.textContent()).toContain(`+ write ${inst.outside}`);
    await expect.poll(() => page.getByTestId('command-output').first().textContent(), { timeout: 10_000 }).toContain('sandboxed-run');
    await page.screenshot({ path: join(SHOTS, 'real-02-approval.png') });
    await card.getByTestId('approval-allow').click();
    await expect.poll(() => page.getByTestId('agent-message').last().textContent(), { timeout: 60_000 }).toContain('Saved the report.');
    expect(existsSync(target)).toBe(true);
    expect(orch.broker.all().at(-1)).toMatchObject({ kind: 'permissions', state: 'answered', answer: 'allow', by: 'window' });
    await page.screenshot({ path: join(SHOTS, 'real-03-granted.png'), fullPage: true });
    expect(problems).toEqual([]);
  });
});
