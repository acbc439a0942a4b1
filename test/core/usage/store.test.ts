/**
 * The usage store (core/usage/store.ts) on a fake clock: rate limits merged per Codex home with
 * `usage:updated`, the 90 % warning once, a usage limit pausing the home until the full window's reset
 * and lifting by itself then (or when new rate limits are below 100 %), and the pause carried into the
 * chats' turn machines (core/usage/link.ts); the owner's resume lifts it before its time.
 */
import { describe, expect, it } from 'vitest';
import type { AppEvent } from '../../../src/shared/contract';
import type { Clock } from '../../../src/main/core/chats/watchdogs';
import { UsageStore } from '../../../src/main/core/usage/store';
import { joinPause, linkPause, type PausableChat } from '../../../src/main/core/usage/link';
import type { TurnInput } from '../../../src/main/core/chats/turn/machine';

const T0 = Date.parse('2030-01-01T10:00:00.000Z');
const HOME = '/home/u/.codex';

function fakeClock(): Clock & { advance(ms: number): void } {
  let now = T0;
  let seq = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  return {
    setTimeout: (fn, ms) => {
      timers.set(++seq, { at: now + ms, fn });
      return seq;
    },
    clearTimeout: (h) => void timers.delete(h as number),
    now: () => now,
    advance(ms) {
      const end = now + ms;
      for (;;) {
        const due = [...timers.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].fn();
      }
      now = end;
    },
  };
}

function setup() {
  const clock = fakeClock();
  const events: AppEvent[] = [];
  const store = new UsageStore((e) => events.push(e), clock);
  const inputs: TurnInput[] = [];
  const chat: PausableChat = { dispatch: (i) => inputs.push(i) };
  linkPause(store, HOME, () => [chat]);
  return { clock, events, store, inputs };
}
const win = (usedPercent: number, resetsAt: number | null) => ({ usedPercent, windowDurationMins: 300, resetsAt });
const inOneHour = T0 / 1000 + 3600;

describe('UsageStore', () => {
  it('keeps the merged rate limits of a home, with when they came, and tells usage:updated', () => {
    const { store, events } = setup();
    expect(store.read([HOME])).toEqual([{ codexHome: HOME, rateLimits: null, reportedAt: null, pausedUntil: null }]);
    store.rateLimitsUpdated(HOME, { primary: win(42, inOneHour), secondary: win(8, null), rateLimitReachedType: null });
    store.rateLimitsUpdated(HOME, { primary: null, secondary: null, rateLimitReachedType: null });
    const usage = store.get(HOME);
    expect(usage).toEqual({
      codexHome: HOME,
      rateLimits: {
        primary: { usedPercent: 42, windowMinutes: 300, resetsAt: '2030-01-01T11:00:00.000Z' },
        secondary: { usedPercent: 8, windowMinutes: 300, resetsAt: null },
      },
      reportedAt: '2030-01-01T10:00:00.000Z',
      pausedUntil: null,
    });
    expect(events.filter((e) => e.event === 'usage:updated')).toHaveLength(2);
    expect(store.read([HOME])).toEqual([usage]);
  });

  it('warns once when a window reaches 90 %, not again when its reset time moves, and again after it went below 90 %', () => {
    const { store, events } = setup();
    store.rateLimitsUpdated(HOME, { primary: win(91, inOneHour), secondary: null, rateLimitReachedType: null });
    store.rateLimitsUpdated(HOME, { primary: win(95, inOneHour), secondary: null, rateLimitReachedType: null });
    store.rateLimitsUpdated(HOME, { primary: win(92, inOneHour + 1), secondary: null, rateLimitReachedType: null });
    store.rateLimitsUpdated(HOME, { primary: win(5, inOneHour + 18000), secondary: null, rateLimitReachedType: null });
    store.rateLimitsUpdated(HOME, { primary: win(93, inOneHour + 18000), secondary: null, rateLimitReachedType: null });
    const warnings = events.filter((e) => e.event === 'usage:warning').map((e) => e.payload);
    expect(warnings).toEqual([
      { codexHome: HOME, window: 'primary', usedPercent: 91, resetsAt: '2030-01-01T11:00:00.000Z' },
      { codexHome: HOME, window: 'primary', usedPercent: 93, resetsAt: '2030-01-01T16:00:00.000Z' },
    ]);
  });

  it('a usage limit pauses the home until the full window resets, tells the chats once, and lifts by itself then', () => {
    const { store, clock, inputs } = setup();
    store.rateLimitsUpdated(HOME, { primary: win(100, inOneHour), secondary: null, rateLimitReachedType: null });
    store.usageLimitReached(HOME);
    store.usageLimitReached(HOME);
    expect(store.get(HOME).pausedUntil).toBe('2030-01-01T11:00:00.000Z');
    expect(inputs).toEqual([{ kind: 'pause', until: '2030-01-01T11:00:00.000Z' }]);
    clock.advance(3600_000 - 1);
    expect(store.get(HOME).pausedUntil).toBe('2030-01-01T11:00:00.000Z');
    clock.advance(1);
    expect(store.get(HOME).pausedUntil).toBeNull();
    expect(inputs).toEqual([{ kind: 'pause', until: '2030-01-01T11:00:00.000Z' }, { kind: 'resume' }]);
  });

  it('a reached type pauses; rate limits below 100 % lift it before the reset', () => {
    const { store, inputs, events } = setup();
    store.rateLimitsUpdated(HOME, { primary: win(100, inOneHour), secondary: null, rateLimitReachedType: 'rate_limit_reached' });
    expect(store.get(HOME).pausedUntil).toBe('2030-01-01T11:00:00.000Z');
    store.rateLimitsUpdated(HOME, { primary: null, secondary: null, rateLimitReachedType: null });
    expect(store.get(HOME).pausedUntil).not.toBeNull();
    store.rateLimitsUpdated(HOME, { primary: win(2, inOneHour + 18000), secondary: null, rateLimitReachedType: null });
    expect(store.get(HOME).pausedUntil).toBeNull();
    expect(inputs.map((i) => i.kind)).toEqual(['pause', 'resume']);
    expect(events.filter((e) => e.event === 'usage:updated').at(-1)?.payload).toMatchObject({ pausedUntil: null });
  });

  it('a usage limit with no reset known pauses for the fallback time; another home is left alone', () => {
    const { store, inputs } = setup();
    store.usageLimitReached('/other/codex-home');
    expect(inputs).toEqual([]);
    store.usageLimitReached(HOME);
    expect(store.get(HOME).pausedUntil).toBe('2030-01-01T10:05:00.000Z');
    expect(store.read([HOME]).map((u) => u.codexHome)).toEqual([HOME, '/other/codex-home']);
  });

  it.each([
    { name: 'a paused home', paused: true, told: ['pause', 'resume'], emitted: 1 },
    { name: 'a home not paused', paused: false, told: [], emitted: 0 },
  ])('the owner resumes $name: the pause lifts, usage:updated and the chats are told once', ({ paused, told, emitted }) => {
    const { store, clock, inputs, events } = setup();
    if (paused) store.usageLimitReached(HOME);
    const before = events.length;
    expect(store.resume(HOME)).toMatchObject({ codexHome: HOME, pausedUntil: null });
    expect(store.get(HOME).pausedUntil).toBeNull();
    expect(inputs.map((i) => i.kind)).toEqual(told);
    const updated = events.slice(before).filter((e) => e.event === 'usage:updated');
    expect(updated).toHaveLength(emitted);
    if (emitted) expect(updated[0]?.payload).toMatchObject({ codexHome: HOME, pausedUntil: null });
    clock.advance(3600_000);
    expect(inputs.map((i) => i.kind)).toEqual(told);
    expect(store.resume('/never/seen')).toEqual({ codexHome: '/never/seen', rateLimits: null, reportedAt: null, pausedUntil: null });
  });

  it('after the owner resumed, the next usage limit pauses the home again', () => {
    const { store, inputs } = setup();
    store.usageLimitReached(HOME);
    store.resume(HOME);
    store.usageLimitReached(HOME);
    expect(store.get(HOME).pausedUntil).toBe('2030-01-01T10:05:00.000Z');
    expect(inputs.map((i) => i.kind)).toEqual(['pause', 'resume', 'pause']);
  });

  it('a chat opened during a pause starts paused', () => {
    const { store } = setup();
    const late: TurnInput[] = [];
    joinPause(store, HOME, { dispatch: (i) => late.push(i) });
    expect(late).toEqual([]);
    store.usageLimitReached(HOME);
    joinPause(store, HOME, { dispatch: (i) => late.push(i) });
    expect(late).toEqual([{ kind: 'pause', until: '2030-01-01T10:05:00.000Z' }]);
  });
});
