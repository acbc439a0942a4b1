/**
 * Codex thread items and turn ends, decoded with zod into Angelia's typed views, then into chat items.
 * Wire shapes (codex 0.169.0 generated `ThreadItem`, `TurnCompletedNotification`) are read here only;
 * the schemas are lenient field by field (a missing or mistyped field reads as absent), so a decoded
 * item never fails on a field Angelia does not need.
 */
import { z } from 'zod';
import type { ChatItem } from '../../../shared/contract';
import type { ImageRef } from '../../../shared/images';
import type { ChangeView } from './serverRequests';

/** A string field, else null (what a missing or mistyped field reads as). */
const optStr = z.string().nullable().catch(null);
/** A list of strings; other elements dropped, [] when not a list. */
const strings = z
  .array(z.unknown())
  .catch([])
  .transform((a) => a.filter((x): x is string => typeof x === 'string'));
/** A list of JSON objects; other elements dropped, [] when not a list. */
const objects = z
  .array(z.unknown())
  .catch([])
  .transform((a) => a.filter((x): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x)));

/** One `UserInput` part as the chat shows it: a text part's text, any other part as `[<type>]` (a `localImage` is an image instead). */
const partText = (p: Record<string, unknown>): string => (p.type === 'text' ? (typeof p.text === 'string' ? p.text : '') : `[${String(p.type)}]`);

/** A `localImage` part (codex 0.169.0 `UserInput`) as the image a `user` item shows: its path, named by its last segment. */
const localImage = (p: Record<string, unknown>): ImageRef[] =>
  p.type === 'localImage' && typeof p.path === 'string' ? [{ path: p.path, name: p.path.split(/[\\/]/).pop() || p.path }] : [];

/** `{ images }` when there are any (an item without images keeps the shape it always had). */
const imagesOf = (images: ImageRef[]): { images?: ImageRef[] } => (images.length ? { images } : {});

/** One `FileUpdateChange` (path, kind `{type}` or a bare kind string, diff). */
const changeSchema = z.object({
  path: z.string().catch('?'),
  kind: z.union([z.object({ type: z.string().catch('update') }).transform((k) => k.type), z.string()]).catch('update'),
  diff: z.string().catch(''),
});
const changes = objects.transform((list) => list.map((c): ChangeView => changeSchema.parse(c)));

/**
 * The kinds of `ThreadItem` Angelia reads (codex 0.169.0), each with the fields it uses; any other kind
 * is `other` with its `kind` as sent. `id` is null when the item has no string id.
 */
export const threadItemSchema = z.union([
  z.object({ type: z.literal('userMessage'), id: optStr, content: objects }).transform(({ content, ...rest }) => ({
    ...rest,
    text: content
      .filter((p) => p.type !== 'localImage')
      .map(partText)
      .join('\n'),
    ...imagesOf(content.flatMap(localImage)),
  })),
  z.object({ type: z.literal('agentMessage'), id: optStr, text: z.string().catch('') }),
  z.object({ type: z.literal('reasoning'), id: optStr, summary: strings }),
  z.object({
    type: z.literal('commandExecution'),
    id: optStr,
    command: z.string().catch(''),
    cwd: z.string().catch(''),
    aggregatedOutput: z.string().catch(''),
    exitCode: z.number().nullable().catch(null),
    status: z.unknown().optional(),
  }),
  z.object({ type: z.literal('fileChange'), id: optStr, changes, status: z.unknown().optional() }),
  z.object({ type: z.literal('contextCompaction'), id: optStr }),
  // What an MCP tool gate is matched against (mcpToolGate.ts); the chat does not show the item itself.
  z.object({ type: z.literal('mcpToolCall'), id: optStr, server: optStr, tool: optStr, status: optStr, arguments: z.unknown().optional() }),
  z.object({ type: z.unknown().optional(), id: optStr }).transform(({ type, id }) => ({ type: 'other' as const, kind: type, id })),
]);

/** A decoded `ThreadItem` (see `threadItemSchema`). */
export type ThreadItemView = z.infer<typeof threadItemSchema>;

/** Decodes one `ThreadItem` as sent; null when it is not a JSON object. */
export function readItem(raw: unknown): ThreadItemView | null {
  const r = threadItemSchema.safeParse(raw);
  return r.success ? r.data : null;
}

function commandStatus(s: unknown): 'running' | 'completed' | 'failed' | 'declined' {
  if (s === 'completed' || s === 'failed' || s === 'declined') return s;
  return 'running';
}

/** Maps one `ThreadItem` as sent to a chat item (`readItem`, then `chatItemOf`); null when it is not one. */
export function toChatItem(raw: unknown, done: boolean): ChatItem | null {
  const view = readItem(raw);
  return view ? chatItemOf(view, done) : null;
}

/** The `changes` of a fileChange item as sent (`FileUpdateChange[]`: path, kind, diff); [] for any other item. */
export function readChanges(raw: unknown): ChangeView[] {
  const view = readItem(raw);
  return view?.type === 'fileChange' ? view.changes : [];
}

/**
 * Maps one decoded item to a chat item, or null for kinds the chat does not show and items without an
 * id. `done` is true for `item/completed` (and for the items of a finished turn).
 */
export function chatItemOf(item: ThreadItemView, done: boolean): ChatItem | null {
  const id = item.id;
  if (!id) return null;
  switch (item.type) {
    case 'userMessage':
      return { type: 'user', id, text: item.text, ...imagesOf(item.images ?? []) };
    case 'agentMessage':
      return { type: 'agent', id, text: item.text, done };
    case 'reasoning':
      return { type: 'reasoning', id, text: item.summary.join('\n') };
    case 'commandExecution':
      return {
        type: 'command',
        id,
        command: item.command,
        cwd: item.cwd,
        output: item.aggregatedOutput,
        exitCode: item.exitCode,
        status: done ? commandStatus(item.status) : 'running',
      };
    case 'fileChange':
      return { type: 'fileChange', id, changes: item.changes, status: done ? commandStatus(item.status) : 'running' };
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

/**
 * A `Turn` as far as its end goes (codex 0.169.0 `Turn`: id, status, error {message, codexErrorInfo});
 * a status other than failed or interrupted reads as completed.
 */
export const turnEndSchema = z
  .object({
    id: optStr,
    status: z.unknown().optional(),
    error: z.object({ message: optStr, codexErrorInfo: z.unknown().optional() }).nullable().catch(null),
  })
  .catch({ id: null, status: null, error: null })
  .transform((t): TurnEnd => ({
    turnId: t.id,
    status: t.status === 'failed' || t.status === 'interrupted' ? t.status : 'completed',
    message: t.error ? t.error.message : null,
    errorInfo: t.error?.codexErrorInfo ?? null,
  }));

/** Reads `turn/completed` params: `{threadId, turn:{id, status, error:{message, codexErrorInfo}}}`; never throws. */
export function readTurnEnd(params: unknown): TurnEnd {
  const turn = typeof params === 'object' && params !== null && !Array.isArray(params) ? (params as { turn?: unknown }).turn : undefined;
  return turnEndSchema.parse(turn);
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Thread and turn ids carried by raw notification params (`threadId`; `turnId`, else `turn.id`); null when absent or not strings. */
export function idsOf(params: unknown): { threadId: string | null; turnId: string | null } {
  if (!isRecord(params)) return { threadId: null, turnId: null };
  const turnId = typeof params.turnId === 'string' ? params.turnId : isRecord(params.turn) && typeof params.turn.id === 'string' ? params.turn.id : null;
  return { threadId: typeof params.threadId === 'string' ? params.threadId : null, turnId };
}
