/**
 * The API's core (core.ts `ApiCore`) over the Orchestrator's contract handlers (`api()`) and its named
 * operations (`queueTurn`, `assertCanQueue`, `postNotice`, `answerApproval` with `by: 'api'`, so the
 * first answer wins across every surface, and `ask`); it never reaches a chat's transcript, the broker
 * or the event hub.
 * The messaging policy (`isolated`, `accept_from`, `answer_from`) is read from the ACCEPTED table
 * (table/accepted.ts), never from the table on disk an agent may have edited.
 *
 * A `/turn` is queued with the chat's `queueTurn` (never a command, never a steer) carrying the API
 * turn id the tracker minted, so its events are tied to it by id, never by text (turns.ts). `/ask` is
 * the orchestrator's `ask`: a read-only fork of the chat's thread on a process of its own (chats/ask.ts).
 * A posted line (`/send`, `/send-media`) is a `notice` item `[label] text` with `[file: <copy>]` lines,
 * as the contract has no item for a message from another profile or a file.
 */
import type { ImageRef } from '../../shared/images';
import { stat } from 'node:fs/promises';
import type { AnswerOutcome, ApprovalAnswer, CoreApi } from '../../shared/contract';
import { AppFailure } from '../../shared/result';
import { profilePolicy } from '../core/compile/policy';
import { wantDeny } from '../core/compile/rules';
import { recordedDenyRules } from '../core/launch/guard';
import { launchFacts } from '../core/launch/plan';
import type { InstancePaths } from '../core/instance/paths';
import { loadAccepted } from '../core/table/accepted';
import type { LoadedTable } from '../core/table/load';
import type { ApiAnswerOptions, ApiCore, ApiEvent, ApiProfile } from './core';
import { TurnTracker } from './turns';

/** The Orchestrator's operations the adapter calls (src/main/core/chats/orchestrator.ts satisfies it). */
export interface OrchestratorPort {
  api(): CoreApi;
  queueTurn(chatId: string, text: string, opts: { apiTurn: string; app?: boolean; images?: ImageRef[] }): { queued: number };
  inboxImages(chatId: string, paths: readonly string[]): Promise<ImageRef[]>;
  assertCanQueue(chatId: string): void;
  postNotice(chatId: string, text: string): void;
  answerApproval(id: string, answer: ApprovalAnswer, by: 'api', opts: ApiAnswerOptions): AnswerOutcome;
  ask(chatId: string, text: string, opts: { timeoutMs: number; signal?: AbortSignal; owner?: boolean }): Promise<{ answer: string }>;
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
    usage: () => h['usage:read']({}),
    resumeUsage: (codexHome) => h['usage:resume']({ codexHome }),
    account: () => h['account:read']({}),
    login: (req) => h['account:login'](req),
    loginCancel: (loginId) => h['account:loginCancel']({ loginId }),
    logout: () => h['account:logout']({}),
    chats: () => h['chats:list']({}),
    profiles: async () =>
      Object.values((await accepted()).profiles).map((p): ApiProfile => ({
        name: p.name,
        cwd: p.cwd,
        permissionMode: p.permissionMode,
        sandboxed: p.sandbox,
        model: p.model,
        effort: p.effort,
        isolated: p.isolated,
        acceptFrom: [...p.acceptFrom],
        answerFrom: [...p.answerFrom],
      })),
    sessions: (chatId) => h['chats:sessions']({ chatId }),
    items: (chatId) => h['chats:items']({ chatId }),
    turn: async (chatId, text, opts = {}) => {
      // Refused before a turn id is minted: an unknown chat, a full queue (the same AppFailures queueTurn throws), an image refused.
      orch.assertCanQueue(chatId);
      const images = opts.images ? await orch.inboxImages(chatId, opts.images) : [];
      const id = tracker.expect(chatId);
      try {
        const out = orch.queueTurn(chatId, text, { apiTurn: id, ...(opts.app ? { app: true } : {}), ...(images.length ? { images } : {}) });
        return { queued: out.queued, turn: id };
      } catch (e) {
        tracker.cancel(chatId, id);
        throw e;
      }
    },
    canQueue: async (chatId) => orch.assertCanQueue(chatId),
    ask: async (chatId, text, opts) => ({ answer: (await orch.ask(chatId, text, opts)).answer }),
    post: async (chatId, post) => {
      const lines = [`[${post.label}]${post.text ? ` ${post.text}` : ''}`, ...post.files.map((f) => `[file: ${f}]`)];
      orch.postNotice(chatId, lines.join('\n'));
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
    answer: async (id, answer, opts) => orch.answerApproval(id, answer, 'api', opts),
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: () => unsubscribe(),
  };
}
