/**
 * Usage slice: each Codex home's rate limits and pause (`usage:read`, the `usage:updated` event), for
 * the header's meter. A chat's own tokens and context travel on its `ChatView` (chats slice). Pure
 * transitions; each returns the same object when nothing changed.
 */
import type { HomeUsage } from '../../../shared/usage';
import { equal } from './equal';

/** Every Codex home's usage, in the order first reported. */
export interface UsageSlice {
  homes: HomeUsage[];
}

/** Nothing reported yet. */
export const initialUsage: UsageSlice = { homes: [] };

/** `usage:read` answered: the list as a whole. */
export function usageLoaded(state: UsageSlice, homes: HomeUsage[]): UsageSlice {
  return equal(state.homes, homes) ? state : { homes };
}

/** `usage:updated`: one home's usage, replaced in place or added. */
export function usageUpdated(state: UsageSlice, home: HomeUsage): UsageSlice {
  const i = state.homes.findIndex((h) => h.codexHome === home.codexHome);
  if (i < 0) return { homes: [...state.homes, home] };
  if (equal(state.homes[i], home)) return state;
  return { homes: state.homes.map((h, j) => (j === i ? home : h)) };
}
