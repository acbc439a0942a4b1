/**
 * What a chat command (`/new`, `/resume`, `/model`, … README "Chats") may read and do: the narrow view
 * of its chat the command files of this folder get. Parsing and the help texts stay in ../commands.ts;
 * `runCommand` (index.ts) picks the file.
 */
import type { ChatView, Enforcement } from '../../../../shared/contract';
import type { ChatUsage, HomeUsage } from '../../../../shared/usage';
import type { CodexConnection } from '../../codex/connection';
import type { ModelInfo } from '../../codex/models';
import type { InForce } from '../inside';
import type { SessionRow, SessionStore } from '../sessions';

/** What `/status` reports of the chat beyond its session row. */
export interface ChatFacts {
  codexVersion: string | null;
  enforcement: Enforcement | null;
  /** A Codex process runs for this chat. */
  codexRunning: boolean;
  /** Why the last start was refused, with the fix; null when it was not. */
  refusal: string | null;
  down: 'idle-exit' | 'crashed' | null;
  queued: number;
  running: boolean;
  mode: NonNullable<ChatView['mode']>;
  /** The chat's tokens and its Codex home's rate limits (core/usage/); absent when usage is not kept. */
  usage?: { chat: ChatUsage | null; home: HomeUsage };
}

/** A chat as its commands see it. */
export interface CommandContext {
  readonly chatId: string;
  readonly profile: string;
  readonly sessions: SessionStore;
  /** Folder `/export` writes into. */
  readonly exportDir: string;
  /** Says `text` in the chat (a notice). */
  notice(text: string): void;
  facts(): ChatFacts;
  /** The model the profile or Codex sets (no session override), and where from. */
  base(): { model: string | null; source: 'profile' | 'codex default' };
  /** The model and effort the next turn/start sends for `row`. */
  inForce(row: SessionRow | null): InForce;
  /** `/stop`: as Stop (chat.ts `interrupt`). */
  stop(): Promise<boolean>;
  /** Queues a compaction (throws AppFailure `queue-full`). */
  enqueueCompact(): void;
  /** Why `cmd` cannot switch sessions now (a notice's text), or null (turn/machine.ts `busyFor`). */
  busyFor(cmd: string): string | null;
  /** Waits for a Codex start in progress and for stopped work to end. */
  settleForSwitch(): Promise<void>;
  /** Cancels older work and detaches the process (no crash); returns how to stop it. */
  switchAway(): () => Promise<void>;
  /** The chat now holds `threadId` (null: a new session): the old thread, row binding and crash state go. */
  adopt(threadId: string | null): void;
  /** The id of another live chat holding `threadId`, or null. */
  threadHeldElsewhere(threadId: string): string | null;
  /** Shows a resumed session's past turns (history.ts); work sent meanwhile waits for them. Never throws. */
  showResumed(threadId: string): Promise<void>;
  /** Starts Codex when needed and reads `model/list` ([] when Codex listed nothing). */
  liveModels(): Promise<ModelInfo[]>;
  /** The active session row, made when there is none. */
  ensureRow(): SessionRow;
  /** Starts Codex when needed; its connection (null when it stopped meanwhile). */
  liveConnection(): Promise<CodexConnection | null>;
}
