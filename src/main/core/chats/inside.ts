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
import type { LaunchPlan } from '../launch/plan';
import type { AttestedMode, ProfileNow } from './mode';
import type { SessionRow, SessionStore } from './sessions';
import type { Transcript } from './transcript';
import type { TurnInput, TurnState } from './turn/machine';
import type { ChatTiming, Clock, Watchdogs } from './watchdogs';

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
  /** The watchdogs' clock; absent: the real one (watchdogs.ts `realClock`). */
  clock?: Clock;
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
  grantFloor: GrantFloor | undefined;
  grants: { place: WritablePlace; scope: 'turn' | 'session'; turnId: string | null }[];
  sandboxCtx: { denied: number | null } | undefined;
  baseModel: string | null;
  baseSource: 'profile' | 'codex default';
  configuredEffort: { effort: string; source: 'profile' | 'codex config' } | null;
  reportedEffort: string | null;
  down: 'idle-exit' | 'crashed' | null;
  killedTurn: string | null;
  readonly fileChanges: Map<string, ChangeView[]>;
  lastAsk: { title: string; outcome: 'pending' | 'cancel' | 'deny' | 'allow' } | null;
  steered: Steered[];
  history: Promise<void> | null;
  historyGate: Promise<void> | null;
  readonly ownTurns: Set<string>;
  restartWhy: string | null;
  restarted: string | null;
  lastPlan: LaunchPlan | null;
  attestedAt: string | null;
  attestedMode: AttestedMode | null;
  planProfile: ProfileNow | null;
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
  restartIfTaken(): Promise<void>;
  failStart(e: unknown, dropped: number): void;
  readCatalog(conn: CodexConnection): Promise<ModelInfo[]>;
  inForce(row: SessionRow | null): InForce;
  isCurrent(conn: CodexConnection): boolean;
  currentMode(): NonNullable<ChatView['mode']>;
}

