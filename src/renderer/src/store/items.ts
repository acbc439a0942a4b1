/**
 * Items slice: each chat's transcript, ordered as the items arrived, upserted by id; streamed deltas
 * append to an agent message's or reasoning's `text` and a command's `output`. `loaded` marks chats whose
 * full transcript was fetched (events alone may only carry its tail). Pure transitions; each returns the
 * same object when nothing changed.
 */
import type { ChatItem, PayloadOf } from '../../../shared/contract';
import { equal } from './equal';

/** Transcripts by chat id. */
export interface ItemsSlice {
  byChat: Record<string, ChatItem[]>;
  loaded: Record<string, boolean>;
}

/** The empty items slice. */
export const initialItems: ItemsSlice = { byChat: {}, loaded: {} };

/** `chat:item`: inserts the item at the end, or replaces the item with the same id in place. */
export function upsertItem(state: ItemsSlice, { chatId, item }: PayloadOf<'chat:item'>): ItemsSlice {
  const list = state.byChat[chatId] ?? [];
  const at = list.findIndex((i) => i.id === item.id);
  if (at >= 0 && equal(list[at], item)) return state;
  const next = at < 0 ? [...list, item] : list.map((i, n) => (n === at ? item : i));
  return { ...state, byChat: { ...state.byChat, [chatId]: next } };
}

/** `chat:delta`: appends to `text` (agent, reasoning) or `output` (command). Unknown items are ignored. */
export function appendDelta(state: ItemsSlice, { chatId, itemId, field, delta }: PayloadOf<'chat:delta'>): ItemsSlice {
  if (delta.length === 0) return state;
  const list = state.byChat[chatId];
  if (!list) return state;
  // The streamed item is nearly always the last one: search from the end (a chat may hold thousands).
  const at = list.findLastIndex((i) => i.id === itemId);
  const item = list[at];
  if (!item) return state;
  let next: ChatItem;
  if (field === 'text' && (item.type === 'agent' || item.type === 'reasoning')) next = { ...item, text: item.text + delta };
  else if (field === 'output' && item.type === 'command') next = { ...item, output: item.output + delta };
  else return state;
  return { ...state, byChat: { ...state.byChat, [chatId]: list.map((i, n) => (n === at ? next : i)) } };
}

/** `chats:items` answer: the full transcript replaces what events had brought. */
export function setItems(state: ItemsSlice, chatId: string, items: ChatItem[]): ItemsSlice {
  if (state.loaded[chatId] && equal(state.byChat[chatId], items)) return state;
  return { byChat: { ...state.byChat, [chatId]: items }, loaded: { ...state.loaded, [chatId]: true } };
}

/** After a reconnect every transcript may have missed events: they are fetched again when shown. */
export function markItemsStale(state: ItemsSlice): ItemsSlice {
  if (Object.keys(state.loaded).length === 0) return state;
  return { ...state, loaded: {} };
}

/**
 * Joins consecutive deltas to the same item and field into one (their texts concatenated, in order), so a
 * burst of deltas costs one store update instead of one each; other deltas keep their order. Pure.
 */
export function mergeDeltas(deltas: PayloadOf<'chat:delta'>[]): PayloadOf<'chat:delta'>[] {
  const out: PayloadOf<'chat:delta'>[] = [];
  for (const d of deltas) {
    const last = out[out.length - 1];
    if (last && last.chatId === d.chatId && last.itemId === d.itemId && last.field === d.field) out[out.length - 1] = { ...last, delta: last.delta + d.delta };
    else out.push(d);
  }
  return out;
}
