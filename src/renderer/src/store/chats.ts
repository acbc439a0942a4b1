/**
 * Chats slice: every ChatView by id, in the order the core listed them (new ones appended), and the
 * profiles. Pure transitions; each returns the same object when nothing changed.
 */
import type { ChatView, ProfileView } from '../../../shared/contract';
import { equal } from './equal';

/** Chats and profiles as the list shows them. */
export interface ChatsSlice {
  byId: Record<string, ChatView>;
  order: string[];
  profiles: Record<string, ProfileView>;
  /** Angelia's state folder and the Codex homes (`app:info`), never offered as a profile's folder; null until read. */
  privatePlaces?: { stateDir: string; codexHomes: string[] } | null;
}

/** The empty chats slice. */
export const initialChats: ChatsSlice = { byId: {}, order: [], profiles: {} };

/** `app:info` answered: the places no profile is given. */
export function setPrivatePlaces(state: ChatsSlice, places: { stateDir: string; codexHomes: string[] }): ChatsSlice {
  return equal(state.privatePlaces, places) ? state : { ...state, privatePlaces: places };
}

/** `chat:updated`: inserts or replaces one chat. */
export function upsertChat(state: ChatsSlice, chat: ChatView): ChatsSlice {
  const old = state.byId[chat.id];
  if (old && equal(old, chat)) return state;
  return {
    ...state,
    byId: { ...state.byId, [chat.id]: chat },
    order: old ? state.order : [...state.order, chat.id],
  };
}

/** `chats:list` answer: the full list replaces what was known. */
export function setChats(state: ChatsSlice, chats: ChatView[]): ChatsSlice {
  const byId: Record<string, ChatView> = {};
  for (const c of chats) byId[c.id] = c;
  const order = chats.map((c) => c.id);
  if (equal(order, state.order) && equal(byId, state.byId)) return state;
  return { ...state, byId, order };
}

/** `profiles:list` answer. */
export function setProfiles(state: ChatsSlice, profiles: ProfileView[]): ChatsSlice {
  const byName: Record<string, ProfileView> = {};
  for (const p of profiles) byName[p.name] = p;
  if (equal(byName, state.profiles)) return state;
  return { ...state, profiles: byName };
}

/**
 * The name a chat is told apart by: its profile, and for the second and later chats of one profile
 * (in list order) "profile · #n". The first chat of a profile keeps the plain name.
 */
export function chatName(state: ChatsSlice, chatId: string): string {
  const chat = state.byId[chatId];
  if (!chat) return chatId;
  const siblings = state.order.filter((id) => state.byId[id]?.profile === chat.profile);
  const n = siblings.indexOf(chatId) + 1;
  return n > 1 ? `${chat.profile} · #${n}` : chat.profile;
}
