/**
 * The zustand store: binds the pure transitions of `app.ts`, nothing more. Components read it with
 * selectors; `api/session.ts` is the one place core events and loaded lists enter it.
 */
import { create } from 'zustand';
import { initialState, type AppState } from './app';

/** The renderer store. Write to it only with `update(transition)`. */
export const useAppStore = create<AppState>()(() => initialState);

/** Applies a pure transition to the store (no notification when it returns the same state). */
export function update(transition: (s: AppState) => AppState): void {
  useAppStore.setState((s) => transition(s), true);
}
