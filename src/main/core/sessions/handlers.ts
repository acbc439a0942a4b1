/**
 * The contract's handlers for "find past work" (`sessions:list`, `sessions:search`, `sessions:rename`,
 * `sessions:archive`, `sessions:open`; src/shared/sessions.ts) over one `SessionCatalog` on the
 * orchestrator's sessions store, and `chats:sessions` (the 10 most recently used, as `/resume` lists
 * them). Kept here so the orchestrator only spreads them into `api()`.
 */
import type { CoreApi, SessionView } from '../../../shared/contract';
import { childrenFile } from '../codex/children';
import type { StartCodex } from '../codex/connection';
import type { InstancePaths } from '../instance/paths';
import type { SessionStore } from '../chats/sessions';
import { SessionCatalog } from './catalog';
import { sessionsConnect } from './connect';

type SessionChannels = 'sessions:list' | 'sessions:search' | 'sessions:rename' | 'sessions:archive' | 'sessions:open';

/** What the handlers need of the orchestrator. */
export interface SessionsHost {
  store: SessionStore;
  paths: InstancePaths;
  env: NodeJS.ProcessEnv;
  startCodex: StartCodex;
  /** The thread a chat's running Codex holds, or null; undefined for a chat that does not exist. */
  liveThread: (chatId: string) => string | null | undefined;
}

/** The five `sessions:*` handlers (catalog.ts; its AppFailures pass through). */
export function sessionHandlers(host: SessionsHost): Pick<CoreApi['handlers'], SessionChannels> {
  const catalog = new SessionCatalog({
    store: host.store,
    chatExists: (chatId) => host.liveThread(chatId) !== undefined,
    liveThread: (chatId) => host.liveThread(chatId) ?? null,
    connect: sessionsConnect({ codexHome: host.paths.codexHome, env: host.env, childrenFile: childrenFile(host.paths.stateDir), start: host.startCodex }),
  });
  return {
    'sessions:list': async (input) => catalog.list(input),
    'sessions:search': async (input) => catalog.search(input),
    'sessions:rename': async ({ chatId, session, name }) => catalog.rename({ chatId, session }, name),
    'sessions:archive': async ({ chatId, session, archived }) => catalog.setArchived({ chatId, session }, archived),
    'sessions:open': async (ref) => catalog.open(ref),
  };
}

/** A chat's 10 most recently used sessions as `chats:sessions` lists them (most recently used first). */
export function recentSessionViews(store: SessionStore, chatId: string): SessionView[] {
  const active = store.active(chatId)?.id ?? null;
  return store
    .list(chatId)
    .map((r) => ({ id: r.id, threadId: r.threadId, label: r.label, turns: r.turns, lastUsedAt: r.last_used_at, active: r.id === active }));
}
