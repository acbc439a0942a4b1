/**
 * A warm agent taken into use (docs/architecture.md "Warm agents"): the first turn of a chat whose Codex
 * was started before the message (warm/warmer.ts) takes the agent over, unless the table was accepted
 * or the profile compiled since it started; then the agent is stopped and the turn's start makes a new
 * one from the table and compile in force (the same launch path, chats/process.ts). Either way the
 * agent is no longer warm: from here on it is the chat's, like any agent a message started.
 */
import type { ChatInside } from '../inside';

/**
 * Before a turn's start (turn/run.ts): clears the chat's warm mark and, when the agent is stale, waits
 * for a start still in progress and stops the process, so the turn starts a fresh one. Never throws for
 * the staleness itself; a stop's error is the stop's.
 */
export async function takeWarm(c: Pick<ChatInside, 'warm' | 'starting' | 'stopProcess'>): Promise<void> {
  const mark = c.warm;
  if (!mark) return;
  c.warm = null;
  if (!mark.stale()) return;
  await c.starting?.catch(() => undefined);
  await c.stopProcess();
}
