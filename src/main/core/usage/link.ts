/**
 * The usage store's pause carried into the chats: when a Codex home's usage limit is reached, every chat
 * on that home gets the turn machine's `pause` (queued work waits, chats/turn/machine.ts), and `resume`
 * when it lifts; a chat opened during a pause starts paused. One Codex home per instance today
 * (instance/paths.ts `codexHome`), so every chat is on it. docs/architecture.md "Usage".
 */
import type { TurnInput } from '../chats/turn/machine';
import type { UsageStore } from './store';

/** What the link needs of a chat: its machine's input. */
export interface PausableChat {
  dispatch(input: TurnInput): unknown;
}

/** The machine input for a home's pause state: `pause` until `pausedUntil`, or `resume`. */
export function pauseInput(pausedUntil: string | null): TurnInput {
  return pausedUntil ? { kind: 'pause', until: pausedUntil } : { kind: 'resume' };
}

/** Pauses and resumes `chats()` (those on `codexHome`) as the store says; returns the unsubscribe function. */
export function linkPause(store: UsageStore, codexHome: string, chats: () => Iterable<PausableChat>): () => void {
  return store.onPause((home, pausedUntil) => {
    if (home !== codexHome) return;
    for (const chat of chats()) chat.dispatch(pauseInput(pausedUntil));
  });
}

/** A chat just opened on `codexHome`: paused at once when its home is. */
export function joinPause(store: UsageStore, codexHome: string, chat: PausableChat): void {
  const until = store.get(codexHome).pausedUntil;
  if (until) chat.dispatch(pauseInput(until));
}
