/**
 * The `/model` and `/effort` catalog: reading `model/list` (codex 0.169.0 `Model` shape, paging, hidden
 * entries), the per-key cache, and validating and describing choices (when Codex lists models, an unknown
 * model or an effort the model does not list is refused; a model id with the effort appended always is).
 */
import { describe, expect, it } from 'vitest';
import type { CodexConnection, CodexExit } from '../../../src/main/core/codex/connection';
import { scripted } from '../../fixtures/scriptedRequest';
import {
  FALLBACK_EFFORTS,
  ModelCatalog,
  NO_LIST_NOTE,
  chooseEffort,
  chooseModel,
  defaultModel,
  describeEfforts,
  describeModels,
  effortsFor,
  toModelInfo,
  type ModelInfo,
} from '../../../src/main/core/codex/models';
import { AppFailure } from '../../../src/shared/result';

/** A `Model` as codex 0.169.0 sends it (fields trimmed to those that matter, plus a few it also sends). */
function raw(id: string, efforts: string[], def: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    model: id,
    upgrade: null,
    displayName: id.toUpperCase(),
    description: '',
    hidden: false,
    supportedReasoningEfforts: efforts.map((reasoningEffort) => ({ reasoningEffort, description: reasoningEffort })),
    defaultReasoningEffort: def,
    inputModalities: ['text'],
    isDefault: false,
    ...extra,
  };
}

/** A CodexConnection whose `model/list` answers from `pages` (by cursor) and counts requests. */
function fakeConn(
  answer: (params: Record<string, unknown>) => unknown,
): CodexConnection & { calls: Array<{ method: string; params: unknown; timeoutMs?: number }> } {
  const calls: Array<{ method: string; params: unknown; timeoutMs?: number }> = [];
  return {
    calls,
    version: '0.169.0',
    request: scripted(async (method, params, opts) => {
      calls.push({ method, params, timeoutMs: opts?.timeoutMs });
      return answer(params as Record<string, unknown>);
    }),
    onServerRequest() {},
    onEvent() {},
    exited: new Promise<CodexExit>(() => {}),
    async stop() {},
    kill() {},
  };
}

const CATALOG: ModelInfo[] = [
  { id: 'gpt-6.1-sol', name: 'GPT-6.1-Sol', efforts: ['low', 'medium', 'high', 'xhigh', 'max', 'ultra'], defaultEffort: 'low', isDefault: true },
  { id: 'gpt-6-luna', name: 'GPT-6-Luna', efforts: ['low', 'medium', 'high', 'xhigh', 'max'], defaultEffort: 'medium', isDefault: false },
  { id: 'gpt-6.1-terra', name: 'GPT-6.1 Terra', efforts: ['low', 'medium', 'high', 'xhigh', 'max', 'ultra'], defaultEffort: 'low', isDefault: false },
  { id: 'gpt-5.5', name: 'GPT-5.5', efforts: ['low', 'medium', 'high', 'xhigh'], defaultEffort: 'medium', isDefault: false },
];

function appFailure(fn: () => unknown): AppFailure {
  try {
    fn();
  } catch (e) {
    if (e instanceof AppFailure) return e;
    throw e;
  }
  throw new Error('expected an AppFailure');
}

describe('toModelInfo', () => {
  it('maps id/model, displayName, supportedReasoningEfforts, defaultReasoningEffort and isDefault', () => {
    expect(toModelInfo(raw('gpt-5.5', ['low', 'medium', 'high', 'xhigh'], 'medium', { displayName: 'GPT-5.5', isDefault: true }))).toEqual({
      id: 'gpt-5.5',
      name: 'GPT-5.5',
      efforts: ['low', 'medium', 'high', 'xhigh'],
      defaultEffort: 'medium',
      isDefault: true,
    });
  });

  it('drops hidden entries and entries without an id', () => {
    expect(toModelInfo(raw('codex-auto-review', ['low'], 'low', { hidden: true }))).toBeNull();
    expect(toModelInfo({ displayName: 'x' })).toBeNull();
    expect(toModelInfo('gpt-5.5')).toBeNull();
  });

  it('tolerates missing optional fields', () => {
    expect(toModelInfo({ id: 'm' })).toEqual({ id: 'm', name: 'm', efforts: [], defaultEffort: null, isDefault: false });
  });
});

describe('ModelCatalog.list', () => {
  it('reads every page, excludes hidden entries, keeps catalog order and asks with a timeout', async () => {
    const pages: Record<string, unknown> = {
      '': { data: [raw('a', ['low'], 'low', { isDefault: true }), raw('hidden-1', ['low'], 'low', { hidden: true })], nextCursor: '2' },
      '2': { data: [raw('b', ['low', 'high'], 'high'), raw('a', ['low'], 'low')], nextCursor: '4' },
      '4': { data: [raw('c', [], 'medium')], nextCursor: null },
    };
    const conn = fakeConn((p) => pages[String(p.cursor ?? '')]);
    const models = await new ModelCatalog().list('/bin/codex', conn);
    expect(models.map((m) => m.id)).toEqual(['a', 'b', 'c']);
    expect(conn.calls.map((c) => c.params)).toEqual([{}, { cursor: '2' }, { cursor: '4' }]);
    expect(conn.calls.every((c) => c.method === 'model/list' && c.timeoutMs === 15_000)).toBe(true);
    expect(models.map((m) => m.id)).not.toContain('hidden-1');
  });

  it('stops on a repeated cursor', async () => {
    const conn = fakeConn(() => ({ data: [raw('a', ['low'], 'low')], nextCursor: 'same' }));
    expect((await new ModelCatalog().list('k', conn)).map((m) => m.id)).toEqual(['a']);
    expect(conn.calls).toHaveLength(2);
  });

  it('caches a non-empty list per key for 10 minutes', async () => {
    let now = 1_000_000;
    const catalog = new ModelCatalog({ now: () => now });
    const conn = fakeConn(() => ({ data: [raw('a', ['low'], 'low')], nextCursor: null }));
    await catalog.list('bin-1', conn);
    now += 9 * 60_000;
    expect((await catalog.list('bin-1', conn)).map((m) => m.id)).toEqual(['a']);
    expect(conn.calls).toHaveLength(1);
    await catalog.list('bin-2', conn);
    expect(conn.calls).toHaveLength(2);
    now += 60_000;
    await catalog.list('bin-1', conn);
    expect(conn.calls).toHaveLength(3);
  });

  it('honours ttlMs and forget()', async () => {
    let now = 0;
    const catalog = new ModelCatalog({ ttlMs: 100, now: () => now });
    const conn = fakeConn(() => ({ data: [raw('a', ['low'], 'low')], nextCursor: null }));
    await catalog.list('k', conn);
    now = 99;
    await catalog.list('k', conn);
    expect(conn.calls).toHaveLength(1);
    now = 100;
    await catalog.list('k', conn);
    expect(conn.calls).toHaveLength(2);
    catalog.forget('k');
    await catalog.list('k', conn);
    expect(conn.calls).toHaveLength(3);
    catalog.forget();
    await catalog.list('k', conn);
    expect(conn.calls).toHaveLength(4);
  });

  it('does not cache an empty list', async () => {
    const catalog = new ModelCatalog();
    const conn = fakeConn(() => ({ data: [], nextCursor: null }));
    expect(await catalog.list('k', conn)).toEqual([]);
    expect(await catalog.list('k', conn)).toEqual([]);
    expect(conn.calls).toHaveLength(2);
  });

  it('a failed model/list resolves to [] and is not cached', async () => {
    const catalog = new ModelCatalog();
    let fail = true;
    const conn = fakeConn(() => {
      if (fail) throw new Error('model/list failed: -32603 boom');
      return { data: [raw('a', ['low'], 'low')], nextCursor: null };
    });
    expect(await catalog.list('k', conn)).toEqual([]);
    fail = false;
    expect((await catalog.list('k', conn)).map((m) => m.id)).toEqual(['a']);
  });

  it('shares one listing between concurrent callers of a key', async () => {
    let release: (() => void) | undefined;
    const gate = new Promise<void>((r) => (release = r));
    const conn = fakeConn(async () => {
      await gate;
      return { data: [raw('a', ['low'], 'low')], nextCursor: null };
    });
    const catalog = new ModelCatalog();
    const both = Promise.all([catalog.list('k', conn), catalog.list('k', conn)]);
    release?.();
    const [x, y] = await both;
    expect(x.map((m) => m.id)).toEqual(['a']);
    expect(y.map((m) => m.id)).toEqual(['a']);
    expect(conn.calls).toHaveLength(1);
  });

  it('callers cannot corrupt the cache by editing what they got', async () => {
    const catalog = new ModelCatalog();
    const conn = fakeConn(() => ({ data: [raw('a', ['low'], 'low')], nextCursor: null }));
    const first = await catalog.list('k', conn);
    first[0]?.efforts.push('bogus');
    first.pop();
    expect(await catalog.list('k', conn)).toEqual([{ id: 'a', name: 'A', efforts: ['low'], defaultEffort: 'low', isDefault: false }]);
  });
});

describe('chooseModel', () => {
  it('default, reset and none clear the override', () => {
    for (const w of ['default', 'reset', 'none', 'Default', ' RESET ']) expect(chooseModel(CATALOG, w)).toEqual({ clear: true });
    expect(chooseModel([], 'default')).toEqual({ clear: true });
  });

  it('accepts a listed id or display name, in any case, as the catalog id', () => {
    expect(chooseModel(CATALOG, 'gpt-5.5')).toEqual({ model: 'gpt-5.5', note: null });
    expect(chooseModel(CATALOG, ' GPT-6-LUNA ')).toEqual({ model: 'gpt-6-luna', note: null });
    expect(chooseModel(CATALOG, 'gpt-6.1 terra')).toEqual({ model: 'gpt-6.1-terra', note: null });
  });

  it('refuses an unknown model and lists the choices, default marked', () => {
    const e = appFailure(() => chooseModel(CATALOG, 'gpt-5.3-codex'));
    expect(e.app.code).toBe('unknown-model');
    expect(e.app.message).toBe('Codex does not offer the model "gpt-5.3-codex". Choose one of: gpt-6.1-sol (default), gpt-6-luna, gpt-6.1-terra, gpt-5.5.');
    expect(e.app.fix).toContain('/model default');
  });

  it('refuses a model id with the effort appended, pointing to /effort', () => {
    const e = appFailure(() => chooseModel(CATALOG, 'gpt-5.5/medium'));
    expect(e.app.code).toBe('model-with-effort');
    expect(e.app.fix).toBe('Send /model gpt-5.5, then /effort medium.');
    expect(appFailure(() => chooseModel([], 'gpt-5.4/high')).app.code).toBe('model-with-effort');
  });

  it('refuses an empty name', () => {
    expect(appFailure(() => chooseModel(CATALOG, '  ')).app.code).toBe('model-missing');
  });

  it('with an empty list accepts any name, with the note', () => {
    expect(chooseModel([], 'my-model')).toEqual({ model: 'my-model', note: NO_LIST_NOTE });
    expect(NO_LIST_NOTE).toBe('Codex did not list its models just now.');
  });
});

describe('chooseEffort', () => {
  it('accepts a level the effective model lists, in the catalog spelling', () => {
    expect(chooseEffort(CATALOG, 'gpt-6-luna', 'MAX')).toEqual({ effort: 'max' });
    expect(chooseEffort(CATALOG, null, 'ultra')).toEqual({ effort: 'ultra' });
  });

  it('refuses a level the model does not list, naming the levels', () => {
    const e = appFailure(() => chooseEffort(CATALOG, 'gpt-5.5', 'ultra'));
    expect(e.app.code).toBe('unknown-effort');
    expect(e.app.message).toBe('"ultra" is not an effort level for gpt-5.5. Choose one of: low, medium, high, xhigh.');
  });

  it('uses the isDefault model when no model is set', () => {
    expect(effortsFor(CATALOG, null)).toEqual(['low', 'medium', 'high', 'xhigh', 'max', 'ultra']);
    expect(appFailure(() => chooseEffort(CATALOG, null, 'bogus')).app.message).toContain('for gpt-6.1-sol');
  });

  it('falls back to low, medium, high, xhigh for an unlisted model or an empty list', () => {
    expect(FALLBACK_EFFORTS).toEqual(['low', 'medium', 'high', 'xhigh']);
    expect(effortsFor(CATALOG, 'custom-model')).toEqual(['low', 'medium', 'high', 'xhigh']);
    expect(chooseEffort(CATALOG, 'custom-model', 'xhigh')).toEqual({ effort: 'xhigh' });
    expect(appFailure(() => chooseEffort(CATALOG, 'custom-model', 'max')).app.code).toBe('unknown-effort');
    expect(chooseEffort([], null, 'high')).toEqual({ effort: 'high' });
    expect(appFailure(() => chooseEffort([], null, 'bogus')).app.code).toBe('unknown-effort');
  });

  it('default and reset clear; none clears unless the model lists "none"', () => {
    expect(chooseEffort(CATALOG, 'gpt-5.5', 'default')).toEqual({ clear: true });
    expect(chooseEffort(CATALOG, 'gpt-5.5', 'Reset')).toEqual({ clear: true });
    expect(chooseEffort(CATALOG, 'gpt-5.5', 'none')).toEqual({ clear: true });
    const withNone: ModelInfo[] = [{ id: 'm', name: 'm', efforts: ['none', 'low'], defaultEffort: 'low', isDefault: true }];
    expect(chooseEffort(withNone, 'm', 'none')).toEqual({ effort: 'none' });
  });

  it('refuses an empty level', () => {
    expect(appFailure(() => chooseEffort(CATALOG, 'gpt-5.5', '')).app.code).toBe('effort-missing');
  });
});

describe('describeModels', () => {
  it('shows the current model and its source, then the list with default and current marked', () => {
    const text = describeModels(CATALOG, { model: 'gpt-5.5', source: 'profile' });
    expect(text).toBe(
      [
        'Model: gpt-5.5 (profile)',
        'Models Codex offers:',
        '  gpt-6.1-sol — GPT-6.1-Sol (default)',
        '  gpt-6-luna — GPT-6-Luna',
        '  gpt-6.1-terra — GPT-6.1 Terra',
        '  gpt-5.5 — GPT-5.5 (current)',
        'Send /model <name> to switch for this session; /model default goes back.',
      ].join('\n'),
    );
  });

  it('names Codex’s default when no model is set, and a session override as such', () => {
    expect(describeModels(CATALOG, { model: null, source: 'codex default' })).toMatch(
      /^Model: Codex’s default \(gpt-6\.1-sol\)\n[\s\S]*gpt-6\.1-sol — GPT-6\.1-Sol \(default, current\)/,
    );
    expect(describeModels(CATALOG, { model: 'gpt-6-luna', source: 'session' })).toMatch(/^Model: gpt-6-luna \(this session\)/);
  });

  it('says when the current model is not in the list', () => {
    expect(describeModels(CATALOG, { model: 'gpt-5.3-codex', source: 'profile' })).toContain('gpt-5.3-codex is not in Codex’s list.');
  });

  it('says when Codex listed nothing', () => {
    expect(describeModels([], { model: null, source: 'codex default' })).toBe(
      'Model: Codex’s default\nCodex did not list its models just now. Any name is accepted: /model <name>. /model default goes back.',
    );
  });
});

describe('describeEfforts', () => {
  it('shows the current effort with its source and the model’s levels, default marked', () => {
    expect(describeEfforts(CATALOG, 'gpt-5.5', 'high', 'session')).toBe(
      [
        'Effort: high (this session) for gpt-5.5',
        'Levels: low, medium (default), high, xhigh',
        'Send /effort <level> to change it for this session; /effort default goes back.',
      ].join('\n'),
    );
  });

  it('without an effort shows the model’s default; without a model uses the isDefault one', () => {
    expect(describeEfforts(CATALOG, null, null)).toMatch(
      /^Effort: the model’s default \(low\) for gpt-6\.1-sol\nLevels: low \(default\), medium, high, xhigh, max, ultra\n/,
    );
  });

  it('falls back to the usual levels for an unlisted model or an empty list', () => {
    expect(describeEfforts(CATALOG, 'custom', 'high', 'profile')).toMatch(
      /^Effort: high \(profile\) for custom\nLevels \(custom is not in Codex’s list; these are the usual levels\): low, medium, high, xhigh\n/,
    );
    expect(describeEfforts([], null, null)).toMatch(
      /^Effort: the model’s default for Codex’s default model\nLevels \(Codex did not list its models just now; these are the usual levels\): low, medium, high, xhigh\n/,
    );
  });

  it('defaultModel is the isDefault entry', () => {
    expect(defaultModel(CATALOG)?.id).toBe('gpt-6.1-sol');
    expect(defaultModel([])).toBeNull();
  });
});
