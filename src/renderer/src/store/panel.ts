/**
 * Panel slice: what the main area shows instead of the open chat — the profile editor, a profile's
 * policy inspector, or the review of a changed table. `none` shows the chat. Pure transitions.
 */

/** The panel in the main area; `none` = the open chat (or the list when narrow). */
export type Panel = { kind: 'none' } | { kind: 'editor' } | { kind: 'policy'; profile: string } | { kind: 'table' };

/** Nothing open over the chat. */
export const initialPanel: Panel = { kind: 'none' };

/** Shows `next` (the same object back when it is already shown). */
export function showPanel(state: Panel, next: Panel): Panel {
  if (state.kind !== next.kind) return next;
  if (state.kind === 'policy' && next.kind === 'policy' && state.profile !== next.profile) return next;
  return state;
}
