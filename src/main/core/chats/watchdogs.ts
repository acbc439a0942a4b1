/**
 * The chat's watchdogs, on an injected clock (`Clock`; `realClock` in production, a fake one in tests):
 * the stall watchdog (told at half of `turn_stall_minutes`, the turn stopped at all of it), the idle exit
 * of a process with nothing to do (`idle_exit_minutes`), the ghost approval (Codex reports waiting on an
 * approval Angelia never received) and the interrupt grace (how long a `turn/interrupt` may take, and how
 * long cancelled work may wait for its `turn/started`). What each one does when it fires is the chat's
 * (`WatchdogHooks`); this module only keeps the timers. README "Chats", docs/architecture.md flow (b).
 */

/** A timer handle as the clock gives it (opaque). */
export type TimerHandle = unknown;

/** Time as the watchdogs see it: milliseconds. `unref`: the timer does not keep the process alive. */
export interface Clock {
  setTimeout(fn: () => void, ms: number, opts?: { unref?: boolean }): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
  /** Milliseconds since the epoch (Date.now()). */
  now(): number;
}

/** The real clock (Node's timers, Date.now()). */
export const realClock: Clock = {
  setTimeout(fn, ms, opts) {
    const t = setTimeout(fn, ms);
    if (opts?.unref) t.unref?.();
    return t;
  },
  clearTimeout(handle) {
    clearTimeout(handle as NodeJS.Timeout);
  },
  now: () => Date.now(),
};

/** The chat's clocks, in milliseconds (from the table's `defaults`, minutes × 60 000). */
export interface ChatTiming {
  /** `turn_stall_minutes`: no output for half of it → the user is told; for all of it → the turn is stopped. 0 = never. */
  stallMs: number;
  /** `idle_exit_minutes`: an idle Codex process exits after it and is resumed on the next message. */
  idleMs: number;
  /** How long Codex may report waiting on an approval Angelia never received before the user is told. */
  ghostApprovalMs: number;
  /** How long a `turn/interrupt` may take before the process is stopped instead. */
  interruptGraceMs: number;
}

/** Production timing for a table's defaults (minutes). */
export function timingFromMinutes(d: { turnStallMinutes: number; idleExitMinutes: number }): ChatTiming {
  return { stallMs: d.turnStallMinutes * 60_000, idleMs: d.idleExitMinutes * 60_000, ghostApprovalMs: 15_000, interruptGraceMs: 15_000 };
}

/** What the chat does when a watchdog fires. */
export interface WatchdogHooks {
  /** Half of `stallMs` passed without output (`ms` = the whole stall time). */
  stallHalf(ms: number): void;
  /** Output came after `stallHalf` was told: the "no output" activity goes. */
  stallReset(): void;
  /** All of `stallMs` passed without output: the turn is stopped. */
  stallFull(ms: number): void;
  /** `idleMs` passed since the queue drained. */
  idleExit(): void;
  /** Codex reported waiting on an approval for `ghostApprovalMs`. */
  ghost(): void;
}

/** The chat's timers (see the module comment). */
export class Watchdogs {
  private stall: TimerHandle | null = null;
  private stallHalfTold = false;
  private idle: TimerHandle | null = null;
  private ghostTimer: TimerHandle | null = null;
  private grace: TimerHandle | null = null;

  constructor(
    readonly timing: ChatTiming,
    readonly clock: Clock,
    private readonly on: WatchdogHooks,
  ) {}

  /**
   * (Re)arms the stall watchdog: `eligible` when a turn or compaction runs and no approval waits (the
   * watchdog pauses while one does). Told at half of `stallMs`, stopped at all of it.
   */
  armStall(eligible: boolean): void {
    this.clearStall();
    const ms = this.timing.stallMs;
    if (!ms || !eligible) return;
    if (this.stallHalfTold) {
      this.stallHalfTold = false;
      this.on.stallReset();
    }
    this.stall = this.clock.setTimeout(
      () => {
        this.stallHalfTold = true;
        this.on.stallHalf(ms);
        this.stall = this.clock.setTimeout(
          () => {
            this.stall = null;
            this.on.stallFull(ms);
          },
          ms / 2,
          { unref: true },
        );
      },
      ms / 2,
      { unref: true },
    );
  }

  clearStall(): void {
    if (this.stall) this.clock.clearTimeout(this.stall);
    this.stall = null;
  }

  /** After the queue drains (`eligible`: a process runs): `idleExit` after `idleMs`, unless re-armed or cleared. */
  armIdle(eligible: boolean): void {
    this.clearIdle();
    if (!eligible || !this.timing.idleMs) return;
    this.idle = this.clock.setTimeout(
      () => {
        this.idle = null;
        this.on.idleExit();
      },
      this.timing.idleMs,
      { unref: true },
    );
  }

  clearIdle(): void {
    if (this.idle) this.clock.clearTimeout(this.idle);
    this.idle = null;
  }

  /** Codex's thread status: `waiting` on an approval arms the ghost watchdog once; not waiting clears it. */
  watchGhost(waiting: boolean): void {
    if (!waiting) return this.clearGhost();
    if (this.ghostTimer) return;
    this.ghostTimer = this.clock.setTimeout(
      () => {
        this.ghostTimer = null;
        this.on.ghost();
      },
      this.timing.ghostApprovalMs,
      { unref: true },
    );
  }

  clearGhost(): void {
    if (this.ghostTimer) this.clock.clearTimeout(this.ghostTimer);
    this.ghostTimer = null;
  }

  /** Cancelled work waits at most `interruptGraceMs` for its `turn/started`, then `fn` interrupts it. */
  armGrace(fn: () => void): void {
    this.clearGrace();
    this.grace = this.clock.setTimeout(fn, this.timing.interruptGraceMs);
  }

  clearGrace(): void {
    if (this.grace) this.clock.clearTimeout(this.grace);
    this.grace = null;
  }

  /** `interruptGraceMs` after a `turn/interrupt` was answered: `fn` checks that the turn ended. */
  afterInterrupt(fn: () => void): void {
    this.clock.setTimeout(fn, this.timing.interruptGraceMs, { unref: true });
  }

  /** Stops the stall, idle and ghost watchdogs (dispose). */
  clearAll(): void {
    this.clearStall();
    this.clearIdle();
    this.clearGhost();
  }
}

/** The longest delay one Node timer can wait (2^31 - 1 ms, about 24.8 days); longer ones fire after 1 ms. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * One timer set for a moment (epoch ms) on a clock: the usage pause's resume at the reset time
 * (core/usage/store.ts). Setting it again replaces the earlier moment; a moment passed fires at once.
 */
export class Alarm {
  private handle: TimerHandle | null = null;

  constructor(private readonly clock: Clock) {}

  /**
   * `fn` at `atMs` (epoch ms), replacing any earlier setting. A time further than MAX_TIMER_MS away is
   * waited for in steps (Node runs a longer timer after 1 ms), so a pause a month long lasts a month.
   */
  set(atMs: number, fn: () => void): void {
    this.clear();
    const wait = Math.max(0, atMs - this.clock.now());
    this.handle = this.clock.setTimeout(
      () => {
        this.handle = null;
        if (wait > MAX_TIMER_MS) this.set(atMs, fn);
        else fn();
      },
      Math.min(wait, MAX_TIMER_MS),
      { unref: true },
    );
  }

  clear(): void {
    if (this.handle) this.clock.clearTimeout(this.handle);
    this.handle = null;
  }
}
