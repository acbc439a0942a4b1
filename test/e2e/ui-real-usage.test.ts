/**
 * End to end on the real stack, what the agents cost: the built renderer served by the headless host over
 * the real core, real codex 0.169.0 and the scripted model, driven in Chromium. One turn's model reply
 * carries rate-limit headers (5 h window at 42 %, resetting in 2 h; the week at 7 %) and token counts:
 * the header's meter and the account screen show 42 % and the reset, and the composer's context meter
 * shows the percent of the model's context window the turn's input took, as Codex reported both (read
 * back from the core's ChatView.usage). Then a 429 `usage_limit_reached`: the chat shows "paused until
 * <time>" and a message sent meanwhile stays queued. The clock words come from src/shared/usageText.ts,
 * in UTC (this test sets TZ before Chromium starts, and checks the page runs in it). Screenshots go to
 * test-results/screenshots/real-usage-*.png. Run `npx electron-vite build` first (`npm test` does).
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimitHeaders } from '../../src/main/demo/scriptedModel';
import { contextShown } from '../../src/renderer/src/features/usage/describe';
import { pausedText, resetsText } from '../../src/shared/usageText';
import { shot, SHOTS, startRealWindow, type RealWindow } from '../fixtures/realWindow';
import { until } from '../fixtures/until';

// Before Chromium starts: it inherits the zone, so the page and this test say the same clock time.
process.env.TZ = 'UTC';

let w: RealWindow;
let page: Page;
let problems: string[];

beforeAll(async () => {
  w = await startRealWindow({ demo: {} });
  ({ page, problems } = await w.open(1100, 700));
});

afterAll(async () => {
  await w?.close();
});

const HOUR = 3600;
const text = (testId: string) => () => page.getByTestId(testId).first().textContent();
const lastAgent = () => page.getByTestId('agent-message').last().textContent();

/** Types `text` into the composer and sends it. */
async function send(t: string): Promise<void> {
  await page.getByTestId('composer-input').fill(t);
  await page.getByTestId('send-button').click();
}

/**
 * Every "resets in …" a window resetting at `resetsAt` (ISO) can show when seen between `from` and
 * `to` (epoch ms): the page's clock is read when it renders, somewhere in that span.
 */
function resetsBetween(resetsAt: string, from: number, to: number): string[] {
  const out = new Set<string>();
  for (let t = from; t < to + 1000; t += 1000) out.add(resetsText(resetsAt, new Date(Math.min(t, to))) ?? '');
  return [...out];
}

describe('what the agents cost, in the window over real codex', { timeout: 180_000 }, () => {
  it('shows the rate limits and the context Codex reported from the model reply', async () => {
    expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toMatch(/^(UTC|Etc\/UTC)$/);
    await page.getByTestId('chat-list-item').first().click();
    // A first turn starts Codex, so the timed one below is not slowed by the start.
    w.inst.model.enqueue({ message: 'Ready.' });
    await send('hello');
    await expect.poll(lastAgent, { timeout: 60_000 }).toBe('Ready.');

    const from = Date.now();
    const sentAt = Math.floor(from / 1000);
    const primaryReset = new Date((sentAt + 2 * HOUR) * 1000).toISOString();
    const weeklyReset = new Date((sentAt + (3 * 24 + 4) * HOUR) * 1000).toISOString();
    const headers = rateLimitHeaders({
      primary: { usedPercent: 42, windowMinutes: 300, resetsAt: sentAt + 2 * HOUR },
      secondary: { usedPercent: 7, windowMinutes: 10080, resetsAt: sentAt + (3 * 24 + 4) * HOUR },
    });
    w.inst.model.enqueue({ withHeaders: headers, step: { withUsage: { input: 123_456, output: 789 }, step: { message: 'Counted.' } } });
    await send('count this');
    await expect.poll(lastAgent, { timeout: 60_000 }).toBe('Counted.');

    // What the core says Codex reported: the turn's tokens and the model's context window.
    const usage = await until('the chat has the turn’s usage', () => {
      const u = w.orch.chat('demo').view().usage;
      return u?.lastTurn?.input === 123_456 ? u : null;
    });
    const window = usage.lastTurn?.contextWindow;
    expect(window).toEqual(expect.any(Number));
    expect(usage.contextPercent).toBeCloseTo((123_456 / (window as number)) * 100, 1);
    // Codex sends the rate limits in their own notification, not ordered with the token usage: waited for.
    const limits = async () => (await w.orch.api().handlers['usage:read']({}))[0]?.rateLimits;
    await expect.poll(limits, { timeout: 10_000 }).toEqual({
      primary: { usedPercent: 42, windowMinutes: 300, resetsAt: primaryReset },
      secondary: { usedPercent: 7, windowMinutes: 10080, resetsAt: weeklyReset },
    });

    // The header: the fullest window (5 h, 42 %), each window with its reset in the tooltip.
    await expect.poll(text('usage-meter-value'), { timeout: 10_000 }).toBe('42 %');
    const meter = page.getByTestId('usage-meter');
    expect(await meter.getAttribute('data-level')).toBe('ok');
    const title = (await meter.getAttribute('title')) ?? '';
    const to = Date.now();
    const [primaryLine, weeklyLine] = title.split('\n').slice(1);
    expect(resetsBetween(primaryReset, from, to).map((r) => `5 h: 42 % used · ${r}`)).toContain(primaryLine);
    expect(resetsBetween(weeklyReset, from, to).map((r) => `week: 7 % used · ${r}`)).toContain(weeklyLine);
    expect(primaryLine).toMatch(/^5 h: 42 % used · resets in (2 h|1 h 5\d min)$/);

    // The composer: the percent of the context window the turn's input took, and the tokens.
    const shown = contextShown(usage);
    const percent = Math.round(usage.contextPercent as number);
    expect(percent).toBeGreaterThan(0);
    expect(shown?.label).toBe(`context ${percent} %`);
    await expect.poll(text('context-percent'), { timeout: 10_000 }).toBe(`context ${percent} %`);
    expect(await page.getByTestId('context-tokens').textContent()).toBe(shown?.tokens);
    expect(shown?.tokens).toMatch(/^turn 124(\.\d)?k · session \d+(\.\d)?k tokens$/);
    expect(await page.getByTestId('context-meter').getAttribute('title')).toBe(shown?.detail);
    await shot(page, 'real-usage-01-meters');

    // The account screen lists every window with its reset.
    await page.getByTestId('account-chip').click();
    await page.getByTestId('sign-in-panel').waitFor();
    const rows = page.getByTestId('usage-row');
    await expect.poll(() => rows.count()).toBe(2);
    const seen = Date.now();
    expect(await rows.nth(0).getAttribute('data-slot')).toBe('primary');
    expect(await rows.nth(0).locator('.meter-name').textContent()).toBe('5 h');
    expect(await rows.nth(0).locator('.meter-value').textContent()).toBe('42 % used');
    expect(resetsBetween(primaryReset, from, seen)).toContain(await rows.nth(0).locator('.meta').textContent());
    expect(await rows.nth(1).locator('.meter-name').textContent()).toBe('week');
    expect(await rows.nth(1).locator('.meter-value').textContent()).toBe('7 % used');
    expect(resetsBetween(weeklyReset, from, seen)).toContain(await rows.nth(1).locator('.meta').textContent());
    await shot(page, 'real-usage-02-account');
    expect(problems).toEqual([]);
  });

  it('a usage limit shows "paused until" in the chat, and what is sent meanwhile waits', async () => {
    await page.getByTestId('sign-in-close').click();
    await page.getByTestId('chat-list-item').first().click();
    await page.getByTestId('composer-input').waitFor();
    const resetsAt = Math.floor(Date.now() / 1000) + HOUR;
    const pausedUntil = new Date(resetsAt * 1000).toISOString();
    w.inst.model.enqueue({
      httpError: {
        status: 429,
        body: { error: { type: 'usage_limit_reached', message: 'limit', plan_type: 'plus', resets_at: resetsAt } },
        headers: rateLimitHeaders({ primary: { usedPercent: 100, windowMinutes: 300, resetsAt } }),
      },
    });
    await send('one more');
    await until('the chat is paused', () => w.orch.chat('demo').view().pausedUntil === pausedUntil);

    // The words and the clock the window uses (src/shared/usageText.ts), in UTC.
    const expected = pausedText(pausedUntil, new Date());
    expect(expected).toMatch(new RegExp(`^paused until (\\w{3} )?${pausedUntil.slice(11, 16)}$`));
    const inChat = page.getByTestId('chat-pane').getByTestId('paused-until');
    await expect.poll(() => inChat.textContent().catch(() => null), { timeout: 10_000 }).toBe(expected);
    const row = page.getByTestId('chat-list-item').first();
    expect(await row.getByTestId('paused-until').textContent()).toBe(expected);
    await expect.poll(text('usage-meter-value'), { timeout: 10_000 }).toBe('100 %');
    expect(await page.getByTestId('usage-meter').getAttribute('data-level')).toBe('high');

    // The composer still takes a message; it waits for the reset and nothing reaches the model.
    const sent = w.inst.model.modelRequests().length;
    expect(await page.getByTestId('composer-input').isDisabled()).toBe(false);
    await send('after the reset, please');
    await until('the message is queued', () => w.orch.chat('demo').view().queued === 1);
    expect(w.inst.model.modelRequests().length).toBe(sent);
    // The line under the composer says it waits for the reset (no turn runs that it could wait for).
    await expect.poll(text('composer-queued'), { timeout: 10_000 }).toBe(`1 queued — it goes in when the usage limit resets (${expected}).`);
    await shot(page, 'real-usage-03-paused');
    await page.getByTestId('account-chip').screenshot({ path: join(SHOTS, 'real-usage-04-meter-full.png') });
    // At 100 % (bold), squeezed beside "+ New chat", the percent stays whole inside the chip's padding.
    const fit = await page.getByTestId('account-chip').evaluate((chip) => {
      const value = chip.querySelector('[data-testid="usage-meter-value"]')?.getBoundingClientRect();
      return value ? chip.getBoundingClientRect().right - parseFloat(getComputedStyle(chip).paddingRight) - value.right : -1;
    });
    expect(fit).toBeGreaterThanOrEqual(0);
    expect(problems).toEqual([]);
  });
});
