/**
 * Words for what the agents cost, shared by the window's meters (src/renderer/src/features/usage/) and
 * the tray (src/main/electron/trayModel.ts), so both say the same: a rate-limit window's name ("5 h",
 * "week"), percent used, "resets in 2 h 14 min", token counts ("12.3k"), "paused until 14:05", and the
 * level a meter is drawn at. The shapes are src/shared/usage.ts (codex 0.169.0 `RateLimitSnapshot`,
 * `ThreadTokenUsage`). Pure: the time is always a parameter; no Node, Electron or React.
 */
import type { AccountView } from './account';
import type { HomeUsage, RateLimits, RateWindow } from './usage';

/** The percent at which a meter turns red, the tray warns and the composer suggests /compact. */
export const HIGH_PERCENT = 90;
/** The percent at which a meter turns amber. */
export const WARN_PERCENT = 75;

/** How full a meter is drawn: `ok`, `warn` (from 75 %), `high` (from 90 %). */
export type UsageLevel = 'ok' | 'warn' | 'high';

/** The level of a percent (0–100; out of range is clamped). */
export function usageLevel(percent: number): UsageLevel {
  if (percent >= HIGH_PERCENT) return 'high';
  if (percent >= WARN_PERCENT) return 'warn';
  return 'ok';
}

/** A percent as shown: rounded, clamped to 0–100, "42 %". */
export function percentText(percent: number): string {
  return `${clampPercent(percent)} %`;
}

/** A percent rounded and clamped to 0–100 (a meter's width). */
export function clampPercent(percent: number): number {
  if (!Number.isFinite(percent)) return 0;
  return Math.min(100, Math.max(0, Math.round(percent)));
}

const MINUTE = 60_000;

/**
 * A duration in words, to the minute: "45 min", "2 h 14 min", "3 d 4 h" (days drop the minutes);
 * "less than a minute" under one minute (and for a negative one).
 */
export function durationText(ms: number): string {
  const minutes = Math.floor(ms / MINUTE);
  if (minutes < 1) return 'less than a minute';
  const d = Math.floor(minutes / 1440);
  const h = Math.floor((minutes % 1440) / 60);
  const m = minutes % 60;
  if (d > 0) return h > 0 ? `${d} d ${h} h` : `${d} d`;
  if (h > 0) return m > 0 ? `${h} h ${m} min` : `${h} h`;
  return `${m} min`;
}

/** "resets in 2 h 14 min" for `resetsAt` (ISO 8601) seen at `now`; "resets now" once past; null when unknown or unreadable. */
export function resetsText(resetsAt: string | null, now: Date): string | null {
  if (!resetsAt) return null;
  const at = Date.parse(resetsAt);
  if (Number.isNaN(at)) return null;
  const left = at - now.getTime();
  return left < MINUTE ? 'resets now' : `resets in ${durationText(left)}`;
}

/**
 * A window's name from its length in minutes: 300 → "5 h", 10080 → "week", 1440 → "day", else hours or
 * minutes. Unknown length: Codex's `primary` is the 5-hour window and `secondary` the weekly one.
 */
export function windowName(windowMinutes: number | null, slot: 'primary' | 'secondary'): string {
  if (windowMinutes === null || windowMinutes <= 0) return slot === 'primary' ? '5 h' : 'week';
  if (windowMinutes === 10080) return 'week';
  if (windowMinutes === 1440) return 'day';
  if (windowMinutes % 1440 === 0) return `${windowMinutes / 1440} d`;
  if (windowMinutes % 60 === 0) return `${windowMinutes / 60} h`;
  return `${windowMinutes} min`;
}

/** One window as the meters and the tray show it. */
export interface WindowShown {
  slot: 'primary' | 'secondary';
  name: string;
  percent: number;
  level: UsageLevel;
  /** "resets in 2 h 14 min", or null when Codex did not say. */
  resets: string | null;
  /** "5 h: 42 % used · resets in 2 h 14 min". */
  line: string;
}

/** The windows Codex reported, primary (5 h) first; [] before any report. */
export function windowsShown(limits: RateLimits | null, now: Date): WindowShown[] {
  if (!limits) return [];
  const out: WindowShown[] = [];
  for (const slot of ['primary', 'secondary'] as const) {
    const w: RateWindow | null = limits[slot];
    if (!w) continue;
    const name = windowName(w.windowMinutes, slot);
    const percent = clampPercent(w.usedPercent);
    const resets = resetsText(w.resetsAt, now);
    out.push({ slot, name, percent, level: usageLevel(percent), resets, line: `${name}: ${percentText(percent)} used${resets ? ` · ${resets}` : ''}` });
  }
  return out;
}

/** The fullest window of all homes (the header's one meter and the tray's title), or null before any report. */
export function fullestWindow(homes: readonly HomeUsage[], now: Date): WindowShown | null {
  let best: WindowShown | null = null;
  for (const h of homes) for (const w of windowsShown(h.rateLimits, now)) if (!best || w.percent > best.percent) best = w;
  return best;
}

/** A short summary of every window for a tooltip: "5 h 42 % · week 12 %"; "" before any report. */
export function usageSummary(homes: readonly HomeUsage[], now: Date): string {
  return homes
    .flatMap((h) => windowsShown(h.rateLimits, now))
    .map((w) => `${w.name} ${percentText(w.percent)}`)
    .join(' · ');
}

/** A token count, short: 950 → "950", 12 345 → "12.3k", 1 234 567 → "1.2M". */
export function tokensText(n: number): string {
  if (n < 1000) return String(Math.max(0, Math.round(n)));
  if (n < 1_000_000) return `${trimZero((n / 1000).toFixed(n < 100_000 ? 1 : 0))}k`;
  return `${trimZero((n / 1_000_000).toFixed(1))}M`;
}

function trimZero(s: string): string {
  return s.endsWith('.0') ? s.slice(0, -2) : s;
}

const pad = (n: number): string => String(n).padStart(2, '0');
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/**
 * A time of day in the local zone: "14:05" when on `now`'s day, "Tue 14:05" within the week ahead,
 * else "2026-12-24 14:05". null when unreadable.
 */
export function clockText(iso: string, now: Date): string | null {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return null;
  const d = new Date(t);
  const hm = `${pad(d.getHours())}:${pad(d.getMinutes())}`;
  if (d.toDateString() === now.toDateString()) return hm;
  const days = (t - now.getTime()) / 86_400_000;
  if (days > 0 && days < 6) return `${DAYS[d.getDay()]} ${hm}`;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${hm}`;
}

/** "paused until 14:05" while `pausedUntil` is ahead of `now`; null when not paused (absent, past or unreadable). */
export function pausedText(pausedUntil: string | null | undefined, now: Date): string | null {
  if (!pausedUntil) return null;
  const t = Date.parse(pausedUntil);
  if (Number.isNaN(t) || t <= now.getTime()) return null;
  return `paused until ${clockText(pausedUntil, now) ?? pausedUntil}`;
}

/** What an account shows in one line: "ChatGPT · ada@example.com · Plus", "API key", "Not signed in", or "No sign-in needed". */
export function accountLine(view: AccountView): string {
  if (view.signedIn && view.method === 'chatgpt') return ['ChatGPT', view.email, view.plan ? planName(view.plan) : null].filter(Boolean).join(' · ');
  if (view.signedIn && view.method === 'apiKey') return 'API key';
  if (view.signedIn) return 'Signed in';
  return view.requiresOpenaiAuth ? 'Not signed in' : 'No sign-in needed';
}

/** Codex's plan name with a capital ("plus" → "Plus"). */
export function planName(plan: string): string {
  return plan.charAt(0).toUpperCase() + plan.slice(1);
}

/** True when Codex needs a sign-in before any agent can answer (`requiresOpenaiAuth` and not signed in). */
export function needsSignIn(view: AccountView | null): boolean {
  return view !== null && view.requiresOpenaiAuth && !view.signedIn;
}
