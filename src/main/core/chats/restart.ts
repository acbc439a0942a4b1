/**
 * A chat's restarts and failed starts: the refusal shown when its agent did not start (what waited is
 * dropped and counted), the restart the accepted table asked for before the next turn
 * (chat.ts `restartBeforeNextTurn`), and Restart (chat.ts `restart`). docs/architecture.md flow (a).
 */
import { toAppError } from '../../../shared/result';
import type { ChatInside } from './inside';
import { modePhrase } from './mode';
import { NOT_SIGNED_IN } from '../codex/signInGate';

/** Shows why the agent did not start and drops what waited for it (`dropped`, named in the transcript). */
export function failStart(c: ChatInside, e: unknown, dropped: number): void {
  const error = toAppError(e);
  // No sandbox is in force for a chat whose agent did not start: never show the last session's badge.
  c.enforcement = null;
  c.refusal = `${error.message}${/[.!?]$/.test(error.message) ? '' : '.'}${error.fix ? ` Fix: ${error.fix}` : ''}`;
  const busy = error.code === 'thread-busy';
  c.transcript.push({
    type: 'error',
    id: c.transcript.localId('refused'),
    message: busy ? c.refusal : `This chat's agent was not started: ${c.refusal}`,
    detail: `Nothing was sent to it${dropped ? ` (${dropped} queued message(s) dropped)` : ''}.`,
    kind: busy ? 'threadBusy' : error.code === 'refused' ? 'refused' : 'startFailed',
    // Restart cannot help a refusal, a crash loop or a Codex that is not signed in (signing in is the fix).
    ...(error.code === 'refused' || error.code === 'crash-loop' || error.code === NOT_SIGNED_IN ? {} : { action: 'restart' as const }),
  });
  c.changed(error.code === 'refused' ? 'refused' : 'error');
}

/**
 * Before a turn, a Codex started under an older table than the one in force is checked against it now:
 * a table accepted while the process was starting (a warm start, or a turn's own start) found no process
 * to check (sight.ts checks running ones), so without this the agent would keep what the new table takes
 * away (docs/security-model.md "Filesystem: private by default"). Restarts it (resuming the thread, said
 * in the chat) when the new table takes something away, again while the table keeps changing during the
 * restart (at most 5 times). Throws what the start throws.
 */
export async function recheckSight(c: ChatInside): Promise<void> {
  for (let round = 0; round < 5; round++) {
    const now = c.deps.tableNow?.();
    if (!c.conn || !c.lastPlan || !now || !c.deps.sightNow || c.planTable === now) return;
    const why = await c.deps.sightNow(c.lastPlan);
    if (!why) {
      c.planTable = now;
      return;
    }
    c.restartBeforeNextTurn(why);
    await restartIfTaken(c);
    await c.ensureStarted();
  }
}

/** Applies chat.ts `restartBeforeNextTurn` before a turn: stops the process (the turn's start resumes the thread). */
export async function restartIfTaken(c: ChatInside): Promise<void> {
  const why = c.restartWhy;
  c.restartWhy = null;
  if (!why || !c.conn) return;
  await c.stopProcess();
  c.restarted = why;
}

/** chat.ts `restart` (see there). */
export async function restartCodex(c: ChatInside): Promise<boolean> {
  let applying = false;
  if (c.conn) {
    if (!c.currentMode().tableChanged) return true;
    if (c.turn.current || c.turn.queue.length || c.starting) {
      c.notice(
        'The profile changed, but a turn is running or messages wait in this chat, so it was not restarted. Send /stop first (or wait until it ends), then Restart.',
      );
      return false;
    }
    await c.stopProcess();
    applying = true;
  }
  try {
    await c.ensureStarted();
    c.notice(
      applying
        ? `Codex was restarted with the profile as the table has it now: ${modePhrase(c.currentMode())}. The conversation continues where it was.`
        : 'Codex is running again; the conversation continues where it was.',
    );
    if (!c.turn.current) c.changed('idle');
    c.armIdle();
    return true;
  } catch (e) {
    failStart(c, e, 0);
    return false;
  }
}
