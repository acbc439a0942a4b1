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
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ResponseError } from 'vscode-jsonrpc';
import writeFileAtomic from 'write-file-atomic';
import type { AgentState, AppEvent, ChatItem, ChatView, Enforcement } from '../../../shared/contract';
import { AppFailure, toAppError } from '../../../shared/result';
import type { ApprovalBroker, Settlement } from '../approvals/broker';
import type { AuditSink } from '../approvals/audit';
import { attestThread, checkConfigLayers, checkMcpServers, checkRequirements, checkVersion } from '../codex/attest';
import { idsOf, readChanges, readTurnEnd, toChatItem, type TurnEnd } from '../codex/items';
import { describeTurnError } from '../codex/turnErrors';
import { chooseEffort, chooseModel, describeEfforts, describeModels, effortsFor, type ModelCatalog, type ModelInfo } from '../codex/models';
import { classifyServerRequest, type ChangeView } from '../codex/serverRequests';
import { grantedPlaces, type GrantFloor, type WritablePlace } from '../approvals/privateReach';
import { CrashHistory } from '../codex/crashPolicy';
import { classifyStderr, stderrCause } from '../codex/stderrClass';
import type { CodexConnection, CodexExit, StartCodex } from '../codex/connection';
import { LAST_LINE_MAX, type SessionRow, type SessionStore } from './sessions';
import { Transcript } from './transcript';
import { extraTextRefusal, helpText, id8, parseCommand, sessionRef, sessionsText, SLASH_ESCAPE_HINT, statusText, type ParsedCommand } from './commands';
import { chronological, exportFileName, readSessionRows, readThreadTurns, toMarkdown } from './export';
import { isObj, str, type Obj } from '../codex/wire';
import type { LaunchPlan } from '../launch/plan';
import { approvalWord, deriveChatMode, modePhrase, type AttestedMode, type ProfileNow } from './mode';

/** The chat's clocks, in milliseconds (from the table's `defaults`, minutes × 60 000). */
export interface ChatTiming {
  /** `turn_stall_minutes`: no output for half of it → the user is told; for all of it → the turn is stopped. 0 = never. */
  stallMs: number;
  /** `idle_exit_minutes`: an idle Codex process exits after it and is resumed on the next message. */
  idleMs: number;
  /** How long Codex may report waiting on an approval Angelia never received before the user is told. */
  ghostApprovalMs: number;
  /** How long a `turn/interrupt` may take before the process is stopped instead. */
  interruptGraceMs: number;
}

/** Production timing for a table's defaults (minutes). */
export function timingFromMinutes(d: { turnStallMinutes: number; idleExitMinutes: number }): ChatTiming {
  return { stallMs: d.turnStallMinutes * 60_000, idleMs: d.idleExitMinutes * 60_000, ghostApprovalMs: 15_000, interruptGraceMs: 15_000 };
}

export interface ChatDeps {
  chatId: string;
  profile: string;
  plan: () => Promise<LaunchPlan>;
  startCodex: StartCodex;
  broker: ApprovalBroker;
  audit: AuditSink;
  sessions: SessionStore;
  emit: (e: AppEvent) => void;
  timing: ChatTiming;
  models: ModelCatalog;
  /** Folder `/export` writes into (created mode 700). */
  exportDir: string;
  /** The id of another live chat of this Angelia that holds `threadId`, or null (one chat per thread). */
  threadHeldElsewhere: (threadId: string) => string | null;
  /** The chat's profile in the accepted table now (null when it left the table); absent: unknown (mode shown from the attestation only). */
  profileNow?: () => ProfileNow | null;
}

/** The most messages a chat holds (running + waiting), README "Chats". */
export const MAX_QUEUE = 10;

/**
 * One queued unit of work: a message for the agent, or a `/compact`. A message queued by the loopback API
 * carries its API turn id (`apiTurn`, put on its `user` and `turnEnd` items, so the API tells its turn
 * apart from any other with the same text) and, for an app turn (`reply: "caller"`), `app`.
 */
type Work = { kind: 'message'; text: string; retried?: boolean; apiTurn?: string; app?: boolean } | { kind: 'compact' };

/**
 * The work the pump runs now and how far it got (see the module comment). `era` is the chat's era when it
 * began: `era !== chat.era` means it was cancelled. `interruptSent` keeps `turn/interrupt` to one;
 * `waitTimer` is the fallback that interrupts a cancelled turn whose `turn/started` never came.
 */
interface Current {
  work: Work;
  era: number;
  phase: 'starting' | 'requested' | 'running';
  interruptSent: boolean;
  waitTimer?: NodeJS.Timeout;
}

/** How a text is quoted in the chat's notices: one line, at most 60 characters. */
function quote(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return `"${line.length > 60 ? `${line.slice(0, 59)}…` : line}"`;
}

/** Lines of Codex's stderr tail searched for why it exited when the launcher's cause is not among them. */
const CRASH_TAIL_LINES = 12;

/**
 * Why a Codex process exited, for the crash message: only this process's recent stderr counts. The
 * launcher's cause (picked from all the stderr it kept) is taken when it is a fatal line (`Error: …`, a
 * panic) that is still in the tail (the lines after it may be a backtrace); else the cause is read from
 * the last `CRASH_TAIL_LINES` lines only, so a line written long before the exit is never shown as its
 * cause. After a signal (a kill, the OOM killer) only a fatal line is shown: Codex prints nothing when it
 * is killed, so any other line predates the exit and would mislead. Null when nothing explains it.
 */
export function crashDetail(exit: CodexExit): string | null {
  const tail = exit.stderrTail;
  const whole = exit.cause ?? null;
  const first = whole ? classifyStderr(whole)[0] : undefined;
  let cause = whole && first?.kind === 'fatal' && tail.includes(first.text) ? whole : stderrCause(tail.split('\n').slice(-CRASH_TAIL_LINES).join('\n'));
  if (cause && exit.signal && classifyStderr(cause)[0]?.kind !== 'fatal') cause = null;
  return cause;
}

export class Chat {
  private state: AgentState = 'idle';
  private refusal: string | null = null;
  private enforcement: Enforcement | null = null;
  private threadId: string | null = null;
  private rowId: string | null = null;
  private conn: CodexConnection | null = null;
  private codexVersion: string | null = null;
  private starting: Promise<void> | null = null;
  /** The connection `start()` is attesting and opening (its notifications count before it becomes `conn`). */
  private opening: CodexConnection | null = null;
  private readonly queue: Work[] = [];
  /** The work the pump runs now; null when none. */
  private current: Current | null = null;
  /** Bumped by every stop (/stop, Stop, dispose) and by /new and /resume: older work is cancelled. */
  private era = 0;
  /** How the running turn was stopped ("stopped with /stop"), for its end line; reset at each turn start. */
  private stopWhy: string | null = null;
  private commands = 0;
  private turnId: string | null = null;
  private turnWaiter: ((end: TurnEnd & { exited?: boolean }) => void) | null = null;
  private compaction: { done: boolean } | null = null;
  private onRequest = true;
  /** The running launch's closed places (LaunchPlan.grantFloor); undefined before the first start (nothing is granted then). */
  private grantFloor: GrantFloor | undefined;
  /**
   * What this chat granted for writing and Codex still honours (privateReach.ts `grantedPlaces`): a turn
   * grant until its turn completes, a session grant until the process ends (a new start clears all). No
   * later grant is given in one (the agent could swap the path for a symbolic link).
   */
  private grants: { place: WritablePlace; scope: 'turn' | 'session'; turnId: string | null }[] = [];
  /** The running launch's sandbox, as approval cards of escalations describe it (RequestContext.sandbox); undefined when not sandboxed. */
  private sandboxCtx: { denied: number | null } | undefined;
  private activity: string | null = null;
  /** Model in force: the override of the active session, else the base read at start. */
  private baseModel: string | null = null;
  private baseSource: 'profile' | 'codex default' = 'codex default';
  /** The effort the profile (or Codex's config, `model_reasoning_effort`) sets; null when neither does. */
  private configuredEffort: { effort: string; source: 'profile' | 'codex config' } | null = null;
  /** The effort Codex reported on the last thread start/resume (`reasoningEffort`). */
  private reportedEffort: string | null = null;
  /** The last `model/list` catalog seen (empty until one was read, or when Codex listed nothing). */
  private catalog: ModelInfo[] = [];
  /** Why no process runs, when Angelia knows: it exited after idle_exit_minutes, or it crashed. */
  private down: 'idle-exit' | 'crashed' | null = null;
  /** The message (or compaction) whose turn Codex's crash cut off, told at the next start. */
  private killedTurn: string | null = null;
  private readonly fileChanges = new Map<string, ChangeView[]>();
  /** The last approval of the running turn and how it ended, to explain an interrupted turn. */
  private lastAsk: { title: string; outcome: 'pending' | 'cancel' | 'deny' | 'allow' } | null = null;
  /**
   * Texts steered into the running turn that Codex has not yet taken into the conversation. Measured on
   * codex 0.169.0 with the scripted model: a steer Codex takes is announced as `item/started` of a
   * `userMessage` with exactly the steered text, right before the model request that carries it; a
   * steer accepted while an approval waited and then "Deny and stop" (or any stop) never appears in a
   * model request and gets no such item. What is left here at the turn's end was not delivered.
   * `acked`: turn/steer answered ok; `ended`: the turn ended while the turn/steer was still unanswered.
   */
  private steered: Array<{ shown: string; input: string; acked: boolean; ended: boolean }> = [];
  /** The loading of the active session's past turns (`items`), once per chat object; null before the first view. */
  private history: Promise<void> | null = null;
  /** While `/resume` shows the resumed session's past turns: work waits for it, so they come before its items. */
  private historyGate: Promise<void> | null = null;
  /** Turn ids this chat object ran (their items are in the transcript already; history leaves them out). */
  private readonly ownTurns = new Set<string>();
  private stallTimer: NodeJS.Timeout | null = null;
  private stallHalfTold = false;
  private idleTimer: NodeJS.Timeout | null = null;
  /** Waiters of `idle()`, woken at every change. */
  private readonly idleWakers = new Set<() => void>();
  private ghostTimer: NodeJS.Timeout | null = null;
  /** Unexpected Codex exits of this chat; too many in a row refuse the restart (codex/crashPolicy.ts). */
  private readonly crashes = new CrashHistory();
  readonly transcript: Transcript;

  constructor(private readonly deps: ChatDeps) {
    this.transcript = new Transcript(deps.chatId, deps.emit);
    const row = deps.sessions.active(deps.chatId);
    if (row) {
      this.threadId = row.threadId;
      this.enforcement = row.enforcement;
    }
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

  private attestedAt: string | null = null;
  /** What the running process was started and attested with (mode.ts); null before the first start. */
  private attestedMode: AttestedMode | null = null;
  /** The profile as the table had it when the launch plan being started was made. */
  private planProfile: ProfileNow | null = null;

  /** The mode to show now (mode.ts): attested while Codex runs, else what the next start applies. */
  private currentMode(): NonNullable<ChatView['mode']> {
    return deriveChatMode({ running: this.conn !== null, attested: this.attestedMode, table: this.deps.profileNow?.() ?? null });
  }

  /** True while the pump runs a unit of work (starting, requested or running). */
  private get running(): boolean {
    return this.current !== null;
  }

  /** The chat as the list shows it; `model` and `effort` are what the next turn/start sends (`inForce`). */
  view(): ChatView {
    const row = this.deps.sessions.active(this.deps.chatId);
    const force = this.inForce(row);
    return {
      id: this.deps.chatId, profile: this.deps.profile, state: this.state, threadId: this.threadId,
      enforcement: this.enforcement, lastLine: this.transcript.lastLine() || (row?.last_line ?? '').slice(0, LAST_LINE_MAX), refusal: this.refusal,
      pendingApprovals: this.deps.broker.pending().filter((a) => a.chatId === this.deps.chatId).length,
      queued: this.queue.length,
      label: row?.label ?? '', sessionId: row?.id ?? null,
      model: force.model, effort: force.effort,
      overrides: { model: row?.model ?? null, effort: row?.effort ?? null },
      activity: this.activity,
      mode: this.currentMode(),
    };
  }

  /**
   * The transcript, oldest first. The first call also puts the active session's past turns in front of
   * it (field report C3: after a restart of Angelia, or for turns `angelia run` did, the chat was empty
   * though its session had turns): read from Codex with `thread/turns/list` (itemsView "full",
   * export.ts `readThreadTurns`) on the chat's own process when it runs, else on a short-lived app-server
   * started with the profile's launch plan and stopped after the read (no thread is resumed, no turn
   * started, the model is never asked). They come after a notice "Earlier in this session …" and carry
   * ids starting "history-". Turns this chat object ran itself are left out. Never throws: a read that
   * fails is said in the chat.
   */
  async items(): Promise<ChatItem[]> {
    this.history ??= this.loadHistory().catch((e: unknown) => this.notice(`The earlier turns of this session could not be read from Codex: ${toAppError(e).message}`));
    await this.history;
    return this.transcript.all();
  }

  private async loadHistory(): Promise<void> {
    const row = this.deps.sessions.active(this.deps.chatId);
    if (!row?.threadId || !row.started || row.turns === 0) return;
    const threadId = row.threadId;
    const { count, items: past } = await this.readPast(threadId, { skipOwn: true, idPrefix: 'history-' });
    if (!count) return;
    past.unshift({ type: 'notice', id: this.transcript.localId('history'), text: `Earlier in this session (${count} turn${count === 1 ? '' : 's'}, read from Codex's record of thread ${id8(threadId)}):` });
    this.transcript.prepend(past);
    this.changed();
  }

  /**
   * After `/resume` switched to a session that has turns: reads them from Codex as the first view does
   * (`readPast`, on a short-lived app-server since the old process was detached) and appends them after
   * the "Resumed …" notice, under a notice "This session so far (N turns, …)". Ids start "history-"
   * plus a prefix of this read (a session resumed twice is shown twice, never merged into its first
   * showing). Throws what `readPast` throws.
   */
  private async showResumed(threadId: string): Promise<void> {
    const { count, items } = await this.readPast(threadId, { skipOwn: false, idPrefix: `history-${this.transcript.localId('r')}-` });
    if (!count) return;
    this.transcript.push({ type: 'notice', id: this.transcript.localId('history'), text: `This session so far (${count} turn${count === 1 ? '' : 's'}, read from Codex's record of thread ${id8(threadId)}):` });
    for (const item of items) this.transcript.push(item);
    this.changed();
  }

  /**
   * The finished turns of `threadId` as transcript items, oldest first (`thread/turns/list`, itemsView
   * "full", export.ts `readThreadTurns`), each turn's items then its turn end; reasoning is left out, and
   * with `skipOwn` the turns this chat object ran. Reads on the chat's own process when it runs, else on
   * a short-lived app-server started with the profile's launch plan and stopped after the read (no thread
   * resumed, no turn started, the model never asked). Item ids get `idPrefix`. Throws when Codex cannot
   * be started, its version is refused, or the read fails.
   */
  private async readPast(threadId: string, opts: { skipOwn: boolean; idPrefix: string }): Promise<{ count: number; items: ChatItem[] }> {
    let conn = this.conn;
    let own = false;
    if (!conn) {
      const plan = await this.deps.plan();
      conn = await this.deps.startCodex(plan.spawn);
      own = true;
    }
    let turns: unknown[];
    try {
      const version = checkVersion(conn.version);
      if (version.length) throw new Error(version.join(' '));
      turns = chronological((await readThreadTurns(conn, threadId)).turns);
    } finally {
      if (own) await conn.stop();
    }
    const past: ChatItem[] = [];
    let count = 0;
    for (const turn of turns) {
      if (!isObj(turn) || turn.status === 'inProgress' || (opts.skipOwn && typeof turn.id === 'string' && this.ownTurns.has(turn.id))) continue;
      count++;
      for (const raw of Array.isArray(turn.items) ? turn.items : []) {
        const item = toChatItem(raw, true);
        if (!item || item.type === 'reasoning') continue;
        past.push({ ...item, id: `${opts.idPrefix}${item.id}`, ...(item.type === 'user' ? { via: 'turn' as const } : {}) });
      }
      const status = turn.status === 'failed' || turn.status === 'interrupted' ? turn.status : 'completed';
      const message = status === 'failed' && isObj(turn.error) ? str(turn.error.message) : null;
      past.push({ type: 'turnEnd', id: `${opts.idPrefix}turn-${typeof turn.id === 'string' ? turn.id : this.transcript.localId('turn')}`, status, reason: message });
    }
    return { count, items: past };
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
      return { queued: this.queue.length, command: cmd.unknown };
    }
    if (cmd && 'name' in cmd) {
      const refused = extraTextRefusal(cmd);
      if (refused) {
        this.notice(refused);
        return { queued: this.queue.length, command: `/${cmd.name}` };
      }
      this.commands++;
      void this.command(cmd).catch((e: unknown) => this.notice(`/${cmd.name} failed: ${toAppError(e).message}`)).finally(() => {
        this.commands--;
        this.changed();
      });
      return { queued: this.queue.length, command: `/${cmd.name}` };
    }
    const message = cmd ? cmd.message : text;
    if (opts.steer && this.conn && this.threadId && this.turnId && this.compaction === null && this.current?.era === this.era && this.current.phase === 'running') {
      void this.steer(message, 'steer');
      return { queued: this.queue.length, steered: true };
    }
    this.enqueue({ kind: 'message', text: message });
    return { queued: this.queue.length };
  }

  /**
   * Queues `text` as a turn of its own for the loopback API (`POST /turn`): never a chat command (a
   * leading `/` goes to the agent as written), never a steer. `apiTurn` is the API's turn id, carried
   * through the queue onto the turn's `user` and `turnEnd` items; `app` marks an app turn (its answer is
   * for the caller; the window folds it). Throws AppFailure `queue-full` when the chat already holds 10.
   */
  queueTurn(text: string, opts: { apiTurn: string; app?: boolean }): { queued: number } {
    this.enqueue({ kind: 'message', text, apiTurn: opts.apiTurn, ...(opts.app ? { app: true } : {}) });
    return { queued: this.queue.length };
  }

  /**
   * Stop (`chats:interrupt`), the same as `/stop`: stops the running turn with `turn/interrupt` (not
   * `$/cancelRequest`), or cancels the one still starting (see the module comment), drops the queued
   * messages, and says in the chat what it did. True when a turn was stopped or cancelled, or messages
   * were dropped; false when nothing ran.
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
  private async restartIfTaken(): Promise<void> {
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
      if (this.running || this.queue.length || this.starting) {
        this.notice('The profile changed, but a turn is running or messages wait in this chat, so it was not restarted. Send /stop first (or wait until it ends), then Restart.');
        return false;
      }
      await this.stopProcess();
      applying = true;
    }
    try {
      await this.ensureStarted();
      this.notice(applying ? `Codex was restarted with the profile as the table has it now: ${modePhrase(this.currentMode())}. The conversation continues where it was.` : 'Codex is running again; the conversation continues where it was.');
      if (!this.running) this.changed('idle');
      this.armIdle();
      return true;
    } catch (e) {
      this.failStart(e, 0);
      return false;
    }
  }

  /** Resolves when the chat has nothing running, queued or being answered (checked at every change, and every 20 ms). */
  async idle(): Promise<void> {
    while (this.running || this.queue.length || this.commands) {
      await new Promise<void>((resolve) => {
        const wake = (): void => {
          clearTimeout(timer);
          this.idleWakers.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, 20);
        this.idleWakers.add(wake);
      });
    }
  }

  /** Stops the Codex process (stdin close, TERM, KILL) and withdraws pending approvals. */
  async dispose(): Promise<void> {
    this.clearTimers();
    this.era++;
    this.queue.splice(0);
    await this.stopProcess();
  }

  // ---- internals ---------------------------------------------------------------------------------

  private changed(state?: AgentState): void {
    if (state) this.state = state;
    this.keepLastLine();
    this.deps.emit({ event: 'chat:updated', payload: this.view() });
    // `idle()` waiters look again now instead of at their next 20 ms tick (`angelia run` exits sooner).
    for (const wake of [...this.idleWakers]) wake();
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

  /** The session row id and the last line `keepLastLine` wrote there (`<row id>\n<line>`). */
  private keptLine: string | null = null;

  private notice(text: string): void {
    this.transcript.push({ type: 'notice', id: this.transcript.localId('notice'), text });
    this.changed();
  }

  private setActivity(text: string | null): void {
    if (this.activity === text) return;
    this.activity = text;
    this.changed();
  }

  private enqueue(work: Work): void {
    if (this.queue.length + (this.running ? 1 : 0) >= MAX_QUEUE) {
      throw new AppFailure({ code: 'queue-full', message: `this chat already holds ${MAX_QUEUE} messages; wait for the agent to work through them`, where: this.deps.chatId });
    }
    this.clearIdle();
    this.queue.push(work);
    this.changed();
    void this.pump();
  }

  private async pump(): Promise<void> {
    if (this.running) return;
    const work = this.queue.shift();
    if (work === undefined) return;
    const cur: Current = { work, era: this.era, phase: 'starting', interruptSent: false };
    this.current = cur;
    try {
      if (this.historyGate) await this.historyGate;
      if (work.kind === 'compact') await this.runCompact(cur);
      else {
        await this.runTurn(work, cur);
        if (work.app) this.closeAppTurn(work, cur);
      }
    } finally {
      if (cur.waitTimer) clearTimeout(cur.waitTimer);
      this.current = null;
      if (this.queue.length) void this.pump();
      else {
        this.changed();
        this.armIdle();
      }
    }
  }

  /** Shows why the agent did not start and drops what waited for it (named in the transcript). */
  private failStart(e: unknown, dropped: number): void {
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

  private async runTurn(work: Extract<Work, { kind: 'message' }>, cur: Current): Promise<void> {
    const text = work.text;
    const tags = { ...(work.apiTurn ? { apiTurn: work.apiTurn } : {}), ...(work.app ? { app: true } : {}) };
    if (!work.retried) this.transcript.push({ type: 'user', id: this.transcript.localId('user'), text, via: 'turn', ...tags });
    cur.phase = 'starting';
    try {
      // Only when one is due: otherwise the start begins in this same tick (the chat shows "starting" at once).
      if (this.restartWhy) await this.restartIfTaken();
      await this.ensureStarted();
    } catch (e) {
      const dropped = this.queue.splice(0).length;
      this.failStart(e, dropped);
      return;
    }
    if (this.restarted) {
      this.notice(`Codex was restarted before this turn, resuming the conversation: ${this.restarted}.`);
      this.restarted = null;
    }
    const startedConn = this.conn;
    // With a session override the catalog is read first, so the effort sent is one the model offers.
    const overrides = this.deps.sessions.active(this.deps.chatId);
    if (startedConn && (overrides?.model || overrides?.effort)) await this.readCatalog(startedConn);
    // Cancelled while Codex started (/stop, Stop): turn/start is never sent; the stop already said so.
    if (cur.era !== this.era) return this.settleCancelled();
    const conn = this.conn;
    const rowId = this.rowId;
    if (!conn || !this.threadId || !rowId) {
      this.transcript.push({ type: 'error', id: this.transcript.localId('error'), message: `The message ${quote(text)} was not sent: Codex stopped before its turn could start.`, detail: 'Send it again; the next message starts Codex and resumes this conversation.' });
      this.changed(this.down === 'crashed' ? 'error' : 'idle');
      return;
    }
    const row = this.deps.sessions.active(this.deps.chatId);
    const firstTurn = !row || row.turns === 0;
    // A fresh turn: no id from an earlier turn or another connection may stand for it.
    this.turnId = null;
    this.stopWhy = null;
    this.lastAsk = null;
    this.changed('working');
    const ended = new Promise<TurnEnd & { exited?: boolean }>((resolve) => (this.turnWaiter = resolve));
    try {
      const params: Obj = { threadId: this.threadId, input: [{ type: 'text', text, text_elements: [] }] };
      // Model and effort in force are sent with every turn, so an override set or cleared by /model or
      // /effort takes effect on the next turn without a restart (TurnStartParams: "this turn and subsequent turns").
      const force = this.inForce(row);
      if (force.model) params.model = force.model;
      if (force.effort) params.effort = force.effort;
      cur.phase = 'requested';
      const res = await conn.request('turn/start', params);
      const id = isObj(res) && isObj(res.turn) && typeof res.turn.id === 'string' ? res.turn.id : null;
      if (id) this.gotTurn(cur, id, false);
      this.deps.sessions.recordTurn(this.deps.chatId, rowId, text);
    } catch (e) {
      this.turnWaiter = null;
      if (cur.era !== this.era) return this.settleCancelled();
      this.transcript.push({ type: 'error', id: this.transcript.localId('error'), message: `The message could not be sent: ${toAppError(e).message}`, detail: null });
      this.changed('error');
      return;
    }
    this.armStall();
    const end = await ended;
    const lost = this.finishTurn();
    if (end.exited && firstTurn && !work.retried) {
      this.tellUndelivered(lost, 'stopped');
      // A first turn of a brand-new session that dies with its process is tried once more, on a fresh session.
      this.killedTurn = null;
      this.notice('Codex exited during the first turn of this session; trying once more on a fresh session.');
      const fresh = this.deps.sessions.startNew(this.deps.chatId, this.deps.profile);
      this.threadId = null;
      this.rowId = fresh.id;
      return this.runTurn({ ...work, retried: true }, cur);
    }
    let failure: string | null = null;
    if (end.status === 'failed' && !end.exited) {
      const why = describeTurnError(end, { model: row?.model ?? this.baseModel });
      failure = why.hint ? `${why.message} ${why.hint}` : why.message;
      this.transcript.push({ type: 'error', id: this.transcript.localId('turn-error'), message: why.message, detail: why.hint, kind: why.kind });
    }
    const reason = end.status === 'failed' ? (failure ?? end.message ?? 'the turn failed') : end.status === 'interrupted' ? this.interruptedBecause() : null;
    this.lastAsk = null;
    this.transcript.push({ type: 'turnEnd', id: this.transcript.localId('turn'), status: end.status, reason, ...(work.apiTurn ? { apiTurn: work.apiTurn } : {}) });
    this.tellUndelivered(lost, end.status === 'completed' ? 'ended' : 'stopped');
    this.changed(end.status === 'failed' ? 'error' : 'idle');
  }

  /**
   * An app turn (`app` work) always ends with a `turnEnd` item, also when it never ran (its agent did not
   * start, it was stopped before Codex took it, turn/start failed): the window folds an app turn up to
   * its turn end, and the chat's last line leaves it out until then (transcript.ts).
   */
  private closeAppTurn(work: Extract<Work, { kind: 'message' }>, cur: Current): void {
    if (this.transcript.all().some((i) => i.type === 'turnEnd' && i.apiTurn === work.apiTurn)) return;
    const stopped = cur.era !== this.era;
    this.transcript.push({
      type: 'turnEnd', id: this.transcript.localId('turn'), status: stopped ? 'interrupted' : 'failed',
      reason: stopped ? 'stopped before it began' : 'it did not run', ...(work.apiTurn ? { apiTurn: work.apiTurn } : {}),
    });
  }

  /** Work cancelled before its turn began: a chat left "starting" or "working" is idle again; an error stays. */
  private settleCancelled(): void {
    this.changed(this.state === 'starting' || this.state === 'working' ? 'idle' : undefined);
  }

  /**
   * The running work's turn id arrived: from turn/start's answer (`active` false: the turn is not active
   * yet) or from `turn/started` (`active` true). Taken only while that work waits for it. A cancelled turn
   * is interrupted once active (see the module comment), or after `interruptGraceMs` if `turn/started`
   * never comes.
   */
  private gotTurn(cur: Current, id: string, active: boolean): void {
    if (this.current !== cur || cur.phase === 'starting') return;
    if (this.turnId && this.turnId !== id) return;
    this.turnId = id;
    this.ownTurns.add(id);
    if (active) cur.phase = 'running';
    if (cur.era === this.era || cur.interruptSent) return;
    if (cur.phase === 'running') this.interruptCancelled(cur);
    else cur.waitTimer ??= setTimeout(() => this.interruptCancelled(cur), this.deps.timing.interruptGraceMs);
  }

  /** Sends the one `turn/interrupt` of cancelled work, while it still runs. */
  private interruptCancelled(cur: Current): void {
    if (cur.waitTimer) clearTimeout(cur.waitTimer);
    if (this.current !== cur || cur.interruptSent || !this.turnId) return;
    cur.interruptSent = true;
    void this.interruptTurn();
  }

  /** Why an interrupted turn stopped, naming the request involved rather than a bare "aborted". */
  private interruptedBecause(): string {
    const ask = this.lastAsk;
    // The turn-end line reads "turn stopped: <reason>": the reason does not repeat "stopped".
    if (ask?.outcome === 'cancel') return `"Deny and stop" was chosen for "${ask.title}"`;
    if (ask?.outcome === 'pending') return `${this.stopWhy ?? 'stopped'} while "${ask.title}" waited for an answer`;
    return this.stopWhy ?? 'stopped before it finished';
  }

  /**
   * Clears the turn's state at its end: watchdogs, the turn id, every card still open for it, and the
   * commands it left running (shown interrupted, `Transcript.settleOpen`).
   */
  private finishTurn(): { shown: string }[] {
    this.turnWaiter = null;
    // Steers Codex accepted but never took into the conversation (see `steered`); unanswered ones are
    // told by `steer` itself (accepted late) or queued (refused).
    const left = this.steered.splice(0);
    for (const e of left) e.ended = true;
    this.transcript.settleOpen();
    this.clearStall();
    this.clearGhost();
    this.setActivity(null);
    this.deps.broker.withdraw((v) => v.chatId === this.deps.chatId && v.state === 'pending', 'the turn ended');
    this.turnId = null;
    return left.filter((e) => e.acked);
  }

  /** Names, with their full text, the steered messages the agent never read (field report C1); nothing is re-sent. */
  private tellUndelivered(lost: readonly { shown: string }[], how: 'stopped' | 'ended'): void {
    for (const e of lost) this.notice(`Not delivered: “${e.shown}” — the turn ${how} before the agent read it. Send it again if you still want it.`);
  }

  /**
   * `/compact`: `thread/compact/start` answers `{}` at once; the compaction runs as a turn of its own.
   * "Compacting…" holds until the `contextCompaction` item completes or the turn ends; there is no
   * fixed deadline (a long compaction is not a failure), only the stall watchdog.
   */
  private async runCompact(cur: Current): Promise<void> {
    const row = this.deps.sessions.active(this.deps.chatId);
    if (!row?.started) {
      this.notice('Nothing to compact yet: this session has no turns.');
      return;
    }
    try {
      // Only when one is due: otherwise the start begins in this same tick (the chat shows "starting" at once).
      if (this.restartWhy) await this.restartIfTaken();
      await this.ensureStarted();
    } catch (e) {
      this.failStart(e, this.queue.splice(0).length);
      return;
    }
    if (this.restarted) {
      this.notice(`Codex was restarted before this compaction, resuming the conversation: ${this.restarted}.`);
      this.restarted = null;
    }
    if (cur.era !== this.era) return this.settleCancelled();
    const conn = this.conn;
    if (!conn || !this.threadId) {
      this.notice('The compaction did not run: Codex stopped before it could start. Send /compact again.');
      return this.settleCancelled();
    }
    this.turnId = null;
    this.stopWhy = null;
    this.compaction = { done: false };
    this.changed('working');
    this.setActivity('Compacting…');
    const ended = new Promise<TurnEnd & { exited?: boolean }>((resolve) => (this.turnWaiter = resolve));
    try {
      // The compaction's turn id comes with its `turn/started` (gotTurn).
      cur.phase = 'requested';
      await conn.request('thread/compact/start', { threadId: this.threadId });
    } catch (e) {
      this.turnWaiter = null;
      this.compaction = null;
      this.setActivity(null);
      if (cur.era !== this.era) return this.settleCancelled();
      this.transcript.push({ type: 'error', id: this.transcript.localId('error'), message: `Compaction could not start: ${toAppError(e).message}`, detail: null });
      this.changed('idle');
      return;
    }
    this.armStall();
    const end = await ended;
    const done = this.compaction.done;
    this.compaction = null;
    this.tellUndelivered(this.finishTurn(), end.status === 'completed' ? 'ended' : 'stopped');
    if (end.status === 'completed' && done) this.notice('Compacted: the conversation so far was summarised.');
    else if (end.status === 'failed' && end.errorInfo === 'contextWindowExceeded') {
      this.transcript.push({ type: 'error', id: this.transcript.localId('error'), message: 'Compaction failed: the conversation is too large even to summarise.', detail: 'Start a new session with /new (this one stays reachable with /resume).', kind: 'contextWindow' });
    } else if (end.status === 'failed' && !end.exited) {
      const why = describeTurnError(end);
      this.transcript.push({ type: 'error', id: this.transcript.localId('error'), message: `Compaction failed: ${why.message}`, detail: why.hint, kind: why.kind });
    } else if (end.status === 'interrupted') this.notice('Compaction stopped before it finished.');
    else if (end.status === 'completed') this.notice('Codex ended the compaction turn without compacting anything.');
    this.changed(end.status === 'failed' ? 'error' : 'idle');
  }

  /**
   * Tells the agent something from Angelia (not from the user) in its running turn: one `turn/steer`,
   * not shown as a user message and never queued as a turn of its own; a failure is only noted.
   */
  private async tellAgent(text: string): Promise<void> {
    const conn = this.conn;
    if (!conn || !this.threadId || !this.turnId) return;
    try {
      await conn.request('turn/steer', { threadId: this.threadId, expectedTurnId: this.turnId, input: [{ type: 'text', text: `[Angelia] ${text}`, text_elements: [] }] });
    } catch (e) {
      this.notice(`The agent could not be told why (${toAppError(e).message}).`);
    }
  }

  /** Sends text into the running turn (`turn/steer` with `expectedTurnId`); when that fails, queues it as the next turn. */
  private async steer(text: string, via: 'steer' | 'denyReason'): Promise<void> {
    const conn = this.conn;
    const turnId = this.turnId;
    const shown = via === 'denyReason' ? text : text;
    this.transcript.push({ type: 'user', id: this.transcript.localId('user'), text: shown, via });
    const input = via === 'denyReason' ? `I denied that request. ${text}` : text;
    if (conn && this.threadId && turnId) {
      const entry = { shown, input, acked: false, ended: false };
      this.steered.push(entry);
      try {
        await conn.request('turn/steer', { threadId: this.threadId, expectedTurnId: turnId, input: [{ type: 'text', text: input, text_elements: [] }] });
        entry.acked = true;
        // Its turn ended while the steer was on its way, and Codex never took it: say so now.
        if (entry.ended) this.tellUndelivered([entry], 'ended');
        return;
      } catch (e) {
        this.steered = this.steered.filter((x) => x !== entry);
        this.notice(`It could not go into the running turn (${toAppError(e).message}); it is queued as the next message.`);
      }
    }
    try {
      this.queue.push({ kind: 'message', text: input, retried: true });
      this.changed();
      void this.pump();
    } catch (e) {
      this.notice(toAppError(e).message);
    }
  }

  // ---- commands ----------------------------------------------------------------------------------

  private async command(cmd: ParsedCommand): Promise<void> {
    switch (cmd.name) {
      case 'help':
        return this.notice(helpText());
      case 'status':
        return this.notice(this.statusLine());
      case 'stop':
        await this.stopAll('/stop');
        return;
      case 'new':
        return this.newCommand();
      case 'resume':
        return this.resumeCommand(cmd.arg);
      case 'model':
        return this.modelCommand(cmd.arg);
      case 'effort':
        return this.effortCommand(cmd.arg);
      case 'compact':
        this.enqueue({ kind: 'compact' });
        return;
      case 'export':
        return this.exportCommand();
    }
  }

  private statusLine(): string {
    const row = this.deps.sessions.active(this.deps.chatId);
    const kept = this.enforcement === 'managed' ? 'managed by Codex under this profile' : this.enforcement === 'disabled' ? 'OFF (the table says sandbox = false)' : this.enforcement === 'external' ? 'external' : null;
    // Only a running process has a sandbox in force; a stopped one is described as it was when it last ran.
    const sandbox = !kept ? 'not started yet' : this.conn ? kept : `none in force now (Codex is not running); it was ${kept} when it last ran`;
    const down = this.down === 'idle-exit' ? 'Codex exited after idle_exit_minutes; the next message starts it again'
      : this.down === 'crashed' ? 'Codex crashed; Restart or the next message starts it again' : null;
    const force = this.inForce(row);
    const mode = this.currentMode();
    return statusText({
      profile: this.deps.profile, session: row, codexVersion: this.codexVersion,
      model: force.model, modelSource: force.modelSource, effort: force.effort, effortSource: force.effortSource,
      sandbox: mode.source === 'attested' || mode.permissionMode !== null ? `${sandbox}; ${modePhrase(mode)}` : sandbox, warm: this.conn !== null, down,
      queued: this.queue.length, running: this.running, sessions: this.deps.sessions.count(this.deps.chatId),
    });
  }

  /**
   * `/stop` and Stop: drops the queue, and stops the work that runs (see the module comment: a turn still
   * starting is cancelled, a running one interrupted). Says in the chat what it did. True when something
   * was stopped, cancelled or dropped.
   */
  private async stopAll(via: '/stop' | 'Stop'): Promise<boolean> {
    const droppedText = this.dropQueue();
    const cur = this.current;
    if (!cur) {
      this.notice(droppedText ? `Nothing was running.${droppedText}` : 'Nothing running.');
      return droppedText !== '';
    }
    if (cur.era !== this.era) {
      this.notice(`Already stopping the current ${cur.work.kind === 'compact' ? 'compaction' : 'turn'}.${droppedText}`);
      return droppedText !== '';
    }
    this.era++;
    this.stopWhy = `stopped with ${via}`;
    const what = cur.work.kind === 'compact' ? 'the compaction' : `the message ${quote(cur.work.text)}`;
    if (cur.phase === 'starting') {
      this.notice(`Stopped: ${what} was not sent to the agent${this.starting ? ' (Codex goes on starting, for the next message)' : ''}.${droppedText}`);
      return true;
    }
    if (cur.phase === 'requested') {
      this.notice(`Stopping: ${what} had just been handed to Codex; its turn is interrupted as soon as Codex confirms it started.${droppedText}`);
      // The id may be known already (turn/start answered, turn/started not yet): arm the fallback.
      if (this.turnId) this.gotTurn(cur, this.turnId, false);
      return true;
    }
    cur.interruptSent = true;
    const stopped = await this.interruptTurn();
    this.notice(stopped ? `Stopped.${droppedText}` : `Nothing was running any more.${droppedText}`);
    return true;
  }

  /**
   * Empties the queue (as `/stop`, Stop and "Deny and stop" do) and returns what to add to the notice
   * that says so: ` Dropped 2 queued: "two", "three".`, or "" when nothing waited.
   */
  private dropQueue(): string {
    const dropped = this.queue.splice(0);
    if (!dropped.length) return '';
    this.changed();
    return ` Dropped ${dropped.length} queued: ${dropped.map((w) => (w.kind === 'message' ? quote(w.text) : '/compact')).join(', ')}.`;
  }

  /**
   * Why `/new` or `/resume` cannot run now (a turn starting, running or queued), or null when they can.
   * Work already stopped (cancelled by /stop or Stop) does not count: `settleForSwitch` waits for its end.
   */
  private busyFor(cmd: string): string | null {
    const cur = this.current;
    const live = cur !== null && cur.era === this.era;
    if (!live && !this.queue.length) return null;
    const what = !live ? `${this.queue.length} queued message${this.queue.length === 1 ? ' waits' : 's wait'}` : cur.work.kind === 'compact' ? 'A compaction is running' : cur.phase === 'starting' ? 'A message is still starting' : 'A turn is running';
    const queued = live && this.queue.length ? ` (and ${this.queue.length} queued)` : '';
    return `${what}${queued} in this chat, so ${cmd} did not run and nothing was dropped. Send /stop first (it stops the turn and drops the queue), or wait until it ends; then ${cmd} again.`;
  }

  /**
   * Before `/new` or `/resume` switch: waits for a Codex start in progress (its outcome does not matter:
   * the process is replaced) and for stopped work to end (bounded: a cancelled turn is interrupted, and a
   * turn that ignores the interrupt loses its process after `interruptGraceMs`).
   */
  private async settleForSwitch(): Promise<void> {
    await this.starting?.catch(() => undefined);
    const cur = this.current;
    while (cur && this.current === cur) await new Promise((r) => setTimeout(r, 20));
  }

  private async newCommand(): Promise<void> {
    let busy = this.busyFor('/new');
    if (busy) return this.notice(busy);
    await this.settleForSwitch();
    busy = this.busyFor('/new');
    if (busy) return this.notice(busy);
    // Switched at once (no await before the notice), so a message sent right after goes to the new session.
    this.era++;
    const old = this.detach();
    this.deps.sessions.startNew(this.deps.chatId, this.deps.profile);
    this.threadId = null;
    this.rowId = null;
    this.enforcement = null;
    this.down = null;
    this.killedTurn = null;
    // No id here: the row's id is provisional until Codex mints the thread with the first message.
    this.notice('New session started: it gets its id from Codex with your first message (then shown by /resume and /status). The previous one stays reachable with /resume.');
    await old?.stop();
  }

  /** Detaches the process (not a crash): it is no longer the chat's, its approvals are withdrawn. Returns it. */
  private detach(): CodexConnection | null {
    this.clearIdle();
    const conn = this.conn;
    this.conn = null;
    if (conn) this.deps.broker.withdraw((v) => v.chatId === this.deps.chatId && v.state === 'pending', "the chat's Codex process was stopped");
    return conn;
  }

  private async resumeCommand(arg: string): Promise<void> {
    const active = this.deps.sessions.active(this.deps.chatId);
    // Short ids are unique among every session of the chat, so what the list shows resolves (sessions.ts findSession).
    const ids = this.deps.sessions.list(this.deps.chatId, Number.MAX_SAFE_INTEGER).map((r) => r.id);
    if (!arg) return this.notice(sessionsText(this.deps.sessions.list(this.deps.chatId), active?.id ?? null, ids));
    const before = active?.id ?? null;
    const found = this.deps.sessions.find(this.deps.chatId, arg);
    if ('error' in found) return this.notice(found.error);
    const row = found.row;
    if (row.threadId) {
      const holder = this.deps.threadHeldElsewhere(row.threadId);
      if (holder) return this.notice(`That session is open in the chat "${holder}"; one conversation runs in one chat at a time.`);
    }
    if (row.id === before) return this.notice(`Already on ${sessionRef(row, ids)} · ${row.label || '(no message yet)'}.`);
    let busy = this.busyFor('/resume');
    if (busy) return this.notice(busy);
    await this.settleForSwitch();
    busy = this.busyFor('/resume');
    if (busy) return this.notice(busy);
    this.era++;
    const old = this.detach();
    const switched = this.deps.sessions.setActive(this.deps.chatId, row.id);
    if (!switched) {
      await old?.stop();
      return this.notice('No such session. /resume lists them.');
    }
    this.threadId = switched.threadId;
    this.rowId = null;
    this.enforcement = null;
    this.down = null;
    this.killedTurn = null;
    this.notice(`Resumed ${sessionRef(switched, ids)} · ${switched.label || '(no message yet)'}. The next message continues it.`);
    await old?.stop();
    if (!switched.threadId || !switched.started) return;
    // Its past turns follow the notice; a message sent meanwhile waits for them (pump), and the first
    // view does not read the session's turns again (`history`).
    const threadId = switched.threadId;
    const load = this.showResumed(threadId).catch((e: unknown) => this.notice(`The earlier turns of this session could not be read from Codex: ${toAppError(e).message}`));
    this.history = load;
    this.historyGate = load;
    try {
      await load;
    } finally {
      if (this.historyGate === load) this.historyGate = null;
    }
  }

  private async liveModels(): Promise<ModelInfo[]> {
    await this.ensureStarted();
    const conn = this.conn;
    if (!conn) return [];
    return this.readCatalog(conn);
  }

  /** The `model/list` catalog on `conn` (cached by ModelCatalog), kept for `inForce`; [] when Codex listed nothing. */
  private async readCatalog(conn: CodexConnection): Promise<ModelInfo[]> {
    const models = await this.deps.models.list((await this.planOnce()).spawn.bin, conn);
    if (models.length) this.catalog = models;
    return models;
  }

  private lastPlan: LaunchPlan | null = null;
  /** Why the running Codex must restart before the next turn (`restartBeforeNextTurn`), else null. */
  private restartWhy: string | null = null;
  /** Set by a restart `restartIfTaken` made, until the turn says so. */
  private restarted: string | null = null;
  private async planOnce(): Promise<LaunchPlan> {
    return (this.lastPlan ??= await this.deps.plan());
  }

  private ensureRow(): SessionRow {
    return this.deps.sessions.active(this.deps.chatId) ?? this.deps.sessions.ensureActive(this.deps.chatId, this.deps.profile);
  }

  /**
   * The model and effort the next turn/start sends, and where each comes from. Model: the session's
   * override, else the profile's or Codex's. Effort, the first the model offers (per the last `model/list`;
   * anything goes without one): the session's override, the profile's (or Codex config's), the model's
   * default from the catalog, else what Codex reported at the thread start.
   */
  private inForce(row: SessionRow | null): { model: string | null; modelSource: string; effort: string | null; effortSource: string | null } {
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

  private async modelCommand(arg: string): Promise<void> {
    const models = await this.liveModels();
    const row = this.ensureRow();
    if (!arg) {
      return this.notice(describeModels(models, { model: row.model ?? this.baseModel, source: row.model ? 'session' : this.baseSource }));
    }
    const choice = chooseModel(models, arg);
    const text = 'clear' in choice
      ? `Model back to ${this.baseModel ?? 'Codex\u2019s default'} (${this.baseSource}) from the next turn.`
      : `Model ${choice.model} for this session, from the next turn (Codex first summarises the conversation for the new model).${choice.note ? ` ${choice.note}` : ''} /model default goes back.`;
    const next = this.deps.sessions.setOverride(this.deps.chatId, { model: 'clear' in choice ? null : choice.model });
    this.notice(`${text}${this.recheckEffort(models, next)}`);
  }

  /**
   * After a model change: a session effort the new model does not offer is cleared (the model list says
   * which it offers; with no list nothing is checked). Returns what to add to the reply: the sentence that
   * says it was cleared (when it was) and the effort in force from the next turn, with where it comes from.
   */
  private recheckEffort(models: ModelInfo[], row: SessionRow): string {
    const model = row.model ?? this.baseModel;
    let said = '';
    if (row.effort && models.length && !effortsFor(models, model).includes(row.effort)) {
      said = ` Effort ${row.effort} (set for this session) is not offered by ${model ?? 'Codex\u2019s default model'} (it offers ${effortsFor(models, model).join(', ')}), so it was cleared.`;
      row = this.deps.sessions.setOverride(this.deps.chatId, { effort: null });
    }
    const force = this.inForce(row);
    return `${said} Effort from the next turn: ${force.effort ?? 'the model\u2019s default'}${force.effortSource ? ` (${force.effortSource})` : ''}.`;
  }

  private async effortCommand(arg: string): Promise<void> {
    const models = await this.liveModels();
    const row = this.ensureRow();
    const model = row.model ?? this.baseModel;
    const force = this.inForce(row);
    const source = force.effortSource === 'this session' ? 'session' : force.effortSource === 'profile' ? 'profile' : undefined;
    // A set effort is named as such; a model's default is shown by describeEfforts itself.
    const shown = source || force.effortSource === 'codex config' ? force.effort : null;
    if (!arg) return this.notice(describeEfforts(models, model, shown, source));
    const choice = chooseEffort(models, model, arg);
    if ('clear' in choice) {
      const next = this.deps.sessions.setOverride(this.deps.chatId, { effort: null });
      return this.notice(`Effort back to ${this.inForce(next).effort ?? 'the model\u2019s default'} from the next turn.`);
    }
    this.deps.sessions.setOverride(this.deps.chatId, { effort: choice.effort });
    this.notice(`Effort ${choice.effort} for this session, from the next turn. /effort default goes back.`);
  }

  private async exportCommand(): Promise<void> {
    const row = this.deps.sessions.active(this.deps.chatId);
    if (!row?.threadId || !row.started) return this.notice('Nothing to export yet: this session has no turns.');
    await this.ensureStarted();
    const conn = this.conn;
    if (!conn) return;
    const sessions = [{ id: row.id, threadId: row.threadId, label: row.label }];
    const meta = { chat: this.deps.chatId, profile: this.deps.profile };
    const { rows, warnings } = await readSessionRows(conn, sessions, meta, { tools: true });
    await mkdir(this.deps.exportDir, { recursive: true, mode: 0o700 });
    const file = join(this.deps.exportDir, exportFileName(this.deps.chatId, row.id));
    await writeFileAtomic(file, toMarkdown(rows, { ...meta, sessions }), { mode: 0o600 });
    this.notice(`Exported ${rows.length} rows to ${file}${warnings.length ? `\n${warnings.join('\n')}` : ''}`);
  }

  // ---- process -----------------------------------------------------------------------------------

  /**
   * Sends `turn/interrupt` for the running turn (not `$/cancelRequest`); a turn that does not end within
   * `interruptGraceMs` after it, or an interrupt Codex refuses, is ended by stopping the process. False
   * when no turn with a known id runs. The queue is not touched (the stall watchdog uses this alone).
   */
  private async interruptTurn(): Promise<boolean> {
    const conn = this.conn;
    if (!conn || !this.threadId || !this.turnId) return false;
    const turnId = this.turnId;
    try {
      await conn.request('turn/interrupt', { threadId: this.threadId, turnId }, { timeoutMs: this.deps.timing.interruptGraceMs });
    } catch (e) {
      // The turn ended on its own while the interrupt was on its way: nothing left to stop.
      if (this.turnId !== turnId || this.conn !== conn) return false;
      this.notice(`Codex did not stop the turn (${toAppError(e).message}); its process is stopped instead.`);
      await this.stopProcess();
      return true;
    }
    setTimeout(() => {
      if (this.turnId === turnId && this.conn === conn) void this.stopProcess();
    }, this.deps.timing.interruptGraceMs).unref?.();
    return true;
  }

  private async ensureStarted(): Promise<void> {
    if (this.conn) return;
    const verdict = this.crashes.verdict(Date.now());
    if (!verdict.allowed) throw new AppFailure({ code: 'crash-loop', message: this.crashes.message(verdict) });
    this.starting ??= this.start().finally(() => (this.starting = null));
    return this.starting;
  }

  /** Detaches and stops the process (not a crash), withdrawing its approvals. */
  private async stopProcess(): Promise<void> {
    const conn = this.detach();
    if (conn) {
      // A turn still waiting ends as interrupted: the process that ran it is gone.
      this.turnWaiter?.({ turnId: this.turnId, status: 'interrupted', message: null, errorInfo: null });
      await conn.stop();
    }
  }

  private refuse(conn: CodexConnection | null, reasons: string[], code = 'refused'): never {
    conn?.kill();
    this.conn = null;
    throw new AppFailure({ code, message: reasons.join(' ') });
  }

  private async start(): Promise<void> {
    this.changed('starting');
    this.refusal = null;
    // Taken in the same tick as the plan (which reads the table in force when called): the mode it compiles.
    this.planProfile = this.deps.profileNow?.() ?? null;
    const plan = await this.deps.plan();
    this.lastPlan = plan;
    if (!plan.sandboxed) {
      this.transcript.push({ type: 'warning', id: this.transcript.localId('full-access'), text: `⚠ FULL ACCESS: the profile ${this.deps.profile} has sandbox = false, so this agent starts with no sandbox: it can read, change and delete anything you can, and run any command${plan.onRequest ? '' : ' without asking'}.` });
    }
    this.onRequest = plan.onRequest;
    this.grantFloor = plan.grantFloor;
    this.grants = [];
    this.sandboxCtx = plan.sandboxed ? { denied: plan.sandboxDeny ? plan.sandboxDeny.length : null } : undefined;
    let conn: CodexConnection;
    try {
      conn = await this.deps.startCodex(plan.spawn);
    } catch (e) {
      if (this.state === 'starting') this.changed('error');
      throw new AppFailure({ code: 'start-failed', message: `Codex did not start: ${toAppError(e).message}` });
    }
    this.opening = conn;
    try {
      await this.attestAndOpen(conn, plan);
    } catch (e) {
      // Nothing may outlive a failed start: a refusal already killed it; any other failure does now.
      if (this.conn !== conn) conn.kill();
      if (this.state === 'starting') this.changed('error');
      throw e;
    } finally {
      if (this.opening === conn) this.opening = null;
    }
    this.down = null;
    // Started for a command (/model, /export…) or a restart: nothing runs, so the chat is idle, not "starting".
    if (!this.running) this.changed('idle');
    if (this.killedTurn) {
      this.notice(`Codex runs again. ${this.killedTurn} was cut off when Codex exited and did not finish; send it again if you still want it.`);
      this.killedTurn = null;
    }
  }

  /** The checks and the thread start of `start()`, on a running connection. Throws to refuse. */
  private async attestAndOpen(conn: CodexConnection, plan: LaunchPlan): Promise<void> {
    conn.onNotification((m, p) => this.onNotification(conn, m, p));
    conn.onServerRequest((m, p, id) => this.onServerRequest(conn, m, p, id));
    conn.onUnknownServerRequest?.((method) => {
      if (this.isCurrent(conn)) this.noteUnknown(method);
    });
    const version = checkVersion(conn.version);
    if (version.length) this.refuse(conn, version);
    this.codexVersion = conn.version;
    // Both reads are independent: asked together, they cost one round trip (docs/benchmarks.md, agent start).
    const [configRead, requirements] = await Promise.all([
      conn.request('config/read', { includeLayers: true, cwd: plan.spawn.cwd }),
      conn.request('configRequirements/read', {}),
    ]);
    const refusals = [
      ...(plan.sandboxed ? checkConfigLayers(configRead) : []),
      ...checkMcpServers(configRead, plan.allowedMcpServers),
      ...checkRequirements(requirements, plan.expect),
    ];
    if (refusals.length) this.refuse(conn, refusals);
    const config = isObj(configRead) && isObj(configRead.config) ? configRead.config : {};
    const planModel = str(plan.threadParams.model);
    this.baseSource = planModel ? 'profile' : 'codex default';
    this.baseModel = planModel ?? str(config.model);
    const configEffort = str(config.model_reasoning_effort);
    this.configuredEffort = plan.effort ? { effort: plan.effort, source: 'profile' } : configEffort ? { effort: configEffort, source: 'codex config' } : null;
    const row = this.deps.sessions.ensureActive(this.deps.chatId, this.deps.profile);
    const params = { ...plan.threadParams, ...(row.model ? { model: row.model } : {}) };
    let answer: unknown;
    if (row.started && row.threadId) {
      const holder = this.deps.threadHeldElsewhere(row.threadId);
      if (holder) this.refuse(conn, [`This conversation is open in the chat "${holder}" of this Angelia; one conversation runs in one chat at a time. Start a new session here with /new.`], 'thread-busy');
      try {
        answer = await conn.request('thread/resume', { threadId: row.threadId, ...params }, { timeoutMs: 120_000 });
      } catch (e) {
        const msg = toAppError(e).message;
        if (/active writer|already (?:has|in use|loaded|running)|locked|in use/i.test(msg)) {
          this.refuse(conn, [`This conversation (${id8(row.threadId)}) is open in another Codex client: close it there, or start a new session with /new; it stays reachable with /resume. (Codex said: ${msg})`], 'thread-busy');
        }
        if (/^refused:/i.test(msg) || !/no rollout|not found|unknown thread|does not exist/i.test(msg)) this.refuse(conn, [`the session ${row.threadId} could not be resumed: ${msg}`], 'resume-failed');
        this.transcript.push({ type: 'notice', id: this.transcript.localId('notice'), text: 'The previous conversation of this session was not found on disk, so this is a fresh start. /resume lists older sessions.' });
        answer = undefined;
      }
    }
    let rowId = row.id;
    if (answer === undefined) {
      if (row.started) rowId = this.deps.sessions.startNew(this.deps.chatId, this.deps.profile).id;
      answer = await conn.request('thread/start', params, { timeoutMs: 120_000 });
    }
    const writable = plan.filesystem ? Object.keys(plan.filesystem).filter((p) => plan.filesystem![p] === 'write') : undefined;
    const verdict = attestThread(answer, { sandboxed: plan.sandboxed, permissionsExtends: plan.permissionsExtends, ...(writable ? { writable } : {}) });
    this.enforcement = verdict.enforcement;
    if (verdict.refusals.length) this.refuse(conn, verdict.refusals);
    const thread = isObj(answer) && isObj(answer.thread) ? answer.thread : {};
    const tid = typeof thread.id === 'string' ? thread.id : row.threadId;
    if (!tid) this.refuse(conn, ['refused: Codex did not return a thread id.']);
    // What Codex reports in force wins over what was asked (a mode shown must be the mode in force).
    if (isObj(answer) && !row.model) this.baseModel = str(answer.model) ?? this.baseModel;
    this.reportedEffort = isObj(answer) ? str(answer.reasoningEffort) : null;
    this.threadId = tid;
    this.attestedAt = new Date().toISOString();
    this.attestedMode = {
      permissionMode: this.planProfile?.permissionMode ?? null,
      approvalPolicy: (isObj(answer) ? approvalWord(answer.approvalPolicy) : null) ?? plan.expect.approvalPolicy,
      sandbox: verdict.enforcement, at: this.attestedAt, fingerprint: this.planProfile?.fingerprint ?? null,
    };
    this.rowId = this.deps.sessions.bindThread(this.deps.chatId, rowId, tid, verdict.enforcement).id;
    this.conn = conn;
    void conn.exited.then((exit) => this.onExit(conn, exit));
  }

  /** An exit Angelia did not ask for (dispose, stop and refusals detach `conn` first): fail the turn, count the crash. */
  private onExit(conn: CodexConnection, exit: CodexExit): void {
    if (this.conn !== conn) return;
    this.conn = null;
    this.clearIdle();
    const how = exit.signal ? `signal ${exit.signal}` : `exit code ${exit.code}`;
    this.deps.broker.withdraw((v) => v.chatId === this.deps.chatId && v.state === 'pending', `Codex exited (${how})`);
    const cause = crashDetail(exit);
    const verdict = this.crashes.note({ at: Date.now(), how, cause });
    this.down = 'crashed';
    const cur = this.current;
    // What the crash cut off is told again when Codex runs next (a first turn's retry clears it).
    if (cur && cur.phase !== 'starting' && cur.era === this.era) this.killedTurn = cur.work.kind === 'compact' ? 'The compaction' : `The turn of ${quote(cur.work.text)}`;
    this.refusal = verdict.allowed ? null : this.crashes.message(verdict);
    const next = this.refusal ?? 'Restart it, or send a message: either starts it again and resumes this conversation.';
    this.transcript.push({
      type: 'error', id: this.transcript.localId('exit'), message: `Codex exited (${how}). ${next}`,
      // The lines of this process's recent stderr that say why (crashDetail), never its routine log lines.
      detail: cause, kind: 'crashed',
      ...(verdict.allowed ? { action: 'restart' as const } : {}),
    });
    this.turnWaiter?.({ turnId: this.turnId, status: 'failed', message: `Codex exited (${how})`, errorInfo: null, exited: true });
    this.changed('error');
  }

  // ---- watchdogs ---------------------------------------------------------------------------------

  /** (Re)arms the stall watchdog: told at half of `turn_stall_minutes`, stopped at full. Paused while an approval waits. */
  private armStall(): void {
    this.clearStall();
    const ms = this.deps.timing.stallMs;
    if (!ms || (!this.turnId && !this.compaction) || this.state === 'needs-you') return;
    if (this.stallHalfTold) {
      this.stallHalfTold = false;
      this.setActivity(this.compaction ? 'Compacting…' : null);
    }
    this.stallTimer = setTimeout(() => {
      this.stallHalfTold = true;
      const mins = (x: number) => (x < 60_000 ? `${Math.round(x / 1000)} s` : `${Math.round((x / 60_000) * 10) / 10} min`);
      this.notice(`No output from the agent for ${mins(ms / 2)}; the turn is stopped at ${mins(ms)} (turn_stall_minutes) unless something arrives.`);
      this.setActivity(`No output for ${mins(ms / 2)}`);
      this.stallTimer = setTimeout(() => {
        this.stallTimer = null;
        this.notice(`Stopped: no output from the agent for ${mins(ms)} (turn_stall_minutes).`);
        this.stopWhy = 'stopped by the stall watchdog (turn_stall_minutes)';
        void this.interruptTurn();
      }, ms / 2);
      this.stallTimer.unref?.();
    }, ms / 2);
    this.stallTimer.unref?.();
  }

  private clearStall(): void {
    if (this.stallTimer) clearTimeout(this.stallTimer);
    this.stallTimer = null;
  }

  /** After the queue drains: an idle process exits after `idle_exit_minutes`; the row stays and is resumed later. */
  private armIdle(): void {
    this.clearIdle();
    if (!this.conn || !this.deps.timing.idleMs) return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.running || this.queue.length || this.commands || this.deps.broker.pending().some((v) => v.chatId === this.deps.chatId)) return;
      // Shown as it is: stopped (the next message starts Codex again and resumes the thread).
      this.down = 'idle-exit';
      const stopping = this.stopProcess();
      this.changed('stopped');
      void stopping;
    }, this.deps.timing.idleMs);
    this.idleTimer.unref?.();
  }

  private clearIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  /** Codex says the thread waits on an approval; tell the user when Angelia holds none for this chat. */
  private watchGhost(flags: string[]): void {
    const waiting = flags.includes('waitingOnApproval');
    if (!waiting) return this.clearGhost();
    if (this.ghostTimer) return;
    this.ghostTimer = setTimeout(() => {
      this.ghostTimer = null;
      if (this.deps.broker.pending().some((v) => v.chatId === this.deps.chatId)) return;
      this.notice('Codex says this turn waits for an approval, but Angelia never received that request, so there is nothing to answer. /stop ends the turn.');
      this.setActivity('Waiting on an approval Codex never sent');
    }, this.deps.timing.ghostApprovalMs);
    this.ghostTimer.unref?.();
  }

  private clearGhost(): void {
    if (this.ghostTimer) clearTimeout(this.ghostTimer);
    this.ghostTimer = null;
  }

  private clearTimers(): void {
    this.clearStall();
    this.clearIdle();
    this.clearGhost();
  }

  // ---- Codex → chat ------------------------------------------------------------------------------

  /** True for the chat's connection, or the one it is opening; any other (detached, stopped, replaced) is stale. */
  private isCurrent(conn: CodexConnection): boolean {
    return conn === this.conn || conn === this.opening;
  }

  private onNotification(conn: CodexConnection, method: string, params: unknown): void {
    // A detached process (after /new, /resume, a stop or a restart) may still speak: it is not this chat's any more.
    if (!this.isCurrent(conn)) return;
    const ids = idsOf(params);
    if (ids.threadId && this.threadId && ids.threadId !== this.threadId) return;
    const p = isObj(params) ? params : {};
    if (this.turnWaiter && method !== 'thread/status/changed') this.armStall();
    switch (method) {
      case 'turn/started': {
        // Only the work waiting for its turn id takes it (a compaction learns its id only here).
        const id = isObj(p.turn) ? str(p.turn.id) : null;
        if (id && this.current && this.turnWaiter) this.gotTurn(this.current, id, true);
        return;
      }
      case 'item/started':
      case 'item/completed': {
        if (isObj(p.item) && p.item.type === 'fileChange' && typeof p.item.id === 'string') this.fileChanges.set(p.item.id, readChanges(p.item));
        if (isObj(p.item) && p.item.type === 'userMessage' && this.steered.length) this.tookSteer(p.item);
        if (isObj(p.item) && p.item.type === 'contextCompaction' && method === 'item/completed' && this.compaction) this.compaction.done = true;
        const item = toChatItem(p.item, method === 'item/completed');
        if (item && item.type !== 'user') this.transcript.upsert(item);
        return;
      }
      case 'item/agentMessage/delta':
      case 'item/reasoning/summaryTextDelta':
        if (typeof p.itemId === 'string' && typeof p.delta === 'string') this.transcript.delta(p.itemId, 'text', p.delta);
        return;
      case 'item/commandExecution/outputDelta':
        if (typeof p.itemId === 'string' && typeof p.delta === 'string') this.transcript.delta(p.itemId, 'output', p.delta);
        return;
      case 'thread/status/changed':
        if (isObj(p.status)) this.watchGhost(p.status.type === 'active' && Array.isArray(p.status.activeFlags) ? p.status.activeFlags.filter((f): f is string => typeof f === 'string') : []);
        return;
      case 'error':
        // Codex retries model requests on its own; say so instead of staying silent (a final error ends the turn).
        if (p.willRetry === true && isObj(p.error) && typeof p.error.message === 'string') {
          this.transcript.push({ type: 'notice', id: this.transcript.localId('retry'), text: `Codex is retrying: ${p.error.message}` });
        }
        return;
      case 'mcpServer/startupStatus/updated':
        if (p.status === 'failed' || p.status === 'starting') {
          const name = typeof p.name === 'string' ? p.name : 'an MCP server';
          this.transcript.push({ type: 'notice', id: this.transcript.localId('mcp'), text: p.status === 'starting' ? `Starting tools: ${name}…` : `The MCP server ${name} failed to start${typeof p.error === 'string' ? `: ${p.error}` : ''}; the agent goes on without it.` });
        }
        return;
      case 'serverRequest/resolved':
        this.deps.broker.withdraw((v, rpcId) => v.chatId === this.deps.chatId && String(rpcId) === String(p.requestId), 'the turn was stopped or ended (Codex closed the request)');
        if (this.state === 'needs-you' && !this.deps.broker.pending().some((v) => v.chatId === this.deps.chatId)) {
          this.changed('working');
          this.armStall();
        }
        return;
      case 'turn/completed': {
        const end = readTurnEnd(params);
        this.grants = this.grants.filter((g) => g.scope === 'session' || (g.turnId !== null && end.turnId !== null && g.turnId !== end.turnId));
        if (this.turnWaiter && (!this.turnId || !end.turnId || end.turnId === this.turnId)) this.turnWaiter(end);
        return;
      }
      default:
        return;
    }
  }

  /**
   * Remembers what an Allow made writable (a permissions grant, or a command's additional permissions):
   * `allow` for its turn, `allowForSession` until the process ends. Relative paths against the request's
   * folder, as they were checked.
   */
  private keepGrant(c: { kind: string; requested: Settlement['granted']; turnId: string | null; cwd: string | null }, settled: Settlement): void {
    if (!this.grantFloor || (settled.answer !== 'allow' && settled.answer !== 'allowForSession')) return;
    const granted = c.kind === 'permissions' ? settled.granted : c.kind === 'command' ? c.requested : null;
    if (!granted?.write.length) return;
    const base = c.cwd && c.cwd.startsWith('/') ? c.cwd : this.grantFloor.cwd;
    const scope = settled.answer === 'allow' ? 'turn' : 'session';
    for (const place of grantedPlaces(granted, this.grantFloor, base)) this.grants.push({ place, scope, turnId: c.turnId ?? this.turnId });
  }

  /** Codex took a steered text into the conversation (a `userMessage` item with exactly its text): it is delivered. */
  private tookSteer(item: Obj): void {
    const took = toChatItem(item, true);
    if (took?.type !== 'user') return;
    const at = this.steered.findIndex((e) => e.input === took.text);
    if (at >= 0) this.steered.splice(at, 1);
  }

  /** Records and shows a server request answered -32601 (never dropped silently). */
  private noteUnknown(method: string): void {
    this.deps.audit.append({ at: new Date().toISOString(), chatId: this.deps.chatId, profile: this.deps.profile, event: 'refused-unknown', kind: 'unknown', method });
    this.transcript.push({ type: 'notice', id: this.transcript.localId('notice'), text: `Codex sent a request Angelia does not know (${method}); it was answered "unsupported".` });
  }

  private async onServerRequest(conn: CodexConnection, method: string, params: unknown, rpcId: string | number): Promise<unknown> {
    // A detached process is being stopped: nothing it asks is shown or run.
    if (!this.isCurrent(conn)) throw new ResponseError(-32603, `this Codex process is no longer attached to Angelia's chat ${this.deps.chatId}`);
    const c = classifyServerRequest(method, params, {
      fileChanges: this.fileChanges, onRequest: this.onRequest, ...(this.grantFloor ? { floor: this.grantFloor } : {}), ...(this.sandboxCtx ? { sandbox: this.sandboxCtx } : {}),
      granted: () => this.grants.map((g) => g.place),
    });
    const base = { chatId: this.deps.chatId, profile: this.deps.profile, at: new Date().toISOString() };
    if (c.type === 'unknown') {
      this.noteUnknown(method);
      throw new ResponseError(-32601, `unsupported: ${method}`);
    }
    if (c.type === 'immediate') {
      this.deps.audit.append({ ...base, event: 'answered-immediately', kind: c.kind, method, ...(c.refused ? { refused: c.refused } : {}) });
      this.transcript.push({ type: 'notice', id: this.transcript.localId('notice'), text: c.notice });
      // Written after the reply (this handler's result), as a Deny's reason is.
      const note = c.agentNote;
      if (note) setTimeout(() => void this.tellAgent(note), 0);
      return c.result;
    }
    const { id, response } = this.deps.broker.open({ chatId: this.deps.chatId, profile: this.deps.profile, ask: c, rpcId });
    const ask = { title: c.title, outcome: 'pending' as 'pending' | 'cancel' | 'deny' | 'allow' };
    this.lastAsk = ask;
    this.transcript.push({ type: 'approval', id: `approval-${id}`, approvalId: id });
    this.clearStall();
    this.changed('needs-you');
    const settled: Settlement = await response;
    this.keepGrant(c, settled);
    ask.outcome = settled.answer === 'cancel' ? 'cancel' : settled.answer === 'deny' ? 'deny' : 'allow';
    // "Deny and stop" ends the turn (Codex interrupts it): like /stop, what waited after it is dropped, and named.
    if (settled.answer === 'cancel') {
      const dropped = this.dropQueue();
      if (dropped) this.notice(`"Deny and stop" ends the turn; like /stop, it drops the queue.${dropped}`);
    }
    if (this.state === 'needs-you' && !this.deps.broker.pending().some((v) => v.chatId === this.deps.chatId)) {
      this.changed('working');
      this.armStall();
    }
    if (settled.by === 'timeout') this.notice(`No answer to the permission request in time, so it was denied. (${id8(id)})`);
    if (settled.reason && settled.answer === 'deny') {
      // The decline is written first (this handler's result); the typed reason follows as a steer.
      const reason = settled.reason;
      setTimeout(() => void this.steer(reason, 'denyReason'), 0);
    } else if (settled.reason) {
      // "Deny and stop" ends the turn: its reason is kept with the request (audit, record), and nothing is queued.
      this.notice(`Your reason was recorded with the request, not sent to the agent: "Deny and stop" ended the turn. (${id8(id)})`);
    }
    return settled.wire;
  }
}

export type { ChatItem };
