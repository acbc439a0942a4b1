/**
 * End to end on the real stack, an agent's question: the built renderer served by the headless host
 * over the real core, the real pinned Codex (0.169.0) and the scripted model, driven in Chromium. The
 * model calls `request_user_input`; the question card shows in the chat; the answer typed in the
 * window (another answer than the options offered) is what the model's next request carries
 * (`function_call_output` of that call: `{"answers":{<id>:{"answers":[…]}}}`, measured). Codex 0.169.0
 * answers the tool "unavailable in Default mode" unless its feature `default_mode_request_user_input` is
 * on: the compile turns it on for a profile whose mode asks the person (permission_mode default here).
 * Screenshots: test-results/screenshots/real-questions-*.png.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shot, startRealWindow, type RealWindow } from '../fixtures/realWindow';

let w: RealWindow;
let page: Page;
let problems: string[];

beforeAll(async () => {
  w = await startRealWindow({ demo: { permission_mode: 'default' } });
  ({ page, problems } = await w.open(420, 900));
});

afterAll(async () => {
  await w?.close();
});

/** The output Codex sent the model for call `callId` (a `function_call_output` of a later request), or undefined. */
function outputFor(callId: string): string | undefined {
  for (const r of w.inst.model.modelRequests()) {
    const item = (r.body?.input ?? []).find((i) => i.type === 'function_call_output' && i.call_id === callId);
    if (item) return typeof item.output === 'string' ? item.output : JSON.stringify(item.output);
  }
  return undefined;
}

describe('the window over real codex: an agent asks', { timeout: 120_000 }, () => {
  it("the answer typed in the question card reaches the model's next request", async () => {
    w.inst.model.enqueue(
      {
        functionCall: {
          name: 'request_user_input',
          arguments: {
            questions: [
              {
                id: 'target',
                header: 'Target',
                question: 'Which environment should I deploy to?',
                options: [
                  { label: 'staging (Recommended)', description: 'The test cluster: safe to break.' },
                  { label: 'production', description: 'Live traffic.' },
                ],
              },
            ],
          },
        },
      },
      { message: 'Deploying to the environment you chose.' },
    );
    await page.getByTestId('chat-list-item').first().click();
    await page.getByTestId('composer-input').fill('deploy the site');
    await page.getByTestId('send-button').click();

    const card = page.locator('[data-testid="question-card"][data-state="pending"]');
    await card.waitFor({ timeout: 60_000 });
    expect(await card.getByTestId('question-option').allTextContents()).toEqual([
      'staging (Recommended)The test cluster: safe to break.',
      'productionLive traffic.',
    ]);
    // Codex adds "Other" to every question with options (isOther), so another answer can be typed.
    await card.getByTestId('question-input').fill('canary');
    await shot(page, 'real-questions-01-pending');
    await card.getByTestId('question-allow').click();

    const settled = page.locator('[data-testid="question-card"][data-state="answered"]');
    await settled.waitFor({ timeout: 30_000 });
    expect(await settled.getByTestId('question-given-answer').allTextContents()).toEqual(['canary']);
    expect(await settled.getByTestId('approval-status').textContent()).toBe('Answered — answered in the window');

    const callId = w.inst.model.modelRequests().find((r) => r.step && 'functionCall' in r.step)?.callIds[0];
    expect(callId).toBeTruthy();
    await expect.poll(() => outputFor(callId ?? ''), { timeout: 60_000 }).toBeDefined();
    expect(JSON.parse(outputFor(callId ?? '') ?? 'null')).toEqual({ answers: { target: { answers: ['canary'] } } });
    await expect.poll(() => page.getByTestId('agent-message').last().textContent(), { timeout: 60_000 }).toBe('Deploying to the environment you chose.');
    await shot(page, 'real-questions-02-answered');
    expect(problems).toEqual([]);
  });
});
