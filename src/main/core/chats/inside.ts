/**
 * A chat as its own parts see it: what the chat is built with (`ChatDeps`) and the state and actions its
 * parts share (`ChatInside`), so the turn runner (turn/run.ts), the process start (process.ts), Codex's
 * notifications and requests (chatEvents.ts) and the past turns (history.ts) are modules of their own
 * without importing the Chat class (chat.ts implements this). Nothing outside core/chats uses it; the
 * commands see a narrower view (commands/context.ts).
 */
import type { AgentState, AppEvent, ChatView, Enforcement } from '../../../shared/contract';
import type { ApprovalBroker } from '../approvals/broker';
import type { AuditSink } from '../approvals/audit';
import type { GrantFloor, WritablePlace } from '../approvals/privateReach';
import type { CodexConnection, StartCodex } from '../codex/connection';
import type { CrashHistory } from '../codex/crashPolicy';
import type { TurnEnd } from '../codex/items';
import type { ModelCatalog, ModelInfo } from '../codex/models';
import type { ChangeView } from '../codex/serverRequests';
import type { McpCall } from '../codex/mcpToolGate';
import type { LaunchPlan } from '../launch/plan';
import type { AttestedMode, ProfileNow } from './mode';
import type { SessionRow, SessionStore } from './sessions';
import type { Transcript } from './transcript';
import type { LiveTurnDiffs } from './turnDiff/live';
import type { TurnInput, TurnState } from './turn/machine';
import type { ChatTiming, Clock, Watchdogs } from './watchdogs';
import type { UsageStore } from '../usage/store';
import type { ChatUsage } from '../../../shared/usage';

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
  /** The accepted table in force (compared by identity: a new object is a new table); absent: not checked. */
  tableNow?: () => object;
  /** Why a Codex started under `plan` must restart under the table in force now (sight.ts `sightLost`), or null. */
  sightNow?: (plan: LaunchPlan) => Promise<string | null>;
  /** The watchdogs' clock; absent: the real one (watchdogs.ts `realClock`). */
  clock?: Clock;
  /** The usage store this chat's Codex reports into, and its Codex home (core/usage/store.ts); absent: usage not kept. */
  usage?: { store: UsageStore; codexHome: string };
  /** Where turn diffs are kept across restarts (chats/turnDiff/store.ts); absent: in memory only. */
  turnDiffDir?: string;
}

/** What the warmer records on a chat whose agent it started (warm/warmer.ts, warm/use.ts): the table generation and a staleness check. */
export interface WarmMark {
  /** The warmer's table generation when the start began. */
  generation: number;
  /** True when the accepted table or the profile's compile changed on disk since the start began. */
  stale(): boolean;
}

/** How a turn ended, as the runner waits for it (`exited`: Codex's process ended under it). */
export type TurnEnded = TurnEnd & { exited?: boolean };

/** The model and effort the next turn/start sends, and where each comes from. */
export interface InForce {
  model: string | null;
  modelSource: string;
  effort: string | null;
  effortSource: string | null;
}

/** A text steered into the running turn, until Codex takes it (see chat.ts `steered`). */
export interface Steered {
  shown: string;
  input: string;
  acked: boolean;
  ended: boolean;
}

/** The chat's shared state and actions (see the module comment); fields are the chat's own, read and written by its parts. */
export interface ChatInside {
  readonly deps: ChatDeps;
  readonly transcript: Transcript;
  readonly watch: Watchdogs;
  /** Unexpected Codex exits of this chat; too many in a row refuse the restart (codex/crashPolicy.ts). */
  readonly crashes: CrashHistory;
  /** The turn machine's state (turn/machine.ts); changed only through `dispatch`. */
  readonly turn: TurnState;
  state: AgentState;
  refusal: string | null;
  enforcement: Enforcement | null;
  threadId: string | null;
  rowId: string | null;
  conn: CodexConnection | null;
  /** The connection `start()` is attesting and opening (its notifications count before it becomes `conn`). */
  opening: CodexConnection | null;
  starting: Promise<void> | null;
  codexVersion: string | null;
  turnWaiter: ((end: TurnEnded) => void) | null;
  compaction: { done: boolean } | null;
  onRequest: boolean;
  /** The running launch's closed places (LaunchPlan.grantFloor); undefined before the first start (nothing is granted then). */
  grantFloor: GrantFloor | undefined;
  /**
   * What this chat granted for writing and Codex still honours (privateReach.ts `grantedPlaces`): a turn
   * grant until its turn completes, a session grant until the process ends (a new start clears all). No
   * later grant is given in one (the agent could swap the path for a symbolic link).
   */
  grants: { place: WritablePlace; scope: 'turn' | 'session'; turnId: string | null }[];
  /** The running launch's sandbox, as approval cards of escalations describe it (RequestContext.sandbox); undefined when not sandboxed. */
  sandboxCtx: { denied: number | null } | undefined;
  /** The model the profile or Codex's config sets (a session override wins over it, `inForce`). */
  baseModel: string | null;
  baseSource: 'profile' | 'codex default';
  /** The effort the profile (or Codex's config, `model_reasoning_effort`) sets; null when neither does. */
  configuredEffort: { effort: string; source: 'profile' | 'codex config' } | null;
  /** The effort Codex reported on the last thread start/resume (`reasoningEffort`). */
  reportedEffort: string | null;
  /** The last `model/list` catalog seen (empty until one was read, or when Codex listed nothing). */
  catalog: ModelInfo[];
  /** Why no process runs, when Angelia knows: it exited after idle_exit_minutes, or it crashed. */
  down: 'idle-exit' | 'crashed' | null;
  /** The message (or compaction) whose turn Codex's crash cut off, told at the next start. */
  killedTurn: string | null;
  readonly fileChanges: Map<string, ChangeView[]>;
  /** MCP tool calls in progress that no tool gate was shown for yet, by item id (RequestContext.mcpCalls); cleared at a turn's end. */
  readonly mcpCalls: Map<string, McpCall>;
  /** The latest Codex diff of recent turns (`turn/diff/updated`; chats/turnDiff/chatTurns.ts). */
  readonly turnDiffs: LiveTurnDiffs;
  /** The last approval of the running turn and how it ended, to explain an interrupted turn. */
  lastAsk: { title: string; outcome: 'pending' | 'cancel' | 'deny' | 'allow' } | null;
  /**
   * Texts steered into the running turn that Codex has not yet taken into the conversation. Measured on
   * codex 0.169.0 with the scripted model: a steer Codex takes is announced as `item/started` of a
   * `userMessage` with exactly the steered text, right before the model request that carries it; a
   * steer accepted while an approval waited and then "Deny and stop" (or any stop) never appears in a
   * model request and gets no such item. What is left here at the turn's end was not delivered.
   */
  steered: Steered[];
  /** The loading of the active session's past turns (`items`), once per chat object; null before the first view. */
  history: Promise<void> | null;
  /** While `/resume` shows the resumed session's past turns: work waits for it, so they come before its items. */
  historyGate: Promise<void> | null;
  /** Turn ids this chat object ran (their items are in the transcript already; history leaves them out). */
  readonly ownTurns: Set<string>;
  /** Why the running Codex must restart before the next turn (chat.ts `restartBeforeNextTurn`), else null. */
  restartWhy: string | null;
  /** Set while the running (or starting) Codex is a warm agent no turn has used yet (warm/use.ts). */
  warm: WarmMark | null;
  /** Set by a restart restart.ts `restartIfTaken` made, until the turn says so. */
  restarted: string | null;
  lastPlan: LaunchPlan | null;
  attestedAt: string | null;
  /** What the running process was started and attested with (mode.ts); null before the first start. */
  attestedMode: AttestedMode | null;
  /** The profile as the table had it when the launch plan being started was made. */
  planProfile: ProfileNow | null;
  /** The table (`deps.tableNow`) the launch plan being started or run was made under, else null. */
  planTable: object | null;
  /** Tokens and context of the last turn and the session (`thread/tokenUsage/updated`); null before Codex reported any. */
  usage: ChatUsage | null;
  /** Feeds the turn machine and carries out its effects. */
  dispatch(input: TurnInput): boolean | undefined;
  /** Tells the chat's watchers; with `state`, the chat's state changes first. */
  changed(state?: AgentState): void;
  notice(text: string): void;
  setActivity(text: string | null): void;
  /** (Re)arms the stall watchdog for the running turn or compaction. */
  armStall(): void;
  ensureStarted(): Promise<void>;
  stopProcess(): Promise<void>;
  /** Marks the running Codex for a restart before the next turn, saying `why` (chat.ts). */
  restartBeforeNextTurn(why: string): void;
  /** After the queue drains: the idle exit is armed while a process runs. */
  armIdle(): void;
  readCatalog(conn: CodexConnection): Promise<ModelInfo[]>;
  inForce(row: SessionRow | null): InForce;
  isCurrent(conn: CodexConnection): boolean;
  currentMode(): NonNullable<ChatView['mode']>;
}
