/**
 * The renderer's whole state as one object of slices, and the one function through which core events
 * enter it. Everything here is pure; `store.ts` binds it to zustand.
 */
import type { AnswerOutcome, AppEvent, ApprovalView, ChatItem, ChatView, ProfileView, SessionView } from '../../../shared/contract';
import { answerSettled, initialApprovals, setApprovals, upsertApproval, type ApprovalsSlice } from './approvals';
import { initialChats, setChats, setProfiles, upsertChat, type ChatsSlice } from './chats';
import { appendDelta, initialItems, markItemsStale, setItems, upsertItem, type ItemsSlice } from './items';
import { initialSelection, keepKnown, selectChat, type SelectionSlice } from './selection';
import { initialSessions, setSessions, type SessionsSlice } from './sessions';
import { initialComposer, type ComposerSlice } from './composer';
import { initialEditor, type EditorSlice } from './editor';
import { initialPanel, showPanel, type Panel } from './panel';
import { initialPolicy, type PolicySlice } from './policy';
import { initialTable, tableChanged, type TableSlice } from './table';
import { accountSeen, initialAccount, loginProgressed, type AccountSlice } from './account';
import { initialUsage, usageLoaded, usageUpdated, type UsageSlice } from './usage';
import type { AccountView } from '../../../shared/account';
import type { HomeUsage } from '../../../shared/usage';

/** The link to the host: connecting, open, lost (reconnecting), or impossible (no token in the URL). */
export type ConnectionStatus = 'connecting' | 'open' | 'closed' | 'no-token';

/** Every slice of the renderer state. */
export interface AppState {
  connection: ConnectionStatus;
  chats: ChatsSlice;
  items: ItemsSlice;
  approvals: ApprovalsSlice;
  selection: SelectionSlice;
  sessions: SessionsSlice;
  /** What the main area shows over the chat: the profile editor, a policy, the table review. */
  panel: Panel;
  editor: EditorSlice;
  policy: PolicySlice;
  table: TableSlice;
  composer: ComposerSlice;
  /** Who Codex is signed in as, and a sign-in in flight (the sign-in screen). */
  account: AccountSlice;
  /** Each Codex home's rate limits and pause (the header's meter). */
  usage: UsageSlice;
  /** The last failure the window could not show elsewhere (a load that failed), or null. */
  problem: string | null;
}

/** The state before anything is known. */
export const initialState: AppState = {
  connection: 'connecting',
  chats: initialChats,
  items: initialItems,
  approvals: initialApprovals,
  selection: initialSelection,
  sessions: initialSessions,
  panel: initialPanel,
  editor: initialEditor,
  policy: initialPolicy,
  table: initialTable,
  composer: initialComposer,
  account: initialAccount,
  usage: initialUsage,
  problem: null,
};

/** `state` with one slice replaced (the same object when the slice did not change). */
export function withSlice<K extends keyof AppState>(state: AppState, key: K, next: AppState[K]): AppState {
  return next === state[key] ? state : { ...state, [key]: next };
}

/** Applies one core event. The only way core events change the state. */
export function applyEvent(state: AppState, e: AppEvent): AppState {
  switch (e.event) {
    case 'chat:updated':
      return withSlice(state, 'chats', upsertChat(state.chats, e.payload));
    case 'chat:item':
      return withSlice(state, 'items', upsertItem(state.items, e.payload));
    case 'chat:delta':
      return withSlice(state, 'items', appendDelta(state.items, e.payload));
    case 'approval:updated':
      return withSlice(state, 'approvals', upsertApproval(state.approvals, e.payload));
    case 'table:changed':
      return withSlice(state, 'table', tableChanged(state.table, e.payload));
    case 'account:updated':
      return withSlice(state, 'account', accountSeen(state.account, e.payload));
    case 'account:login':
      return withSlice(state, 'account', loginProgressed(state.account, e.payload));
    case 'usage:updated':
      return withSlice(state, 'usage', usageUpdated(state.usage, e.payload));
    default:
      return state;
  }
}

/** The answers of the loads made on (re)connect; a list that failed to load is left out. */
export interface Snapshot {
  profiles?: ProfileView[];
  chats?: ChatView[];
  approvals?: ApprovalView[];
}

/** Applies the lists loaded on (re)connect; a selection whose chat is gone is dropped. */
export function applySnapshot(state: AppState, snap: Snapshot): AppState {
  let chats = state.chats;
  if (snap.chats) chats = setChats(chats, snap.chats);
  if (snap.profiles) chats = setProfiles(chats, snap.profiles);
  let next = withSlice(state, 'chats', chats);
  if (snap.approvals) next = withSlice(next, 'approvals', setApprovals(next.approvals, snap.approvals));
  return snap.chats ? withSlice(next, 'selection', keepKnown(next.selection, next.chats.order)) : next;
}

/** Applies a chat's full transcript. */
export function applyItems(state: AppState, chatId: string, items: ChatItem[]): AppState {
  return withSlice(state, 'items', setItems(state.items, chatId, items));
}

/** Applies the outcome of this window's answer to an approval. */
export function applyAnswer(state: AppState, id: string, outcome: AnswerOutcome): AppState {
  return withSlice(state, 'approvals', answerSettled(state.approvals, id, outcome));
}

/** The answer to this window's `chats:create`: the new chat is listed (if its event has not done so yet) and opened. */
export function applyCreated(state: AppState, chat: ChatView): AppState {
  const next = state.chats.byId[chat.id] ? state : withSlice(state, 'chats', upsertChat(state.chats, chat));
  return applySelect(next, chat.id);
}

/** A chat's session history as `chats:sessions` answered it. */
export function applySessions(state: AppState, chatId: string, list: SessionView[]): AppState {
  return withSlice(state, 'sessions', setSessions(state.sessions, chatId, list));
}

/** Opens a chat (or the list, with null); a panel over the chat closes. */
export function applySelect(state: AppState, chatId: string | null): AppState {
  return withSlice(withSlice(state, 'selection', selectChat(state.selection, chatId)), 'panel', showPanel(state.panel, initialPanel));
}

/** Shows a panel over the chat (the editor, a policy, the table review), or the chat again with `none`. */
export function applyPanel(state: AppState, panel: Panel): AppState {
  return withSlice(state, 'panel', showPanel(state.panel, panel));
}

/** Records the connection status; a lost connection marks every transcript for reloading. */
export function applyConnection(state: AppState, status: ConnectionStatus): AppState {
  if (state.connection === status) return state;
  const next = { ...state, connection: status };
  return status === 'open' ? next : withSlice(next, 'items', markItemsStale(next.items));
}

/** Records (or, with null, clears) the failure shown at the top of the window. */
export function applyProblem(state: AppState, problem: string | null): AppState {
  return state.problem === problem ? state : { ...state, problem };
}

/** `account:read` answered (a first run that needs a sign-in then shows the sign-in banner: SignInBanner.tsx). */
export function applyAccount(state: AppState, view: AccountView): AppState {
  return withSlice(state, 'account', accountSeen(state.account, view));
}

/** `usage:read` answered: every Codex home's rate limits and pause. */
export function applyUsage(state: AppState, homes: HomeUsage[]): AppState {
  return withSlice(state, 'usage', usageLoaded(state.usage, homes));
}
