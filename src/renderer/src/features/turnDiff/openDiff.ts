/**
 * Which turn's "Changes of this turn" view is open, if any: one small store of its own, so the view lives
 * beside the chat pane (ChatPane.tsx mounts `TurnDiffHost`) and stays open while the transcript's virtual
 * list unmounts the turn-end item that opened it. Pure transitions.
 */
import { create } from 'zustand';

/** The open view: the chat and the turn (null: the running turn, else the last). */
export interface OpenDiff {
  chatId: string;
  turnId: string | null;
}

interface OpenDiffState {
  open: OpenDiff | null;
  show(open: OpenDiff): void;
  close(): void;
}

/** The open view's store. */
export const useOpenDiff = create<OpenDiffState>()((set) => ({
  open: null,
  show: (open) => set({ open }),
  close: () => set({ open: null }),
}));
