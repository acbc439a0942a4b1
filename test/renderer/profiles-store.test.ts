/**
 * The renderer's store slices for the profile editor and its panels, as pure transitions: the profile editor (load, "add this
 * folder", edits, stale previews, save), the panel over the chat, the table review, the policy
 * inspector and the composer's dropped files.
 */
import { describe, expect, it } from 'vitest';
import type { AppEvent, PolicyView, ProfileDraft, ProfilePreview, SaveResult, TableChangesView, VerifyView } from '../../src/shared/contract';
import { err, ok } from '../../src/shared/result';
import { applyEvent, applyPanel, applySelect, initialState } from '../../src/renderer/src/store/app';
import { attachDone, attachRefused, attachStarted, clearAttached, initialComposer, setText, withReference } from '../../src/renderer/src/store/composer';
import {
  editorLoaded,
  initialEditor,
  modelsLoaded,
  openEdit,
  openNew,
  previewArrived,
  previewRequested,
  previewSkipped,
  saveDone,
  saveStarted,
  setField,
  setStarter,
  unsaved,
  withAddDir,
} from '../../src/renderer/src/store/editor';
import { initialPanel, showPanel } from '../../src/renderer/src/store/panel';
import { initialPolicy, policyLoaded, policyLoading, verifyDone, verifyStarted } from '../../src/renderer/src/store/policy';
import { initialTable, tableActed, tableActing, tableChanged, tableLoaded } from '../../src/renderer/src/store/table';
import { newDraft } from '../../src/renderer/src/features/profiles/draft';

const draft = (over: Partial<ProfileDraft> = {}): ProfileDraft => ({ ...newDraft('demo', '/p/demo'), ...over });
const preview = (over: Partial<ProfilePreview> = {}): ProfilePreview => ({
  profile: 'demo',
  valid: true,
  errors: [],
  warnings: [],
  plan: [],
  entries: [],
  network: { enabled: true, note: null },
  codexArgs: [],
  ...over,
});
const verify: VerifyView = {
  profile: 'demo',
  codexVersion: '0.169.0',
  probes: [{ name: 'read credentials', path: '/h/.ssh', op: 'read', expected: 'blocked', observed: 'blocked', pass: true }],
  pass: true,
};
const saved = (over: Partial<SaveResult> = {}): SaveResult => ({
  profile: 'demo',
  tableFile: '/t/angelia.toml',
  backupFile: '/t/angelia.toml.bak',
  preview: preview(),
  verify,
  ...over,
});
const loaded = (addDir: string | null = null) => editorLoaded(openEdit(initialEditor, 'demo', addDir), 'demo', ok(draft()));

describe('the profile editor', () => {
  it('loads a profile; a folder asked for by "Add this folder" is in add_dirs but not in the loaded values', () => {
    const opening = openEdit(initialEditor, 'demo', '/h/other');
    expect(opening).toMatchObject({ mode: 'edit', original: 'demo', draft: null, pendingAddDir: '/h/other', justAdded: '/h/other' });
    const s = editorLoaded(opening, 'demo', ok(draft()));
    expect(s.draft?.add_dirs).toEqual(['/h/other']);
    expect(s.base?.add_dirs).toEqual([]);
    expect(s.pendingAddDir).toBeNull();
    expect(unsaved(s)).toBe(true);
    // An answer for another profile, or a second answer, changes nothing.
    expect(editorLoaded(opening, 'other', ok(draft()))).toBe(opening);
    expect(editorLoaded(s, 'demo', ok(draft({ cwd: '/x' })))).toBe(s);
  });

  it('a failed load is kept to show', () => {
    const s = editorLoaded(openEdit(initialEditor, 'demo'), 'demo', err('unknown-profile', 'no profile named "demo"'));
    expect(s.loadError?.message).toBe('no profile named "demo"');
    expect(s.draft).toBeNull();
  });

  it('opening the same profile again keeps unsaved edits and adds the next folder to them', () => {
    const edited = setField(loaded('/h/a'), 'model', 'gpt-5.1');
    const again = openEdit(edited, 'demo', '/h/b');
    expect(again.draft?.add_dirs).toEqual(['/h/a', '/h/b']);
    expect(again.draft?.model).toBe('gpt-5.1');
    expect(again.justAdded).toBe('/h/b');
    // Without unsaved edits, it loads afresh.
    expect(openEdit(loaded(), 'demo').draft).toBeNull();
    // Another profile always loads afresh.
    expect(openEdit(edited, 'other')).toMatchObject({ original: 'other', draft: null });
  });

  it('withAddDir does not add a folder twice', () => {
    const d = draft({ add_dirs: ['/h/a'] });
    expect(withAddDir(d, '/h/a')).toBe(d);
    expect(withAddDir(d, '/h/b').add_dirs).toEqual(['/h/a', '/h/b']);
  });

  it('an edit that changes nothing returns the same state; an edit clears the "just added" mark', () => {
    const s = loaded('/h/a');
    expect(setField(s, 'model', null)).toBe(s);
    const next = setField(s, 'sandbox', false);
    expect(next.draft?.sandbox).toBe(false);
    expect(next.justAdded).toBeNull();
    expect(setField(initialEditor, 'model', 'x')).toBe(initialEditor);
  });

  it('drops a preview answer older than the last request, and a request skipped for local problems', () => {
    const s1 = previewRequested(loaded());
    const s2 = previewRequested(s1);
    expect(s2.preview).toMatchObject({ seq: 2, waiting: true });
    expect(previewArrived(s2, 1, ok(preview({ valid: false })))).toBe(s2);
    const s3 = previewArrived(s2, 2, ok(preview()));
    expect(s3.preview).toMatchObject({ waiting: false, value: { valid: true }, error: null });
    const failed = previewArrived(previewRequested(s3), 3, err('disconnected', 'not connected'));
    expect(failed.preview.value).toEqual(preview());
    expect(failed.preview.error?.code).toBe('disconnected');
    const skipped = previewSkipped(previewRequested(s3));
    expect(skipped.preview.waiting).toBe(false);
    expect(previewArrived(skipped, 3, ok(preview({ valid: false })))).toBe(skipped);
    expect(previewSkipped(skipped)).toBe(skipped);
  });

  it('a refused save keeps the draft and says why', () => {
    const edited = setField(loaded(), 'add_dirs', ['/h/x']);
    const saving = saveStarted(edited);
    expect(saveStarted(saving)).toBe(saving);
    const failed = saveDone(saving, err('invalid-profile', '/h/x does not exist', { where: 'profiles.demo.add_dirs.0', fix: 'create it' }));
    expect(failed.save).toMatchObject({ status: 'failed', error: { where: 'profiles.demo.add_dirs.0' } });
    expect(failed.draft?.add_dirs).toEqual(['/h/x']);
    expect(unsaved(failed)).toBe(true);
    expect(saveDone(failed, ok(saved()))).toBe(failed);
  });

  it('a save makes the draft the new base and shows the result until the next edit', () => {
    const edited = setField(loaded(), 'add_dirs', ['/h/x']);
    const done = saveDone(saveStarted(edited), ok(saved({ preview: preview({ plan: [{ kind: '~', text: 'profiles.demo.add_dirs' }] }) })));
    expect(done.save).toMatchObject({ status: 'saved', created: false, result: { backupFile: '/t/angelia.toml.bak' } });
    expect(done.base).toBe(done.draft);
    expect(unsaved(done)).toBe(false);
    expect(done.preview.value?.plan).toHaveLength(1);
    expect(setField(done, 'model', 'gpt-5.1').save.status).toBe('idle');
  });

  it('a new profile starts with safe values and a starter CLAUDE.md; creating it turns the editor into an edit of it', () => {
    const s = openNew(initialEditor, newDraft());
    expect(s).toMatchObject({
      mode: 'new',
      original: null,
      base: null,
      starterClaudeMd: true,
      draft: { sandbox: true, permission_mode: 'default', add_dirs: [] },
    });
    expect(unsaved(s)).toBe(true);
    expect(setStarter(s, true)).toBe(s);
    const named = setField(setField(s, 'name', 'research'), 'cwd', '~/research');
    expect(openNew(named, newDraft())).toBe(named);
    const created = saveDone(saveStarted(named), ok(saved({ profile: 'research' })));
    expect(created).toMatchObject({ mode: 'edit', original: 'research', starterClaudeMd: false, save: { created: true } });
  });

  it('keeps the model list, and ignores a failed one', () => {
    const models = {
      models: [{ id: 'm', name: 'm', efforts: ['low'], defaultEffort: 'low', isDefault: true }],
      codexConfig: { model: null, effort: null, error: null },
      tableEfforts: ['low'],
    };
    const s = modelsLoaded(loaded(), ok(models));
    expect(s.catalog).toEqual(models);
    expect(modelsLoaded(s, ok(models))).toBe(s);
    expect(modelsLoaded(s, err('x', 'no app-server'))).toBe(s);
  });
});

describe('the panel over the chat', () => {
  it('shows a panel, switches policies, and opening a chat closes it', () => {
    const p = showPanel(initialPanel, { kind: 'policy', profile: 'demo' });
    expect(showPanel(p, { kind: 'policy', profile: 'demo' })).toBe(p);
    expect(showPanel(p, { kind: 'policy', profile: 'other' })).toEqual({ kind: 'policy', profile: 'other' });
    const s = applyPanel(initialState, { kind: 'editor' });
    expect(s.panel.kind).toBe('editor');
    expect(applyPanel(s, { kind: 'editor' })).toBe(s);
    expect(applySelect(s, 'demo').panel.kind).toBe('none');
  });
});

describe('the table review', () => {
  const view = (over: Partial<TableChangesView> = {}): TableChangesView => ({
    tableFile: '/t/angelia.toml',
    differs: true,
    changes: [{ path: ['profiles', 'demo', 'sandbox'], kind: 'changed', before: true, after: false }],
    error: null,
    ...over,
  });

  it('table:changed enters the store through applyEvent and changes nothing when it says the same', () => {
    const e: AppEvent = { event: 'table:changed', payload: { differs: true, changes: 2 } };
    const s = applyEvent(initialState, e);
    expect(s.table).toMatchObject({ differs: true, count: 2 });
    expect(applyEvent(s, e)).toBe(s);
    expect(tableChanged(s.table, { differs: false, changes: 0 })).toMatchObject({ differs: false, count: 0 });
  });

  it('a loaded comparison sets the diff; the same one again changes nothing; a failure is kept', () => {
    const s = tableLoaded(initialTable, ok(view()));
    expect(s).toMatchObject({ differs: true, count: 1, error: null });
    expect(tableLoaded(s, ok(view()))).toBe(s);
    const failed = tableLoaded(s, err('disconnected', 'not connected'));
    expect(failed.error?.code).toBe('disconnected');
    expect(failed.view).toEqual(view());
  });

  it('Accept is in flight until it answers; the answer replaces the comparison', () => {
    const acting = tableActing(tableLoaded(initialTable, ok(view())), 'accept');
    expect(acting.busy).toBe('accept');
    expect(tableActing(acting, 'accept')).toBe(acting);
    const done = tableActed(acting, ok(view({ differs: false, changes: [] })));
    expect(done).toMatchObject({ busy: null, differs: false, count: 0 });
    const refused = tableActed(acting, err('table-invalid', 'does not load'));
    expect(refused).toMatchObject({ busy: null, differs: true, error: { code: 'table-invalid' } });
  });
});

describe('the policy inspector', () => {
  const policy = { ...preview(), attestedCodexVersion: null, attestedAt: null, enforcement: null } satisfies PolicyView;

  it('keeps the last policy shown while a reload is on the way, and after a failed one', () => {
    const s1 = policyLoaded(policyLoading(initialPolicy, 'demo'), 'demo', ok(policy));
    expect(s1.byProfile.demo).toMatchObject({ status: 'ready', value: policy });
    const s2 = policyLoading(s1, 'demo');
    expect(s2.byProfile.demo).toMatchObject({ status: 'loading', value: policy });
    expect(policyLoading(s2, 'demo')).toBe(s2);
    expect(policyLoaded(s2, 'demo', err('x', 'gone')).byProfile.demo).toMatchObject({ status: 'failed', value: policy, error: { message: 'gone' } });
  });

  it('records a probe run per profile', () => {
    const s = verifyDone(verifyStarted(initialPolicy, 'demo'), 'demo', ok(verify));
    expect(s.verify.demo).toMatchObject({ status: 'ready', value: { pass: true } });
    expect(s.verify.other).toBeUndefined();
  });
});

describe('dropped files in the composer', () => {
  it('an attached file gets a line and its path goes into the message', () => {
    const s1 = attachStarted(setText(initialComposer, 'c', 'Summarise'), 'c', 1, 'notes.txt');
    expect(s1.attached.c).toEqual([{ id: 1, name: 'notes.txt', status: 'sending', path: null, message: null }]);
    const s2 = attachDone(s1, 'c', 1, ok({ path: '.inbox/notes.txt' }));
    expect(s2.attached.c?.[0]).toMatchObject({ status: 'attached', path: '.inbox/notes.txt' });
    expect(s2.text.c).toBe('Summarise .inbox/notes.txt ');
    expect(attachDone(s2, 'c', 1, ok({ path: '.inbox/again.txt' }))).toBe(s2);
  });

  it('a refused file gets a line saying why and leaves the message alone', () => {
    const s1 = attachRefused(initialComposer, 'c', 1, 'big.bin', 'big.bin is 26.0 MB; files over 25 MB are refused');
    expect(s1.attached.c?.[0]).toMatchObject({ status: 'refused', message: 'big.bin is 26.0 MB; files over 25 MB are refused' });
    const s2 = attachDone(attachStarted(s1, 'c', 2, 'x'), 'c', 2, err('path', 'not allowed', { fix: 'rename it' }));
    expect(s2.attached.c?.[1]).toMatchObject({ status: 'refused', message: 'not allowed — rename it' });
    expect(s2.text.c).toBeUndefined();
  });

  it('sending clears the settled lines but not one still sending; × clears one line', () => {
    let s = attachStarted(attachDone(attachStarted(initialComposer, 'c', 1, 'a'), 'c', 1, ok({ path: '.inbox/a' })), 'c', 2, 'b');
    s = clearAttached(s, 'c');
    expect(s.attached.c?.map((l) => l.id)).toEqual([2]);
    expect(clearAttached(s, 'c', 9)).toBe(s);
    expect(clearAttached(s, 'c', 2).attached.c).toEqual([]);
  });

  it('a reference is its own word', () => {
    expect(withReference('', 'p')).toBe('p ');
    expect(withReference('see', 'p')).toBe('see p ');
    expect(withReference('see\n', 'p')).toBe('see\np ');
    expect(setText(initialComposer, 'c', '')).toBe(initialComposer);
  });
});
