/**
 * `/model` lists the models Codex offers (`model/list`); `/model <name>` sets one for this session from
 * the next turn; `/model default` clears it. A session effort the new model does not offer is cleared.
 */
import { chooseModel, describeModels, effortsFor, type ModelInfo } from '../../codex/models';
import type { SessionRow } from '../sessions';
import type { CommandContext } from './context';

export async function modelCommand(ctx: CommandContext, arg: string): Promise<void> {
  const models = await ctx.liveModels();
  const row = ctx.ensureRow();
  const base = ctx.base();
  if (!arg) {
    return ctx.notice(describeModels(models, { model: row.model ?? base.model, source: row.model ? 'session' : base.source }));
  }
  const choice = chooseModel(models, arg);
  const text =
    'clear' in choice
      ? `Model back to ${base.model ?? 'Codex\u2019s default'} (${base.source}) from the next turn.`
      : `Model ${choice.model} for this session, from the next turn (Codex first summarises the conversation for the new model).${choice.note ? ` ${choice.note}` : ''} /model default goes back.`;
  const next = ctx.sessions.setOverride(ctx.chatId, { model: 'clear' in choice ? null : choice.model });
  ctx.notice(`${text}${recheckEffort(ctx, models, next)}`);
}

/**
 * After a model change: a session effort the new model does not offer is cleared (the model list says
 * which it offers; with no list nothing is checked). Returns what to add to the reply: the sentence that
 * says it was cleared (when it was) and the effort in force from the next turn, with where it comes from.
 */
function recheckEffort(ctx: CommandContext, models: ModelInfo[], row: SessionRow): string {
  const model = row.model ?? ctx.base().model;
  let said = '';
  if (row.effort && models.length && !effortsFor(models, model).includes(row.effort)) {
    said = ` Effort ${row.effort} (set for this session) is not offered by ${model ?? 'Codex\u2019s default model'} (it offers ${effortsFor(models, model).join(', ')}), so it was cleared.`;
    row = ctx.sessions.setOverride(ctx.chatId, { effort: null });
  }
  const force = ctx.inForce(row);
  return `${said} Effort from the next turn: ${force.effort ?? 'the model\u2019s default'}${force.effortSource ? ` (${force.effortSource})` : ''}.`;
}
