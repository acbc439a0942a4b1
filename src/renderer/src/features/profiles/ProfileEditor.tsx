/**
 * The profile editor, over the chat: every field of the profile, a live preview (asked 300 ms after
 * the last edit) with problems next to their fields, what Save writes to the table, and Save (or
 * Create for a new profile) with its result. Nothing is written before Save; a refused save keeps the
 * draft and says why next to the field it names. Escape closes it like Close; leaving it with unsaved
 * edits (Close, Escape, another chat or profile) asks "Discard unsaved changes?" first.
 */
import { useEffect, useMemo, useRef, type ReactElement } from 'react';
import type { ProfileDraft } from '../../../../shared/contract';
import { useSession } from '../../api/session';
import { withSlice } from '../../store/app';
import { setField, setStarter, unsaved } from '../../store/editor';
import { update, useAppStore } from '../../store/store';
import { draftChanges, editorContext, knownCapabilities, localIssues, type DraftChange, type DraftField } from './draft';
import { EditorFields } from './EditorFields';
import { placeIssues } from './issues';
import { PreviewPanel } from './PreviewPanel';
import { SaveResultView } from './SaveResultView';

/** How long the editor waits after the last edit before it asks for a preview (ms). */
export const PREVIEW_DELAY_MS = 300;

const set = <K extends DraftField>(key: K, value: ProfileDraft[K]): void => update((s) => withSlice(s, 'editor', setField(s.editor, key, value)));

function Changes({ base, draft }: { base: ProfileDraft | null; draft: ProfileDraft }): ReactElement | null {
  const changes = draftChanges(base, draft);
  if (changes.length === 0) return null;
  return (
    <section className="editor-section" data-testid="draft-changes">
      <h3>What Save writes to the table</h3>
      <ul className="draft-changes">
        {changes.map((c) => (
          <li key={c.field} data-testid="draft-change" data-field={c.field}>
            <code>{c.field}</code>: <span className="diff-del">{c.before}</span> → <span className="diff-add">{c.after}</span>
          </li>
        ))}
      </ul>
      <div className="meta">Only these keys change; the table's comments and layout stay as they are.</div>
    </section>
  );
}

function StarterCheck({ on }: { on: boolean }): ReactElement {
  return (
    <label className="check-label starter" data-testid="starter-row">
      <input
        type="checkbox"
        data-testid="starter-check"
        checked={on}
        onChange={(e) => update((s) => withSlice(s, 'editor', setStarter(s.editor, e.target.checked)))}
      />
      <span>
        <strong>Write a starter CLAUDE.md</strong>
        <span className="meta check-help"> — into the new folder: what the agent is for and how to ask for more (Codex reads it as project instructions).</span>
      </span>
    </label>
  );
}

/** "Discard unsaved changes?" over the window: Keep editing (the default, also Escape) or Discard. */
function LeaveDialog({ changes, onKeep, onDiscard }: { changes: DraftChange[]; onKeep: () => void; onDiscard: () => void }): ReactElement {
  const keep = useRef<HTMLButtonElement>(null);
  useEffect(() => keep.current?.focus(), []);
  const fields = changes.map((c) => c.field);
  return (
    <div className="leave-backdrop" data-testid="leave-backdrop">
      <div className="leave-dialog" role="alertdialog" aria-modal="true" aria-labelledby="leave-title" aria-describedby="leave-text" data-testid="leave-dialog">
        <strong id="leave-title">Discard unsaved changes?</strong>
        <p id="leave-text" className="meta" data-testid="leave-text">
          {fields.length > 0 ? `Your edits to ${fields.join(', ')} are not saved. ` : 'Your edits are not saved. '}
          Discard drops them; the table stays as it is.
        </p>
        <div className="leave-buttons">
          <button type="button" ref={keep} className="btn primary" data-testid="leave-keep" onClick={onKeep}>
            Keep editing
          </button>
          <button type="button" className="btn danger" data-testid="leave-discard" onClick={onDiscard}>
            Discard
          </button>
        </div>
      </div>
    </div>
  );
}

/** The editor panel (open when the store's editor has a mode). */
export function ProfileEditor(): ReactElement {
  const session = useSession();
  const editor = useAppStore((s) => s.editor);
  const profileMap = useAppStore((s) => s.chats.profiles);
  const profiles = useMemo(() => Object.keys(profileMap).sort(), [profileMap]);
  const resultRef = useRef<HTMLDivElement>(null);
  const { draft, mode, save } = editor;
  const tableFile = useAppStore((s) => s.table.view?.tableFile ?? null);
  const ctx = useMemo(() => editorContext({ table: { view: tableFile === null ? null : { tableFile } }, editor }), [tableFile, editor]);
  const asking = editor.leaving !== null;

  // Escape: closes the editor like Close (asking first when edits are unsaved); with the question open, keeps editing.
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (e.key !== 'Escape' || e.defaultPrevented) return;
      e.preventDefault();
      if (asking) session.answerLeave('keep');
      else session.closePanel();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [asking, session]);

  useEffect(() => {
    if (!draft) return;
    const t = setTimeout(() => void session.previewDraft(), PREVIEW_DELAY_MS);
    return () => clearTimeout(t);
  }, [draft, session]);
  useEffect(() => {
    if (save.status === 'saved') resultRef.current?.scrollIntoView({ block: 'start' });
  }, [save.status]);
  // "Add this folder to the profile": show the row it added.
  const hasDraft = draft !== null;
  useEffect(() => {
    if (!hasDraft || !editor.justAdded) return;
    const row = Array.from(document.querySelectorAll<HTMLElement>('[data-testid="add-dirs-row"]')).find((el) => el.dataset.value === editor.justAdded);
    row?.scrollIntoView({ block: 'center' });
  }, [hasDraft, editor.justAdded]);

  const local = useMemo(() => (draft ? localIssues(draft, ctx) : []), [draft, ctx]);
  const blocking = local.filter((i) => i.level === 'error');
  const placed = useMemo(() => placeIssues(local, editor.preview.value, save.status === 'failed' ? save.error : null), [local, editor.preview.value, save]);
  const capabilityNames = useMemo(
    () =>
      draft
        ? knownCapabilities(
            draft,
            (editor.preview.value?.entries ?? []).map((e) => e.origin),
          )
        : [],
    [draft, editor.preview.value],
  );

  const isNew = mode === 'new';
  const title = isNew ? 'New profile' : `Edit profile ${editor.original ?? ''}`;
  const changed = unsaved(editor);
  const invalid = editor.preview.value?.valid === false && !editor.preview.waiting;
  const blockedWhy =
    blocking.length > 0
      ? 'Fix the fields marked in red first.'
      : invalid
        ? 'The table would not load with this draft: see the errors above.'
        : !changed && !isNew
          ? 'Nothing changed yet.'
          : null;

  return (
    <div className="pane panel" data-testid="profile-editor" data-mode={mode ?? 'closed'}>
      <header className="pane-head panel-head">
        <button type="button" className="btn link back" onClick={() => session.closePanel()} aria-label="Back">
          ‹ Back
        </button>
        <strong className="panel-title" data-testid="editor-title">
          {title}
        </strong>
        <span className="spacer" />
        {!isNew && editor.original && (
          <button type="button" className="btn small" data-testid="editor-open-policy" onClick={() => session.openPolicy(editor.original as string)}>
            Policy
          </button>
        )}
        <button type="button" className="btn small" data-testid="editor-close" onClick={() => session.closePanel()}>
          Close
        </button>
      </header>
      <div className="panel-body">
        {!draft && !editor.loadError && <div className="empty">Loading the profile…</div>}
        {editor.loadError && (
          <div className="refusal" role="alert" data-testid="editor-load-error">
            <strong>The profile could not be read.</strong>
            {editor.loadError.message}
            {editor.loadError.fix ? ` — ${editor.loadError.fix}` : ''}
          </div>
        )}
        {draft && (
          <>
            <EditorFields
              draft={draft}
              issues={placed}
              set={set}
              profiles={profiles}
              catalog={editor.catalog}
              tableDir={ctx.tableDir}
              capabilityNames={capabilityNames}
              pick={session.pickFolder}
              isNew={isNew}
              justAdded={editor.justAdded}
              profileExtra={isNew ? <StarterCheck on={editor.starterClaudeMd} /> : null}
            />
            <PreviewPanel preview={editor.preview} general={placed.general} blocked={blocking.length > 0} />
            <Changes base={editor.base} draft={draft} />
            <div ref={resultRef}>{save.status === 'saved' && save.result && <SaveResultView result={save.result} created={save.created} />}</div>
          </>
        )}
      </div>
      {draft && (
        <footer className="editor-foot">
          <div className="editor-foot-status" data-testid="save-status" role="status">
            {save.status === 'saving' && 'Saving…'}
            {save.status === 'failed' && save.error && <span className="bad">Not saved: {save.error.message}. Your edits are kept.</span>}
            {save.status === 'saved' && <span className="ok">Saved.</span>}
            {save.status === 'idle' && blockedWhy && <span className="meta">{blockedWhy}</span>}
          </div>
          <button
            type="button"
            className="btn primary"
            data-testid="save-button"
            disabled={save.status === 'saving' || blockedWhy !== null}
            title={blockedWhy ?? undefined}
            onClick={() => void session.saveDraft()}
          >
            {isNew ? 'Create profile' : 'Save'}
          </button>
        </footer>
      )}
      {asking && draft && (
        <LeaveDialog changes={draftChanges(editor.base, draft)} onKeep={() => session.answerLeave('keep')} onDiscard={() => session.answerLeave('discard')} />
      )}
    </div>
  );
}
