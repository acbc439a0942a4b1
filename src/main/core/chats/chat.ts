/**
 * One chat: one conversation with one profile's agent. The chat holds the shared state and runs the turn
 * machine's effects (`dispatch`); the jobs are modules of their own: the queue, era, phases and stops
 * (turn/machine.ts, pure, its header has the lifecycle rules), running a turn or compaction
 * (turn/run.ts), starting Codex fail-closed (process.ts over codex/session.ts), Codex's notifications
 * and server requests (chatEvents.ts), restarts (restart.ts), past turns (history.ts), the commands
 * (commands/), the watchdogs (watchdogs.ts) and the notices (notices.ts). Protocol facts: codex 0.169.0
 * (`initialize`, `thread/*`, `turn/*`, `item/*`). docs/architecture.md flows (a)-(c).
 *
 * - Notifications and server requests of a connection that is not the chat's current one (or the one
 *   it is opening) are ignored: a process detached by `/new`, `/resume`, a stop or a restart cannot
 *   touch the chat any more.
 * - `/new` and `/resume` do not run while a turn is starting, running or queued: the user is told to
 *   `/stop` first, and nothing is lost.
 * - The model and effort shown (`view`, `/status`) are the ones sent with the next turn/start (`inForce`):
 *   a session effort the model does not offer is cleared (with a message) when `/model` changes the model.
 */
import type { AgentState, ChatItem, ChatView, Enforcement } from '../../../shared/contract';
import type { ChatUsage } from '../../../shared/usage';
import type { ImageRef } from '../../../shared/images';
import { AppFailure, toAppError } from '../../../shared/result';
import type { GrantFloor, WritablePlace } from '../approvals/privateReach';
import type { CodexConnection } from '../codex/connection';
import { CrashHistory } from '../codex/crashPolicy';
import type { ModelInfo } from '../codex/models';
import type { ChangeView } from '../codex/serverRequests';
import type { LaunchPlan } from '../launch/plan';
import { extraTextRefusal, parseCommand, SLASH_ESCAPE_HINT } from './commands';
import { bindCommands } from './commands/bind';
import type { CommandContext } from './commands/context';
import { runCommand } from './commands/index';
import { loadHistory } from './history';
import { inForce } from './inForce';
import type { ChatDeps, ChatInside, InForce, Steered, TurnEnded, WarmMark } from './inside';
import { deriveChatMode, type AttestedMode, type ProfileNow } from './mode';
import { noticeText } from './notices';
import { startProcess } from './process';
import { restartCodex } from './restart';
import { keepLastLine } from './lastLine';
import { LAST_LINE_MAX, type SessionRow } from './sessions';
import { Transcript } from './transcript';
import { LiveTurnDiffs } from './turnDiff/live';
import { initialTurnState, step, type TurnEffect, type TurnInput, type TurnState } from './turn/machine';
import { hasPending, interruptTurn, runWork, steer, turnWatchdogs } from './turn/run';
import type { Watchdogs } from './watchdogs';

/**
 * One chat (see the module comment). Its fields are shared with its parts through `ChatInside`
 * (inside.ts); everything else uses the methods documented here.
 */
export class Chat implements ChatInside {
  // The shared state; each field is described in inside.ts `ChatInside`.
  state: AgentState = 'idle';
  refusal: string | null = null;
  enforcement: Enforcement | null = null;
  threadId: string | null = null;
  rowId: string | null = null;
  conn: CodexConnection | null = null;
  codexVersion: string | null = null;
  starting: Promise<void> | null = null;
  opening: CodexConnection | null = null;
  turn: TurnState = initialTurnState;
  turnWaiter: ((end: TurnEnded) => void) | null = null;
  compaction: { done: boolean } | null = null;
  onRequest = true;
  grantFloor: GrantFloor | undefined;
  grants: { place: WritablePlace; scope: 'turn' | 'session'; turnId: string | null }[] = [];
  sandboxCtx: { denied: number | null } | undefined;
  baseModel: string | null = null;
  baseSource: 'profile' | 'codex default' = 'codex default';
  configuredEffort: { effort: string; source: 'profile' | 'codex config' } | null = null;
  reportedEffort: string | null = null;
  catalog: ModelInfo[] = [];
  down: 'idle-exit' | 'crashed' | null = null;
  killedTurn: string | null = null;
  readonly fileChanges = new Map<string, ChangeView[]>();
  readonly mcpCalls: ChatInside['mcpCalls'] = new Map();
  readonly turnDiffs = new LiveTurnDiffs();
  lastAsk: { title: string; outcome: 'pending' | 'cancel' | 'deny' | 'allow' } | null = null;
  steered: Steered[] = [];
  history: Promise<void> | null = null;
  historyGate: Promise<void> | null = null;
  readonly ownTurns = new Set<string>();
  restartWhy: string | null = null;
  warm: WarmMark | null = null;
  restarted: string | null = null;
  lastPlan: LaunchPlan | null = null;
  attestedAt: string | null = null;
  attestedMode: AttestedMode | null = null;
  planProfile: ProfileNow | null = null;
  planTable: object | null = null;
  usage: ChatUsage | null = null;
  readonly crashes = new CrashHistory();
  readonly transcript: Transcript;
  readonly watch: Watchdogs;
  private activity: string | null = null;
  private commands = 0;
  /** The session row id and the last line `keepLastLine` wrote there (`<row id>\n<line>`). */
  private keptLine: string | null = null;
  /** Waiters of the next change (`idle()`, `settleForSwitch`), woken by every change and every machine step. */
  private readonly wakers = new Set<() => void>();
  /** The "Stopped." notice of a `/stop` or Stop that interrupts a running turn, while its interrupt is on its way. */
  private stopReport: Promise<void> | null = null;
  private readonly commandContext: CommandContext;

  constructor(readonly deps: ChatDeps) {
    this.transcript = new Transcript(deps.chatId, deps.emit);
    const row = deps.sessions.active(deps.chatId);
    if (row) {
      this.threadId = row.threadId;
      this.enforcement = row.enforcement;
    }
    this.watch = turnWatchdogs(this, () => this.idleExit());
    this.commandContext = bindCommands(this, { stop: () => this.stopAll('/stop'), settleForSwitch: () => this.settleForSwitch(), detach: () => this.detach() });
  }

  /** The chat's id. */
  get id(): string {
    return this.deps.chatId;
  }

  /** The Codex thread this chat holds while its process runs (null when none). */
  get liveThread(): string | null {
    return this.conn ? this.threadId : null;
  }

  /** The last successful thread start/resume: the Codex version and enforcement attested, and when; null before any. */
  attestation(): { codexVersion: string | null; enforcement: Enforcement | null; at: string } | null {
    return this.attestedAt ? { codexVersion: this.codexVersion, enforcement: this.enforcement, at: this.attestedAt } : null;
  }

  /** The mode to show now (mode.ts): attested while Codex runs, else what the next start applies. */
  currentMode(): NonNullable<ChatView['mode']> {
    return deriveChatMode({ running: this.conn !== null, attested: this.attestedMode, table: this.deps.profileNow?.() ?? null });
  }

  /** The chat as the list shows it; `model` and `effort` are what the next turn/start sends (`inForce`). */
  view(): ChatView {
    const row = this.deps.sessions.active(this.deps.chatId);
    const force = this.inForce(row);
    return {
      id: this.deps.chatId,
      profile: this.deps.profile,
      state: this.state,
      threadId: this.threadId,
      enforcement: this.enforcement,
      lastLine: this.transcript.lastLine() || (row?.last_line ?? '').slice(0, LAST_LINE_MAX),
      refusal: this.refusal,
      pendingApprovals: this.deps.broker.pending().filter((a) => a.chatId === this.deps.chatId).length,
      queued: this.turn.queue.length,
      label: row?.label ?? '',
      sessionId: row?.id ?? null,
      model: force.model,
      effort: force.effort,
      overrides: { model: row?.model ?? null, effort: row?.effort ?? null },
      activity: this.activity,
      mode: this.currentMode(),
      usage: this.usage,
      pausedUntil: this.deps.usage?.store.get(this.deps.usage.codexHome).pausedUntil ?? null,
    };
  }

  /**
   * The transcript, oldest first. The first call also puts the active session's past turns in front of
   * it (history.ts `loadHistory`: after a restart of Angelia, or for turns `angelia run` did). Never
   * throws: a read that fails is said in the chat.
   */
  async items(): Promise<ChatItem[]> {
    this.history ??= loadHistory(this).catch((e: unknown) =>
      this.notice(`The earlier turns of this session could not be read from Codex: ${toAppError(e).message}`),
    );
    await this.history;
    return this.transcript.all();
  }

  /**
   * Takes one line from the user. A command (`/new`, `/resume`, …) is answered in the transcript and
   * never reaches the agent, nor does an unknown `/word` (answered with how to send it: `//`); `//text`
   * goes to the agent as "/text". With `steer` and a turn running, the text goes into that turn
   * (`turn/steer`); otherwise it is queued for its own turn. `images`: checked copies (chats/images.ts)
   * that go with the text (a line with images is never a command). Throws AppFailure `queue-full` when
   * the chat already holds 10 messages.
   */
  send(text: string, opts: { steer?: boolean; images?: ImageRef[] } = {}): { queued: number; steered?: boolean; command?: string | null } {
    const cmd = opts.images?.length ? null : parseCommand(text);
    if (cmd && 'unknown' in cmd) {
      this.notice(`Unknown command ${cmd.unknown}. /help lists the commands; ${SLASH_ESCAPE_HINT} (//${cmd.unknown.slice(1)} … is sent as ${cmd.unknown} …).`);
      return { queued: this.turn.queue.length, command: cmd.unknown };
    }
    if (cmd && 'name' in cmd) {
      const refused = extraTextRefusal(cmd);
      if (refused) {
        this.notice(refused);
        return { queued: this.turn.queue.length, command: `/${cmd.name}` };
      }
      this.commands++;
      void runCommand(this.commandContext, cmd)
        .catch((e: unknown) => this.notice(`/${cmd.name} failed: ${toAppError(e).message}`))
        .finally(() => {
          this.commands--;
          this.changed();
        });
      return { queued: this.turn.queue.length, command: `/${cmd.name}` };
    }
    const message = cmd ? cmd.message : text;
    const steered = this.dispatch({
      kind: 'send',
      text: message,
      steer: opts.steer === true,
      steerable: this.conn !== null && this.threadId !== null && this.compaction === null,
      ...(opts.images?.length ? { images: opts.images } : {}),
    });
    return steered ? { queued: this.turn.queue.length, steered: true } : { queued: this.turn.queue.length };
  }

  /**
   * Queues `text` as a turn of its own for the loopback API (`POST /turn`): never a chat command (a
   * leading `/` goes to the agent as written), never a steer. `apiTurn` is the API's turn id, carried
   * through the queue onto the turn's `user` and `turnEnd` items; `app` marks an app turn (its answer is
   * for the caller; the window folds it); `images`: checked copies given with it. Throws AppFailure
   * `queue-full` when the chat already holds 10.
   */
  queueTurn(text: string, opts: { apiTurn: string; app?: boolean; images?: ImageRef[] }): { queued: number } {
    const extra = { ...(opts.app ? { app: true } : {}), ...(opts.images?.length ? { images: opts.images } : {}) };
    this.dispatch({ kind: 'enqueue', work: { kind: 'message', text, apiTurn: opts.apiTurn, ...extra } });
    return { queued: this.turn.queue.length };
  }

  /**
   * Stop (`chats:interrupt`), the same as `/stop`: stops the running turn with `turn/interrupt` (not
   * `$/cancelRequest`), or cancels the one still starting (turn/machine.ts), drops the queued messages,
   * and says in the chat what it did. True when a turn was stopped or cancelled, or messages were
   * dropped; false when nothing ran.
   */
  async interrupt(): Promise<boolean> {
    return this.stopAll('Stop');
  }

  /** The plan the running Codex was started with; null when none runs. */
  runningPlan(): LaunchPlan | null {
    return this.conn ? this.lastPlan : null;
  }

  /**
   * The accepted table took sight away from this chat's running Codex (`why` names what): it is
   * restarted before its next turn, resuming the thread, so the agent never keeps a folder the table
   * no longer gives it (docs/security-model.md "Filesystem: private by default"). Says so now and again
   * when it restarts. Nothing happens when no Codex runs (the next start uses the table anyway).
   */
  restartBeforeNextTurn(why: string): void {
    if (!this.conn) return;
    this.restartWhy = why;
    this.notice(`${why}. Codex restarts before the next turn so the running agent cannot use it; the conversation continues.`);
  }

  /**
   * Starts Codex again (after a crash, an idle exit or a refusal) and resumes the thread; no message is
   * sent. With Codex running, it restarts only when the table in force for the profile differs from what
   * the process was started with ("profile changed", mode.ts), and only when nothing runs or waits (else
   * it says to /stop first and returns false); otherwise it leaves the process alone and returns true.
   */
  async restart(): Promise<boolean> {
    return restartCodex(this);
  }

  /** Resolves when the chat has nothing running, queued or being answered (looked at again at every change). */
  async idle(): Promise<void> {
    while (this.turn.current || this.turn.queue.length || this.commands) await this.nextChange();
  }

  /** Stops the Codex process (stdin close, TERM, KILL) and withdraws pending approvals; a start in progress (a warm one at app start) is waited for first. */
  async dispose(): Promise<void> {
    this.watch.clearAll();
    this.dispatch({ kind: 'dispose' });
    await this.starting?.catch(() => undefined);
    await this.stopProcess();
  }

  // ---- the turn machine's runner -----------------------------------------------------------------

  /** Feeds the turn machine (turn/machine.ts) and carries out its effects, in order. */
  dispatch(input: TurnInput): boolean | undefined {
    const out = step(this.turn, input);
    this.turn = out.state;
    for (const effect of out.effects) this.carryOut(effect);
    this.wake();
    return out.result;
  }

  private carryOut(e: TurnEffect): void {
    switch (e.kind) {
      case 'queueFull':
        throw new AppFailure({ code: 'queue-full', message: noticeText({ code: 'queue-full' }), where: this.deps.chatId });
      case 'clearIdle':
        return this.watch.clearIdle();
      case 'changed':
        return this.changed();
      case 'pump':
        this.dispatch({ kind: 'pump' });
        return;
      case 'startWork':
        void runWork(this, e.seq, e.work);
        return;
      case 'steer':
        void steer(this, e.text, 'steer', e.images);
        return;
      case 'interrupt': {
        const report = e.report;
        const sent = interruptTurn(this);
        if (report) this.stopReport = sent.then((stopped) => this.notice(noticeText({ code: 'stopped', stopped, dropped: report.dropped })));
        return;
      }
      case 'armGrace': {
        const seq = e.seq;
        return this.watch.armGrace(() => this.dispatch({ kind: 'graceExpired', seq }));
      }
      case 'clearGrace':
        return this.watch.clearGrace();
      case 'ownTurn':
        this.ownTurns.add(e.id);
        return;
      case 'notice':
        return this.notice(noticeText(e.notice));
      case 'drained':
        this.changed();
        return this.armIdle();
    }
  }

  /** `/stop` and Stop (turn/machine.ts): true when something was stopped, cancelled or dropped. */
  private async stopAll(via: '/stop' | 'Stop'): Promise<boolean> {
    this.stopReport = null;
    const done = this.dispatch({ kind: 'stop', via, codexStarting: this.starting !== null }) === true;
    const report = this.stopReport;
    this.stopReport = null;
    await report;
    return done;
  }

  private nextChange(): Promise<void> {
    return new Promise((resolve) => this.wakers.add(resolve));
  }

  private wake(): void {
    const waiting = [...this.wakers];
    this.wakers.clear();
    for (const resolve of waiting) resolve();
  }

  /**
   * Before `/new` or `/resume` switch: waits for a Codex start in progress (its outcome does not matter:
   * the process is replaced) and for stopped work to end (bounded: a cancelled turn is interrupted, and a
   * turn that ignores the interrupt loses its process after `interruptGraceMs`).
   */
  private async settleForSwitch(): Promise<void> {
    await this.starting?.catch(() => undefined);
    const seq = this.turn.current?.seq;
    while (seq !== undefined && this.turn.current?.seq === seq) await this.nextChange();
  }

  // ---- internals ---------------------------------------------------------------------------------

  changed(state?: AgentState): void {
    if (state) this.state = state;
    this.keptLine = keepLastLine(this, this.keptLine);
    this.deps.emit({ event: 'chat:updated', payload: this.view() });
    this.wake();
  }

  notice(text: string): void {
    this.transcript.push({ type: 'notice', id: this.transcript.localId('notice'), text });
    this.changed();
  }

  setActivity(text: string | null): void {
    if (this.activity === text) return;
    this.activity = text;
    this.changed();
  }

  /** (Re)arms the stall watchdog; paused while an approval waits. */
  armStall(): void {
    this.watch.armStall((this.turn.turnId !== null || this.compaction !== null) && this.state !== 'needs-you');
  }

  /** After the queue drains: an idle process exits after `idle_exit_minutes`; the row stays and is resumed later. */
  armIdle(): void {
    this.watch.armIdle(this.conn !== null);
  }

  private idleExit(): void {
    if (this.turn.current || this.turn.queue.length || this.commands || hasPending(this)) return;
    // Shown as it is: stopped (the next message starts Codex again and resumes the thread).
    this.down = 'idle-exit';
    const stopping = this.stopProcess();
    this.changed('stopped');
    void stopping;
  }

  ensureStarted(): Promise<void> {
    if (this.conn) return Promise.resolve();
    const verdict = this.crashes.verdict(this.watch.clock.now());
    if (!verdict.allowed) return Promise.reject(new AppFailure({ code: 'crash-loop', message: this.crashes.message(verdict) }));
    this.starting ??= startProcess(this).finally(() => (this.starting = null));
    return this.starting;
  }

  /** Detaches and stops the process (not a crash), withdrawing its approvals. */
  async stopProcess(): Promise<void> {
    const conn = this.detach();
    if (conn) {
      // A turn still waiting ends as interrupted: the process that ran it is gone.
      this.turnWaiter?.({ turnId: this.turn.turnId, status: 'interrupted', message: null, errorInfo: null });
      await conn.stop();
    }
  }

  /** Detaches the process (not a crash): it is no longer the chat's, its approvals are withdrawn. Returns it. */
  private detach(): CodexConnection | null {
    this.watch.clearIdle();
    const conn = this.conn;
    this.conn = null;
    if (conn) this.deps.broker.withdraw((v) => v.chatId === this.deps.chatId && v.state === 'pending', "the chat's Codex process was stopped");
    return conn;
  }

  /** True for the chat's connection, or the one it is opening; any other (detached, stopped, replaced) is stale. */
  isCurrent(conn: CodexConnection): boolean {
    return conn === this.conn || conn === this.opening;
  }

  /** The `model/list` catalog on `conn` (cached by ModelCatalog), kept for `inForce`; [] when Codex listed nothing. */
  async readCatalog(conn: CodexConnection): Promise<ModelInfo[]> {
    this.lastPlan ??= await this.deps.plan();
    const models = await this.deps.models.list(this.lastPlan.spawn.bin, conn);
    if (models.length) this.catalog = models;
    return models;
  }

  /** The model and effort the next turn/start sends for `row`, and where each comes from (inForce.ts). */
  inForce(row: SessionRow | null): InForce {
    return inForce(row, this);
  }
}
