/**
 * The API's core (core.ts `ApiCore`) over the Orchestrator's public surface, read-only: its contract
 * handlers (`api()`), its approval broker (answers go through `broker.answer(…, 'api')`, so the first
 * answer wins across every surface), its event hub and its chats' transcripts (for posted lines).
 * The messaging policy (`isolated`, `accept_from`, `answer_from`) is read from the ACCEPTED table
 * (table/accepted.ts), never from the table on disk an agent may have edited.
 *
 * A `/turn` is queued with the chat's `queueTurn` (never a command, never a steer) carrying the API
 * turn id the tracker minted, so its events are tied to it by id, never by text (turns.ts). `/ask` is
 * the orchestrator's `ask`: a read-only fork of the chat's thread on a process of its own (chats/ask.ts).
 * A posted line (`/send`, `/send-media`) is a `notice` item `[label] text` with `[file: <copy>]` lines,
 * as the contract has no item for a message from another profile or a file.
 */
import { stat } from 'node:fs/promises';
import type { AppEvent, ChatItem, ChatView, CoreApi } from '../../shared/contract';
import { AppFailure } from '../../shared/result';
import type { ApprovalBroker } from '../core/approvals/broker';
import { profilePolicy } from '../core/compile/policy';
import { wantDeny } from '../core/compile/rules';
import { MAX_QUEUE } from '../core/chats/chat';
import { recordedDenyRules } from '../core/launch/guard';
import { launchFacts } from '../core/launch/plan';
import type { InstancePaths } from '../core/instance/paths';
import { loadAccepted } from '../core/table/accepted';
import type { LoadedTable } from '../core/table/load';
import type { ApiCore, ApiEvent, ApiProfile } from './core';
import { TurnTracker } from './turns';

/** What the adapter reads from the Orchestrator (src/main/core/chats/orchestrator.ts satisfies it). */
export interface OrchestratorPort {
  api(): CoreApi;
  readonly broker: Pick<ApprovalBroker, 'answer'>;
  readonly hub: { emit(e: AppEvent): void };
  chat(chatId: string): {
    readonly transcript: { push(item: ChatItem): void; localId(kind: string): string };
    view(): ChatView;
    queueTurn(text: string, opts: { apiTurn: string; app?: boolean }): { queued: number };
  };
  ask(chatId: string, text: string, opts: { timeoutMs: number; signal?: AbortSignal }): Promise<{ answer: string }>;
}

/** The adapter, with `close` to stop listening to the core. */
export interface OrchestratorApiCore extends ApiCore {
  close(): void;
}

/**
 * Builds the adapter. `paths` and `env` are the orchestrator's own (to read the accepted table and the
 * launch guards).
 */
export function apiCoreFromOrchestrator(orch: OrchestratorPort, ctx: { paths: InstancePaths; env: NodeJS.ProcessEnv }): OrchestratorApiCore {
  const core = orch.api();
  const h = core.handlers;
  const listeners = new Set<(e: ApiEvent) => void>();
  const tracker = new TurnTracker((e) => {
    for (const l of listeners) {
      try {
        l(e);
      } catch {
        // One listener's failure must not stop the others (the hub isolates its own the same way).
      }
    }
  });
  const unsubscribe = core.subscribe((e) => tracker.onAppEvent(e));

  let cached: { key: string; table: LoadedTable } | null = null;
  /** The accepted table, re-read when its file changed. */
  async function accepted(): Promise<LoadedTable> {
    const st = await stat(ctx.paths.acceptedTable).catch(() => null);
    const key = st ? `${st.mtimeMs}:${st.size}:${st.ino}` : 'none';
    if (cached?.key === key) return cached.table;
    const table = (await loadAccepted(ctx.paths, { home: ctx.paths.home, env: ctx.env })).table;
    cached = { key, table };
    return table;
  }

  return {
    info: () => h['app:info']({}),
    chats: () => h['chats:list']({}),
    profiles: async () => Object.values((await accepted()).profiles).map((p): ApiProfile => ({
      name: p.name, cwd: p.cwd, permissionMode: p.permissionMode, sandboxed: p.sandbox, model: p.model, effort: p.effort,
      isolated: p.isolated, acceptFrom: [...p.acceptFrom], answerFrom: [...p.answerFrom],
    })),
    sessions: (chatId) => h['chats:sessions']({ chatId }),
    items: (chatId) => h['chats:items']({ chatId }),
    turn: async (chatId, text, opts = {}) => {
      const chat = orch.chat(chatId);
      const id = tracker.expect(chatId);
      try {
        const out = chat.queueTurn(text, { apiTurn: id, ...(opts.app ? { app: true } : {}) });
        return { queued: out.queued, turn: id };
      } catch (e) {
        tracker.cancel(chatId, id);
        throw e;
      }
    },
    canQueue: async (chatId) => {
      // A chat holds MAX_QUEUE messages, running and waiting (chat.ts enqueue). Its pump takes the first
      // waiting message at once whenever none runs, so a chat with any message waiting has one running.
      const { queued } = orch.chat(chatId).view();
      if (queued + (queued > 0 ? 1 : 0) >= MAX_QUEUE) {
        throw new AppFailure({ code: 'queue-full', message: `this chat already holds ${MAX_QUEUE} messages; wait for the agent to work through them`, where: chatId });
      }
    },
    ask: async (chatId, text, opts) => ({ answer: (await orch.ask(chatId, text, opts)).answer }),
    post: async (chatId, post) => {
      const chat = orch.chat(chatId);
      const lines = [`[${post.label}]${post.text ? ` ${post.text}` : ''}`, ...post.files.map((f) => `[file: ${f}]`)];
      chat.transcript.push({ type: 'notice', id: chat.transcript.localId('post'), text: lines.join('\n') });
      orch.hub.emit({ event: 'chat:updated', payload: chat.view() });
    },
    attach: (chatId, name, data) => h['chats:attach']({ chatId, name, dataBase64: data.toString('base64') }),
    readDenyRules: async (profileName) => {
      const table = await accepted();
      const profile = table.profiles[profileName];
      if (!profile) throw new AppFailure({ code: 'unknown-profile', message: `no profile named "${profileName}" in the accepted table` });
      const [recorded, facts] = await Promise.all([recordedDenyRules(ctx.paths.stateDir, profile), launchFacts(ctx.paths)]);
      return [...new Set([...recorded, ...wantDeny(profilePolicy(table, profile, facts))])];
    },
    approvals: () => h['approvals:list']({}),
    answer: async (id, answer, opts) => orch.broker.answer(id, answer, 'api', opts),
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: () => unsubscribe(),
  };
}
