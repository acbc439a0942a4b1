/**
 * Codex thread items and notifications, read into Angelia's own chat items and turn events. Wire shapes
 * (codex 0.169.0 `ThreadItem`, `ServerNotification`) are read here only.
 */
import type { ChatItem } from '../../../shared/contract';
import type { ChangeView } from './serverRequests';
import { isObj, str } from './wire';

function commandStatus(s: unknown): 'running' | 'completed' | 'failed' | 'declined' {
  if (s === 'completed' || s === 'failed' || s === 'declined') return s;
  return 'running';
}

/** Reads the `changes` of a fileChange item (`FileUpdateChange[]`: path, kind {type}, diff). */
export function readChanges(item: unknown): ChangeView[] {
  if (!isObj(item) || !Array.isArray(item.changes)) return [];
  return item.changes.filter(isObj).map((c) => ({
    path: str(c.path) ?? '?',
    kind: isObj(c.kind) ? (str(c.kind.type) ?? 'update') : (str(c.kind) ?? 'update'),
    diff: str(c.diff) ?? '',
  }));
}

/**
 * Maps one `ThreadItem` to a chat item, or null for kinds the chat does not show. `done` is true for
 * `item/completed`.
 */
export function toChatItem(item: unknown, done: boolean): ChatItem | null {
  if (!isObj(item)) return null;
  const id = str(item.id);
  if (!id) return null;
  switch (item.type) {
    case 'userMessage': {
      const parts = Array.isArray(item.content) ? item.content.filter(isObj) : [];
      const text = parts.map((p) => (p.type === 'text' ? (str(p.text) ?? '') : `[${String(p.type)}]`)).join('\n');
      return { type: 'user', id, text };
    }
    case 'agentMessage':
      return { type: 'agent', id, text: str(item.text) ?? '', done };
    case 'reasoning': {
      const summary = Array.isArray(item.summary) ? item.summary.filter((s): s is string => typeof s === 'string') : [];
      return { type: 'reasoning', id, text: summary.join('\n') };
    }
    case 'commandExecution':
      return {
        type: 'command', id,
        command: str(item.command) ?? '',
        cwd: str(item.cwd) ?? '',
        output: str(item.aggregatedOutput) ?? '',
        exitCode: typeof item.exitCode === 'number' ? item.exitCode : null,
        status: done ? commandStatus(item.status) : 'running',
      };
    case 'fileChange':
      return { type: 'fileChange', id, changes: readChanges(item), status: done ? commandStatus(item.status) : 'running' };
    default:
      return null;
  }
}

/** A turn's end as Codex reports it in `turn/completed` (status, and the error when it failed). */
export interface TurnEnd {
  turnId: string | null;
  status: 'completed' | 'failed' | 'interrupted';
  message: string | null;
  /** `codexErrorInfo` as sent: a string such as "usageLimitExceeded" or an object; null when absent. */
  errorInfo: unknown;
}

/** Reads `turn/completed` params: `{threadId, turn:{id, status, error:{message, codexErrorInfo}}}`. */
export function readTurnEnd(params: unknown): TurnEnd {
  const turn = isObj(params) && isObj(params.turn) ? params.turn : {};
  const status = turn.status === 'failed' || turn.status === 'interrupted' ? turn.status : 'completed';
  const error = isObj(turn.error) ? turn.error : null;
  return { turnId: str(turn.id), status, message: error ? str(error.message) : null, errorInfo: error?.codexErrorInfo ?? null };
}

/** Thread and turn ids carried by a notification, when present. */
export function idsOf(params: unknown): { threadId: string | null; turnId: string | null } {
  if (!isObj(params)) return { threadId: null, turnId: null };
  const turn = isObj(params.turn) ? params.turn : null;
  return { threadId: str(params.threadId), turnId: str(params.turnId) ?? (turn ? str(turn.id) : null) };
}
