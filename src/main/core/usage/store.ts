/**
 * The usage store: per Codex home, the latest rate limits Codex reported (merged, as its sparse updates
 * ask), when, and `pausedUntil` while a usage limit is reached. Every chat's connection feeds it (one
 * Codex home per instance today: instance/paths.ts `codexHome`); it emits `usage:updated` and, once per
 * window and reset, `usage:warning`, and tells its pause listeners (the orchestrator pauses or resumes
 * every chat of that home: chats/turn/machine.ts `pause`). A pause ends by itself at its time (an
 * `Alarm` on the injected clock, chats/watchdogs.ts), when new rate limits are below 100 %, or when the
 * owner lifts it (`resume`, channel `usage:resume`).
 * Decisions are core/usage/limits.ts (pure); docs/architecture.md "Usage".
 */
import type { AppEvent } from '../../../shared/contract';
import type { HomeUsage } from '../../../shared/usage';
import { Alarm, type Clock } from '../chats/watchdogs';
import { liftsPause, limitReachedBy, mergeRateLimits, pausedUntilAfterLimit, rateLimitsOf, warningsFor, type WireRateLimits } from './limits';

interface Home {
  usage: HomeUsage;
  warned: Set<string>;
  alarm: Alarm;
}

/** Told when a home's pause starts (`pausedUntil` ISO 8601) or ends (null). */
export type PauseListener = (codexHome: string, pausedUntil: string | null) => void;

/** See the module comment. */
export class UsageStore {
  private readonly homes = new Map<string, Home>();
  private readonly listeners = new Set<PauseListener>();

  constructor(
    private readonly emit: (e: AppEvent) => void,
    private readonly clock: Clock,
  ) {}

  /** `known` homes (in use, even before Codex reported anything) and every home seen, as `usage:read` answers. */
  read(known: string[] = []): HomeUsage[] {
    const all = new Set([...known, ...this.homes.keys()]);
    return [...all].map((home) => this.get(home));
  }

  /** One home's usage (nothing reported yet when unseen). */
  get(codexHome: string): HomeUsage {
    return this.homes.get(codexHome)?.usage ?? { codexHome, rateLimits: null, reportedAt: null, pausedUntil: null };
  }

  /** Listens to pauses starting and ending; returns the unsubscribe function. */
  onPause(listener: PauseListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** `account/rateLimits/updated` from a chat's Codex of `codexHome` (codex 0.169.0 `RateLimitSnapshot`). */
  rateLimitsUpdated(codexHome: string, snapshot: WireRateLimits): void {
    const home = this.home(codexHome);
    const rateLimits = mergeRateLimits(home.usage.rateLimits, rateLimitsOf(snapshot));
    home.usage = { ...home.usage, rateLimits, reportedAt: new Date(this.clock.now()).toISOString() };
    const due = warningsFor(home.warned, rateLimits);
    home.warned = due.warned;
    if (limitReachedBy(snapshot)) this.pause(home);
    else if (home.usage.pausedUntil !== null && liftsPause(snapshot)) this.lift(home);
    else this.emit({ event: 'usage:updated', payload: home.usage });
    for (const w of due.warnings) this.emit({ event: 'usage:warning', payload: { codexHome, ...w } });
  }

  /** A turn of `codexHome` failed at its usage limit (codexErrorInfo `usageLimitExceeded`, codex/turnErrors.ts). */
  usageLimitReached(codexHome: string): void {
    this.pause(this.home(codexHome));
  }

  /**
   * The owner's "Try now": lifts `codexHome`'s pause before its time (e.g. after upgrading the plan), so
   * every chat of that home starts its queued work; a turn that meets the limit again pauses it again.
   * Answers the home's usage (unchanged, and nothing emitted, when it was not paused).
   */
  resume(codexHome: string): HomeUsage {
    const home = this.homes.get(codexHome);
    if (home && home.usage.pausedUntil !== null) this.lift(home);
    return this.get(codexHome);
  }

  /** Stops every pause timer (shutdown). */
  close(): void {
    for (const h of this.homes.values()) h.alarm.clear();
  }

  private home(codexHome: string): Home {
    let h = this.homes.get(codexHome);
    if (!h) {
      h = { usage: this.get(codexHome), warned: new Set(), alarm: new Alarm(this.clock) };
      this.homes.set(codexHome, h);
    }
    return h;
  }

  private pause(home: Home): void {
    const until = pausedUntilAfterLimit(home.usage.rateLimits, this.clock.now());
    if (home.usage.pausedUntil === until) return;
    home.usage = { ...home.usage, pausedUntil: until };
    home.alarm.set(Date.parse(until), () => this.lift(home));
    this.told(home);
  }

  private lift(home: Home): void {
    home.alarm.clear();
    home.usage = { ...home.usage, pausedUntil: null };
    this.told(home);
  }

  private told(home: Home): void {
    this.emit({ event: 'usage:updated', payload: home.usage });
    for (const l of [...this.listeners]) l(home.usage.codexHome, home.usage.pausedUntil);
  }
}
