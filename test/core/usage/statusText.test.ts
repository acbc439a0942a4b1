/** The usage lines of `/status` (core/usage/statusText.ts) as a table: tokens, context, rate limits, a pause. */
import { describe, expect, it } from 'vitest';
import { usageStatusLines, windowName } from '../../../src/main/core/usage/statusText';
import type { ChatUsage, HomeUsage } from '../../../src/shared/usage';

const HOME = '/h/.codex';
const home = (over: Partial<HomeUsage> = {}): HomeUsage => ({ codexHome: HOME, rateLimits: null, reportedAt: null, pausedUntil: null, ...over });
const t = { input: 100, output: 10, total: 110, contextWindow: 258400 };
const chat: ChatUsage = { lastTurn: t, session: { ...t, input: 300, total: 330, output: 30 }, contextPercent: 0 };

describe('usageStatusLines', () => {
  const rows: Array<[string, ChatUsage | null, HomeUsage, string[]]> = [
    ['nothing reported yet', null, home(), ['tokens: none reported yet', 'rate limits: not reported yet']],
    [
      'tokens, context and both windows',
      chat,
      home({
        rateLimits: {
          primary: { usedPercent: 42, windowMinutes: 300, resetsAt: '2030-01-01T11:00:00.000Z' },
          secondary: { usedPercent: 7.6, windowMinutes: 10080, resetsAt: null },
        },
      }),
      [
        'tokens: last turn 110 (100 in, 10 out) · session 330 (300 in, 30 out) · context 0 % of 258400',
        'rate limits: primary 5 h 42 % used, resets 2030-01-01 11:00 UTC · secondary 7 d 8 % used',
      ],
    ],
    [
      'paused',
      null,
      home({ pausedUntil: '2030-01-01T11:00:00.000Z' }),
      ['tokens: none reported yet', 'rate limits: not reported yet', 'paused until 2030-01-01 11:00 UTC: the usage limit is reached; queued messages wait'],
    ],
  ];
  it.each(rows)('%s', (_name, c, h, lines) => expect(usageStatusLines(c, h)).toEqual(lines));
});

describe('windowName', () => {
  it.each([
    [300, '5 h'],
    [10080, '7 d'],
    [45, '45 min'],
    [null, 'window'],
  ] as const)('%s minutes → %s', (m, name) => expect(windowName(m)).toBe(name));
});
