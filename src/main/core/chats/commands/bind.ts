/**
 * The `CommandContext` (context.ts) of one chat: its commands' narrow view, made from the chat's shared
 * state (../inside.ts) and the few chat actions a command may take (stop, wait, detach).
 */
import { toAppError } from '../../../../shared/result';
import type { CodexConnection } from '../../codex/connection';
import { showResumed } from '../history';
import type { ChatInside } from '../inside';
import { noticeText } from '../notices';
import { busyFor } from '../turn/machine';
import type { CommandContext } from './context';

/** The chat actions a command may take that are not part of `ChatInside`. */
export interface CommandActions {
  /** `/stop` (chat.ts `stopAll`). */
  stop(): Promise<boolean>;
  settleForSwitch(): Promise<void>;
  /** Detaches the process (no crash); returns it. */
  detach(): CodexConnection | null;
}

/** The command context of chat `c`. */
export function bindCommands(c: ChatInside, act: CommandActions): CommandContext {
  const { chatId, profile, sessions, exportDir } = c.deps;
  return {
    chatId,
    profile,
    sessions,
    exportDir,
    notice: (text) => c.notice(text),
    facts: () => ({
      codexVersion: c.codexVersion,
      enforcement: c.enforcement,
      codexRunning: c.conn !== null,
      refusal: c.refusal,
      down: c.down,
      queued: c.turn.queue.length,
      running: c.turn.current !== null,
      mode: c.currentMode(),
      ...(c.deps.usage ? { usage: { chat: c.usage, home: c.deps.usage.store.get(c.deps.usage.codexHome) } } : {}),
    }),
    base: () => ({ model: c.baseModel, source: c.baseSource }),
    inForce: (row) => c.inForce(row),
    stop: () => act.stop(),
    enqueueCompact: () => void c.dispatch({ kind: 'enqueue', work: { kind: 'compact' } }),
    busyFor: (cmd) => {
      const busy = busyFor(c.turn, cmd);
      return busy ? noticeText(busy) : null;
    },
    settleForSwitch: () => act.settleForSwitch(),
    switchAway: () => {
      c.dispatch({ kind: 'switch' });
      const old = act.detach();
      return async () => {
        await old?.stop();
      };
    },
    adopt: (threadId) => {
      c.threadId = threadId;
      c.rowId = null;
      c.enforcement = null;
      c.down = null;
      c.killedTurn = null;
    },
    threadHeldElsewhere: (threadId) => c.deps.threadHeldElsewhere(threadId),
    showResumed: async (threadId) => {
      // The first view does not read the session's turns again (`history`); work waits for them (`historyGate`).
      const load = showResumed(c, threadId).catch((e: unknown) =>
        c.notice(`The earlier turns of this session could not be read from Codex: ${toAppError(e).message}`),
      );
      c.history = load;
      c.historyGate = load;
      try {
        await load;
      } finally {
        if (c.historyGate === load) c.historyGate = null;
      }
    },
    liveModels: async () => {
      await c.ensureStarted();
      const conn = c.conn;
      return conn ? c.readCatalog(conn) : [];
    },
    ensureRow: () => sessions.active(chatId) ?? sessions.ensureActive(chatId, profile),
    liveConnection: async () => {
      await c.ensureStarted();
      return c.conn;
    },
  };
}
