/**
 * The one place the host meets the store: a single event subscription feeding `applyEvent` (and the
 * reloads some events ask for: the profiles after `profiles:changed`, the table diff after
 * `table:changed`), the loads made on every (re)connect (profiles, chats, approvals, the table, the
 * Codex account and usage, and the open chat's transcript), and the actions the UI calls. Components get these actions through
 * `SessionContext`.
 */
import { createContext, useContext } from 'react';
import type {
  AnswerOutcome,
  AppEvent,
  ApprovalAnswer,
  ChatView,
  ElicitContent,
  OutputOf,
  PayloadOf,
  QuestionAnswers,
  RequestedAccess,
  SessionView,
} from '../../../shared/contract';
import type { AppError, Result } from '../../../shared/result';
import { applyAnswer, applyConnection, applyCreated, applyEvent, applyItems, applySelect, applySessions, applySnapshot, withSlice } from '../store/app';
import { setPrivatePlaces } from '../store/chats';
import { mergeDeltas } from '../store/items';
import { update, useAppStore } from '../store/store';
import { accountActions, type AccountActions } from './accountActions';
import { attachDropped } from './attachImages';
import type { ImageData } from '../../../shared/images';
import { profileActions, type ProfileActions } from './profileActions';
import { sessionsActions, type SessionsActions } from './sessionsActions';
import type { LinkedApi } from './wsApi';

/** What the UI can do. Every action reports failures as values. */
export interface Session extends ProfileActions, AccountActions, SessionsActions {
  select(chatId: string | null): void;
  /**
   * Sends a message or a command (`/status`…). With `steer`, the text goes into the running turn
   * (`turn/steer`) instead of waiting in the queue. `images`: attached paths given to the agent as images.
   */
  send(chatId: string, text: string, opts?: { steer?: boolean; images?: string[] }): Promise<Result<OutputOf<'chats:send'>>>;
  interrupt(chatId: string): Promise<Result<{ interrupted: boolean }>>;
  /**
   * Answers an approval. `grant`: the checked subset of a permissions request (Allow); `reason`: text
   * typed with a Deny; `answers`: an agent question's Submit; `content`: an elicitation form's Accept.
   */
  answer(id: string, answer: ApprovalAnswer, extra?: AnswerExtra): Promise<Result<AnswerOutcome>>;
  /** Opens a new chat on `profile` and selects it. */
  create(profile: string): Promise<Result<ChatView>>;
  /** Starts the chat's Codex again after a crash and resumes its thread. */
  restart(chatId: string): Promise<Result<{ started: boolean }>>;
  /** Tells the core a window shows the chat (`chats:shown`): its agent may start before the first message. Never fails. */
  shown(chatId: string): void;
  /** Loads the chat's session history into the store. */
  sessions(chatId: string): Promise<Result<SessionView[]>>;
  /**
   * Sends pasted or dropped files to the chat's profile folder (`chats:attach`): an image waits in the
   * composer as a thumbnail for the next message (api/attachImages.ts); for any other file the composer
   * shows where it went.
   */
  attach(chatId: string, files: readonly File[]): Promise<void>;
  /** The bytes of an image a user item of the chat records (`chats:image`), for its thumbnail. */
  image(chatId: string, path: string): Promise<Result<ImageData>>;
  /** A turn's changes (`chats:turnDiff`; `turnId` null: the running turn, else the last). */
  turnDiff(chatId: string, turnId: string | null): Promise<Result<OutputOf<'chats:turnDiff'>>>;
  /** The chat's folder against git's HEAD (`chats:headDiff`). */
  headDiff(chatId: string): Promise<Result<OutputOf<'chats:headDiff'>>>;
  /** Stops listening (tests and hot reload). */
  stop(): void;
}

/**
 * What may go with an answer: a grant (Allow of a permissions request), a reason (Deny), the answers to
 * agent questions (Allow = Submit) or an elicitation form's content (Allow = Accept): src/shared/questions.ts.
 */
export interface AnswerExtra {
  grant?: RequestedAccess;
  reason?: string;
  answers?: QuestionAnswers;
  content?: ElicitContent;
}

/** Reports a failed load where the UI can show it. */
export type ErrorSink = (where: string, error: AppError) => void;

/** Starts syncing the store with the host behind `api`. */
export function startSession(api: LinkedApi, onError: ErrorSink = () => undefined): Session {
  let generation = 0;
  const more = profileActions(api);
  const account = accountActions(api, (go) => more.leaveEditor(go));

  // Streamed deltas arrive faster than the screen refreshes (Codex sends one per token): they are held
  // and applied together once per frame, merged per item, so a burst costs one render instead of one
  // each (docs/benchmarks.md "renderer"). Any other event first applies the deltas held before it, so
  // the order of events is kept. A timer backs up requestAnimationFrame, which stops in a hidden window.
  let held: PayloadOf<'chat:delta'>[] = [];
  let flushTimer: ReturnType<typeof setTimeout> | null = null;
  let flushFrame: number | null = null;
  const flushDeltas = (): void => {
    if (flushTimer !== null) clearTimeout(flushTimer);
    if (flushFrame !== null && typeof cancelAnimationFrame === 'function') cancelAnimationFrame(flushFrame);
    flushTimer = null;
    flushFrame = null;
    if (held.length === 0) return;
    const batch = mergeDeltas(held);
    held = [];
    update((s) => batch.reduce((acc, payload) => applyEvent(acc, { event: 'chat:delta', payload }), s));
  };

  const loadItems = async (chatId: string): Promise<void> => {
    const gen = generation;
    const r = await api.invoke('chats:items', { chatId });
    if (gen !== generation) return;
    flushDeltas();
    if (r.ok) update((s) => applyItems(s, chatId, r.value));
    else onError(`loading the chat "${chatId}"`, r.error);
  };

  const loadAll = async (): Promise<void> => {
    const gen = ++generation;
    const [profiles, chats, approvals] = await Promise.all([api.invoke('profiles:list', {}), api.invoke('chats:list', {}), api.invoke('approvals:list', {})]);
    if (gen !== generation) return;
    flushDeltas();
    for (const [what, r] of [
      ['profiles', profiles],
      ['chats', chats],
      ['approvals', approvals],
    ] as const) {
      if (!r.ok) onError(`loading the ${what}`, r.error);
    }
    update((s) =>
      applySnapshot(s, {
        ...(profiles.ok ? { profiles: profiles.value } : {}),
        ...(chats.ok ? { chats: chats.value } : {}),
        ...(approvals.ok ? { approvals: approvals.value } : {}),
      }),
    );
    void more.loadTable();
    void account.loadAccount();
    // The places no profile is given: a refused command inside them offers no "Add … to the profile".
    void api.invoke('app:info', {}).then(
      (r) => r.ok && update((s) => withSlice(s, 'chats', setPrivatePlaces(s.chats, { stateDir: r.value.stateDir, codexHomes: r.value.codexHomes }))),
      () => undefined,
    );
    const open = useAppStore.getState().selection.chatId;
    if (open) await loadItems(open);
  };

  const react = (e: AppEvent): void => {
    if (e.event === 'profiles:changed') void more.reloadProfiles();
    if (e.event === 'table:changed' && (e.payload.differs || useAppStore.getState().panel.kind === 'table')) void more.loadTable();
  };

  const offEvents = api.onEvent((e) => {
    if (e.event === 'chat:delta') {
      held.push(e.payload);
      if (flushTimer === null) {
        flushTimer = setTimeout(flushDeltas, 50);
        if (typeof requestAnimationFrame === 'function') flushFrame = requestAnimationFrame(flushDeltas);
      }
      return;
    }
    flushDeltas();
    update((s) => applyEvent(s, e));
    react(e);
  });
  const offStatus = api.onStatus((status) => {
    flushDeltas();
    update((s) => applyConnection(s, status));
    if (status === 'open') void loadAll();
    else generation++;
  });

  const select = (chatId: string | null): void => {
    // Opening a chat closes the panel over it: an editor with unsaved edits asks first.
    more.leaveEditor(() => {
      update((s) => applySelect(s, chatId));
      const s = useAppStore.getState();
      if (chatId && s.connection === 'open' && !s.items.loaded[chatId]) void loadItems(chatId);
    });
  };

  return {
    ...more,
    ...account,
    ...sessionsActions(api, select, (go) => more.leaveEditor(go)),
    select,
    send: (chatId, text, opts = {}) =>
      api.invoke('chats:send', { chatId, text, ...(opts.steer ? { steer: true } : {}), ...(opts.images?.length ? { images: opts.images } : {}) }),
    interrupt: (chatId) => api.invoke('chats:interrupt', { chatId }),
    async answer(id, answer, extra = {}) {
      const r = await api.invoke('approvals:answer', {
        id,
        answer,
        ...(extra.grant ? { grant: extra.grant } : {}),
        ...(extra.reason ? { reason: extra.reason } : {}),
        ...(extra.answers ? { answers: extra.answers } : {}),
        ...(extra.content ? { content: extra.content } : {}),
      });
      if (r.ok) update((s) => applyAnswer(s, id, r.value));
      return r;
    },
    async create(profile) {
      const r = await api.invoke('chats:create', { profile });
      if (r.ok) {
        const chat = r.value;
        // The new chat opens in place of the panel: an editor with unsaved edits asks first (the chat stays listed).
        more.leaveEditor(() => {
          flushDeltas();
          update((s) => applyCreated(s, chat));
          if (!useAppStore.getState().items.loaded[chat.id]) void loadItems(chat.id);
        });
      }
      return r;
    },
    restart: (chatId) => api.invoke('chats:restart', { chatId }),
    shown: (chatId) => void api.invoke('chats:shown', { chatId }).catch(() => undefined),
    async sessions(chatId) {
      const r = await api.invoke('chats:sessions', { chatId });
      if (r.ok) update((s) => applySessions(s, chatId, r.value));
      return r;
    },
    attach: (chatId, files) => attachDropped(api, chatId, files),
    image: (chatId, path) => api.invoke('chats:image', { chatId, path }),
    turnDiff: (chatId, turnId) => api.invoke('chats:turnDiff', { chatId, ...(turnId ? { turnId } : {}) }),
    headDiff: (chatId) => api.invoke('chats:headDiff', { chatId }),
    stop() {
      flushDeltas();
      offEvents();
      offStatus();
      api.close();
    },
  };
}

/** The session of this window (provided by `App`). */
export const SessionContext = createContext<Session | null>(null);

/** The session; throws when used outside `SessionContext`. */
export function useSession(): Session {
  const s = useContext(SessionContext);
  if (!s) throw new Error('useSession outside SessionContext');
  return s;
}
