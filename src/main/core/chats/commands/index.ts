/**
 * Runs a parsed chat command (../commands.ts `parseCommand`) against its chat (`CommandContext`): one
 * file per command in this folder. The commands cost no model tokens and never reach the agent.
 */
import { helpText, type ParsedCommand } from '../commands';
import type { CommandContext } from './context';
import { effortCommand } from './effort';
import { exportCommand } from './export';
import { modelCommand } from './model';
import { newCommand } from './new';
import { resumeCommand } from './resume';
import { statusLine } from './status';

/** Runs `cmd`; what it answers is said in the chat. Throws what the command throws (the chat says it). */
export async function runCommand(ctx: CommandContext, cmd: ParsedCommand): Promise<void> {
  switch (cmd.name) {
    case 'help':
      return ctx.notice(helpText());
    case 'status':
      return ctx.notice(statusLine(ctx));
    case 'stop':
      await ctx.stop();
      return;
    case 'new':
      return newCommand(ctx);
    case 'resume':
      return resumeCommand(ctx, cmd.arg);
    case 'model':
      return modelCommand(ctx, cmd.arg);
    case 'effort':
      return effortCommand(ctx, cmd.arg);
    case 'compact':
      ctx.enqueueCompact();
      return;
    case 'export':
      return exportCommand(ctx);
  }
}
