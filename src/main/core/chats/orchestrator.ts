/**
 * The orchestrator: the core every host drives (Electron main, `angelia serve`, the CLI). It loads the
 * table, keeps one chat per profile (this version), one approval broker and one event hub, and serves
 * the contract's handlers (`CoreApi`). Agents start lazily, on the first message.
 */
import type { AppEvent, ChatView, CoreApi, ProfileView } from '../../../shared/contract';
import { AppFailure } from '../../../shared/result';
import { ApprovalBroker } from '../approvals/broker';
import { fileAudit, type AuditSink } from '../approvals/audit';
import type { InstancePaths } from '../instance/paths';
import { APP_VERSION } from '../instance/version';
import { childTracker, childrenFile } from '../codex/children';
import { reapOrphans } from '../codex/orphans';
import type { CodexStartSpec } from '../codex/start';
import { Chat } from './chat';
import type { StartCodex } from './connection';
import { EventHub } from './eventHub';
import { planLaunch } from './launchPlan';
import { SessionStore } from './sessions';
import type { LoadedTable } from '../table/load';
import { compareWithAccepted, loadAccepted, type TableComparison } from '../table/accepted';

/** Orchestrator options. `env` is the environment children inherit from (before scrubbing). */
export interface OrchestratorOptions {
  paths: InstancePaths;
  env: NodeJS.ProcessEnv;
  startCodex: StartCodex;
  audit?: AuditSink;
}

export class Orchestrator {
  readonly hub = new EventHub();
  readonly broker: ApprovalBroker;
  private readonly chats = new Map<string, Chat>();
  private readonly sessions: SessionStore;
  private readonly audit: AuditSink;
  private table: LoadedTable;
  private codexVersion: string | null = null;

  /**
   * Loads the ACCEPTED table (table/accepted.ts; the first run takes the table as it stands; throws
   * AppFailure naming the file and field) and builds one chat per profile. First kills the Codex children
   * a dead Angelia process left running (`<state>/children.json`, codex/orphans.ts).
   */
  static async create(opts: OrchestratorOptions): Promise<Orchestrator> {
    await reapOrphans(opts.paths.stateDir);
    return new Orchestrator(opts, (await loadAccepted(opts.paths, { home: opts.paths.home, env: opts.env })).table);
  }

  /** Whether the table on disk differs from the accepted one it runs on, with the field-by-field diff. */
  async tableChanges(): Promise<TableComparison> {
    return compareWithAccepted(this.opts.paths, { home: this.opts.paths.home, env: this.opts.env });
  }

  private constructor(private readonly opts: OrchestratorOptions, table: LoadedTable) {
    this.table = table;
    this.audit = opts.audit ?? fileAudit(opts.paths.auditLog);
    this.sessions = new SessionStore(opts.paths.sessionsFile);
    this.broker = new ApprovalBroker({
      timeoutMs: this.table.defaults.permissionTimeoutMinutes * 60_000,
      audit: this.audit,
      onUpdate: (view) => {
        this.hub.emit({ event: 'approval:updated', payload: view });
        const chat = this.chats.get(view.chatId);
        if (chat) this.hub.emit({ event: 'chat:updated', payload: chat.view() });
      },
    });
    for (const name of Object.keys(this.table.profiles)) this.chat(name);
  }

  /** The chat of a profile (chat id = profile name in this version). Throws AppFailure for an unknown chat. */
  chat(chatId: string): Chat {
    const existing = this.chats.get(chatId);
    if (existing) return existing;
    const profile = this.table.profiles[chatId];
    if (!profile) throw new AppFailure({ code: 'unknown-chat', message: `no chat or profile named "${chatId}"`, where: this.opts.paths.tableFile, fix: `profiles: ${Object.keys(this.table.profiles).join(', ') || '(none)'}` });
    const chat = new Chat({
      chatId, profile: profile.name,
      plan: () => planLaunch({ table: this.table, profile: profile.name, chatId, paths: this.opts.paths, env: this.opts.env }),
      startCodex: async (spec) => {
        // Every child is recorded in <state>/children.json from its spawn to its exit (B29).
        const tracked: CodexStartSpec = { ...spec, track: childTracker(childrenFile(this.opts.paths.stateDir), { chatId, bin: spec.bin }) };
        const conn = await this.opts.startCodex(tracked);
        this.codexVersion = conn.version;
        return conn;
      },
      broker: this.broker, audit: this.audit, sessions: this.sessions,
      emit: (e: AppEvent) => this.hub.emit(e),
    });
    this.chats.set(chatId, chat);
    return chat;
  }

  /** Every chat as the list shows it. */
  chatViews(): ChatView[] {
    return [...this.chats.values()].map((c) => c.view());
  }

  /** Every profile of the table. */
  profileViews(): ProfileView[] {
    return Object.values(this.table.profiles).map((p) => ({
      name: p.name, cwd: p.cwd, permissionMode: p.permissionMode, sandboxed: p.sandbox,
      addDirs: p.addDirs, model: p.model, effort: p.effort,
    }));
  }

  /** The contract's handlers and event stream, for any host. */
  api(): CoreApi {
    return {
      handlers: {
        'app:info': async () => ({ version: APP_VERSION, stateDir: this.opts.paths.stateDir, codexVersion: this.codexVersion }),
        'profiles:list': async () => this.profileViews(),
        'chats:list': async () => this.chatViews(),
        'chats:items': async ({ chatId }) => this.chat(chatId).transcript.all(),
        'chats:send': async ({ chatId, text }) => this.chat(chatId).send(text),
        'chats:interrupt': async ({ chatId }) => ({ interrupted: await this.chat(chatId).interrupt() }),
        'approvals:list': async () => this.broker.all(),
        'approvals:answer': async ({ id, answer }) => this.broker.answer(id, answer, 'window'),
      },
      subscribe: (listener) => this.hub.subscribe(listener),
    };
  }

  /** Stops every agent (stdin close, TERM, KILL) and withdraws their approvals. */
  async shutdown(): Promise<void> {
    await Promise.all([...this.chats.values()].map((c) => c.dispose()));
  }
}
