/**
 * `/resume` lists the chat's sessions; `/resume <n|id>` switches to one (refused while work runs or
 * waits, or while another chat holds its thread) and shows its past turns after the notice.
 */
import { sessionRef, sessionsText } from '../commands';
import type { CommandContext } from './context';

export async function resumeCommand(ctx: CommandContext, arg: string): Promise<void> {
  const active = ctx.sessions.active(ctx.chatId);
  // Short ids are unique among every session of the chat, so what the list shows resolves (sessions.ts findSession).
  const ids = ctx.sessions.list(ctx.chatId, Number.MAX_SAFE_INTEGER).map((r) => r.id);
  if (!arg) return ctx.notice(sessionsText(ctx.sessions.list(ctx.chatId), active?.id ?? null, ids));
  const before = active?.id ?? null;
  const found = ctx.sessions.find(ctx.chatId, arg);
  if ('error' in found) return ctx.notice(found.error);
  const row = found.row;
  if (row.threadId) {
    const holder = ctx.threadHeldElsewhere(row.threadId);
    if (holder) return ctx.notice(`That session is open in the chat "${holder}"; one conversation runs in one chat at a time.`);
  }
  if (row.id === before) return ctx.notice(`Already on ${sessionRef(row, ids)} · ${row.label || '(no message yet)'}.`);
  let busy = ctx.busyFor('/resume');
  if (busy) return ctx.notice(busy);
  await ctx.settleForSwitch();
  busy = ctx.busyFor('/resume');
  if (busy) return ctx.notice(busy);
  const stopOld = ctx.switchAway();
  const switched = ctx.sessions.setActive(ctx.chatId, row.id);
  if (!switched) {
    await stopOld();
    return ctx.notice('No such session. /resume lists them.');
  }
  ctx.adopt(switched.threadId);
  ctx.notice(`Resumed ${sessionRef(switched, ids)} · ${switched.label || '(no message yet)'}. The next message continues it.`);
  await stopOld();
  if (!switched.threadId || !switched.started) return;
  // Its past turns follow the notice; a message sent meanwhile waits for them.
  await ctx.showResumed(switched.threadId);
}
