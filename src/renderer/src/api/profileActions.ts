/**
 * The actions of the profile editor, the policy inspector and the table review: each invokes the core
 * and feeds the answer to the store's pure transitions. Nothing is written to the table before
 * `saveDraft`; a failed save keeps the draft. Every action that takes the window away from an editor
 * holding unsaved edits (Close, Escape, another profile, the policy, the table review, and through
 * `leaveEditor` another chat) first asks "Discard unsaved changes?"; nothing is dropped unless the user
 * says Discard.
 */
import type { ProfileDraft } from '../../../shared/contract';
import { ok } from '../../../shared/result';
import { blockingIssues, editorContext, newDraft } from '../features/profiles/draft';
import { applyPanel, applySnapshot, withSlice, type AppState } from '../store/app';
import {
  askToLeave,
  discardEdits,
  editorLoaded,
  keepEditing,
  modelsLoaded,
  openEdit,
  openNew,
  previewArrived,
  previewRequested,
  previewSkipped,
  saveDone,
  saveStarted,
  wouldLoseEdits,
} from '../store/editor';
import { policyLoaded, policyLoading, verifyDone, verifyStarted } from '../store/policy';
import { tableActed, tableActing, tableLoaded } from '../store/table';
import { update, useAppStore } from '../store/store';
import type { LinkedApi } from './wsApi';

/** What the editor, the policy inspector and the table review can do. */
export interface ProfileActions {
  /** Opens the editor on `profile` and loads it (and the models Codex offers); `addDir` goes into add_dirs. Nothing is written. */
  editProfile(profile: string, opts?: { addDir?: string }): void;
  /** Opens the editor on a new profile. */
  newProfile(): void;
  /** Asks what saving the draft would do (`profiles:preview`); skipped while the editor itself sees problems. */
  previewDraft(): Promise<void>;
  /** Saves the draft (`profiles:save`), or creates the new profile (`profiles:create`). */
  saveDraft(): Promise<void>;
  /** Opens the policy inspector of `profile` and loads it. */
  openPolicy(profile: string): void;
  /** Runs the sandbox probes of `profile` (`profiles:verify`). */
  runProbes(profile: string): Promise<void>;
  /** Reads the table on disk against the accepted one. */
  loadTable(): Promise<void>;
  /** Opens the review of a changed table. */
  reviewTable(): void;
  /** Accepts the table on disk, or puts the accepted one back. */
  settleTable(which: 'accept' | 'discard'): Promise<void>;
  /** Reads the profile list again (after a save, or a `profiles:changed`). */
  reloadProfiles(): Promise<void>;
  /** Closes the panel over the chat (asking first when the editor holds unsaved edits). */
  closePanel(): void;
  /**
   * Runs `go` (something that takes the window away from the editor) at once, or, when the editor is
   * shown with unsaved edits, after the user answers Discard to "Discard unsaved changes?".
   * `sameEditor`: `go` opens the very editor shown (nothing would be lost).
   */
  leaveEditor(go: () => void, sameEditor?: boolean): void;
  /** The answer to "Discard unsaved changes?": keep editing (the draft stays), or discard and go on. */
  answerLeave(answer: 'keep' | 'discard'): void;
  /** The native folder picker, when the host offers one (Electron); absent in the browser build. */
  pickFolder?: () => Promise<string | null>;
}

const editorOf = (s: AppState) => s.editor;

/** Builds the actions over `api`. */
export function profileActions(api: LinkedApi): ProfileActions {
  const loadModels = async (profile: string): Promise<void> => {
    const r = await api.invoke('models:list', { profile });
    update((s) => withSlice(s, 'editor', modelsLoaded(s.editor, r)));
  };

  const loadPolicy = async (profile: string): Promise<void> => {
    update((s) => withSlice(s, 'policy', policyLoading(s.policy, profile)));
    const r = await api.invoke('profiles:policy', { name: profile });
    update((s) => withSlice(s, 'policy', policyLoaded(s.policy, profile, r)));
  };

  const leaveEditor = (go: () => void, sameEditor = false): void => {
    const s = useAppStore.getState();
    if (wouldLoseEdits(s.editor, s.panel.kind === 'editor', sameEditor)) update((st) => withSlice(st, 'editor', askToLeave(st.editor, go)));
    else go();
  };

  const actions: ProfileActions = {
    editProfile(profile, opts = {}) {
      const now = editorOf(useAppStore.getState());
      leaveEditor(
        () => {
          update((s) => applyPanel(withSlice(s, 'editor', openEdit(s.editor, profile, opts.addDir ?? null)), { kind: 'editor' }));
          const e = editorOf(useAppStore.getState());
          if (e.draft === null) {
            void api.invoke('profiles:get', { name: profile }).then((r) => update((s) => withSlice(s, 'editor', editorLoaded(s.editor, profile, r))));
          }
          if (e.catalog === null) void loadModels(profile);
          // Relative folders resolve against the table's folder: `table:changes` names the table file.
          if (useAppStore.getState().table.view === null) void actions.loadTable();
        },
        now.mode === 'edit' && now.original === profile,
      );
    },
    newProfile() {
      leaveEditor(
        () => {
          update((s) => applyPanel(withSlice(s, 'editor', openNew(s.editor, newDraft())), { kind: 'editor' }));
          const s = useAppStore.getState();
          const some = Object.keys(s.chats.profiles).sort()[0];
          if (s.editor.catalog === null && some) void loadModels(some);
          if (s.table.view === null) void actions.loadTable();
        },
        editorOf(useAppStore.getState()).mode === 'new',
      );
    },
    async previewDraft() {
      const { draft, original, mode } = editorOf(useAppStore.getState());
      if (!draft || mode === null) return;
      if (blockingIssues(draft, editorContext(useAppStore.getState())).length > 0) {
        update((s) => withSlice(s, 'editor', previewSkipped(s.editor)));
        return;
      }
      update((s) => withSlice(s, 'editor', previewRequested(s.editor)));
      const seq = editorOf(useAppStore.getState()).preview.seq;
      const r = await api.invoke('profiles:preview', { draft, original: mode === 'new' ? null : original });
      update((s) => withSlice(s, 'editor', previewArrived(s.editor, seq, r)));
    },
    async saveDraft() {
      const e = editorOf(useAppStore.getState());
      const draft: ProfileDraft | null = e.draft;
      if (!draft || e.save.status === 'saving' || blockingIssues(draft, editorContext(useAppStore.getState())).length > 0) return;
      update((s) => withSlice(s, 'editor', saveStarted(s.editor)));
      const r =
        e.mode === 'new'
          ? await api.invoke('profiles:create', { draft, starterClaudeMd: e.starterClaudeMd })
          : await api.invoke('profiles:save', { draft, original: e.original });
      update((s) => withSlice(s, 'editor', saveDone(s.editor, r)));
      if (r.ok) {
        const verify = r.value.verify;
        if (verify) update((s) => withSlice(s, 'policy', verifyDone(s.policy, r.value.profile, ok(verify))));
        await actions.reloadProfiles();
        // The preview now answers for the saved table ("what saving again would do").
        await actions.previewDraft();
      }
    },
    openPolicy(profile) {
      leaveEditor(() => {
        update((s) => applyPanel(s, { kind: 'policy', profile }));
        void loadPolicy(profile);
      });
    },
    async runProbes(profile) {
      update((s) => withSlice(s, 'policy', verifyStarted(s.policy, profile)));
      const r = await api.invoke('profiles:verify', { name: profile });
      update((s) => withSlice(s, 'policy', verifyDone(s.policy, profile, r)));
    },
    async loadTable() {
      const r = await api.invoke('table:changes', {});
      update((s) => withSlice(s, 'table', tableLoaded(s.table, r)));
    },
    reviewTable() {
      leaveEditor(() => {
        update((s) => applyPanel(s, { kind: 'table' }));
        void actions.loadTable();
      });
    },
    async settleTable(which) {
      update((s) => withSlice(s, 'table', tableActing(s.table, which)));
      const r = await api.invoke(which === 'accept' ? 'table:accept' : 'table:discard', {});
      update((s) => withSlice(s, 'table', tableActed(s.table, r)));
      if (r.ok) await actions.reloadProfiles();
    },
    async reloadProfiles() {
      const r = await api.invoke('profiles:list', {});
      if (r.ok) update((s) => applySnapshot(s, { profiles: r.value }));
      const panel = useAppStore.getState().panel;
      if (panel.kind === 'policy') await loadPolicy(panel.profile);
    },
    closePanel() {
      leaveEditor(() => update((s) => applyPanel(s, { kind: 'none' })));
    },
    leaveEditor,
    answerLeave(answer) {
      const go = editorOf(useAppStore.getState()).leaving;
      if (answer === 'keep' || !go) {
        update((s) => withSlice(s, 'editor', keepEditing(s.editor)));
        return;
      }
      update((s) => applyPanel(withSlice(s, 'editor', discardEdits(s.editor)), { kind: 'none' }));
      go();
    },
  };
  if (api.pickFolder) actions.pickFolder = api.pickFolder;
  return actions;
}
