/**
 * The profile editor's values, as the table and Codex have them: relative folders judged as the table loader judges
 * them (held to the real loader), "default" model and effort named by the config really in force, only
 * efforts the model offers and the table accepts, "Discard unsaved changes?" before leaving unsaved
 * edits (the store's transitions and the actions' guard), and the New chat menu placed to fit the
 * window.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ModelsView, ProfileDraft } from '../../src/shared/contract';
import { ok, type Result } from '../../src/shared/result';
import { freshDir } from '../../src/main/demo/codexHome';
import { parseTableText, resolveTable } from '../../src/main/core/table/load';
import { TableFailure } from '../../src/main/core/table/errors';
import { EFFORTS, FIELD_FIXES } from '../../src/main/core/table/schema';
import { profileActions } from '../../src/renderer/src/api/profileActions';
import type { LinkedApi } from '../../src/renderer/src/api/wsApi';
import {
  defaultEffortInForce,
  editorContext,
  effortProblem,
  folderOf,
  folderProblem,
  localIssues,
  modelInForce,
  nearestEffort,
  newDraft,
  offeredEfforts,
  relativeNote,
  resolveFolder,
} from '../../src/renderer/src/features/profiles/draft';
import { menuPlacement } from '../../src/renderer/src/features/chats/menuPlacement';
import { initialState } from '../../src/renderer/src/store/app';
import { askToLeave, discardEdits, editorLoaded, initialEditor, keepEditing, openEdit, setField, wouldLoseEdits } from '../../src/renderer/src/store/editor';
import { update, useAppStore } from '../../src/renderer/src/store/store';
import { withSlice } from '../../src/renderer/src/store/app';

const draft = (over: Partial<ProfileDraft> = {}): ProfileDraft => ({ ...newDraft('demo', '/p/demo'), ...over });

const catalog = (over: Partial<ModelsView['codexConfig']> = {}): ModelsView => ({
  models: [
    { id: 'gpt-6.1-sol', name: 'gpt-6.1-sol', efforts: ['low', 'medium', 'high', 'xhigh', 'max', 'ultra'], defaultEffort: 'low', isDefault: true },
    { id: 'gpt-5.5', name: 'gpt-5.5', efforts: ['low', 'medium', 'high', 'xhigh'], defaultEffort: 'medium', isDefault: false },
    { id: 'gpt-6-luna', name: 'gpt-6-luna', efforts: ['low', 'medium', 'high', 'xhigh', 'max'], defaultEffort: 'medium', isDefault: false },
  ],
  codexConfig: { model: null, effort: null, error: null, ...over },
  tableEfforts: [...EFFORTS],
});
const USER = 'your Codex config (/h/.codex/config.toml)';

describe('relative folders, as the table loader resolves and checks them', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await freshDir('editor-folders');
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** What the real loader says about `path` as add_dirs[0] (cwd = an existing folder), or null when it takes it. */
  const loaderVerdict = async (path: string): Promise<{ message: string; fix: string } | null> => {
    const file = join(dir, 'angelia.toml');
    const raw = parseTableText(`[profiles.demo]\ncwd = ${JSON.stringify(dir)}\nadd_dirs = [${JSON.stringify(path)}]\n`, file);
    try {
      await resolveTable(raw, file, { home: '/h', env: {} });
      return null;
    } catch (e) {
      if (!(e instanceof TableFailure)) throw e;
      const p = e.problems.find((x) => x.path.join('.') === 'profiles.demo.add_dirs.0');
      return p ? { message: p.message, fix: p.fix } : null;
    }
  };

  it("marks in red exactly what the loader refuses, in the loader's words, and nothing else", async () => {
    const paths = ['profiles/assistant', './data', '../shared', 'data[1]', 'x/*.env', 'a?b', '/abs/ok', '/abs/[x]', '~bob/x', 'two\nlines', 'sp ace', ' /lead'];
    for (const p of paths) {
      const ours = folderProblem(p, dir);
      const loader = await loaderVerdict(p);
      const red = ours?.level === 'error' ? { message: ours.message, fix: ours.fix } : null;
      expect(red, p).toEqual(loader);
    }
  });

  it('says where a relative folder really is; the red fix is never "use ~/…"', () => {
    expect(resolveFolder('profiles/assistant', '/h/.angelia/workspace')).toBe('/h/.angelia/workspace/profiles/assistant');
    expect(resolveFolder('../x', '/h/.angelia/workspace')).toBe('/h/.angelia/x');
    expect(resolveFolder('~/notes', '/t')).toBe('~/notes');
    expect(resolveFolder('rel', null)).toBeNull();
    expect(relativeNote('profiles/assistant', '/h/.angelia/workspace')).toBe("relative to the table's folder: /h/.angelia/workspace/profiles/assistant");
    expect(relativeNote('profiles/assistant', null)).toBe("relative to the table's folder");
    expect(relativeNote('/abs', '/t')).toBeNull();
    expect(relativeNote('~/x', '/t')).toBeNull();
    expect(folderOf('/h/.angelia/workspace/angelia.toml')).toBe('/h/.angelia/workspace');
    const issues = localIssues(draft({ cwd: 'profiles/assistant', add_dirs: ['shared'] }), { tableDir: '/h/.angelia/workspace', catalog: null });
    expect(issues).toEqual([]);
  });

  it('takes the table folder from the table:changes answer the window already has', () => {
    expect(editorContext({ table: { view: { tableFile: '/s/workspace/angelia.toml' } }, editor: { catalog: null } })).toEqual({
      tableDir: '/s/workspace',
      catalog: null,
    });
    expect(editorContext({ table: { view: null }, editor: { catalog: null } }).tableDir).toBeNull();
  });

  it('checks bin as the loader does (a full path, or ~/…)', () => {
    expect(localIssues(draft({ bin: 'bin/codex' }))).toMatchObject([
      { field: 'bin', level: 'error', message: '"bin/codex" is not a full path', fix: 'give the full path of the codex executable (or ~/…), or leave bin out' },
    ]);
    expect(localIssues(draft({ bin: '~/bin/codex' }))).toEqual([]);
  });
});

describe('"default" model and effort: what is really used, and where it comes from', () => {
  it("names the model of Codex's config in force before the catalog's default", () => {
    expect(modelInForce({ model: null }, catalog({ model: { value: 'gpt-5.5', source: USER } }))).toMatchObject({ id: 'gpt-5.5', source: `set in ${USER}` });
    expect(modelInForce({ model: null }, catalog())).toMatchObject({ id: 'gpt-6.1-sol', source: 'the model Codex marks default' });
    expect(modelInForce({ model: 'gpt-6-luna' }, catalog({ model: { value: 'gpt-5.5', source: USER } }))).toMatchObject({
      id: 'gpt-6-luna',
      source: 'this profile',
    });
    expect(modelInForce({ model: null }, null)).toBeNull();
  });

  it("names the effort of Codex's config when the model in force offers it, else the model's default", () => {
    const config = catalog({ model: { value: 'gpt-5.5', source: USER }, effort: { value: 'max', source: USER } });
    // gpt-5.5 stops at xhigh: Codex's max would not be used, so the default is gpt-5.5's own.
    expect(defaultEffortInForce({ model: null }, config)).toEqual({ value: 'medium', source: 'the default of gpt-5.5' });
    expect(defaultEffortInForce({ model: 'gpt-6-luna' }, config)).toEqual({ value: 'max', source: `set in ${USER}` });
    expect(defaultEffortInForce({ model: null }, catalog())).toEqual({ value: 'low', source: 'the default of gpt-6.1-sol' });
  });
});

describe('efforts: only those the model offers and the table accepts', () => {
  it("offers the intersection, in the model's order", () => {
    const sol = catalog().models[0] ?? null;
    expect(offeredEfforts(sol, EFFORTS)).toEqual(['low', 'medium', 'high', 'xhigh', 'max']);
    expect(offeredEfforts(null, EFFORTS)).toEqual([...EFFORTS]);
  });

  it('flags an effort the new model does not offer, with the nearest one as the fix', () => {
    expect(effortProblem({ model: 'gpt-5.5', effort: 'max' }, catalog())).toEqual({
      level: 'error',
      message: 'gpt-5.5 does not offer effort max',
      fix: 'pick one of low, medium, high, xhigh, or default',
      fixValue: 'xhigh',
    });
    expect(effortProblem({ model: 'gpt-6-luna', effort: 'max' }, catalog())).toBeNull();
    expect(effortProblem({ model: null, effort: 'max' }, catalog({ model: { value: 'gpt-5.5', source: USER } }))?.message).toBe(
      'gpt-5.5 does not offer effort max',
    );
    expect(effortProblem({ model: 'gpt-5.5', effort: 'max' }, null)).toBeNull();
  });

  it("refuses an effort the table does not accept, with the loader's fix", () => {
    const p = effortProblem({ model: null, effort: 'ultra' }, catalog());
    expect(p).toMatchObject({ level: 'error', fix: FIELD_FIXES.effort, fixValue: 'max' });
    expect(localIssues(draft({ model: 'gpt-5.5', effort: 'max' }), { tableDir: null, catalog: catalog() })).toMatchObject([
      { field: 'effort', level: 'error', fixValue: 'xhigh' },
    ]);
  });

  it('picks the nearest effort not above the one asked for', () => {
    expect(nearestEffort('max', ['low', 'medium'], EFFORTS)).toBe('medium');
    expect(nearestEffort('low', ['high', 'xhigh'], EFFORTS)).toBe('high');
    expect(nearestEffort('ultra', ['low', 'high'], EFFORTS)).toBe('low');
    expect(nearestEffort('ultra', ['low', 'high'], EFFORTS, ['low', 'high', 'ultra'])).toBe('high');
    expect(nearestEffort('max', [], EFFORTS)).toBeNull();
  });
});

describe('"Discard unsaved changes?"', () => {
  const edited = () => setField(editorLoaded(openEdit(initialEditor, 'demo'), 'demo', ok(draft())), 'sandbox', false);

  it('asks only when the shown editor holds unsaved edits, and keeps or drops them as answered', () => {
    expect(wouldLoseEdits(edited(), true)).toBe(true);
    expect(wouldLoseEdits(edited(), false)).toBe(false);
    expect(wouldLoseEdits(edited(), true, true)).toBe(false);
    expect(wouldLoseEdits(editorLoaded(openEdit(initialEditor, 'demo'), 'demo', ok(draft())), true)).toBe(false);
    const go = (): void => undefined;
    const asking = askToLeave(edited(), go);
    expect(asking.leaving).toBe(go);
    const kept = keepEditing(asking);
    expect(kept.leaving).toBeNull();
    expect(kept.draft?.sandbox).toBe(false);
    const dropped = discardEdits(asking);
    expect(dropped).toMatchObject({ mode: null, draft: null, base: null, leaving: null });
  });

  describe('through the actions', () => {
    const calls: string[] = [];
    const api = {
      invoke: async (channel: string, input: { name?: string }): Promise<Result<unknown>> => {
        calls.push(channel);
        if (channel === 'profiles:get') return ok(draft({ name: input.name ?? 'demo' }));
        if (channel === 'models:list') return ok(catalog());
        if (channel === 'table:changes') return ok({ tableFile: '/s/workspace/angelia.toml', differs: false, changes: [], error: null });
        return ok({
          profile: input.name ?? 'demo',
          valid: true,
          errors: [],
          warnings: [],
          plan: [],
          entries: [],
          network: { enabled: true, note: null },
          codexArgs: [],
        });
      },
      onEvent: () => () => undefined,
      onStatus: () => () => undefined,
      close: () => undefined,
    } as unknown as LinkedApi;
    const s = () => useAppStore.getState();
    const settle = () => new Promise((r) => setTimeout(r, 0));

    beforeEach(() => {
      useAppStore.setState(initialState, true);
      calls.length = 0;
    });

    it('Close with unsaved edits asks; Keep editing keeps the draft open; Discard drops it and closes', async () => {
      const actions = profileActions(api);
      actions.editProfile('demo');
      await settle();
      expect(s().editor.draft?.name).toBe('demo');
      expect(s().table.view?.tableFile).toBe('/s/workspace/angelia.toml');
      // Nothing changed: Close closes at once.
      actions.closePanel();
      expect(s().panel.kind).toBe('none');

      actions.editProfile('demo');
      await settle();
      update((st) => withSlice(st, 'editor', setField(st.editor, 'add_dirs', ['/x'])));
      actions.closePanel();
      expect(s().panel.kind).toBe('editor');
      expect(s().editor.leaving).not.toBeNull();
      actions.answerLeave('keep');
      expect(s().panel.kind).toBe('editor');
      expect(s().editor.leaving).toBeNull();
      expect(s().editor.draft?.add_dirs).toEqual(['/x']);

      actions.closePanel();
      actions.answerLeave('discard');
      expect(s().panel.kind).toBe('none');
      expect(s().editor.draft).toBeNull();
    });

    it('switching to another profile, the policy or the table review asks first; the same profile does not', async () => {
      const actions = profileActions(api);
      actions.editProfile('demo', { addDir: '/a' });
      await settle();
      expect(s().editor.draft?.add_dirs).toEqual(['/a']);
      // "Add this folder" again on the same profile: added to the same draft, no question.
      actions.editProfile('demo', { addDir: '/b' });
      expect(s().editor.leaving).toBeNull();
      expect(s().editor.draft?.add_dirs).toEqual(['/a', '/b']);

      actions.editProfile('other');
      expect(s().editor.original).toBe('demo');
      expect(s().editor.leaving).not.toBeNull();
      actions.answerLeave('discard');
      await settle();
      expect(s().editor.original).toBe('other');
      expect(s().editor.draft?.name).toBe('other');
      expect(s().panel.kind).toBe('editor');

      update((st) => withSlice(st, 'editor', setField(st.editor, 'sandbox', false)));
      actions.openPolicy('other');
      expect(s().panel.kind).toBe('editor');
      actions.answerLeave('keep');
      actions.reviewTable();
      expect(s().panel.kind).toBe('editor');
      actions.answerLeave('discard');
      expect(s().panel.kind).toBe('table');
      // leaveEditor is what a chat click goes through: no editor shown, no question.
      let went = false;
      actions.leaveEditor(() => {
        went = true;
      });
      expect(went).toBe(true);
    });
  });
});

describe('the New chat menu fits the window', () => {
  it('opens below the button with the room left as its height, or above when there is more room there', () => {
    // The popover: 600 px tall, the button in the header.
    expect(menuPlacement({ top: 10, bottom: 34 }, 600)).toEqual({ top: 'calc(100% + 4px)', bottom: 'auto', maxHeight: 554 });
    expect(menuPlacement({ top: 500, bottom: 524 }, 600)).toEqual({ top: 'auto', bottom: 'calc(100% + 4px)', maxHeight: 488 });
    expect(menuPlacement({ top: 10, bottom: 700 }, 600).maxHeight).toBe(0);
  });
});
