/**
 * The tray's usage rows and tooltip over what the REAL core reports: real codex 0.169.0 with the
 * scripted model sending rate-limit headers (primary 42 % of 5 h, secondary 7 % of a week, both with a
 * reset), then the tray model (src/main/electron/trayModel.ts, pure) fed with `usage:read` and
 * `account:read` after that turn, and with the core's events folded through `trayStateOn` as the
 * desktop shell does. `now` is the moment the headers were made, so "resets in …" is exact; a usage
 * limit's pause is shown as a clock time in the zone this test sets (UTC).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { AppEvent } from '../../src/shared/contract';
import { Orchestrator } from '../../src/main/core/chats/orchestrator';
import { startCodexClient } from '../../src/main/core/codex/start';
import { rateLimitHeaders } from '../../src/main/demo/scriptedModel';
import { clockText } from '../../src/shared/usageText';
import { emptyTrayState, trayModel, trayStateOn, usageRows, type TrayItem, type TrayState } from '../../src/main/electron/trayModel';
import { makeInstance, turnOn, type TestInstance } from '../fixtures/instance';
import { until } from '../fixtures/until';

process.env.TZ = 'UTC';

let inst: TestInstance | null = null;
let orch: Orchestrator | null = null;
afterEach(async () => {
  await orch?.shutdown();
  orch = null;
  await inst?.cleanup();
  inst = null;
});

const HOUR = 3600;
const labels = (items: readonly TrayItem[]): string[] => items.map((i) => ('label' in i ? i.label : '—'));

async function start(): Promise<{ inst: TestInstance; orch: Orchestrator; events: AppEvent[] }> {
  inst = await makeInstance({ coder: {} }, { privateHome: true });
  orch = await Orchestrator.create({ paths: inst.paths, env: inst.env, startCodex: startCodexClient, watchTable: false });
  const events: AppEvent[] = [];
  orch.subscribe((e) => events.push(e));
  return { inst, orch, events };
}

/** The tray state the desktop shell builds: the start-up reads, then every event folded in. */
async function trayStateFrom(o: Orchestrator, events: readonly AppEvent[]): Promise<{ read: TrayState; folded: TrayState }> {
  const h = o.api().handlers;
  const [usage, account, chats] = await Promise.all([h['usage:read']({}), h['account:read']({}), h['chats:list']({})]);
  const read: TrayState = { ...emptyTrayState, usage, account, chats };
  const folded = events.reduce(trayStateOn, { ...emptyTrayState, account });
  return { read, folded };
}

describe('the tray over real codex', () => {
  it('shows the rate limits Codex reported from the model headers: 42 % and 7 %, each with its reset', async () => {
    const { inst, orch, events } = await start();
    const sentAt = Math.floor(Date.now() / 1000);
    const headers = rateLimitHeaders({
      primary: { usedPercent: 42, windowMinutes: 300, resetsAt: sentAt + 2 * HOUR + 14 * 60 },
      secondary: { usedPercent: 7, windowMinutes: 10080, resetsAt: sentAt + (3 * 24 + 4) * HOUR },
    });
    inst.model.enqueue({ withHeaders: headers, step: { message: 'counted' } });
    await turnOn(orch, 'coder', 'hi');
    await until('the tray saw the rate limits', () => events.some((e) => e.event === 'usage:updated' && e.payload.rateLimits?.primary));

    const { read, folded } = await trayStateFrom(orch, events);
    expect(read.usage).toHaveLength(1);
    expect(read.usage[0]?.rateLimits).toEqual({
      primary: { usedPercent: 42, windowMinutes: 300, resetsAt: new Date((sentAt + 2 * HOUR + 14 * 60) * 1000).toISOString() },
      secondary: { usedPercent: 7, windowMinutes: 10080, resetsAt: new Date((sentAt + (3 * 24 + 4) * HOUR) * 1000).toISOString() },
    });
    // The offline Codex home (a custom provider with requires_openai_auth = false) needs no sign-in.
    expect(read.account).toMatchObject({ signedIn: false, requiresOpenaiAuth: false });

    const now = new Date(sentAt * 1000);
    const rows = ['Usage — No sign-in needed', '5 h: 42 % used · resets in 2 h 14 min', 'week: 7 % used · resets in 3 d 4 h'];
    expect(labels(usageRows(read.usage, read.account, now))).toEqual(rows);
    const model = trayModel(read, now);
    const items = labels(model.items);
    const at = items.indexOf(rows[0] as string);
    expect(items.slice(at, at + 3)).toEqual(rows);
    expect(model.tooltip).toBe('Angelia — 5 h 42 % · week 7 %');
    // The same from the events the tray follows (usage:updated, chat:updated).
    expect(folded.usage).toEqual(read.usage);
    expect(labels(usageRows(folded.usage, folded.account, now))).toEqual(rows);
    expect(trayModel(folded, now).tooltip).toBe('Angelia — 5 h 42 % · week 7 %');
  });

  it('shows the pause a usage limit starts, until its reset, in the tooltip and the rows', async () => {
    const { inst, orch, events } = await start();
    const sentAt = Math.floor(Date.now() / 1000);
    const resetsAt = sentAt + HOUR;
    inst.model.enqueue({
      httpError: {
        status: 429,
        body: { error: { type: 'usage_limit_reached', message: 'limit', plan_type: 'plus', resets_at: resetsAt } },
        headers: rateLimitHeaders({ primary: { usedPercent: 100, windowMinutes: 300, resetsAt } }),
      },
    });
    await turnOn(orch, 'coder', 'hi');
    const pausedUntil = new Date(resetsAt * 1000).toISOString();
    await until('the pause reached the tray', () => events.some((e) => e.event === 'usage:updated' && e.payload.pausedUntil === pausedUntil));

    const { read, folded } = await trayStateFrom(orch, events);
    expect(read.usage[0]?.pausedUntil).toBe(pausedUntil);
    const now = new Date(sentAt * 1000);
    // The tray's own clock words (src/shared/usageText.ts), in UTC, the zone this test runs in.
    const clock = clockText(pausedUntil, now);
    expect(clock?.endsWith(pausedUntil.slice(11, 16))).toBe(true);
    const rows = ['Usage — No sign-in needed', '5 h: 100 % used · resets in 1 h', `⚠ Paused until ${clock} (usage limit)`];
    expect(labels(usageRows(read.usage, read.account, now))).toEqual(rows);
    expect(labels(usageRows(folded.usage, folded.account, now))).toEqual(rows);
    // The chat whose turn failed at the limit is in its error state, as after any failed turn.
    expect(read.chats.map((c) => c.state)).toEqual(['error']);
    expect(trayModel(read, now).tooltip).toBe(`Angelia — 1 in trouble, paused until ${clock}, 5 h 100 %`);
  });
});
