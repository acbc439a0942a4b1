/**
 * The words for what the agents cost (src/shared/usageText.ts), shared by the window's meters and the
 * tray: table tests of each pure function. Times are UTC.
 */
import { describe, expect, it } from 'vitest';
import type { AccountView } from '../../src/shared/account';
import type { HomeUsage } from '../../src/shared/usage';
import {
  accountLine,
  clampPercent,
  clockText,
  durationText,
  fullestWindow,
  needsSignIn,
  pausedText,
  percentText,
  resetsText,
  tokensText,
  usageLevel,
  usageSummary,
  windowName,
  windowsShown,
} from '../../src/shared/usageText';

process.env.TZ = 'UTC';
const NOW = new Date('2026-12-01T12:00:00Z');
const MIN = 60_000;

describe('durationText', () => {
  it.each([
    [-5, 'less than a minute'],
    [0, 'less than a minute'],
    [59_999, 'less than a minute'],
    [MIN, '1 min'],
    [45 * MIN, '45 min'],
    [60 * MIN, '1 h'],
    [134 * MIN, '2 h 14 min'],
    [24 * 60 * MIN, '1 d'],
    [(3 * 24 + 4) * 60 * MIN + 59 * MIN, '3 d 4 h'],
  ])('%d ms → %s', (ms, text) => expect(durationText(ms)).toBe(text));
});

describe('resetsText', () => {
  it.each([
    [null, null],
    ['not a date', null],
    ['2026-12-01T11:00:00Z', 'resets now'],
    ['2026-12-01T12:00:30Z', 'resets now'],
    ['2026-12-01T14:14:00Z', 'resets in 2 h 14 min'],
    ['2026-12-05T16:00:00Z', 'resets in 4 d 4 h'],
  ])('%s → %s', (at, text) => expect(resetsText(at, NOW)).toBe(text));
});

describe('windowName', () => {
  it.each([
    [300, 'primary', '5 h'],
    [10080, 'secondary', 'week'],
    [1440, 'primary', 'day'],
    [2880, 'primary', '2 d'],
    [120, 'primary', '2 h'],
    [45, 'primary', '45 min'],
    [null, 'primary', '5 h'],
    [null, 'secondary', 'week'],
    [0, 'secondary', 'week'],
  ] as const)('%s min (%s) → %s', (minutes, slot, name) => expect(windowName(minutes, slot)).toBe(name));
});

describe('percent and level', () => {
  it.each([
    [0, '0 %', 'ok'],
    [42.4, '42 %', 'ok'],
    [74.4, '74 %', 'ok'],
    [75, '75 %', 'warn'],
    [89.9, '90 %', 'warn'],
    [90, '90 %', 'high'],
    [130, '100 %', 'high'],
    [-3, '0 %', 'ok'],
  ] as const)('%d → %s, %s', (p, text, level) => {
    expect(percentText(p)).toBe(text);
    expect(usageLevel(p)).toBe(level);
  });
  it('clamps what cannot be drawn', () => {
    expect(clampPercent(Number.NaN)).toBe(0);
    expect(clampPercent(Infinity)).toBe(0);
  });
});

describe('tokensText', () => {
  it.each([
    [0, '0'],
    [950, '950'],
    [1000, '1k'],
    [1500, '1.5k'],
    [12_345, '12.3k'],
    [272_000, '272k'],
    [1_234_567, '1.2M'],
    [3_000_000, '3M'],
  ])('%d → %s', (n, text) => expect(tokensText(n)).toBe(text));
});

describe('clockText and pausedText', () => {
  it.each([
    ['2026-12-01T14:05:00Z', '14:05'],
    ['2026-12-02T09:30:00Z', 'Wed 09:30'],
    ['2026-12-24T08:00:00Z', '2026-12-24 08:00'],
    ['2026-11-30T08:00:00Z', '2026-11-30 08:00'],
    ['garbage', null],
  ])('%s → %s', (iso, text) => expect(clockText(iso, NOW)).toBe(text));

  it.each([
    [null, null],
    [undefined, null],
    ['2026-12-01T11:59:00Z', null],
    ['garbage', null],
    ['2026-12-01T14:05:00Z', 'paused until 14:05'],
  ])('paused %s → %s', (until, text) => expect(pausedText(until, NOW)).toBe(text));
});

const home = (over: Partial<HomeUsage> = {}): HomeUsage => ({
  codexHome: '/home/u/.codex',
  rateLimits: {
    primary: { usedPercent: 42, windowMinutes: 300, resetsAt: '2026-12-01T14:14:00Z' },
    secondary: { usedPercent: 12, windowMinutes: 10080, resetsAt: null },
  },
  reportedAt: '2026-12-01T11:59:00Z',
  pausedUntil: null,
  ...over,
});

describe('windows', () => {
  it('shows each reported window, primary first, with its line', () => {
    expect(windowsShown(home().rateLimits, NOW)).toEqual([
      { slot: 'primary', name: '5 h', percent: 42, level: 'ok', resets: 'resets in 2 h 14 min', line: '5 h: 42 % used · resets in 2 h 14 min' },
      { slot: 'secondary', name: 'week', percent: 12, level: 'ok', resets: null, line: 'week: 12 % used' },
    ]);
  });
  it('nothing before a report; a window Codex left out is left out', () => {
    expect(windowsShown(null, NOW)).toEqual([]);
    expect(windowsShown({ primary: null, secondary: { usedPercent: 91, windowMinutes: null, resetsAt: null } }, NOW).map((w) => w.line)).toEqual([
      'week: 91 % used',
    ]);
  });
  it('the fullest window of every home is the header meter; the summary names them all', () => {
    const other = home({ codexHome: '/other', rateLimits: { primary: { usedPercent: 93, windowMinutes: 300, resetsAt: null }, secondary: null } });
    expect(fullestWindow([home(), other], NOW)).toMatchObject({ name: '5 h', percent: 93, level: 'high' });
    expect(fullestWindow([home({ rateLimits: null })], NOW)).toBeNull();
    expect(usageSummary([home()], NOW)).toBe('5 h 42 % · week 12 %');
    expect(usageSummary([], NOW)).toBe('');
  });
});

const account = (over: Partial<AccountView> = {}): AccountView => ({
  codexHome: '/home/u/.codex',
  signedIn: false,
  method: null,
  email: null,
  plan: null,
  requiresOpenaiAuth: true,
  ...over,
});

describe('accountLine and needsSignIn', () => {
  it.each([
    [account({ signedIn: true, method: 'chatgpt', email: 'ada@example.com', plan: 'plus' }), 'ChatGPT · ada@example.com · Plus', false],
    [account({ signedIn: true, method: 'chatgpt' }), 'ChatGPT', false],
    [account({ signedIn: true, method: 'apiKey' }), 'API key', false],
    [account(), 'Not signed in', true],
    [account({ requiresOpenaiAuth: false }), 'No sign-in needed', false],
  ])('%j → %s', (view, line, needs) => {
    expect(accountLine(view)).toBe(line);
    expect(needsSignIn(view)).toBe(needs);
  });
  it('an account not read yet needs nothing yet', () => expect(needsSignIn(null)).toBe(false));
});
