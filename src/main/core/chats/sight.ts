/**
 * A running chat never keeps sight of what a newly accepted table takes away from its profile
 * (docs/security-model.md "Filesystem: private by default"). A profile added while a chat runs is not
 * in that chat's grants, so its folder is unreadable by construction; but when the new table denies
 * something the running Codex can still see or change (a capability denied, a read_dir removed, a new
 * profile's folder inside a read_dir), the chat restarts before its next turn, resuming its thread, and
 * says so (chat.ts `restartBeforeNextTurn`). Codex 0.169.0 builds each command's sandbox from the
 * permission profile it was started with, so nothing short of a restart changes what it grants.
 */
import { compileCodexLaunch } from '../compile/codexProfile';
import { lostAccess } from '../compile/entries';
import type { CompileFacts } from '../compile/facts';
import { mailboxDirFor } from '../launch/mailbox';
import type { InstancePaths } from '../instance/paths';
import type { LoadedTable } from '../table/load';
import type { LaunchPlan } from '../launch/plan';

/** What `restartWhereSightIsLost` needs of a chat. */
export interface SightChat {
  readonly id: string;
  view(): { profile: string };
  runningPlan(): LaunchPlan | null;
  restartBeforeNextTurn(why: string): void;
}

/**
 * Why a chat running under `plan` must restart under `table` (compiled with `facts` and the chat's own
 * mailbox), or null when the table takes nothing away from it: a sentence naming the first places lost.
 * A profile no longer in the table is left alone (the chat says so itself, chats/mode.ts). A table that
 * no longer compiles for the profile restarts it too (its next start then says why). Pure.
 */
export function sightLost(plan: LaunchPlan, profile: string, table: LoadedTable, facts: CompileFacts, stateDir: string, chatId: string): string | null {
  if (!plan.sandboxed || !plan.filesystem || !Object.hasOwn(table.profiles, profile)) return null;
  let now: Record<string, 'read' | 'write' | 'deny'>;
  try {
    now = compileCodexLaunch(table, profile, facts, { mailbox: mailboxDirFor(stateDir, chatId) }).filesystem;
  } catch (e) {
    return `The accepted table no longer compiles for profile ${profile} (${e instanceof Error ? e.message : String(e)})`;
  }
  const lost = lostAccess(plan.filesystem, now);
  if (lost.length === 0) return null;
  return `The accepted table takes away from profile ${profile} what this agent could still see or change: ${lost.slice(0, 3).join(', ')}${lost.length > 3 ? ` and ${lost.length - 3} more` : ''}`;
}

/**
 * Marks each chat whose running Codex sees more than `table` gives its profile for a restart before its
 * next turn (`sightLost`). `facts` is read once, and only when some chat runs sandboxed. Never throws
 * for one chat's sake.
 */
export async function restartWhereSightIsLost(
  chats: Iterable<SightChat>,
  table: LoadedTable,
  paths: InstancePaths,
  facts: () => Promise<CompileFacts>,
): Promise<void> {
  let read: CompileFacts | null = null;
  for (const chat of chats) {
    const plan = chat.runningPlan();
    if (!plan?.sandboxed || !plan.filesystem) continue;
    read ??= await facts();
    const why = sightLost(plan, chat.view().profile, table, read, paths.stateDir, chat.id);
    if (why) chat.restartBeforeNextTurn(why);
  }
}
