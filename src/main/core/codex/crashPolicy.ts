/**
 * When a chat's Codex process may be started again after it died unexpectedly (README "Chats": a crashed
 * Codex offers Restart, which resumes the thread). The next message restarts it, unless it crashed
 * `MAX_CRASHES` times within `CRASH_WINDOW_MS`: then starts are refused until the oldest of those exits
 * leaves the window, so a Codex that dies on every start does not spin. Deliberate stops (dispose, a
 * refused start) are not crashes. Pure apart from `CrashHistory` keeping the list.
 */

/** Most unexpected exits of one chat's Codex inside the window before restarts are refused (3). */
export const MAX_CRASHES = 3;

/** The sliding window the crashes are counted in, in milliseconds (10 minutes). */
export const CRASH_WINDOW_MS = 10 * 60_000;

/** One unexpected exit: when (epoch ms), how ("signal SIGKILL", "exit code 101") and the stderr cause. */
export interface Crash {
  at: number;
  how: string;
  cause: string | null;
}

/** The limits `restartVerdict` applies (defaults: `MAX_CRASHES`, `CRASH_WINDOW_MS`). */
export interface CrashLimits {
  max: number;
  windowMs: number;
}

/** Whether a start is allowed now; when not, how many crashes count, the last one, and when a start is allowed again (epoch ms). */
export type RestartVerdict = { allowed: true } | { allowed: false; crashes: number; last: Crash; retryAt: number };

const DEFAULT_LIMITS: CrashLimits = { max: MAX_CRASHES, windowMs: CRASH_WINDOW_MS };

/**
 * Decides whether Codex may start again at `now`: refused while at least `limits.max` crashes happened in
 * the window ending at `now` (a crash exactly `windowMs` old no longer counts). `retryAt` is when enough
 * of them have left the window.
 */
export function restartVerdict(crashes: readonly Crash[], now: number, limits: CrashLimits = DEFAULT_LIMITS): RestartVerdict {
  const recent = crashes.filter((c) => c.at <= now && now - c.at < limits.windowMs).sort((a, b) => a.at - b.at);
  if (recent.length < limits.max) return { allowed: true };
  // Allowed again once only max-1 remain: when the crash max places before the last one ages out.
  const pivot = recent[recent.length - limits.max]!;
  return { allowed: false, crashes: recent.length, last: recent[recent.length - 1]!, retryAt: pivot.at + limits.windowMs };
}

/** The chat's explanation of a refused restart: that Codex keeps crashing, the last cause, and when to try again. */
export function crashLoopMessage(v: Extract<RestartVerdict, { allowed: false }>, limits: CrashLimits = DEFAULT_LIMITS): string {
  const minutes = Math.round(limits.windowMs / 60_000);
  const at = new Date(v.retryAt).toLocaleTimeString();
  return (
    `Codex keeps crashing: it exited unexpectedly ${v.crashes} times in ${minutes} minutes (last: ${v.last.how}` +
    `${v.last.cause ? `, "${v.last.cause.split('\n').join(' ')}"` : ', nothing on stderr'}). Angelia will not start it again ` +
    `before ${at}; send your message again after that.`
  );
}

/** The crashes of one chat, pruned to the window. */
export class CrashHistory {
  private crashes: Crash[] = [];

  constructor(private readonly limits: CrashLimits = DEFAULT_LIMITS) {}

  /** Records a crash and returns the verdict for a start right after it. */
  note(crash: Crash): RestartVerdict {
    this.crashes = [...this.crashes.filter((c) => crash.at - c.at < this.limits.windowMs), crash];
    return this.verdict(crash.at);
  }

  /** The verdict for a start at `now` (epoch ms). */
  verdict(now: number): RestartVerdict {
    return restartVerdict(this.crashes, now, this.limits);
  }

  /** `crashLoopMessage` with this history's limits. */
  message(v: Extract<RestartVerdict, { allowed: false }>): string {
    return crashLoopMessage(v, this.limits);
  }
}
