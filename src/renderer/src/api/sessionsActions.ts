/**
 * The actions of "find past work" (docs/architecture.md "Sessions"): open a chat's sessions, the search
 * over every chat's, or one past session read-only (the panels of store/panel.ts), and the calls behind
 * them (`sessions:list`, `sessions:search`, `sessions:rename`, `sessions:archive`, `sessions:open`).
 * "Resume this session" brings an archived session back first, then sends `/resume <id>` to its chat,
 * as typing it would (the core switches, refuses while work runs, and says so in the chat), and opens
 * that chat.
 */
import type { InputOf, OutputOf } from '../../../shared/contract';
import type { Result } from '../../../shared/result';
import { applyPanel } from '../store/app';
import type { Panel } from '../store/panel';
import { update } from '../store/store';
import type { LinkedApi } from './wsApi';

/** What the sessions panels can do. Failures come back as values. */
export interface SessionsActions {
  /** Opens the panel of every session of `chatId`. */
  showSessions(chatId: string): void;
  /** Opens the search over every chat's sessions. */
  showSearch(): void;
  /** Opens one past session read-only; Back returns to `from`. */
  showPast(chatId: string, session: string, from: 'search' | 'sessions'): void;
  listSessions(input: InputOf<'sessions:list'>): Promise<Result<OutputOf<'sessions:list'>>>;
  searchSessions(input: InputOf<'sessions:search'>): Promise<Result<OutputOf<'sessions:search'>>>;
  renameSession(chatId: string, session: string, name: string): Promise<Result<OutputOf<'sessions:rename'>>>;
  archiveSession(chatId: string, session: string, archived: boolean): Promise<Result<OutputOf<'sessions:archive'>>>;
  openSession(chatId: string, session: string): Promise<Result<OutputOf<'sessions:open'>>>;
  /** "Resume this session": unarchived when archived, then `/resume <id>` in its chat, which opens. */
  resumeSession(chatId: string, session: string, archived: boolean): Promise<Result<unknown>>;
}

/**
 * The actions over `api`; `select` opens a chat, `leave` runs `go` once an editor with unsaved edits
 * agreed to close (profileActions `leaveEditor`).
 */
export function sessionsActions(api: LinkedApi, select: (chatId: string) => void, leave: (go: () => void) => void): SessionsActions {
  const show = (panel: Panel): void => leave(() => update((s) => applyPanel(s, panel)));
  return {
    showSessions: (chatId) => show({ kind: 'sessions', chatId }),
    showSearch: () => show({ kind: 'search' }),
    showPast: (chatId, session, from) => show({ kind: 'past', chatId, session, from }),
    listSessions: (input) => api.invoke('sessions:list', input),
    searchSessions: (input) => api.invoke('sessions:search', input),
    renameSession: (chatId, session, name) => api.invoke('sessions:rename', { chatId, session, name }),
    archiveSession: (chatId, session, archived) => api.invoke('sessions:archive', { chatId, session, archived }),
    openSession: (chatId, session) => api.invoke('sessions:open', { chatId, session }),
    async resumeSession(chatId, session, archived) {
      if (archived) {
        const back = await api.invoke('sessions:archive', { chatId, session, archived: false });
        if (!back.ok) return back;
      }
      const r = await api.invoke('chats:send', { chatId, text: `/resume ${session}` });
      if (r.ok) select(chatId);
      return r;
    },
  };
}
