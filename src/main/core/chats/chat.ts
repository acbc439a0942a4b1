/**
 * One chat: one conversation with one profile's agent. Holds the message queue (at most 10), starts
 * Codex lazily and fail-closed (launch plan, version gate, config layers, thread attestation), runs one
 * `turn/start` per message (or `turn/steer` into the running turn), streams items into the transcript,
 * routes server requests through the approval broker, answers the chat commands (commands.ts), and
 * watches the turn (stall watchdog, an approval Codex waits on but never sent) and the process (idle
 * exit, crash). Protocol facts: codex 0.169.0 (`initialize`, `thread/*`, `turn/*`, `item/*`; generated types
 * `TurnStartParams`, `TurnSteerParams`, `ThreadStatus`).
 *
 * Lifecycle rules:
 * - A unit of work (a message or a `/compact`) goes through three phases: `starting` (Codex may still be
 *   starting; nothing sent yet), `requested` (turn/start or thread/compact/start sent; the turn not
 *   active yet), `running` (`turn/started` came: the turn is active). Every stop (`/stop`, Stop =
 *   `chats:interrupt`, dispose) bumps the chat's `era`; work begun in an older era is cancelled: in
 *   `starting` its request is never sent, in `requested` `turn/interrupt` goes out as soon as the turn is
 *   active, in `running` at once. Measured on 0.169.0: turn/start answers with the turn id BEFORE the turn
 *   is active, and a `turn/interrupt` sent right after that answer fails "no active turn to interrupt";
 *   so the interrupt waits for `turn/started` (or, should it never come, `interruptGraceMs`).
 *   `/stop` and Stop both drop the queue and say what they did; so does "Deny and stop" (an approval
 *   answered `cancel`: Codex interrupts the turn), so nothing queued starts after the user asked to stop.
 * - The turn id is reset at every turn start and only taken from this turn's answer or `turn/started`.
 *   Notifications and server requests of a connection that is not the chat's current one (or the one it
 *   is opening) are ignored: a process detached by `/new`, `/resume`, a stop or a restart cannot touch
 *   the chat any more.
 * - `/new` and `/resume` do not run while a turn is starting, running or queued: the user is told to
 *   `/stop` first, and nothing is lost.
 * - The model and effort shown (`view`, `/status`) are the ones sent with the next turn/start (`inForce`):
 *   a session effort the model does not offer is cleared (with a message) when `/model` changes the model.
 */
import type { AgentState, ChatItem, ChatView, Enforcement } from '../../../shared/contract';
import { AppFailure, toAppError } from '../../../shared/result';
import type { GrantFloor, WritablePlace } from '../approvals/privateReach';
import type { CodexConnection } from '../codex/connection';
import { CrashHistory } from '../codex/crashPolicy';
import type { ModelInfo } from '../codex/models';
import type { ChangeView } from '../codex/serverRequests';
import type { LaunchPlan } from '../launch/plan';
import { extraTextRefusal, parseCommand, SLASH_ESCAPE_HINT } from './commands';
import type { CommandContext } from './commands/context';
import { runCommand } from './commands/index';
import { loadHistory, showResumed } from './history';
import type { ChatDeps, ChatInside, InForce, Steered, TurnEnded } from './inside';
import { deriveChatMode, modePhrase, type AttestedMode, type ProfileNow } from './mode';
import { minutesText, noticeText } from './notices';
import { startProcess } from './process';
import { LAST_LINE_MAX, type SessionRow } from './sessions';
import { Transcript } from './transcript';
import { busyFor, initialTurnState, step, type TurnEffect, type TurnInput, type TurnState } from './turn/machine';
import { interruptTurn, runWork, steer } from './turn/run';
import { realClock, Watchdogs } from './watchdogs';

export { MAX_QUEUE } from './notices';
export { timingFromMinutes, type ChatTiming } from './watchdogs';
export { crashDetail } from './process';
export type { ChatDeps } from './inside';

/**
 * One chat (see the module comment). Its fields are shared with its parts through `ChatInside`
 * (inside.ts); everything else uses the methods documented here.
 */
export class Chat implements ChatInside {
  state: AgentState = 'idle';
  refusal: string | null = null;
  enforcement: Enforcement | null = null;
  threadId: string | null = null;
  rowId: string | null = null;
  conn: CodexConnection | null = null;
  codexVersion: string | null = null;
  starting: Promise<void> | null = null;
  opening: CodexConnection | null = null;
  /** The turn machine's state (turn/machine.ts): queue, era, the running work and its turn id. */
  turn: TurnState = initialTurnState;
  turnWaiter: ((end: TurnEnded) => void) | null = null;
  compaction: { done: boolean } | null = null;
  onRequest = true;
  /** The running launch's closed places (LaunchPlan.grantFloor); undefined before the first start (nothing is granted then). */
  grantFloor: GrantFloor | undefined;
  /**
   * What this chat granted for writing and Codex still honours (privateReach.ts `grantedPlaces`): a turn
   * grant until its turn completes, a session grant until the process ends (a new start clears all). No
   * later grant is given in one (the agent could swap the path for a symbolic link).
   */
  grants: { place: WritablePlace; scope: 'turn' | 'session'; turnId: string | null }[] = [];
  /** The running launch's sandbox, as approval cards of escalations describe it (RequestContext.sandbox); undefined when not sandboxed. */
  sandboxCtx: { denied: number | null } | undefined;
  /** Model in force: the override of the active session, else the base read at start. */
  baseModel: string | null = null;
  baseSource: 'profile' | 'codex default' = 'codex default';
  /** The effort the profile (or Codex's config, `model_reasoning_effort`) sets; null when neither does. */
  configuredEffort: { effort: string; source: 'profile' | 'codex config' } | null = null;
  /** The effort Codex reported on the last thread start/resume (`reasoningEffort`). */
  reportedEffort: string | null = null;
  /** The last `model/list` catalog seen (empty until one was read, or when Codex listed nothing). */
  private catalog: ModelInfo[] = [];
  /** Why no process runs, when Angelia knows: it exited after idle_exit_minutes, or it crashed. */
  down: 'idle-exit' | 'crashed' | null = null;
  /** The message (or compaction) whose turn Codex's crash cut off, told at the next start. */
  killedTurn: string | null = null;
  readonly fileChanges = new Map<string, ChangeView[]>();
  /** The last approval of the running turn and how it ended, to explain an interrupted turn. */
  lastAsk: { title: string; outcome: 'pending' | 'cancel' | 'deny' | 'allow' } | null = null;
  /**
   * Texts steered into the running turn that Codex has not yet taken into the conversation. Measured on
   * codex 0.169.0 with the scripted model: a steer Codex takes is announced as `item/started` of a
   * `userMessage` with exactly the steered text, right before the model request that carries it; a
   * steer accepted while an approval waited and then "Deny and stop" (or any stop) never appears in a
   * model request and gets no such item. What is left here at the turn's end was not delivered.
   */
  steered: Steered[] = [];
  /** The loading of the active session's past turns (`items`), once per chat object; null before the first view. */
  history: Promise<void> | null = null;
  /** While `/resume` shows the resumed session's past turns: work waits for it, so they come before its items. */
  historyGate: Promise<void> | null = null;
  /** Turn ids this chat object ran (their items are in the transcript already; history leaves them out). */
  readonly ownTurns = new Set<string>();
  /** Why the running Codex must restart before the next turn (`restartBeforeNextTurn`), else null. */
  restartWhy: string | null = null;
  /** Set by a restart `restartIfTaken` made, until the turn says so. */
  restarted: string | null = null;
  lastPlan: LaunchPlan | null = null;
  attestedAt: string | null = null;
  /** What the running process was started and attested with (mode.ts); null before the first start. */
  attestedMode: AttestedMode | null = null;
  /** The profile as the table had it when the launch plan being started was made. */
  planProfile: ProfileNow | null = null;
  /** Unexpected Codex exits of this chat; too many in a row refuse the restart (codex/crashPolicy.ts). */
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
    this.watch = new Watchdogs(deps.timing, deps.clock ?? realClock, {
      stallHalf: (ms) => {
        this.notice(noticeText({ code: 'stall-half', ms }));
        this.setActivity(`No output for ${minutesText(ms / 2)}`);
      },
      stallReset: () => this.setActivity(this.compaction ? 'Compacting…' : null),
      stallFull: (ms) => {
        this.notice(noticeText({ code: 'stall-stopped', ms }));
        this.dispatch({ kind: 'stall' });
      },
      idleExit: () => this.idleExit(),
      ghost: () => {
        if (this.hasPending()) return;
        this.notice(noticeText({ code: 'ghost-approval' }));
        this.setActivity('Waiting on an approval Codex never sent');
      },
    });
    this.commandContext = this.makeCommandContext();
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
      id: this.deps.chatId, profile: this.deps.profile, state: this.state, threadId: this.threadId,
      enforcement: this.enforcement, lastLine: this.transcript.lastLine() || (row?.last_line ?? '').slice(0, LAST_LINE_MAX), refusal: this.refusal,
      pendingApprovals: this.deps.broker.pending().filter((a) => a.chatId === this.deps.chatId).length,
      queued: this.turn.queue.length,
      label: row?.label ?? '', sessionId: row?.id ?? null,
      model: force.model, effort: force.effort,
      overrides: { model: row?.model ?? null, effort: row?.effort ?? null },
      activity: this.activity,
      mode: this.currentMode(),
    };
  }

  /**
   * The transcript, oldest first. The first call also puts the active session's past turns in front of
   * it (history.ts `loadHistory`: after a restart of Angelia, or for turns `angelia run` did). Never
   * throws: a read that fails is said in the chat.
   */
  async items(): Promise<ChatItem[]> {
    this.history ??= loadHistory(this).catch((e: unknown) => this.notice(`The earlier turns of this session could not be read from Codex: ${toAppError(e).message}`));
    await this.history;
    return this.transcript.all();
  }

  /**
   * Takes one line from the user. A command (`/new`, `/resume`, …) is answered in the transcript and
   * never reaches the agent, nor does an unknown `/word` (answered with how to send it: `//`); `//text`
   * goes to the agent as "/text". With `steer` and a turn running, the text goes into that turn
   * (`turn/steer`); otherwise it is queued for its own turn. Throws AppFailure `queue-full` when the chat
   * already holds 10 messages.
   */
  send(text: string, opts: { steer?: boolean } = {}): { queued: number; steered?: boolean; command?: string | null } {
    const cmd = parseCommand(text);
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
      void runCommand(this.commandContext, cmd).catch((e: unknown) => this.notice(`/${cmd.name} failed: ${toAppError(e).message}`)).finally(() => {
        this.commands--;
        this.changed();
      });
      return { queued: this.turn.queue.length, command: `/${cmd.name}` };
    }
    const message = cmd ? cmd.message : text;
    const steered = this.dispatch({ kind: 'send', text: message, steer: opts.steer === true, steerable: this.conn !== null && this.threadId !== null && this.compaction === null });
    return steered ? { queued: this.turn.queue.length, steered: true } : { queued: this.turn.queue.length };
  }

  /**
   * Queues `text` as a turn of its own for the loopback API (`POST /turn`): never a chat command (a
   * leading `/` goes to the agent as written), never a steer. `apiTurn` is the API's turn id, carried
   * through the queue onto the turn's `user` and `turnEnd` items; `app` marks an app turn (its answer is
   * for the caller; the window folds it). Throws AppFailure `queue-full` when the chat already holds 10.
   */
  queueTurn(text: string, opts: { apiTurn: string; app?: boolean }): { queued: number } {
    this.dispatch({ kind: 'enqueue', work: { kind: 'message', text, apiTurn: opts.apiTurn, ...(opts.app ? { app: true } : {}) } });
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

  /** Applies `restartBeforeNextTurn` before a turn: stops the process (the turn's start resumes the thread). */
  async restartIfTaken(): Promise<void> {
    const why = this.restartWhy;
    this.restartWhy = null;
    if (!why || !this.conn) return;
    await this.stopProcess();
    this.restarted = why;
  }

  /**
   * Starts Codex again (after a crash, an idle exit or a refusal) and resumes the thread; no message is
   * sent. With Codex running, it restarts only when the table in force for the profile differs from what
   * the process was started with ("profile changed", mode.ts), and only when nothing runs or waits (else
   * it says to /stop first and returns false); otherwise it leaves the process alone and returns true.
   */
  async restart(): Promise<boolean> {
    let applying = false;
    if (this.conn) {
      if (!this.currentMode().tableChanged) return true;
      if (this.turn.current || this.turn.queue.length || this.starting) {
        this.notice('The profile changed, but a turn is running or messages wait in this chat, so it was not restarted. Send /stop first (or wait until it ends), then Restart.');
        return false;
      }
      await this.stopProcess();
      applying = true;
    }
    try {
      await this.ensureStarted();
      this.notice(applying ? `Codex was restarted with the profile as the table has it now: ${modePhrase(this.currentMode())}. The conversation continues where it was.` : 'Codex is running again; the conversation continues where it was.');
      if (!this.turn.current) this.changed('idle');
      this.armIdle();
      return true;
    } catch (e) {
      this.failStart(e, 0);
      return false;
    }
  }

  /** Resolves when the chat has nothing running, queued or being answered (looked at again at every change). */
  async idle(): Promise<void> {
    while (this.turn.current || this.turn.queue.length || this.commands) await this.nextChange();
  }

  /** Stops the Codex process (stdin close, TERM, KILL) and withdraws pending approvals. */
  async dispose(): Promise<void> {
    this.watch.clearAll();
    this.dispatch({ kind: 'dispose' });
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
        void steer(this, e.text, 'steer');
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
    this.keepLastLine();
    this.deps.emit({ event: 'chat:updated', payload: this.view() });
    this.wake();
  }

  /**
   * Keeps the transcript's last line with the active session row (sessions.ts `last_line`), so the chat
   * list shows it after a restart. Written only when it changed and no turn is starting or running (at
   * most once or twice per turn: the turn's items stream without a write); nothing when the chat has no
   * session row yet. A write that fails is tried again at the next change (the line is only for the list).
   */
  private keepLastLine(): void {
    if (this.state === 'working' || this.state === 'starting') return;
    const line = this.transcript.lastLine();
    if (!line) return;
    const row = this.deps.sessions.active(this.deps.chatId);
    if (!row || `${row.id}\n${line}` === this.keptLine) return;
    try {
      this.deps.sessions.setLastLine(this.deps.chatId, row.id, line);
      this.keptLine = `${row.id}\n${line}`;
    } catch {
      // Retried at the next change; the list keeps showing the line from memory meanwhile.
    }
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

  private hasPending(): boolean {
    return this.deps.broker.pending().some((v) => v.chatId === this.deps.chatId);
  }

  /** Shows why the agent did not start and drops what waited for it (named in the transcript). */
  failStart(e: unknown, dropped: number): void {
    const error = toAppError(e);
    // No sandbox is in force for a chat whose agent did not start: never show the last session's badge.
    this.enforcement = null;
    this.refusal = `${error.message}${/[.!?]$/.test(error.message) ? '' : '.'}${error.fix ? ` Fix: ${error.fix}` : ''}`;
    const busy = error.code === 'thread-busy';
    this.transcript.push({
      type: 'error', id: this.transcript.localId('refused'),
      message: busy ? this.refusal : `This chat's agent was not started: ${this.refusal}`,
      detail: `Nothing was sent to it${dropped ? ` (${dropped} queued message(s) dropped)` : ''}.`,
      kind: busy ? 'threadBusy' : error.code === 'refused' ? 'refused' : 'startFailed',
      ...(error.code === 'refused' || error.code === 'crash-loop' ? {} : { action: 'restart' as const }),
    });
    this.changed(error.code === 'refused' ? 'refused' : 'error');
  }

  /** (Re)arms the stall watchdog; paused while an approval waits. */
  armStall(): void {
    this.watch.armStall((this.turn.turnId !== null || this.compaction !== null) && this.state !== 'needs-you');
  }

  /** After the queue drains: an idle process exits after `idle_exit_minutes`; the row stays and is resumed later. */
  private armIdle(): void {
    this.watch.armIdle(this.conn !== null);
  }

  private idleExit(): void {
    if (this.turn.current || this.turn.queue.length || this.commands || this.hasPending()) return;
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

  /**
   * The model and effort the next turn/start sends, and where each comes from. Model: the session's
   * override, else the profile's or Codex's. Effort, the first the model offers (per the last `model/list`;
   * anything goes without one): the session's override, the profile's (or Codex config's), the model's
   * default from the catalog, else what Codex reported at the thread start.
   */
  inForce(row: SessionRow | null): InForce {
    const model = row?.model ?? this.baseModel;
    const modelSource = row?.model ? 'this session' : this.baseSource;
    const info = model ? this.catalog.find((m) => m.id.toLowerCase() === model.toLowerCase()) ?? null : null;
    const offered = (e: string): boolean => !info?.efforts.length || info.efforts.includes(e);
    if (row?.effort && offered(row.effort)) return { model, modelSource, effort: row.effort, effortSource: 'this session' };
    const set = this.configuredEffort;
    if (set && offered(set.effort)) return { model, modelSource, effort: set.effort, effortSource: set.source };
    if (info?.defaultEffort) return { model, modelSource, effort: info.defaultEffort, effortSource: `default of ${info.id}` };
    return { model, modelSource, effort: this.reportedEffort, effortSource: this.reportedEffort ? 'codex default' : null };
  }

  /** The chat as its commands see it (commands/context.ts). */
  private makeCommandContext(): CommandContext {
    const { chatId, profile, sessions, exportDir } = this.deps;
    return {
      chatId, profile, sessions, exportDir,
      notice: (text) => this.notice(text),
      facts: () => ({ codexVersion: this.codexVersion, enforcement: this.enforcement, warm: this.conn !== null, down: this.down, queued: this.turn.queue.length, running: this.turn.current !== null, mode: this.currentMode() }),
      base: () => ({ model: this.baseModel, source: this.baseSource }),
      inForce: (row) => this.inForce(row),
      stop: () => this.stopAll('/stop'),
      enqueueCompact: () => void this.dispatch({ kind: 'enqueue', work: { kind: 'compact' } }),
      busyFor: (cmd) => {
        const busy = busyFor(this.turn, cmd);
        return busy ? noticeText(busy) : null;
      },
      settleForSwitch: () => this.settleForSwitch(),
      switchAway: () => {
        this.dispatch({ kind: 'switch' });
        const old = this.detach();
        return async () => {
          await old?.stop();
        };
      },
      adopt: (threadId) => {
        this.threadId = threadId;
        this.rowId = null;
        this.enforcement = null;
        this.down = null;
        this.killedTurn = null;
      },
      threadHeldElsewhere: (threadId) => this.deps.threadHeldElsewhere(threadId),
      showResumed: async (threadId) => {
        // The first view does not read the session's turns again (`history`); work waits for them (`historyGate`).
        const load = showResumed(this, threadId).catch((e: unknown) => this.notice(`The earlier turns of this session could not be read from Codex: ${toAppError(e).message}`));
        this.history = load;
        this.historyGate = load;
        try {
          await load;
        } finally {
          if (this.historyGate === load) this.historyGate = null;
        }
      },
      liveModels: async () => {
        await this.ensureStarted();
        const conn = this.conn;
        return conn ? this.readCatalog(conn) : [];
      },
      ensureRow: () => sessions.active(chatId) ?? sessions.ensureActive(chatId, profile),
      liveConnection: async () => {
        await this.ensureStarted();
        return this.conn;
      },
    };
  }
}

export type { ChatItem };
