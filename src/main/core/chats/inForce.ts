/**
 * The model and effort a chat's next `turn/start` sends (README "Chats": `/model`, `/effort`), and where
 * each comes from; pure. Shown by the chat list and `/status`, sent with every turn (TurnStartParams
 * `model`, `effort`: "this turn and subsequent turns").
 */
import type { ModelInfo } from '../codex/models';
import type { InForce } from './inside';
import type { SessionRow } from './sessions';

/** What the chat knows besides the session row: the base model, the configured and reported efforts, the last catalog. */
export interface ForceBasis {
  baseModel: string | null;
  baseSource: 'profile' | 'codex default';
  configuredEffort: { effort: string; source: 'profile' | 'codex config' } | null;
  reportedEffort: string | null;
  catalog: readonly ModelInfo[];
}

/**
 * Model: the session's override, else the profile's or Codex's. Effort, the first the model offers (per
 * the last `model/list`; anything goes without one): the session's override, the profile's (or Codex
 * config's), the model's default from the catalog, else what Codex reported at the thread start.
 */
export function inForce(row: SessionRow | null, b: ForceBasis): InForce {
  const model = row?.model ?? b.baseModel;
  const modelSource = row?.model ? 'this session' : b.baseSource;
  const info = model ? (b.catalog.find((m) => m.id.toLowerCase() === model.toLowerCase()) ?? null) : null;
  const offered = (e: string): boolean => !info?.efforts.length || info.efforts.includes(e);
  if (row?.effort && offered(row.effort)) return { model, modelSource, effort: row.effort, effortSource: 'this session' };
  const set = b.configuredEffort;
  if (set && offered(set.effort)) return { model, modelSource, effort: set.effort, effortSource: set.source };
  if (info?.defaultEffort) return { model, modelSource, effort: info.defaultEffort, effortSource: `default of ${info.id}` };
  return { model, modelSource, effort: b.reportedEffort, effortSource: b.reportedEffort ? 'codex default' : null };
}
