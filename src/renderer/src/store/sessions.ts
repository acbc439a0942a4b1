/**
 * Sessions slice: each chat's session history as `chats:sessions` last answered it (most recently used
 * first), for the sessions panel. Loaded on demand; pure transitions that return the same object when
 * nothing changed.
 */
import type { SessionView } from '../../../shared/contract';
import { equal } from './equal';

/** Session lists by chat id (a chat missing here was never loaded). */
export interface SessionsSlice {
  byChat: Record<string, SessionView[]>;
}

/** Nothing loaded. */
export const initialSessions: SessionsSlice = { byChat: {} };

/** `chats:sessions` answer for one chat: replaces its list. */
export function setSessions(state: SessionsSlice, chatId: string, list: SessionView[]): SessionsSlice {
  if (equal(state.byChat[chatId], list)) return state;
  return { byChat: { ...state.byChat, [chatId]: list } };
}
