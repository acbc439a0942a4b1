/**
 * Editor slice: the profile editor's draft (the table's fields as written), the values it was loaded
 * with (to show what Save changes), the live preview (`profiles:preview`, stale answers dropped by
 * sequence number), the save and its result, the models Codex offers with its config in force, and
 * the "Discard unsaved changes?" question asked before the window leaves an editor with unsaved edits.
 * Nothing is written before Save; a failed save keeps the draft. Pure transitions; each returns the
 * same object when nothing changed.
 */
import type { ModelsView, ProfileDraft, ProfilePreview, SaveResult } from '../../../shared/contract';
import type { AppError, Result } from '../../../shared/result';
import { equal } from './equal';

/** A model Codex offers (`models:list`). */
export type ModelOption = ModelsView['models'][number];

/** The live preview: the last answer, and whether a newer one is on the way. */
export interface PreviewState {
  /** Sequence number of the last preview asked for; answers to older ones are dropped. */
  seq: number;
  waiting: boolean;
  value: ProfilePreview | null;
  error: AppError | null;
}

/** The save (or create) and what it did. */
export interface SaveState {
  status: 'idle' | 'saving' | 'saved' | 'failed';
  result: SaveResult | null;
  error: AppError | null;
  /** The save created a new profile (`profiles:create`). */
  created: boolean;
}

/** The editor. `mode` null = closed (nothing kept). */
export interface EditorSlice {
  mode: 'edit' | 'new' | null;
  /** The profile's name in the table (before a rename); null for a new profile. */
  original: string | null;
  /** The fields as loaded, or as last saved; null for a new profile. */
  base: ProfileDraft | null;
  /** What the user edits; null while loading. */
  draft: ProfileDraft | null;
  /** New profile: write a starter CLAUDE.md into its folder. */
  starterClaudeMd: boolean;
  loadError: AppError | null;
  /** A folder to add to `add_dirs` once the profile is loaded ("Add this folder to the profile"). */
  pendingAddDir: string | null;
  /** The folder "Add this folder" put into add_dirs, shown highlighted until the next edit; null when none. */
  justAdded: string | null;
  preview: PreviewState;
  save: SaveState;
  /** What `models:list` answered for this profile: the models, Codex's config in force, the efforts the table accepts; null before (or when it failed). */
  catalog: ModelsView | null;
  /**
   * The window was asked to leave the editor (Close, Escape, another chat, another profile…) while edits
   * are unsaved: "Discard unsaved changes?" is shown, and this runs once the user discards them. Null
   * when no question is open.
   */
  leaving: (() => void) | null;
}

const noPreview: PreviewState = { seq: 0, waiting: false, value: null, error: null };
const noSave: SaveState = { status: 'idle', result: null, error: null, created: false };

/** The closed editor. */
export const initialEditor: EditorSlice = {
  mode: null,
  original: null,
  base: null,
  draft: null,
  starterClaudeMd: false,
  loadError: null,
  pendingAddDir: null,
  justAdded: null,
  preview: noPreview,
  save: noSave,
  catalog: null,
  leaving: null,
};

/** `draft` with `dir` at the end of `add_dirs` (the same object when it is already there). */
export function withAddDir(draft: ProfileDraft, dir: string): ProfileDraft {
  return draft.add_dirs.includes(dir) ? draft : { ...draft, add_dirs: [...draft.add_dirs, dir] };
}

/** True when the draft holds edits that are not saved. */
export function unsaved(state: EditorSlice): boolean {
  if (!state.draft) return false;
  return state.base === null || !equal(state.base, state.draft);
}

/**
 * Opens the editor on profile `name` (loading it), optionally adding `addDir` once loaded. When the
 * editor already holds unsaved edits of that profile they are kept (and `addDir` is added to them).
 */
export function openEdit(state: EditorSlice, name: string, addDir: string | null = null): EditorSlice {
  if (state.mode === 'edit' && state.original === name && state.draft && unsaved(state)) {
    const draft = addDir ? withAddDir(state.draft, addDir) : state.draft;
    return draft === state.draft && state.justAdded === addDir ? state : { ...state, draft, justAdded: addDir };
  }
  return { ...initialEditor, mode: 'edit', original: name, pendingAddDir: addDir, justAdded: addDir, catalog: state.original === name ? state.catalog : null };
}

/** `profiles:get` answered for `name`: the draft starts as the table's values (plus a pending folder). */
export function editorLoaded(state: EditorSlice, name: string, r: Result<ProfileDraft>): EditorSlice {
  if (state.mode !== 'edit' || state.original !== name || state.draft !== null) return state;
  if (!r.ok) return { ...state, loadError: r.error };
  const draft = state.pendingAddDir ? withAddDir(r.value, state.pendingAddDir) : r.value;
  return { ...state, base: r.value, draft, pendingAddDir: null, loadError: null };
}

/** Opens the editor on a new profile with `draft` as its starting values. */
export function openNew(state: EditorSlice, draft: ProfileDraft): EditorSlice {
  if (state.mode === 'new' && state.draft && unsaved(state)) return state;
  return { ...initialEditor, mode: 'new', draft, starterClaudeMd: true };
}

/** One field of the draft changed. A shown "saved" result goes once the draft changes again. */
export function setField<K extends keyof ProfileDraft>(state: EditorSlice, key: K, value: ProfileDraft[K]): EditorSlice {
  if (!state.draft || equal(state.draft[key], value)) return state;
  return { ...state, draft: { ...state.draft, [key]: value }, justAdded: null, save: state.save.status === 'saved' ? noSave : state.save };
}

/** The "write a starter CLAUDE.md" box of a new profile. */
export function setStarter(state: EditorSlice, on: boolean): EditorSlice {
  return state.starterClaudeMd === on ? state : { ...state, starterClaudeMd: on };
}

/** A preview was asked for: its sequence number is `state.preview.seq` of the result. */
export function previewRequested(state: EditorSlice): EditorSlice {
  return { ...state, preview: { ...state.preview, seq: state.preview.seq + 1, waiting: true } };
}

/** A preview answered; an answer to an older request than the last is dropped. */
export function previewArrived(state: EditorSlice, seq: number, r: Result<ProfilePreview>): EditorSlice {
  if (seq !== state.preview.seq) return state;
  const preview: PreviewState = r.ok
    ? { seq, waiting: false, value: r.value, error: null }
    : { seq, waiting: false, value: state.preview.value, error: r.error };
  return { ...state, preview };
}

/** No preview is asked while the draft has problems the editor itself sees; an answer on the way is dropped. */
export function previewSkipped(state: EditorSlice): EditorSlice {
  if (!state.preview.waiting) return state;
  return { ...state, preview: { ...state.preview, seq: state.preview.seq + 1, waiting: false } };
}

/** Save (or Create) was clicked. */
export function saveStarted(state: EditorSlice): EditorSlice {
  return state.save.status === 'saving' ? state : { ...state, save: { status: 'saving', result: null, error: null, created: false } };
}

/**
 * The save answered. Saved: the draft becomes the new base (an edit of the saved name from now on) and
 * the preview shows what was applied. Failed: the error is shown and the draft stays as it was.
 */
export function saveDone(state: EditorSlice, r: Result<SaveResult>): EditorSlice {
  if (state.save.status !== 'saving') return state;
  if (!r.ok) return { ...state, save: { status: 'failed', result: null, error: r.error, created: false } };
  return {
    ...state,
    mode: 'edit',
    original: r.value.profile,
    base: state.draft,
    starterClaudeMd: false,
    preview: { ...state.preview, value: r.value.preview, error: null },
    save: { status: 'saved', result: r.value, error: null, created: state.mode === 'new' },
  };
}

/** `models:list` answered (a failure leaves the pickers with free text). */
export function modelsLoaded(state: EditorSlice, r: Result<ModelsView>): EditorSlice {
  if (!r.ok) return state;
  return equal(state.catalog, r.value) ? state : { ...state, catalog: r.value };
}

/**
 * True when leaving the editor now would lose edits: it holds unsaved edits and `open` (the editor is
 * what the window shows). Going to the same editor again (`sameEditor`) loses nothing.
 */
export function wouldLoseEdits(state: EditorSlice, open: boolean, sameEditor = false): boolean {
  return open && !sameEditor && unsaved(state);
}

/** "Discard unsaved changes?" is asked; `go` runs once they are discarded. */
export function askToLeave(state: EditorSlice, go: () => void): EditorSlice {
  return state.leaving === go ? state : { ...state, leaving: go };
}

/** "Keep editing": the question closes, the draft stays as it was. */
export function keepEditing(state: EditorSlice): EditorSlice {
  return state.leaving === null ? state : { ...state, leaving: null };
}

/** "Discard": the draft and everything about it go (the models Codex offers are kept for the same profile). */
export function discardEdits(state: EditorSlice): EditorSlice {
  return { ...initialEditor, original: state.original, catalog: state.catalog };
}
