/**
 * The orchestrator: the core every host drives (Electron main, `angelia serve`, the CLI). It loads the
 * table, keeps the chats (one per profile to begin with, named after it; more with `chats:create`), one
 * approval broker and one event hub, and serves the contract's handlers (`CoreApi`). Agents start
 * lazily, on the first message.
 *
 * The table in force is the ACCEPTED one. A save or create in the editor, `table:accept` and
 * `table:discard` switch to the newly accepted table for NEW starts only: a running chat keeps its Codex
 * process (and the permission profile it was started with) until that process restarts (idle exit,
 * `/new`, a crash, `chats:restart`); the clocks and the approval timeout of `[defaults]` are read once,
 * when Angelia starts. The table file is watched (profiles/watch.ts): an edit on disk emits
 * `table:changed` with `differs`, and waits for review (`table:changes`, `table:accept`, `table:discard`).
 * The accepted copy is watched too: `angelia accept` run in another terminal switches this process to
 * the new accepted table as `table:accept` does (`acceptedChanged`).
 */
import { join } from 'node:path';
import type {
  AnswerOutcome,
  AnswerSource,
  AppEvent,
  ApprovalAnswer,
  ApprovalView,
  ChatItem,
  ChatView,
  CoreApi,
  ProfileView,
  SessionView,
} from '../../../shared/contract';
import { AppFailure } from '../../../shared/result';
import { ApprovalBroker, type AnswerOptions } from '../approvals/broker';
import { fileAudit, type AuditSink } from '../approvals/audit';
import type { InstancePaths } from '../instance/paths';
import { migratePrivateFiles } from '../instance/migrate';
import { APP_VERSION } from '../instance/version';
import { childTracker, childrenFile } from '../codex/children';
import { reapOrphans } from '../codex/orphans';
import type { CodexStartSpec } from '../codex/start';
import { rememberLaunch } from '../codex/launchMemory';
import { guardPath } from '../compile/guardFile';
import { reconcileApprovalRecords } from '../approvals/records';
import { ModelCatalog } from '../codex/models';
import { Chat } from './chat';
import { UsageStore } from '../usage/store';
import { joinPause, linkPause } from '../usage/link';
import { realClock, timingFromMinutes, type ChatTiming } from './watchdogs';
import { MAX_QUEUE, noticeText } from './notices';
import type { StartCodex } from '../codex/connection';
import { EventHub } from './eventHub';
import { launchFacts, planLaunch } from '../launch/plan';
import { restartWhereSightIsLost, sightLost } from './sight';
import { askReadOnly, threadToAsk } from './ask';
import { SessionStore } from './sessions';
import { recentSessionViews, sessionHandlers } from '../sessions/handlers';
import { approvalPolicyFor, type ProfileNow } from './mode';
import { allowedMcpServers } from '../compile/codexProfile';
import type { LoadedTable } from '../table/load';
import { compareWithAccepted, loadAccepted, readAccepted, type TableComparison } from '../table/accepted';
import { attachFile } from '../profiles/attach';
import { profileFolder, readStoredImage, takeInboxImages } from './images';
import type { ImageRef } from '../../../shared/images';
import { listModels } from '../profiles/models';
import { ProfileService, type Attestation } from '../profiles/service';
import { watchTable, type TableWatch } from '../profiles/watch';
import { AccountService } from '../account/service';
import { turnDiffHandlers } from './turnDiff/handlers';
import { sessionUsedAt, Warmer } from './warm/warmer';

/** Orchestrator options. `env` is the environment children inherit from (before scrubbing). */
export interface OrchestratorOptions {
  paths: InstancePaths;
  env: NodeJS.ProcessEnv;
  startCodex: StartCodex;
  audit?: AuditSink;
  /** Overrides the clocks the table's defaults give (tests use short ones). */
  timing?: Partial<ChatTiming>;
  /** Watch the table file for edits on disk (default true; stopped by `shutdown`). */
  watchTable?: boolean;
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
  /** The editor, the policy inspector and "the table changed" (profiles/service.ts). */
  readonly profiles: ProfileService;
  /** The Codex account of the instance's Codex home (core/account/service.ts). */
  readonly account: AccountService;
  /** Rate limits and the usage-limit pause per Codex home (core/usage/store.ts), fed by every chat's Codex. */
  readonly usage = new UsageStore((e) => this.hub.emit(e), realClock);
  /** Agents started before the first message (warm/warmer.ts; docs/architecture.md "Warm agents"). */
  readonly warmer: Warmer;
  private tableWatch: TableWatch | null = null;
  /** The watch of the accepted copy (`acceptedChanged`), started by the constructor unless `watchTable` is false. */
  private acceptedWatch: Promise<TableWatch | null> = Promise.resolve(null);
  /** The last `acceptedChanged` run (they run one after another). */
  private acceptedReload: Promise<void> = Promise.resolve();
  private closed = false;
  /** Asks in flight (`ask`): stopped by `shutdown`, which waits for their processes to exit. */
  private readonly asking = new Set<{ stop: AbortController; done: Promise<unknown> }>();

  /**
   * Loads the ACCEPTED table (table/accepted.ts; the first run takes the table as it stands; throws
   * AppFailure naming the file and field) and builds one chat per profile. First moves the private files
   * of an older layout into `<state>/private/` (instance/migrate.ts; throws AppFailure `state-layout`
   * naming both files when an old and a new copy exist), then kills the Codex children a dead Angelia
   * process left running (`<state>/private/children.json`, codex/orphans.ts).
   */
  static async create(opts: OrchestratorOptions): Promise<Orchestrator> {
    // Before anything opens the sessions store, the children record or the audit log.
    migratePrivateFiles(opts.paths);
    await reapOrphans(opts.paths.stateDir);
    // Requests a dead Angelia left unanswered can no longer be answered (their Codex is gone): recorded as abandoned.
    await reconcileApprovalRecords(join(opts.paths.stateDir, 'approvals'), opts.audit ?? fileAudit(opts.paths.auditLog));
    const orch = new Orchestrator(opts, (await loadAccepted(opts.paths, { home: opts.paths.home, env: opts.env })).table);
    if (opts.watchTable !== false) orch.tableWatch = await watchTable(opts.paths.tableFile, () => orch.emitTableChanged());
    return orch;
  }

  /** Whether the table on disk differs from the accepted one it runs on, with the field-by-field diff. */
  async tableChanges(): Promise<TableComparison> {
    return compareWithAccepted(this.opts.paths, { home: this.opts.paths.home, env: this.opts.env });
  }

  private constructor(
    private readonly opts: OrchestratorOptions,
    table: LoadedTable,
  ) {
    this.table = table;
    this.profiles = new ProfileService({ paths: opts.paths, env: opts.env });
    this.account = new AccountService({
      codexHome: opts.paths.codexHome,
      env: opts.env,
      start: this.tracked('account'),
      onUpdated: (view) => this.hub.emit({ event: 'account:updated', payload: view }),
      onLogin: (progress) => this.hub.emit({ event: 'account:login', payload: progress }),
    });
    this.audit = opts.audit ?? fileAudit(opts.paths.auditLog);
    linkPause(this.usage, opts.paths.codexHome, () => this.chats.values());
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
    this.warmer = new Warmer({
      chats: () => this.chats.values(),
      budget: () => ({ agents: this.table.defaults.warmAgents, memoryMb: this.table.defaults.warmMemoryMb }),
      pastSession: (id) => sessionUsedAt(this.sessions.active(id)),
      inputs: (profile) => [opts.paths.acceptedTable, guardPath(opts.paths.stateDir, profile)],
      childrenFile: childrenFile(opts.paths.stateDir),
      loosened: (p) => !this.table.profiles[p]?.sandbox || this.table.profiles[p]?.bin != null || allowedMcpServers(this.table, p).length > 0,
    });
    for (const name of Object.keys(this.table.profiles)) this.chat(name);
    // Further chats created earlier (chats:create) come back, as long as their profile is still in the table.
    for (const { chatId, profile } of this.sessions.chats()) if (!this.chats.has(chatId) && this.table.profiles[profile]) this.open(chatId, profile);
    // `angelia accept` run elsewhere (another terminal) rewrites the accepted copy: follow it (acceptedChanged).
    if (opts.watchTable !== false) this.acceptedWatch = watchTable(opts.paths.acceptedTable, () => this.acceptedChanged()).catch(() => null);
    // `angelia login|logout` in a terminal rewrites or removes auth.json: follow it (account:updated).
    if (opts.watchTable !== false) void this.account.watchHome();
  }

  private readonly timing: ChatTiming;

  /** `startCodex` with the child recorded in <state>/private/children.json from its spawn to its exit under `label` (codex/orphans.ts). */
  private tracked(label: string): StartCodex {
    return (spec) =>
      this.opts.startCodex({ ...spec, track: childTracker(childrenFile(this.opts.paths.stateDir), { chatId: label, bin: spec.bin }) } as CodexStartSpec);
  }

  /** A chat by id: the first chat of a profile is named after it. Throws AppFailure for an unknown chat. */
  chat(chatId: string): Chat {
    const existing = this.chats.get(chatId);
    if (existing) return existing;
    if (!this.table.profiles[chatId])
      throw new AppFailure({
        code: 'unknown-chat',
        message: `no chat or profile named "${chatId}"`,
        where: this.opts.paths.tableFile,
        fix: `chats: ${[...this.chats.keys()].join(', ') || '(none)'}`,
      });
    return this.open(chatId, chatId);
  }

  /** A new chat on a profile, with its own sessions (id `<profile>-<n>`). Throws AppFailure for an unknown profile. */
  createChat(profileName: string): Chat {
    if (!this.table.profiles[profileName])
      throw new AppFailure({
        code: 'unknown-profile',
        message: `no profile named "${profileName}"`,
        where: this.opts.paths.tableFile,
        fix: `profiles: ${Object.keys(this.table.profiles).join(', ') || '(none)'}`,
      });
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
      chatId,
      profile: profile.name,
      plan: () => planLaunch({ table: this.table, profile: profile.name, chatId, paths: this.opts.paths, env: this.opts.env }),
      startCodex: async (spec) => {
        const conn = await this.tracked(chatId)(spec);
        this.codexVersion = conn.version;
        // What the next `angelia run` of this chat may start before its own plan is ready (prespawn.ts).
        rememberLaunch(this.opts.paths.stateDir, chatId, spec, this.opts.env, [
          this.opts.paths.acceptedTable,
          guardPath(this.opts.paths.stateDir, profile.name),
        ]);
        return conn;
      },
      broker: this.broker,
      audit: this.audit,
      sessions: this.sessions,
      emit: (e: AppEvent) => this.hub.emit(e),
      timing: this.timing,
      models: this.models,
      exportDir: join(this.opts.paths.stateDir, 'exports'),
      threadHeldElsewhere: (threadId) => [...this.chats.values()].find((c) => c.id !== chatId && c.liveThread === threadId)?.id ?? null,
      profileNow: () => this.profileNow(profile.name),
      tableNow: () => this.table,
      sightNow: async (p) => sightLost(p, profile.name, this.table, await launchFacts(this.opts.paths), this.opts.paths.stateDir, chatId),
      usage: { store: this.usage, codexHome: this.opts.paths.codexHome },
      turnDiffDir: join(this.opts.paths.privateDir, 'turn-diffs'),
    });
    this.chats.set(chatId, chat);
    joinPause(this.usage, this.opts.paths.codexHome, chat);
    return chat;
  }

  /** A profile of the table in force, as far as the mode shown goes (chats/mode.ts); null when it is not in the table. */
  profileNow(name: string): ProfileNow | null {
    const p = Object.hasOwn(this.table.profiles, name) ? this.table.profiles[name] : undefined;
    if (!p) return null;
    return { permissionMode: p.permissionMode, sandboxed: p.sandbox, approvalPolicy: approvalPolicyFor(p.permissionMode), fingerprint: JSON.stringify(p) };
  }

  /** Every chat as the list shows it. */
  chatViews(): ChatView[] {
    return [...this.chats.values()].map((c) => c.view());
  }

  /** A chat's sessions, most recently used first (10). */
  sessionViews(chatId: string): SessionView[] {
    return recentSessionViews(this.sessions, this.chat(chatId).id);
  }

  /** Every profile of the table. */
  profileViews(): ProfileView[] {
    return Object.values(this.table.profiles).map((p) => ({
      name: p.name,
      cwd: p.cwd,
      permissionMode: p.permissionMode,
      sandboxed: p.sandbox,
      addDirs: p.addDirs,
      model: p.model,
      effort: p.effort,
      notifications: p.notifications,
    }));
  }

  /**
   * Switches to a newly accepted table for NEW starts (see the module comment: running chats keep their
   * process until it restarts), opens a chat for each new profile, and emits `profiles:changed` (the
   * profiles whose resolved fields changed, appeared or went) and `table:changed`.
   */
  async useTable(table: LoadedTable): Promise<void> {
    const before = this.table;
    this.table = table;
    const names = [...new Set([...Object.keys(before.profiles), ...Object.keys(table.profiles)])].filter(
      (n) => JSON.stringify(before.profiles[n] ?? null) !== JSON.stringify(table.profiles[n] ?? null),
    );
    for (const name of Object.keys(table.profiles)) {
      if (!this.chats.has(name)) this.hub.emit({ event: 'chat:updated', payload: this.chat(name).view() });
    }
    // A running chat that sees more than the new table gives its profile restarts before its next turn (sight.ts).
    await restartWhereSightIsLost(this.chats.values(), table, this.opts.paths, () => launchFacts(this.opts.paths)).catch(() => undefined);
    // What every chat shows depends on the table (next start, or "profile changed" while it runs).
    for (const chat of this.chats.values()) if (names.includes(chat.view().profile)) this.hub.emit({ event: 'chat:updated', payload: chat.view() });
    if (names.length > 0) this.hub.emit({ event: 'profiles:changed', payload: { names } });
    void this.warmer.tableChanged();
    await this.emitTableChanged();
  }

  /** Resolves once the watch of the accepted copy is ready: a change after that is followed (`acceptedChanged`). At once when not watching. */
  async watchingAccepted(): Promise<void> {
    await this.acceptedWatch;
  }

  /**
   * The accepted copy changed on disk — `angelia accept` in another terminal, or this process's own
   * accept: switches to it exactly as `table:accept` does (`useTable`: new starts and new chats use it,
   * a running chat of a changed profile shows "profile changed: restart this chat to apply"), and emits
   * `table:changed`. A copy that is gone or no longer loads leaves the table in force as it is (the next
   * start of Angelia names the problem). Runs one after another; never throws.
   */
  async acceptedChanged(): Promise<void> {
    const key = (t: LoadedTable): string => JSON.stringify([t.defaults, t.capabilities, t.profiles]);
    const run = this.acceptedReload
      .then(async () => {
        if (this.closed) return;
        const table = await readAccepted(this.opts.paths, { home: this.opts.paths.home, env: this.opts.env }).catch(() => null);
        if (this.closed) return;
        if (table && key(table) !== key(this.table)) await this.useTable(table);
        else await this.emitTableChanged();
      })
      .catch(() => undefined);
    this.acceptedReload = run;
    return run;
  }

  /** Emits `table:changed` with whether the table on disk differs from the accepted one (never throws). */
  async emitTableChanged(): Promise<void> {
    if (this.closed) return;
    let payload: { differs: boolean; changes: number };
    try {
      const view = await this.profiles.tableChanges();
      payload = { differs: view.differs, changes: view.changes.length };
    } catch {
      payload = { differs: true, changes: 0 };
    }
    if (!this.closed) this.hub.emit({ event: 'table:changed', payload });
  }

  /** The attestation of the newest thread start among the chats of `profile` (null before any). */
  attestationOf(profile: string): Attestation | null {
    let newest: Attestation | null = null;
    for (const chat of this.chats.values()) {
      if (chat.view().profile !== profile) continue;
      const a = chat.attestation();
      if (a && (!newest || a.at > newest.at)) newest = a;
    }
    return newest;
  }

  /** Each chat of `profile` whose Codex runs now, with the mode its start was attested with. */
  runningOf(profile: string): { chatId: string; mode: NonNullable<ChatView['mode']>; codexVersion: string | null }[] {
    const out: { chatId: string; mode: NonNullable<ChatView['mode']>; codexVersion: string | null }[] = [];
    for (const chat of this.chats.values()) {
      const view = chat.view();
      if (view.profile !== profile || view.mode?.source !== 'attested') continue;
      out.push({ chatId: chat.id, mode: view.mode, codexVersion: chat.attestation()?.codexVersion ?? null });
    }
    return out;
  }

  /**
   * `chats:attach`: writes the file into the chat's profile folder under `.inbox/` (profiles/attach.ts:
   * size, name and path checks) and returns its absolute path. Nothing is added to the transcript here:
   * the renderer shows "Attached <name> → .inbox/<file>". Throws AppFailure (unknown chat, `attach-*`).
   */
  async attach(chatId: string, name: string, dataBase64: string): Promise<{ path: string }> {
    return { path: await attachFile(this.folderOf(chatId), name, dataBase64) };
  }

  /** The folder of the chat's profile. Throws AppFailure `unknown-chat`, `unknown-profile` (chats/images.ts). */
  private readonly folderOf = (chatId: string): string => profileFolder(this.table, this.chat(chatId).view().profile, chatId, this.opts.paths.tableFile);

  /** `paths` (files in the chat's `.inbox/`) checked and copied for the agent (chats/images.ts `takeInboxImages`). */
  async inboxImages(chatId: string, paths: readonly string[]): Promise<ImageRef[]> {
    return takeInboxImages(this.folderOf(chatId), this.opts.paths.privateDir, paths);
  }

  /**
   * `POST /ask`: answers `text` from a read-only copy of the chat's current thread (chats/ask.ts
   * `askReadOnly`; docs/api-ask.md) on a short-lived app-server started with the profile's read-only
   * compile variant (launch/plan.ts `readOnly`) and recorded in children.json like every child; a chat
   * with no thread on disk yet is answered by a fresh read-only thread, and so is an ask not from the owner
   * (`opts.owner` not true) on a thread that received a secret answer (session row `secret_answer`;
   * docs/security-model.md "Questions and elicitations"). The chat itself (its process,
   * queue, thread and transcript) is not touched; `shutdown` stops an ask in flight and waits for its
   * process. Throws AppFailure: `unknown-chat`, `refused` (the launch guard, a check or the
   * attestation), `ask-failed` (also while shutting down), `ask-timeout`, `ask-aborted`.
   */
  async ask(
    chatId: string,
    text: string,
    opts: { timeoutMs: number; signal?: AbortSignal; owner?: boolean },
  ): Promise<{ answer: string; forkedFrom: string | null }> {
    const profileName = this.chat(chatId).view().profile;
    if (this.closed) throw new AppFailure({ code: 'ask-failed', message: 'Angelia is shutting down' });
    const row = this.sessions.active(chatId);
    const plan = await planLaunch({ table: this.table, profile: profileName, chatId, paths: this.opts.paths, env: this.opts.env, readOnly: true });
    const stop = new AbortController();
    const relay = (): void => stop.abort();
    opts.signal?.addEventListener('abort', relay, { once: true });
    if (opts.signal?.aborted) stop.abort();
    const running = askReadOnly({
      plan,
      text,
      timeoutMs: opts.timeoutMs,
      signal: stop.signal,
      threadId: threadToAsk(row, opts.owner === true),
      model: row?.model ?? null,
      effort: row?.effort ?? this.table.profiles[profileName]?.effort ?? null,
      startCodex: this.tracked(`ask:${chatId}`),
    });
    const entry = { stop, done: running.catch(() => undefined) };
    this.asking.add(entry);
    try {
      const out = await running;
      return { answer: out.answer, forkedFrom: out.forkedFrom };
    } finally {
      this.asking.delete(entry);
      opts.signal?.removeEventListener('abort', relay);
    }
  }

  // ---- named operations: what a host may do besides the contract's handlers (docs/architecture.md,
  // "Composition root"). No host reaches a chat's transcript, the broker or the event hub itself.

  /** Every event of the core, delivered synchronously in order (the event hub); returns the unsubscribe function. */
  subscribe(listener: (e: AppEvent) => void): () => void {
    return this.hub.subscribe(listener);
  }

  /** The approvals waiting for an answer, oldest first. */
  pendingApprovals(): ApprovalView[] {
    return this.broker.pending();
  }

  /**
   * Answers an approval through the one broker (approvals/broker.ts `answer`), recording who answered
   * (`by`: `window`, `tray`, `notification`, `cli`, `api`). The first answer wins; a later one gets
   * `already-answered`. Throws AppFailure `bad-answer` when the answer, grant or reason does not fit.
   */
  answerApproval(id: string, answer: ApprovalAnswer, by: AnswerSource, opts: AnswerOptions = {}): AnswerOutcome {
    return this.broker.answer(id, answer, by, opts);
  }

  /**
   * Shows `text` in the chat as a `notice` item without running a turn (the API's `/send` and
   * `/send-media` lines), and emits `chat:updated`. Throws AppFailure `unknown-chat`.
   */
  postNotice(chatId: string, text: string): void {
    const chat = this.chat(chatId);
    chat.transcript.push({ type: 'notice', id: chat.transcript.localId('post'), text });
    this.hub.emit({ event: 'chat:updated', payload: chat.view() });
  }

  /**
   * Queues `text` as a turn of its own (`POST /turn`: never a command, never a steer; `Chat.queueTurn`)
   * carrying the API's turn id. Throws AppFailure `unknown-chat`, `queue-full`.
   */
  queueTurn(chatId: string, text: string, opts: { apiTurn: string; app?: boolean; images?: ImageRef[] }): { queued: number } {
    return this.chat(chatId).queueTurn(text, opts);
  }

  /** How many messages the chat holds, running and waiting (at most `MAX_QUEUE`). Throws AppFailure `unknown-chat`. */
  queueDepth(chatId: string): number {
    // The pump takes the first waiting message at once whenever none runs, so a chat with any message
    // waiting has one running (chat.ts enqueue).
    const { queued } = this.chat(chatId).view();
    return queued + (queued > 0 ? 1 : 0);
  }

  /**
   * Resolves when a turn queued now would be taken; throws AppFailure `queue-full` (the refusal
   * `queueTurn` gives) when the chat already holds `MAX_QUEUE`, or `unknown-chat`.
   */
  assertCanQueue(chatId: string): void {
    if (this.queueDepth(chatId) >= MAX_QUEUE) {
      throw new AppFailure({ code: 'queue-full', message: noticeText({ code: 'queue-full' }), where: chatId });
    }
  }

  /** The chat's last `turnEnd` item, or undefined before any turn ended (`angelia run`'s exit code). */
  lastTurnEnd(chatId: string): Extract<ChatItem, { type: 'turnEnd' }> | undefined {
    const end = [...this.chat(chatId).transcript.all()].reverse().find((i) => i.type === 'turnEnd');
    return end?.type === 'turnEnd' ? end : undefined;
  }

  /** The chat's final agent message ("" when none; `angelia run`'s turn-end text). */
  lastAgentText(chatId: string): string {
    return this.chat(chatId).transcript.lastAgentText();
  }

  /** The Codex homes no profile is given (compile/grants.ts): the instance's, and `~/.codex` when it is another. */
  private codexHomes(): string[] {
    return [...new Set([this.opts.paths.codexHome, join(this.opts.paths.home, '.codex')])];
  }

  /** The contract's handlers and event stream, for any host. */
  api(): CoreApi {
    return {
      handlers: {
        'app:info': async () => ({ version: APP_VERSION, stateDir: this.opts.paths.stateDir, codexHomes: this.codexHomes(), codexVersion: this.codexVersion }),
        'profiles:list': async () => this.profileViews(),
        'chats:list': async () => this.chatViews(),
        'chats:items': async ({ chatId }) => this.chat(chatId).items(),
        'chats:create': async ({ profile }) => {
          const chat = this.createChat(profile);
          this.hub.emit({ event: 'chat:updated', payload: chat.view() });
          return chat.view();
        },
        'chats:send': async ({ chatId, text, steer, images }) =>
          this.chat(chatId).send(text, { steer, ...(images ? { images: await this.inboxImages(chatId, images) } : {}) }),
        'chats:interrupt': async ({ chatId }) => ({ interrupted: await this.chat(chatId).interrupt() }),
        'chats:restart': async ({ chatId }) => ({ started: await this.chat(chatId).restart() }),
        'chats:sessions': async ({ chatId }) => this.sessionViews(chatId),
        'chats:shown': async ({ chatId }) => (void this.warmer.shown(this.chat(chatId).id), {}),
        ...sessionHandlers({ ...this.opts, store: this.sessions, liveThread: (id) => (this.chats.has(id) ? this.chat(id).liveThread : undefined) }),
        ...turnDiffHandlers({ chat: (id) => this.chat(id), table: () => this.table, env: this.opts.env, paths: this.opts.paths }),
        'approvals:list': async () => this.broker.all(),
        'approvals:answer': async ({ id, answer, ...opts }) => this.answerApproval(id, answer, 'window', opts),
        'chats:attach': async ({ chatId, name, dataBase64 }) => this.attach(chatId, name, dataBase64),
        'chats:image': async ({ chatId, path }) => (this.chat(chatId), readStoredImage(this.opts.paths.privateDir, path)),
        'profiles:get': async ({ name }) => this.profiles.getDraft(name),
        'profiles:preview': async ({ draft, original }) => this.profiles.preview(draft, original),
        'profiles:save': async ({ draft, original }) => this.saved(async (use) => this.profiles.save(draft, original, use)),
        'profiles:create': async ({ draft, starterClaudeMd }) => this.saved(async (use) => this.profiles.create(draft, starterClaudeMd, use)),
        'profiles:policy': async ({ name }) => ({ ...(await this.profiles.policy(name, this.attestationOf(name))), running: this.runningOf(name) }),
        'profiles:verify': async ({ name }) => this.profiles.verify(name),
        'models:list': async ({ profile }) =>
          listModels({
            table: this.table,
            profile,
            chatId: profile,
            paths: this.opts.paths,
            env: this.opts.env,
            catalog: this.models,
            start: this.tracked(`models:${profile}`),
          }),
        'table:changes': async () => this.profiles.tableChanges(),
        'table:accept': async () => {
          const { view, table } = await this.profiles.accept();
          await this.useTable(table);
          return view;
        },
        'usage:read': async () => this.usage.read([this.opts.paths.codexHome]),
        'usage:resume': async ({ codexHome }) => this.usage.resume(codexHome),
        'table:discard': async () => {
          const view = await this.profiles.discard();
          await this.emitTableChanged();
          return view;
        },
        'account:read': async () => this.account.read(),
        'account:login': async (req) => this.account.login(req),
        'account:loginCancel': async ({ loginId }) => this.account.cancel(loginId),
        'account:logout': async () => this.account.logout(),
      },
      subscribe: (listener) => this.subscribe(listener),
    };
  }

  /**
   * Runs a save or create, switching to the accepted table as soon as it is accepted and compiled (before
   * the slow verify), so new starts use it at once.
   */
  private async saved<T>(run: (use: (table: LoadedTable) => void) => Promise<T>): Promise<T> {
    let switched: Promise<void> = Promise.resolve();
    const result = await run((table) => {
      switched = this.useTable(table);
    });
    await switched;
    return result;
  }

  /** Stops the table watch and every agent (stdin close, TERM, KILL), and withdraws their approvals. */
  async shutdown(): Promise<void> {
    this.closed = true;
    this.warmer.close();
    const w = this.tableWatch;
    this.tableWatch = null;
    const accepted = this.acceptedWatch;
    this.acceptedWatch = Promise.resolve(null);
    const asks = [...this.asking];
    for (const a of asks) a.stop.abort();
    await Promise.all([
      w?.close(),
      accepted.then((a) => a?.close()),
      ...[...this.chats.values()].map((c) => c.dispose()),
      ...asks.map((a) => a.done),
      this.account.dispose(),
    ]);
    // Answers' records are written a macrotask after the answer (broker.ts): none is left behind at exit.
    this.broker.flushDeferred();
    this.usage.close();
  }
}
