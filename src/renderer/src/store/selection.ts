/**
 * Selection slice: which chat is open (null = the list). Pure transitions.
 */

/** The open chat. */
export interface SelectionSlice {
  chatId: string | null;
}

/** Nothing open. */
export const initialSelection: SelectionSlice = { chatId: null };

/** Opens a chat, or goes back to the list with null. */
export function selectChat(state: SelectionSlice, chatId: string | null): SelectionSlice {
  return state.chatId === chatId ? state : { chatId };
}

/** Drops the selection when the open chat is no longer listed. */
export function keepKnown(state: SelectionSlice, known: string[]): SelectionSlice {
  return state.chatId !== null && !known.includes(state.chatId) ? { chatId: null } : state;
}
