/**
 * Reaping the Codex children a dead Angelia process left behind (by identity, never by name), from the record in
 * `<state>/private/children.json` (children.ts). Run once when an Angelia process starts (`Orchestrator.create`).
 *
 * For each recorded child:
 * - its owner (the Angelia pid + start time that spawned it) still runs → left alone (another Angelia
 *   may be using it); the entry is dropped only when the child itself is gone;
 * - recorded in an earlier boot → dropped, nothing signalled (every process of that boot is gone);
 * - no start time recorded (identity unknown on this platform) → never signalled, dropped, reported;
 * - no process with that pid, or one with another start time (the pid was reused) → never signalled, dropped;
 * - same pid AND same start time → SIGKILL to its process group and every process of its session
 *   (reap.ts), then dropped once they are gone (kept and reported if still running after `waitMs`).
 * Nothing is ever looked up or killed by name.
 */
import { bootId, processInfo, type ProcessInfo } from './identity';
import { ChildLedger, childrenFile, type ChildRecord } from './children';
import { sessionMembers, signalTree } from './reap';

/** What one reap found, by outcome. */
export interface ReapReport {
  /** Orphans that were running with their recorded identity and were killed with their session. */
  killed: ChildRecord[];
  /** Entries of an Angelia process that still runs: untouched. */
  kept: ChildRecord[];
  /** Entries dropped without signalling anything, with the reason. */
  dropped: { record: ChildRecord; reason: string }[];
  /** Entries whose process still ran after SIGKILL and `waitMs`; kept for the next reap. */
  survived: ChildRecord[];
}

/** Options of `reapOrphans`. */
export interface ReapOptions {
  /** How long to wait for a killed orphan's session to be gone, ms (default 3000). */
  waitMs?: number;
}

const key = (r: ChildRecord): string => `${r.pid}/${r.startTime ?? '?'}`;

function ownerAlive(r: ChildRecord): boolean {
  const now = processInfo(r.owner.pid);
  // Unknown owner start time: a process with that pid counts as alive (never kill what might be in use).
  if (r.owner.startTime === null) return now !== null || processExists(r.owner.pid);
  return now?.startTime === r.owner.startTime;
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function gone(pid: number, startTime: string, waitMs: number): Promise<boolean> {
  const end = Date.now() + waitMs;
  for (;;) {
    const leaderGone = processInfo(pid)?.startTime !== startTime;
    if (leaderGone && sessionMembers(pid).length === 0) return true;
    if (Date.now() >= end) return false;
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Why a child of a dead owner is not signalled, or null when it is the recorded process. */
function refusal(r: ChildRecord, now: ProcessInfo | null, boot: string | null): string | null {
  if (r.boot !== null && boot !== null && r.boot !== boot) return 'recorded before the last reboot';
  if (r.startTime === null) return `its start time was not recorded (${process.platform} identity unknown), so Angelia refuses to signal pid ${r.pid}`;
  if (now === null) return 'no longer running';
  if (now.startTime !== r.startTime) return `pid ${r.pid} now belongs to another process (started ${now.startTime}, recorded ${r.startTime})`;
  return null;
}

/**
 * Kills the recorded Codex children whose Angelia owner is dead (see the module comment) and drops them
 * from `<stateDir>/private/children.json`. Throws AppFailure `state-file` when the record is unreadable.
 */
export async function reapOrphans(stateDir: string, opts: ReapOptions = {}): Promise<ReapReport> {
  const ledger = new ChildLedger(childrenFile(stateDir));
  const report: ReapReport = { killed: [], kept: [], dropped: [], survived: [] };
  const boot = bootId();
  const waits: Promise<void>[] = [];
  for (const r of ledger.list()) {
    const now = processInfo(r.pid);
    if (ownerAlive(r)) {
      if (r.startTime !== null && now?.startTime !== r.startTime) report.dropped.push({ record: r, reason: 'no longer running' });
      else report.kept.push(r);
      continue;
    }
    const why = refusal(r, now, boot);
    if (why !== null || r.startTime === null) {
      report.dropped.push({ record: r, reason: why ?? 'identity unknown' });
      continue;
    }
    signalTree(r.pid, 'SIGKILL');
    const startTime = r.startTime;
    waits.push(gone(r.pid, startTime, opts.waitMs ?? 3_000).then((ok) => void (ok ? report.killed : report.survived).push(r)));
  }
  await Promise.all(waits);
  const drop = new Set([...report.killed, ...report.dropped.map((d) => d.record)].map(key));
  // Re-read: children spawned meanwhile by this process must stay recorded.
  if (drop.size > 0) ledger.update((list) => list.filter((r) => !drop.has(key(r))));
  return report;
}
