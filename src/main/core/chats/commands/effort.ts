/** `/effort` lists the reasoning efforts the model offers; `/effort <level>` sets one for this session; `/effort default` clears it. */
import { chooseEffort, describeEfforts } from '../../codex/models';
import type { CommandContext } from './context';

export async function effortCommand(ctx: CommandContext, arg: string): Promise<void> {
  const models = await ctx.liveModels();
  const row = ctx.ensureRow();
  const model = row.model ?? ctx.base().model;
  const force = ctx.inForce(row);
  const source = force.effortSource === 'this session' ? 'session' : force.effortSource === 'profile' ? 'profile' : undefined;
  // A set effort is named as such; a model's default is shown by describeEfforts itself.
  const shown = source || force.effortSource === 'codex config' ? force.effort : null;
  if (!arg) return ctx.notice(describeEfforts(models, model, shown, source));
  const choice = chooseEffort(models, model, arg);
  if ('clear' in choice) {
    const next = ctx.sessions.setOverride(ctx.chatId, { effort: null });
    return ctx.notice(`Effort back to ${ctx.inForce(next).effort ?? 'the model\u2019s default'} from the next turn.`);
  }
  ctx.sessions.setOverride(ctx.chatId, { effort: choice.effort });
  ctx.notice(`Effort ${choice.effort} for this session, from the next turn. /effort default goes back.`);
}
