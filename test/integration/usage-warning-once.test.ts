/**
 * The 90 % usage warning comes once per crossing of a window, whatever the reset time says: a provider
 * whose `x-codex-primary-reset-at` moves by one second at every response (a rolling window, or a hostile
 * provider) must not raise one warning, one native notification, per model request
 * (core/usage/limits.ts `warningsFor`). Real codex 0.169.0, scripted model: one turn of 8 commands,
 * every response at 95 % with a reset one second later than the previous one: one warning.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { AppEvent } from '../../src/shared/contract';
import { Orchestrator } from '../../src/main/core/chats/orchestrator';
import { startCodexClient } from '../../src/main/core/codex/start';
import { rateLimitHeaders, type Step } from '../../src/main/demo/scriptedModel';
import { makeInstance, turnOn, type TestInstance } from '../fixtures/instance';

let inst: TestInstance | null = null;
let orch: Orchestrator | null = null;
afterEach(async () => {
  await orch?.shutdown();
  orch = null;
  await inst?.cleanup();
  inst = null;
});

describe('usage warning flood (real codex)', () => {
  it('one window at 95 % gives at most one usage:warning, whatever the reset second says', async () => {
    inst = await makeInstance({ one: {} }, { privateHome: true });
    orch = await Orchestrator.create({ paths: inst.paths, env: inst.env, startCodex: startCodexClient, watchTable: false });
    const events: AppEvent[] = [];
    orch.subscribe((e) => events.push(e));
    const base = Math.floor(Date.now() / 1000) + 3600;
    const steps: Step[] = [];
    for (let i = 0; i < 8; i++) {
      steps.push({
        withHeaders: rateLimitHeaders({ primary: { usedPercent: 95, windowMinutes: 300, resetsAt: base + i } }),
        step: { exec: { cmd: 'true', login: false } },
      });
    }
    steps.push({ withHeaders: rateLimitHeaders({ primary: { usedPercent: 95, windowMinutes: 300, resetsAt: base + 8 } }), step: { message: 'done' } });
    inst.model.enqueue(...steps);
    await turnOn(orch, 'one', 'work');
    const warnings = events.filter((e) => e.event === 'usage:warning');
    expect(warnings.length).toBeLessThanOrEqual(1);
  });
});
