/**
 * The usage mappers and decisions (core/usage/limits.ts) as tables: codex 0.169.0 `RateLimitSnapshot` →
 * `RateLimits` (unix seconds → ISO 8601), sparse updates merged, `ThreadTokenUsage` → `ChatUsage`, until
 * when a usage limit pauses, what lifts it, and the 90 % warning once per window and reset.
 */
import { describe, expect, it } from 'vitest';
import {
  chatUsageOf,
  FALLBACK_PAUSE_MS,
  liftsPause,
  limitReachedBy,
  mergeRateLimits,
  pausedUntilAfterLimit,
  rateLimitsOf,
  warningsFor,
  type WireRateLimits,
} from '../../../src/main/core/usage/limits';
import type { RateLimits, RateWindow } from '../../../src/shared/usage';

const T0 = Date.parse('2030-01-01T10:00:00.000Z');
const sec = (iso: string): number => Date.parse(iso) / 1000;
const wire = (over: Partial<WireRateLimits> = {}): WireRateLimits => ({ primary: null, secondary: null, rateLimitReachedType: null, ...over });
const win = (usedPercent: number, resetsAt: string | null, windowMinutes: number | null = 300): RateWindow => ({ usedPercent, windowMinutes, resetsAt });

describe('rateLimitsOf', () => {
  const rows: Array<[string, WireRateLimits, RateLimits]> = [
    [
      'both windows, resetsAt in unix seconds becomes ISO 8601',
      wire({
        primary: { usedPercent: 42, windowDurationMins: 300, resetsAt: sec('2030-01-01T12:00:00.000Z') },
        secondary: { usedPercent: 8, windowDurationMins: 10080, resetsAt: null },
      }),
      { primary: win(42, '2030-01-01T12:00:00.000Z'), secondary: win(8, null, 10080) },
    ],
    ['no window sent', wire(), { primary: null, secondary: null }],
    [
      'a window without its length',
      wire({ primary: { usedPercent: 100, windowDurationMins: null, resetsAt: null } }),
      { primary: win(100, null, null), secondary: null },
    ],
  ];
  it.each(rows)('%s', (_name, input, out) => expect(rateLimitsOf(input)).toEqual(out));
});

describe('mergeRateLimits', () => {
  const prev: RateLimits = { primary: win(40, 'a'), secondary: win(5, 'b') };
  const rows: Array<[string, RateLimits | null, RateLimits, RateLimits]> = [
    ['nothing before', null, { primary: win(1, 'x'), secondary: null }, { primary: win(1, 'x'), secondary: null }],
    ['a window sent replaces, one left null is kept', prev, { primary: win(50, 'c'), secondary: null }, { primary: win(50, 'c'), secondary: win(5, 'b') }],
    ['an all-null update (a 429 without headers) keeps both', prev, { primary: null, secondary: null }, prev],
  ];
  it.each(rows)('%s', (_name, before, next, out) => expect(mergeRateLimits(before, next)).toEqual(out));
});

describe('chatUsageOf', () => {
  const t = (input: number, output: number) => ({ inputTokens: input, outputTokens: output, totalTokens: input + output });
  const rows: Array<[string, Parameters<typeof chatUsageOf>[0], ReturnType<typeof chatUsageOf>]> = [
    [
      'as measured: 100 in, 10 out, a 258 400-token window',
      { total: t(100, 10), last: t(100, 10), modelContextWindow: 258400 },
      {
        lastTurn: { input: 100, output: 10, total: 110, contextWindow: 258400 },
        session: { input: 100, output: 10, total: 110, contextWindow: 258400 },
        contextPercent: 0,
      },
    ],
    [
      'the context percent is the last turn input over the window, one decimal',
      { total: t(300_000, 900), last: t(129_200, 300), modelContextWindow: 258400 },
      {
        lastTurn: { input: 129_200, output: 300, total: 129_500, contextWindow: 258400 },
        session: { input: 300_000, output: 900, total: 300_900, contextWindow: 258400 },
        contextPercent: 50,
      },
    ],
    [
      'no window: no percent',
      { total: t(5, 1), last: t(5, 1), modelContextWindow: null },
      {
        lastTurn: { input: 5, output: 1, total: 6, contextWindow: null },
        session: { input: 5, output: 1, total: 6, contextWindow: null },
        contextPercent: null,
      },
    ],
  ];
  it.each(rows)('%s', (_name, input, out) => expect(chatUsageOf(input)).toEqual(out));
});

describe('pausedUntilAfterLimit', () => {
  const in1h = '2030-01-01T11:00:00.000Z';
  const in2h = '2030-01-01T12:00:00.000Z';
  const past = '2030-01-01T09:00:00.000Z';
  const rows: Array<[string, RateLimits | null, string]> = [
    ['the reset of the full window', { primary: win(100, in1h), secondary: win(60, in2h) }, in1h],
    ['both full: the later reset', { primary: win(100, in1h), secondary: win(100, in2h) }, in2h],
    ['none full: the earliest future reset', { primary: win(80, in2h), secondary: win(20, in1h) }, in1h],
    ['a reset already passed does not count', { primary: win(100, past), secondary: null }, new Date(T0 + FALLBACK_PAUSE_MS).toISOString()],
    ['no rate limits known: the fallback', null, new Date(T0 + FALLBACK_PAUSE_MS).toISOString()],
  ];
  it.each(rows)('%s', (_name, limits, out) => expect(pausedUntilAfterLimit(limits, T0)).toBe(out));
});

describe('limitReachedBy and liftsPause', () => {
  const w = (usedPercent: number) => ({ usedPercent, windowDurationMins: 300, resetsAt: null });
  const rows: Array<[string, WireRateLimits, boolean, boolean]> = [
    ['below 100 %: lifts', wire({ primary: w(3) }), false, true],
    ['one window at 100 %: does not lift', wire({ primary: w(3), secondary: w(100) }), false, false],
    ['nothing sent (a sparse update): does not lift', wire(), false, false],
    ['a reached type: reached, does not lift', wire({ primary: w(3), rateLimitReachedType: 'rate_limit_reached' }), true, false],
  ];
  it.each(rows)('%s', (_name, s, reached, lifts) => {
    expect(limitReachedBy(s)).toBe(reached);
    expect(liftsPause(s)).toBe(lifts);
  });
});

describe('warningsFor', () => {
  const rows: Array<[string, string[], RateLimits, Array<{ window: string; usedPercent: number }>, string[]]> = [
    ['below 90 %: none', [], { primary: win(89, 'r1'), secondary: null }, [], []],
    ['primary reaches 90 %: one', [], { primary: win(90, 'r1'), secondary: win(10, 'r2') }, [{ window: 'primary', usedPercent: 90 }], ['primary']],
    ['already warned while it stays over 90 %: none', ['primary'], { primary: win(95, 'r1'), secondary: null }, [], ['primary']],
    ['a reset time that moves at every response: none again', ['primary'], { primary: win(96, 'r9'), secondary: null }, [], ['primary']],
    ['back below 90 %: forgotten', ['primary'], { primary: win(3, 'r9'), secondary: null }, [], []],
    ['over 90 % again after it went below: again', [], { primary: win(91, 'r10'), secondary: null }, [{ window: 'primary', usedPercent: 91 }], ['primary']],
    ['a window not reported keeps its state', ['secondary'], { primary: win(10, 'r1'), secondary: null }, [], ['secondary']],
    [
      'both windows',
      [],
      { primary: win(99, null), secondary: win(92, 'r2') },
      [
        { window: 'primary', usedPercent: 99 },
        { window: 'secondary', usedPercent: 92 },
      ],
      ['primary', 'secondary'],
    ],
  ];
  it.each(rows)('%s', (_name, warned, limits, out, keys) => {
    const r = warningsFor(new Set(warned), limits);
    expect(r.warnings.map(({ window, usedPercent }) => ({ window, usedPercent }))).toEqual(out);
    expect([...r.warned].sort()).toEqual(keys.sort());
  });
});
