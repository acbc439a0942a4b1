/**
 * The orchestrator: the core every host drives (Electron main, `angelia serve`, the CLI). It loads the
 * table, keeps the chats (one per profile to begin with, named after it; more with `chats:create`), one
 * approval broker and one event hub, and serves the contract's handlers (`CoreApi`). Agents start
 * lazily, on the first message.
 */
import { join } from 'node:path';
import type { AppEvent, ChatView, CoreApi, ProfileView, SessionView } from '../../../shared/contract';
import { AppFailure } from '../../../shared/result';
import { ApprovalBroker } from '../approvals/broker';
import { fileAudit, type AuditSink } from '../approvals/audit';
import type { InstancePaths } from '../instance/paths';
import { APP_VERSION } from '../instance/version';
import { childTracker, childrenFile } from '../codex/children';
import { reapOrphans } from '../codex/orphans';
import type { CodexStartSpec } from '../codex/start';
import { reconcileApprovalRecords } from '../approvals/records';
import { ModelCatalog } from '../codex/models';
import { Chat, timingFromMinutes, type ChatTiming } from './chat';
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
  /** Overrides the clocks the table's defaults give (tests use short ones). */
  timing?: Partial<ChatTiming>;
}

export class Orchestrator {
  readonly hub = new EventHub();
  readonly broker: ApprovalBroker;
  private readonly chats = new Map<string, Chat>();
  private readonly sessions: SessionStore;
  private readonly audit: AuditSink;
  private table: LoadedTable;
  private codexVersion: string | null = null;
  private readonly models = new ModelCatalog();

  /**
   * Loads the ACCEPTED table (table/accepted.ts; the first run takes the table as it stands; throws
   * AppFailure naming the file and field) and builds one chat per profile. First kills the Codex children
   * a dead Angelia process left running (`<state>/children.json`, codex/orphans.ts).
   */
  static async create(opts: OrchestratorOptions): Promise<Orchestrator> {
    await reapOrphans(opts.paths.stateDir);
    // Requests a dead Angelia left unanswered can no longer be answered (their Codex is gone): recorded as abandoned.
    await reconcileApprovalRecords(join(opts.paths.stateDir, 'approvals'), opts.audit ?? fileAudit(opts.paths.auditLog));
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
      recordDir: join(opts.paths.stateDir, 'approvals'),
      onUpdate: (view) => {
        this.hub.emit({ event: 'approval:updated', payload: view });
        const chat = this.chats.get(view.chatId);
        if (chat) this.hub.emit({ event: 'chat:updated', payload: chat.view() });
      },
    });
    this.timing = { ...timingFromMinutes(this.table.defaults), ...opts.timing };
    for (const name of Object.keys(this.table.profiles)) this.chat(name);
    // Further chats created earlier (chats:create) come back, as long as their profile is still in the table.
    for (const { chatId, profile } of this.sessions.chats()) if (!this.chats.has(chatId) && this.table.profiles[profile]) this.open(chatId, profile);
  }

  private readonly timing: ChatTiming;

  /** A chat by id: the first chat of a profile is named after it. Throws AppFailure for an unknown chat. */
  chat(chatId: string): Chat {
    const existing = this.chats.get(chatId);
    if (existing) return existing;
    if (!this.table.profiles[chatId]) throw new AppFailure({ code: 'unknown-chat', message: `no chat or profile named "${chatId}"`, where: this.opts.paths.tableFile, fix: `chats: ${[...this.chats.keys()].join(', ') || '(none)'}` });
    return this.open(chatId, chatId);
  }

  /** A new chat on a profile, with its own sessions (id `<profile>-<n>`). Throws AppFailure for an unknown profile. */
  createChat(profileName: string): Chat {
    if (!this.table.profiles[profileName]) throw new AppFailure({ code: 'unknown-profile', message: `no profile named "${profileName}"`, where: this.opts.paths.tableFile, fix: `profiles: ${Object.keys(this.table.profiles).join(', ') || '(none)'}` });
    let n = 2;
    while (this.chats.has(`${profileName}-${n}`) || this.table.profiles[`${profileName}-${n}`]) n++;
    const chatId = `${profileName}-${n}`;
    this.sessions.addChat(chatId, profileName);
    return this.open(chatId, profileName);
  }

  private open(chatId: string, profileName: string): Chat {
    const profile = this.table.profiles[profileName];
    if (!profile) throw new AppFailure({ code: 'unknown-profile', message: `no profile named "${profileName}"`, where: this.opts.paths.tableFile });
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
      timing: this.timing, models: this.models,
      exportDir: join(this.opts.paths.stateDir, 'exports'),
      threadHeldElsewhere: (threadId) => [...this.chats.values()].find((c) => c.id !== chatId && c.liveThread === threadId)?.id ?? null,
    });
    this.chats.set(chatId, chat);
    return chat;
  }

  /** Every chat as the list shows it. */
  chatViews(): ChatView[] {
    return [...this.chats.values()].map((c) => c.view());
  }

  /** A chat's sessions, most recently used first (10). */
  sessionViews(chatId: string): SessionView[] {
    this.chat(chatId);
    const active = this.sessions.active(chatId)?.id ?? null;
    return this.sessions.list(chatId).map((r) => ({ id: r.id, threadId: r.threadId, label: r.label, turns: r.turns, lastUsedAt: r.last_used_at, active: r.id === active }));
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
        'chats:create': async ({ profile }) => {
          const chat = this.createChat(profile);
          this.hub.emit({ event: 'chat:updated', payload: chat.view() });
          return chat.view();
        },
        'chats:send': async ({ chatId, text, steer }) => this.chat(chatId).send(text, { steer }),
        'chats:interrupt': async ({ chatId }) => ({ interrupted: await this.chat(chatId).interrupt() }),
        'chats:restart': async ({ chatId }) => ({ started: await this.chat(chatId).restart() }),
        'chats:sessions': async ({ chatId }) => this.sessionViews(chatId),
        'approvals:list': async () => this.broker.all(),
        'approvals:answer': async ({ id, answer, grant, reason }) => this.broker.answer(id, answer, 'window', { grant, reason }),
      },
      subscribe: (listener) => this.hub.subscribe(listener),
    };
  }

  /** Stops every agent (stdin close, TERM, KILL) and withdraws their approvals. */
  async shutdown(): Promise<void> {
    await Promise.all([...this.chats.values()].map((c) => c.dispose()));
  }
}
