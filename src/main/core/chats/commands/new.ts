/** `/new`: a new session in this chat (the current one stays reachable with `/resume`); refused while work runs or waits. */
import type { CommandContext } from './context';

export async function newCommand(ctx: CommandContext): Promise<void> {
  let busy = ctx.busyFor('/new');
  if (busy) return ctx.notice(busy);
  await ctx.settleForSwitch();
  busy = ctx.busyFor('/new');
  if (busy) return ctx.notice(busy);
  // Switched at once (no await before the notice), so a message sent right after goes to the new session.
  const stopOld = ctx.switchAway();
  ctx.sessions.startNew(ctx.chatId, ctx.profile);
  ctx.adopt(null);
  // No id here: the row's id is provisional until Codex mints the thread with the first message.
  ctx.notice(
    'New session started: it gets its id from Codex with your first message (then shown by /resume and /status). The previous one stays reachable with /resume.',
  );
  await stopOld();
}
