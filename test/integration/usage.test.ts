/**
 * Usage and rate limits on real codex 0.169.0 with the scripted model sending rate-limit headers
 * (`x-codex-primary-used-percent`, `-window-minutes`, `-reset-at`, …: scriptedSteps.ts `rateLimitHeaders`):
 * the numbers reach ChatView.usage, `usage:read` and `usage:updated`, and `angelia run --json`'s usage
 * line; an HTTP 429 `usage_limit_reached` pauses every chat of the Codex home, nothing queued is sent
 * (the scripted model's requests are counted), and the pause lifts at the reset.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppEvent } from '../../src/shared/contract';
import { Orchestrator } from '../../src/main/core/chats/orchestrator';
import { startCodexClient } from '../../src/main/core/codex/start';
import { rateLimitHeaders } from '../../src/main/demo/scriptedModel';
import { REPO_ROOT } from '../core/instance/testDir';
import { makeInstance, turnOn, type TestInstance } from '../fixtures/instance';
import { until } from '../fixtures/until';

let inst: TestInstance | null = null;
let orch: Orchestrator | null = null;
afterEach(async () => {
  await orch?.shutdown();
  orch = null;
  await inst?.cleanup();
  inst = null;
});

const nowSec = (): number => Math.floor(Date.now() / 1000);

async function start(profiles: string[]): Promise<{ inst: TestInstance; orch: Orchestrator; events: AppEvent[] }> {
  inst = await makeInstance(Object.fromEntries(profiles.map((p) => [p, {}])), { privateHome: true });
  orch = await Orchestrator.create({ paths: inst.paths, env: inst.env, startCodex: startCodexClient, watchTable: false });
  const events: AppEvent[] = [];
  orch.subscribe((e) => events.push(e));
  return { inst, orch, events };
}

describe('usage on real codex', () => {
  it('the rate limits and tokens Codex reports reach the chat view, usage:read and usage:updated', async () => {
    const { inst, orch, events } = await start(['coder']);
    const resetsAt = nowSec() + 3600;
    const headers = rateLimitHeaders({ primary: { usedPercent: 42, windowMinutes: 300, resetsAt }, secondary: { usedPercent: 8, windowMinutes: 10080 } });
    inst.model.enqueue({ withHeaders: headers, step: { message: 'hello' } });
    await turnOn(orch, 'coder', 'hi');
    await until('the chat has usage', () => orch.chat('coder').view().usage);
    expect(orch.chat('coder').view().usage).toEqual({
      lastTurn: { input: 100, output: 10, total: 110, contextWindow: expect.any(Number) },
      session: { input: 100, output: 10, total: 110, contextWindow: expect.any(Number) },
      contextPercent: expect.any(Number),
    });
    const primary = { usedPercent: 42, windowMinutes: 300, resetsAt: new Date(resetsAt * 1000).toISOString() };
    const read = await orch.api().handlers['usage:read']({});
    expect(read).toEqual([
      {
        codexHome: inst.paths.codexHome,
        rateLimits: { primary, secondary: { usedPercent: 8, windowMinutes: 10080, resetsAt: null } },
        reportedAt: expect.any(String),
        pausedUntil: null,
      },
    ]);
    const updated = events.filter((e) => e.event === 'usage:updated');
    expect(updated.at(-1)?.payload).toEqual(read[0]);
  });

  it('a usage limit pauses every chat of the account, sends nothing queued, and lifts at the reset', async () => {
    const { inst, orch } = await start(['one', 'two']);
    const resetsAt = nowSec() + 10;
    inst.model.enqueue({
      httpError: {
        status: 429,
        body: { error: { type: 'usage_limit_reached', message: 'limit', plan_type: 'plus', resets_at: resetsAt } },
        headers: rateLimitHeaders({ primary: { usedPercent: 100, windowMinutes: 300, resetsAt } }),
      },
    });
    const failed = await turnOn(orch, 'one', 'first');
    expect(failed.find((i) => i.type === 'turnEnd')).toMatchObject({ status: 'failed' });
    expect(failed.find((i) => i.type === 'error')).toMatchObject({ kind: 'usageLimit' });
    const until_ = new Date(resetsAt * 1000).toISOString();
    for (const id of ['one', 'two']) expect(orch.chat(id).view().pausedUntil).toBe(until_);
    expect(
      orch
        .chat('two')
        .transcript.all()
        .some((i) => i.type === 'notice' && /^Paused until /.test(i.text)),
    ).toBe(true);
    const sent = inst.model.modelRequests().length;
    inst.model.enqueue({ message: 'one again' }, { message: 'two at last' });
    orch.chat('one').send('second');
    orch.chat('two').send('hello two');
    expect(orch.chat('two').view().queued).toBe(1);
    // Nothing goes out while paused: the requests counted when the pause lifts (the alarm at resetsAt) are still those before it.
    let atLift = -1;
    orch.subscribe((e) => {
      if (e.event === 'usage:updated' && e.payload.pausedUntil === null && atLift < 0) atLift = inst.model.modelRequests().length;
    });
    await until('the pause lifted', () => orch.chat('one').view().pausedUntil === null);
    expect(atLift).toBe(sent);
    await orch.chat('one').idle();
    await orch.chat('two').idle();
    expect(inst.model.modelRequests().length).toBe(sent + 2);
    expect(orch.chat('two').view().pausedUntil).toBeNull();
    expect(orch.lastAgentText('two')).toBe('two at last');
  });

  it('angelia run --json prints the usage line with the numbers sent, before turn-end', async () => {
    inst = await makeInstance({ coder: {} }, { privateHome: true });
    const resetsAt = nowSec() + 3600;
    inst.model.enqueue({ withHeaders: rateLimitHeaders({ primary: { usedPercent: 77, windowMinutes: 300, resetsAt } }), step: { message: 'done' } });
    const env = inst.env;
    const r = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', join(REPO_ROOT, 'src/main/cli/index.ts'), 'run', 'coder', 'hi', '--json'],
        { cwd: REPO_ROOT, env, timeout: 90_000 },
        (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
      );
    });
    expect(r.code, r.stderr).toBe(0);
    const out = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const at = out.findIndex((o) => o.type === 'usage');
    expect(at).toBe(out.length - 2);
    expect(out[at]).toEqual({
      type: 'usage',
      tokens: { input: 100, output: 10, total: 110, contextWindow: expect.any(Number) },
      rateLimits: { primary: { usedPercent: 77, windowMinutes: 300, resetsAt: new Date(resetsAt * 1000).toISOString() }, secondary: null },
    });
    expect(out.at(-1)).toMatchObject({ type: 'turn-end', ok: true, text: 'done' });
  });
});
