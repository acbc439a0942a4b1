/**
 * The model and effort catalog behind `/model` and `/effort` (README "Chats"; codex 0.171.0 `model/list`):
 * what `model/list` offers on a live app-server, validation of a user's choice against it, and the text the
 * two commands show. The model id is only ever a catalog id; the effort is a separate setting (turn/start
 * `effort`), never appended to the id.
 *
 * Protocol (codex 0.171.0, generated `v2/ModelListParams.ts`, `ModelListResponse.ts`, `Model.ts`; measured with
 * `npx tsx scripts/measure/turn-errors.ts`): `model/list {cursor?, limit?, includeHidden?, modelProvider?}` →
 * `{data: Model[], nextCursor: string | null}`; `Model` has `id`, `model` (the slug), `displayName`, `hidden`,
 * `isDefault`, `supportedReasoningEfforts: [{reasoningEffort, description}]`, `defaultReasoningEffort`,
 * `upgrade` (a newer model's id or null), …
 * Measured offline on codex 0.171.0 (custom provider, no login): `model/list {}` answers from the catalog bundled
 * in the binary, with no HTTP request to the provider: 11 models in one page (`nextCursor: null`), in this order —
 * gpt-6.2-sol (isDefault, default effort low), gpt-6.2-astra (low), gpt-6.1-terra (low), gpt-6.1-sol (low),
 * gpt-6-astra (low), gpt-6-sol (medium), gpt-6-luna (medium), gpt-5.6-sol (low, upgrade gpt-6-sol), gpt-5.6-terra
 * (medium, upgrade gpt-6-sol), gpt-5.6-luna (medium, upgrade gpt-6-luna), gpt-5.5 (medium, upgrade gpt-6-sol).
 * (0.169.0 bundled 9: no gpt-6.2-*, gpt-6.1-sol the default, another order.) Efforts: low, medium, high, xhigh,
 * max, ultra for most; gpt-6-luna and gpt-5.6-luna stop at max; gpt-5.5 offers low…xhigh. `id` equals `model`
 * for every entry. `includeHidden:true` adds 3 hidden entries (gpt-daybreak-blue-latest,
 * gpt-daybreak-red-latest, codex-auto-review). `limit:3` pages with `nextCursor` "3", "6", "9", then null.
 * Codex itself does not check efforts: turn/start `effort:"bogus"` was sent to the model as
 * `reasoning:{effort:"bogus"}`, and `model:""` was sent as `model:""` — hence the checks here.
 */
import { AppFailure } from '../../../shared/result';
import type { CodexConnection } from './connection';
import { isObj, str } from './wire';

/**
 * One model `/model` can choose: `id` (the slug passed as turn/start `model`), `name` (display name),
 * `efforts` (supported reasoning efforts, catalog order), `defaultEffort`, and whether Codex marks it default.
 */
export interface ModelInfo {
  id: string;
  name: string;
  efforts: string[];
  defaultEffort: string | null;
  isDefault: boolean;
}

/** Effort levels offered when the model is not in Codex's list (so /effort still offers a choice). */
export const FALLBACK_EFFORTS: readonly string[] = ['low', 'medium', 'high', 'xhigh'];

/** The note attached to a model accepted without a catalog to check it against. */
export const NO_LIST_NOTE = 'Codex did not list its models just now.';

const DEFAULT_TTL_MS = 10 * 60_000;
const REQUEST_TIMEOUT_MS = 15_000;
const MAX_PAGES = 50;
const CLEAR_WORDS = new Set(['default', 'reset', 'none']);

/**
 * One `Model` of a `model/list` page as a ModelInfo, or null when it is hidden or has no id. `id` is the
 * `model` slug (falling back to `id`; the two were equal in every measured entry).
 */
export function toModelInfo(raw: unknown): ModelInfo | null {
  if (!isObj(raw) || raw.hidden === true) return null;
  const id = str(raw.model) || str(raw.id);
  if (!id) return null;
  const efforts = Array.isArray(raw.supportedReasoningEfforts)
    ? raw.supportedReasoningEfforts.map((e) => (isObj(e) ? str(e.reasoningEffort) : str(e))).filter((e): e is string => !!e)
    : [];
  return { id, name: str(raw.displayName) || id, efforts, defaultEffort: str(raw.defaultReasoningEffort), isDefault: raw.isDefault === true };
}

/**
 * The `model/list` catalog of a live connection, cached per key (the codex executable path). `list` reads all
 * pages (`cursor` ← `nextCursor` until null; at most 50 pages, stops on a repeated cursor), drops hidden
 * entries and duplicate ids, and caches a NON-EMPTY result for `ttlMs` (default 10 minutes). Concurrent calls
 * for one key share one listing. A failed listing (JSON-RPC error, 15 s timeout, exited process) resolves
 * to `[]` and is not cached: callers then accept any model name with `NO_LIST_NOTE`.
 */
export class ModelCatalog {
  private readonly ttlMs: number;
  private readonly now: () => number;
  private readonly cache = new Map<string, { at: number; models: ModelInfo[] }>();
  private readonly inflight = new Map<string, Promise<ModelInfo[]>>();

  /** `ttlMs` (default 600 000) and `now` (default Date.now) are for tests. */
  constructor(opts: { ttlMs?: number; now?: () => number } = {}) {
    this.ttlMs = opts.ttlMs ?? DEFAULT_TTL_MS;
    this.now = opts.now ?? Date.now;
  }

  /** The visible models (catalog order), from the cache when fresh, else from `model/list` on `conn`. Never rejects. */
  list(key: string, conn: CodexConnection): Promise<ModelInfo[]> {
    const hit = this.cache.get(key);
    if (hit && this.now() - hit.at < this.ttlMs) return Promise.resolve(hit.models.map((m) => ({ ...m, efforts: [...m.efforts] })));
    const running = this.inflight.get(key);
    if (running) return running;
    const job = this.fetch(conn)
      .then((models) => {
        if (models.length > 0) this.cache.set(key, { at: this.now(), models });
        return models.map((m) => ({ ...m, efforts: [...m.efforts] }));
      })
      .catch(() => [] as ModelInfo[])
      .finally(() => this.inflight.delete(key));
    this.inflight.set(key, job);
    return job;
  }

  /** Drops the cached list of `key` (or every key). */
  forget(key?: string): void {
    if (key === undefined) this.cache.clear();
    else this.cache.delete(key);
  }

  private async fetch(conn: CodexConnection): Promise<ModelInfo[]> {
    const out: ModelInfo[] = [];
    const seenIds = new Set<string>();
    const seenCursors = new Set<string>();
    let cursor: string | null = null;
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const result: unknown = await conn.request('model/list', cursor ? { cursor } : {}, { timeoutMs: REQUEST_TIMEOUT_MS });
      const data = isObj(result) && Array.isArray(result.data) ? result.data : [];
      for (const raw of data) {
        const m = toModelInfo(raw);
        if (m && !seenIds.has(m.id)) {
          seenIds.add(m.id);
          out.push(m);
        }
      }
      const next = isObj(result) ? str(result.nextCursor) : null;
      if (!next || seenCursors.has(next)) break;
      seenCursors.add(next);
      cursor = next;
    }
    return out;
  }
}

/** The model Codex uses when none is set: the one `model/list` marks `isDefault`, or null. */
export function defaultModel(models: ModelInfo[]): ModelInfo | null {
  return models.find((m) => m.isDefault) ?? null;
}

function findModel(models: ModelInfo[], name: string): ModelInfo | null {
  const n = name.trim().toLowerCase();
  return models.find((m) => m.id.toLowerCase() === n) ?? models.find((m) => m.name.toLowerCase() === n) ?? null;
}

const listIds = (models: ModelInfo[]): string => models.map((m) => (m.isDefault ? `${m.id} (default)` : m.id)).join(', ');

/**
 * Validates a `/model <name>` choice. `default`, `reset`, `none` (any case) → `{clear:true}` (back to the
 * profile's model or Codex's default). A listed id or display name (any case) → `{model: <catalog id>, note:
 * null}`. With an EMPTY list any name is accepted → `{model: name, note: NO_LIST_NOTE}`.
 * Throws AppFailure: `model-missing` (empty argument), `model-with-effort` ("gpt-5.5/high": effort goes in
 * /effort), `unknown-model` (not listed; the message lists the choices, default marked).
 */
export function chooseModel(models: ModelInfo[], arg: string): { clear: true } | { model: string; note: string | null } {
  const name = arg.trim();
  if (CLEAR_WORDS.has(name.toLowerCase())) return { clear: true };
  if (!name) {
    throw new AppFailure({
      code: 'model-missing',
      message: models.length ? `Name a model: ${listIds(models)}.` : 'Name a model.',
      fix: 'Send /model <name>, or /model default.',
    });
  }
  const slash = name.lastIndexOf('/');
  if (slash > 0) {
    const base = name.slice(0, slash);
    const effort = name.slice(slash + 1).toLowerCase();
    const known = findModel(models, base);
    const efforts = known?.efforts.length ? known.efforts : FALLBACK_EFFORTS;
    if ((known || !models.length) && efforts.includes(effort)) {
      throw new AppFailure({
        code: 'model-with-effort',
        message: `"${name}" joins a model and an effort; Codex takes them separately.`,
        fix: `Send /model ${known?.id ?? base}, then /effort ${effort}.`,
      });
    }
  }
  if (!models.length) return { model: name, note: NO_LIST_NOTE };
  const found = findModel(models, name);
  if (found) return { model: found.id, note: null };
  throw new AppFailure({
    code: 'unknown-model',
    message: `Codex does not offer the model "${name}". Choose one of: ${listIds(models)}.`,
    fix: 'Send /model <name> with one of those, or /model default.',
  });
}

/** The model an effort applies to: `model` when listed, else (no model set) the list's default, else null. */
function effectiveModel(models: ModelInfo[], model: string | null): ModelInfo | null {
  return model ? findModel(models, model) : defaultModel(models);
}

/** The effort levels offered for `model` (or the default model when null): its listed efforts, else FALLBACK_EFFORTS. */
export function effortsFor(models: ModelInfo[], model: string | null): string[] {
  const m = effectiveModel(models, model);
  return m?.efforts.length ? [...m.efforts] : [...FALLBACK_EFFORTS];
}

/**
 * Validates `/effort <level>` for the effective model (`model`, or the list's isDefault one when null).
 * `default`, `reset` (any case) → `{clear:true}`; `none` too, unless the model lists "none" as an effort.
 * A listed level (any case) → `{effort}` in the catalog's spelling. Levels come from `effortsFor` (the
 * fallback low, medium, high, xhigh when the model is not listed or Codex listed nothing).
 * Throws AppFailure `effort-missing` (empty) or `unknown-effort` (the message lists the levels).
 */
export function chooseEffort(models: ModelInfo[], model: string | null, arg: string): { clear: true } | { effort: string } {
  const level = arg.trim().toLowerCase();
  const levels = effortsFor(models, model);
  if (level === 'default' || level === 'reset' || (level === 'none' && !levels.includes('none'))) return { clear: true };
  const subject = effectiveModel(models, model)?.id ?? model;
  const forWhat = subject ? ` for ${subject}` : '';
  if (!level) {
    throw new AppFailure({
      code: 'effort-missing',
      message: `Name an effort level${forWhat}: ${levels.join(', ')}.`,
      fix: 'Send /effort <level>, or /effort default.',
    });
  }
  const found = levels.find((l) => l.toLowerCase() === level);
  if (found) return { effort: found };
  throw new AppFailure({
    code: 'unknown-effort',
    message: `"${arg.trim()}" is not an effort level${forWhat}. Choose one of: ${levels.join(', ')}.`,
    fix: 'Send /effort <level> with one of those, or /effort default.',
  });
}

/**
 * The text `/model` shows: the current model and where it comes from (`session` override, `profile`, or
 * `codex default` — then the list's default is named), then one line per listed model (`id — name`, the
 * default and the current one marked) and how to choose. With an empty list: says Codex did not list its
 * models and that any name is accepted.
 */
export function describeModels(models: ModelInfo[], current: { model: string | null; source: 'session' | 'profile' | 'codex default' }): string {
  const fallback = defaultModel(models);
  const currentId = current.model ?? fallback?.id ?? null;
  const head = current.model
    ? `Model: ${current.model} (${current.source === 'session' ? 'this session' : current.source})`
    : `Model: Codex\u2019s default${fallback ? ` (${fallback.id})` : ''}`;
  if (!models.length) return `${head}\n${NO_LIST_NOTE} Any name is accepted: /model <name>. /model default goes back.`;
  const cur = currentId ? findModel(models, currentId) : null;
  const lines = models.map((m) => {
    const marks = [m.isDefault ? 'default' : null, m === cur ? 'current' : null].filter(Boolean);
    return `  ${m.id}${m.name !== m.id ? ` \u2014 ${m.name}` : ''}${marks.length ? ` (${marks.join(', ')})` : ''}`;
  });
  const notListed = current.model && !cur ? `\n${current.model} is not in Codex\u2019s list.` : '';
  return `${head}${notListed}\nModels Codex offers:\n${lines.join('\n')}\nSend /model <name> to switch for this session; /model default goes back.`;
}

/**
 * The text `/effort` shows: `describeEfforts(models, model, effort, source?)`. `model` is the effective model
 * (session or profile; null = Codex's default, i.e. the list's isDefault one), `effort` the current override or
 * profile value (null = the model's default), `source` where `effort` comes from (shown when given). Then the
 * levels offered for that model (`effortsFor`), its default marked, and how to choose.
 */
export function describeEfforts(models: ModelInfo[], model: string | null, effort: string | null, source?: 'session' | 'profile'): string {
  const m = effectiveModel(models, model);
  const subject = m?.id ?? model ?? 'Codex\u2019s default model';
  const levels = effortsFor(models, model);
  const def = m?.defaultEffort ?? null;
  const head = effort
    ? `Effort: ${effort}${source ? ` (${source === 'session' ? 'this session' : 'profile'})` : ''} for ${subject}`
    : `Effort: the model\u2019s default${def ? ` (${def})` : ''} for ${subject}`;
  const listed = levels.map((l) => (l === def ? `${l} (default)` : l)).join(', ');
  const origin = m?.efforts.length
    ? ''
    : !models.length
      ? ` (${NO_LIST_NOTE.replace(/\.$/, '')}; these are the usual levels)`
      : m
        ? ' (Codex lists none for it; these are the usual levels)'
        : ` (${model ?? 'the default model'} is not in Codex\u2019s list; these are the usual levels)`;
  return `${head}\nLevels${origin}: ${listed}\nSend /effort <level> to change it for this session; /effort default goes back.`;
}
