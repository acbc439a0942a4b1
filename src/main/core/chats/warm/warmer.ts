/**
 * The warmer: the effects of the warm planner (warm/planner.ts; docs/architecture.md "Warm agents").
 * When a chat is shown (opened or focused in a window or the tray: the contract's `chats:shown`), when
 * the app starts (`atStart`: the chats with a past session used most recently) and when the accepted
 * table changes, it reads the chats and the memory of their warm agents, asks the planner, and starts,
 * stops or starts again what it says. A warm start is the chat's own start (`Chat.ensureStarted`: the
 * launch plan, the proof and the attestation of a cold start, chats/process.ts) with no turn after it:
 * nothing reaches the model before a message is sent. A warm agent is a running chat like any other
 * (status, children.json, idle reaping after `idle_exit_minutes`); a failed warm start leaves the chat
 * as it was (the message that follows starts it and says why it cannot).
 */
import { readFileSync, statSync } from 'node:fs';
import type { Chat } from '../chat';
import { ChildLedger } from '../../codex/children';
import { planWarm, warmAtStart, type WarmBudget, type WarmChat } from './planner';
import type { WarmMark } from '../inside';

/** The RSS assumed for a warm agent before it can be measured, in MB (a codex app-server after thread/start, docs/benchmarks.md). */
export const WARM_ESTIMATE_MB = 160;

/** What the warmer works on; every function is read when a plan is made. */
export interface WarmerDeps {
  chats: () => Iterable<Chat>;
  /** `[defaults]` `warm_agents` and `warm_memory_mb` of the table in force. */
  budget: () => WarmBudget;
  /** When the chat's active session was last used (ms since the epoch), or null without a past session (no turn ran on it). */
  pastSession: (chatId: string) => number | null;
  /** Files whose change makes a warm agent of `profile` stale: the accepted table and the profile's launch guard (compile). */
  inputs: (profile: string) => string[];
  /** `<state>/private/children.json` (codex/children.ts): the pids of each chat's Codex, for its memory. */
  childrenFile: string;
  /**
   * True when a start of `profile` runs something outside the sandbox (an MCP server, its own `bin`) or no
   * sandbox at all: such a start is the person's to make (docs/security-model.md), so it is never warmed.
   */
  loosened?: (profile: string) => boolean;
  now?: () => number;
}

/** The stat of each file (inode, size, mtime), to tell a change; "-" for a file that is missing. */
export function fileStamp(files: readonly string[]): string {
  return files
    .map((f) => {
      try {
        const s = statSync(f);
        return `${s.ino}:${s.size}:${s.mtimeMs}`;
      } catch {
        return '-';
      }
    })
    .join('|');
}

/** When a session row was last used (ms since the epoch), or null when no turn ran on it (nothing to resume). */
export function sessionUsedAt(row: { started: boolean; last_used_at: string } | null): number | null {
  return row?.started ? Date.parse(row.last_used_at) : null;
}

/** The resident memory of process `pid` in MB (`VmRSS` of /proc/<pid>/status, Linux); null when it cannot be read. */
export function processRssMb(pid: number): number | null {
  try {
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

export class Warmer {
  private generation = 0;
  private readonly shownAt = new Map<string, number>();
  private queue: Promise<void> = Promise.resolve();
  private closed = false;
  private readonly now: () => number;

  constructor(private readonly deps: WarmerDeps) {
    this.now = deps.now ?? Date.now;
  }

  /**
   * A window or the tray shows `chatId` (opened or focused): it becomes the most recently used chat and
   * its agent is warmed within the budget, the least recently used warm agent stopped when over it.
   * Returns at once; the plan runs after the ones before it. Resolves when its stops are done and its
   * starts have begun.
   */
  shown(chatId: string): Promise<void> {
    this.shownAt.set(chatId, this.now());
    return this.plan([chatId]);
  }

  /** At app start: warms the chats with a past session used most recently, within the budget. */
  atStart(): Promise<void> {
    const chats = [...this.deps.chats()].map((c) => ({ id: c.id, lastUsed: this.deps.pastSession(c.id) }));
    return this.plan(warmAtStart(chats, this.deps.budget()));
  }

  /** The accepted table changed: warm agents started before are started again (or stopped when over the new budget). */
  tableChanged(): Promise<void> {
    this.generation++;
    return this.plan([]);
  }

  /** Stops planning; warm agents are stopped with their chats (`Chat.dispose`). */
  close(): void {
    this.closed = true;
  }

  private plan(want: string[]): Promise<void> {
    this.queue = this.queue.then(() => this.apply(want)).catch(() => undefined);
    return this.queue;
  }

  private async apply(want: string[]): Promise<void> {
    if (this.closed) return;
    const chats = new Map([...this.deps.chats()].map((c) => [c.id, c]));
    const rss = this.rssByChat();
    const decision = planWarm({
      chats: [...chats.values()].map((c) => this.seen(c, rss)),
      want,
      budget: this.deps.budget(),
      generation: this.generation,
      estimateMb: WARM_ESTIMATE_MB,
    });
    await Promise.all([...decision.stop, ...decision.restart].map((id) => this.stop(chats.get(id))));
    for (const id of [...decision.restart, ...decision.start]) this.warmUp(chats.get(id));
  }

  /** The chat as the planner sees it; a warm mark whose process is gone is dropped here. */
  private seen(c: Chat, rss: Map<string, number>): WarmChat {
    const live = c.conn !== null || c.starting !== null;
    if (c.warm && !live) c.warm = null;
    const mark = c.warm;
    const busy = !mark && (live || c.turn.current !== null || c.turn.queue.length > 0);
    const lastShown = this.shownAt.get(c.id) ?? null;
    return {
      id: c.id,
      lastUsed: lastShown ?? this.deps.pastSession(c.id),
      warm: mark !== null,
      busy,
      startable:
        c.state !== 'refused' && c.crashes.verdict(c.watch.clock.now()).allowed && c.deps.profileNow?.() !== null && !this.deps.loosened?.(c.deps.profile),
      generation: mark ? (mark.stale() ? -1 : mark.generation) : null,
      rssMb: mark ? (rss.get(c.id) ?? null) : null,
    };
  }

  /** The RSS of each chat's recorded Codex processes, in MB (children.json; the processes that cannot be read count nothing). */
  private rssByChat(): Map<string, number> {
    const out = new Map<string, number>();
    let records: { pid: number; chatId: string }[];
    try {
      records = new ChildLedger(this.deps.childrenFile).list();
    } catch {
      return out;
    }
    for (const r of records) {
      const mb = processRssMb(r.pid);
      if (mb !== null) out.set(r.chatId, (out.get(r.chatId) ?? 0) + mb);
    }
    return out;
  }

  private async stop(c: Chat | undefined): Promise<void> {
    if (!c?.warm) return;
    c.warm = null;
    await c.starting?.catch(() => undefined);
    // Taken by a turn meanwhile: it is the chat's now.
    if (c.turn.current || c.turn.queue.length) return;
    await c.stopProcess();
    c.changed();
  }

  /** Starts the chat's agent as a warm one (see the module comment). Never throws. */
  private warmUp(c: Chat | undefined): void {
    if (!c || this.closed || c.conn || c.starting || c.turn.current) return;
    const stamp = fileStamp(this.deps.inputs(c.deps.profile));
    const mark: WarmMark = { generation: this.generation, stale: () => fileStamp(this.deps.inputs(c.deps.profile)) !== stamp };
    const before = { state: c.state, refusal: c.refusal };
    c.warm = mark;
    c.ensureStarted().then(
      () => {
        if (c.warm === mark && !c.turn.current) c.armIdle();
      },
      () => {
        if (c.warm === mark) c.warm = null;
        // Nothing asked for this start: the chat stays as it was; a message then starts it and says why it cannot.
        if (c.turn.current || c.turn.queue.length) return;
        c.refusal = before.refusal;
        c.changed(before.state);
      },
    );
  }
}
