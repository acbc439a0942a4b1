/**
 * The warm planner: which chats' agents to start before their first message, and which warm ones to
 * stop or start again (docs/architecture.md "Warm agents"). A WARM agent is a Codex process started
 * for a chat before anyone sent it a message (the same launch, proof and attestation as a cold start,
 * chats/process.ts) that has run no turn yet; once a turn runs on it, it is the chat's like any other
 * and the planner never touches it again (idle reaping, `idle_exit_minutes`, stops it as before).
 *
 * Pure: given the chats (last use, what runs, the table generation each warm agent started under, its
 * memory), the chats wanted now (opened or focused in a window or the tray, or the most recently used
 * at app start) and the budget of `[defaults]` (`warm_agents`, `warm_memory_mb`), it returns the chats
 * to start, to stop and to start again. Rules:
 * - nothing is started or kept warm when either budget is 0;
 * - the wanted chats come first (in the order given), then the warm agents already running, most
 *   recently used first: the least recently used warm agent is the first stopped when over budget;
 * - the memory of the warm agents is their measured RSS summed (an agent not measured yet counts
 *   `estimateMb`); an agent is kept (or started) only while the sum fits `warm_memory_mb`;
 * - a warm agent started under an older table generation (a table accepted or a profile compiled since)
 *   is started again when it is kept, and stopped otherwise;
 * - a chat that is busy (a turn running or waiting, a start in progress) or cannot start (refused, crash
 *   loop) is never started or stopped here.
 */

/** One chat as the planner sees it. Times are milliseconds since the epoch; memory is in MB. */
export interface WarmChat {
  id: string;
  /** When the chat was last used (shown, sent to, its session used); null: never. */
  lastUsed: number | null;
  /** Its Codex runs now and was started by warming, with no turn since (a warm agent). */
  warm: boolean;
  /** A turn runs or waits, a start is in progress, or its Codex runs after a turn: not the planner's. */
  busy: boolean;
  /** Whether a start may be tried (false: refused, crash loop, profile gone). */
  startable: boolean;
  /** The table generation a warm agent started under (null when not warm). */
  generation: number | null;
  /** The measured RSS of its Codex, in MB (null: not measured, or none runs). */
  rssMb: number | null;
}

/** `[defaults]` `warm_agents` and `warm_memory_mb`. */
export interface WarmBudget {
  agents: number;
  memoryMb: number;
}

/** What the planner decides from. */
export interface WarmInput {
  chats: readonly WarmChat[];
  /** Chat ids wanted warm now, most wanted first (unknown ids are ignored). */
  want: readonly string[];
  budget: WarmBudget;
  /** The table generation in force now (bumped by every accepted table and compile). */
  generation: number;
  /** The RSS assumed for an agent not measured yet, in MB. */
  estimateMb: number;
}

/** What to do: chats to start warm, warm agents to stop, and warm agents to start again (stale). */
export interface WarmDecision {
  start: string[];
  stop: string[];
  restart: string[];
}

/**
 * Plans the warm agents (see the module comment). Pure; each id appears in at most one list. Never
 * returns a busy chat. Order: `start` and `restart` most wanted first, `stop` least recently used first.
 */
export function planWarm(input: WarmInput): WarmDecision {
  const byId = new Map(input.chats.map((c) => [c.id, c]));
  const warm = input.chats.filter((c) => c.warm && !c.busy);
  const off = input.budget.agents <= 0 || input.budget.memoryMb <= 0;
  const ranked: WarmChat[] = [];
  if (!off) {
    for (const id of new Set(input.want)) {
      const c = byId.get(id);
      if (c && !c.busy && (c.warm || c.startable)) ranked.push(c);
    }
    const recentFirst = [...warm].sort((a, b) => (b.lastUsed ?? -Infinity) - (a.lastUsed ?? -Infinity) || a.id.localeCompare(b.id));
    for (const c of recentFirst) if (!ranked.includes(c)) ranked.push(c);
  }
  let memory = 0;
  const keep = new Set<string>();
  for (const c of ranked) {
    if (keep.size >= input.budget.agents) break;
    const need = c.rssMb ?? input.estimateMb;
    if (memory + need > input.budget.memoryMb) continue;
    memory += need;
    keep.add(c.id);
  }
  const kept = ranked.filter((c) => keep.has(c.id));
  const stale = (c: WarmChat): boolean => c.generation !== null && c.generation !== input.generation;
  return {
    start: kept.filter((c) => !c.warm).map((c) => c.id),
    restart: kept.filter((c) => c.warm && stale(c)).map((c) => c.id),
    stop: warm
      .filter((c) => !keep.has(c.id))
      .sort((a, b) => (a.lastUsed ?? -Infinity) - (b.lastUsed ?? -Infinity) || a.id.localeCompare(b.id))
      .map((c) => c.id),
  };
}

/**
 * The chats to warm when the app starts: those with a past session (a thread a turn ran on, so its
 * start resumes it), most recently used first, at most `budget.agents` (the planner then applies the
 * memory ceiling). Pure. `chats`: id and the last use of its active session (null: no past session).
 */
export function warmAtStart(chats: readonly { id: string; lastUsed: number | null }[], budget: WarmBudget): string[] {
  if (budget.agents <= 0 || budget.memoryMb <= 0) return [];
  return chats
    .filter((c): c is { id: string; lastUsed: number } => c.lastUsed !== null)
    .sort((a, b) => b.lastUsed - a.lastUsed || a.id.localeCompare(b.id))
    .slice(0, budget.agents)
    .map((c) => c.id);
}
