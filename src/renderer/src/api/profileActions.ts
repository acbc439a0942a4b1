/**
 * The actions of the profile editor, the policy inspector and the table review: each invokes the core
 * and feeds the answer to the store's pure transitions. Nothing is written to the table before
 * `saveDraft`; a failed save keeps the draft.
 */
import type { ProfileDraft } from '../../../shared/contract';
import { ok } from '../../../shared/result';
import { newDraft, localIssues } from '../features/profiles/draft';
import { applyPanel, applySnapshot, withSlice, type AppState } from '../store/app';
import { editorLoaded, modelsLoaded, openEdit, openNew, previewArrived, previewRequested, previewSkipped, saveDone, saveStarted } from '../store/editor';
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
  /** Closes the panel over the chat. */
  closePanel(): void;
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

  const actions: ProfileActions = {
    editProfile(profile, opts = {}) {
      update((s) => applyPanel(withSlice(s, 'editor', openEdit(s.editor, profile, opts.addDir ?? null)), { kind: 'editor' }));
      const e = editorOf(useAppStore.getState());
      if (e.draft === null) {
        void api.invoke('profiles:get', { name: profile }).then((r) => update((s) => withSlice(s, 'editor', editorLoaded(s.editor, profile, r))));
      }
      if (e.models === null) void loadModels(profile);
    },
    newProfile() {
      update((s) => applyPanel(withSlice(s, 'editor', openNew(s.editor, newDraft())), { kind: 'editor' }));
      const s = useAppStore.getState();
      const some = Object.keys(s.chats.profiles).sort()[0];
      if (s.editor.models === null && some) void loadModels(some);
    },
    async previewDraft() {
      const { draft, original, mode } = editorOf(useAppStore.getState());
      if (!draft || mode === null) return;
      if (localIssues(draft).length > 0) {
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
      if (!draft || e.save.status === 'saving' || localIssues(draft).length > 0) return;
      update((s) => withSlice(s, 'editor', saveStarted(s.editor)));
      const r = e.mode === 'new'
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
      update((s) => applyPanel(s, { kind: 'policy', profile }));
      void loadPolicy(profile);
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
      update((s) => applyPanel(s, { kind: 'table' }));
      void actions.loadTable();
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
      update((s) => applyPanel(s, { kind: 'none' }));
    },
  };
  if (api.pickFolder) actions.pickFolder = api.pickFolder;
  return actions;
}
