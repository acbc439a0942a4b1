/**
 * What the chat pane says, as pure functions: the model and effort in force, short labels for error
 * kinds and for how a user message reached the agent, whether a turn is running, and whether Stop shows.
 */
import type { ChatItem, ChatView, ProfileView } from '../../../../shared/contract';

/** True while the chat has a turn running (streaming, or waiting on an approval): the time to steer. */
export function turnRunning(chat: Pick<ChatView, 'state'>): boolean {
  return chat.state === 'working' || chat.state === 'needs-you';
}

/**
 * True while Stop has something to stop: a turn running (`working`, `needs-you`) or about to
 * (`starting`: the message was accepted and Codex is starting, the turn not begun yet). Stop calls
 * `chats:interrupt`, which also cancels a starting turn and drops the queue.
 */
export function canStop(chat: Pick<ChatView, 'state'>): boolean {
  return chat.state === 'starting' || turnRunning(chat);
}

/** One part of the model line: a value and whether it is a session-only override. */
export interface SettingPart {
  label: 'model' | 'effort';
  value: string;
  thisSession: boolean;
}

/**
 * The model and effort in force: what Codex reported for the chat, else what the profile sets (before
 * the first start). Each part says when `/model` or `/effort` overrode it for this session. A setting
 * nobody chose (Codex's default, not yet reported) is left out.
 */
export function modelParts(chat: ChatView, profile: ProfileView | undefined): SettingPart[] {
  const parts: SettingPart[] = [];
  const model = chat.overrides.model ?? chat.model ?? profile?.model ?? null;
  const effort = chat.overrides.effort ?? chat.effort ?? profile?.effort ?? null;
  if (model) parts.push({ label: 'model', value: model, thisSession: chat.overrides.model !== null });
  if (effort) parts.push({ label: 'effort', value: effort, thisSession: chat.overrides.effort !== null });
  return parts;
}

/** The model line as text: "gpt-5 (this session) · effort high"; "" when nothing is known. */
export function modelLine(chat: ChatView, profile: ProfileView | undefined): string {
  return modelParts(chat, profile)
    .map((p) => `${p.label === 'model' ? '' : 'effort '}${p.value}${p.thisSession ? ' (this session)' : ''}`)
    .join(' · ');
}

const ERROR_KIND_LABEL: Record<string, string> = {
  usageLimit: 'usage limit',
  rateLimit: 'rate limit',
  overloaded: 'overloaded',
  modelUnavailable: 'model unavailable',
  contextWindow: 'context full',
  crashed: 'crashed',
  unauthorized: 'signed out',
  badRequest: 'bad request',
  sandbox: 'sandbox',
};

/** A short badge text for an error item's `kind` (Codex's `codexErrorInfo`); unknown kinds as they come, spaced. */
export function errorKindLabel(kind: string): string {
  return ERROR_KIND_LABEL[kind] ?? kind.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

/**
 * True when an error item says Codex is not signed in (Codex's `unauthorized`, or a message saying "not
 * signed in"): the item then offers the sign-in screen.
 */
export function offersSignIn(item: { kind?: string | undefined; message: string }): boolean {
  return item.kind === 'unauthorized' || item.kind === 'notSignedIn' || /not signed in/i.test(item.message);
}

/** The caption under a user message that did not start a turn of its own; null for an ordinary one. */
export function viaCaption(via: Extract<ChatItem, { type: 'user' }>['via']): string | null {
  if (via === 'steer') return 'steered into the running turn';
  if (via === 'denyReason') return 'reason given with a Deny';
  return null;
}

/**
 * The error item whose Restart button is live: the newest error item, when it offers `restart` and the
 * chat is stopped by it (state error or stopped). Older errors, and errors of a chat that is running
 * again, offer nothing; null when none.
 */
export function restartableErrorId(items: readonly ChatItem[], state: ChatView['state']): string | null {
  if (state !== 'error' && state !== 'stopped') return null;
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    if (item?.type === 'error') return item.action === 'restart' ? item.id : null;
  }
  return null;
}

/** A user message item. */
type UserItem = Extract<ChatItem, { type: 'user' }>;

/**
 * One row of the transcript: an item as it is, or an app turn folded into one row. An app turn (API
 * `POST /turn` with `reply: "caller"`, its user item marked `app`) runs in the chat's thread but its
 * answer is for the program that asked, so the window shows it as one marked, folded row: the request,
 * then every item up to and including its turn end (`end`: null while it runs).
 */
export type TranscriptEntry =
  | { kind: 'item'; id: string; item: ChatItem }
  | { kind: 'app'; id: string; user: UserItem; items: ChatItem[]; end: Extract<ChatItem, { type: 'turnEnd' }> | null };

/**
 * The transcript's rows (see TranscriptEntry): app turns folded, everything else one row per item, in
 * order. An app turn ends with the first `turnEnd` after its user item, or where the next turn's user
 * item begins (a turn that never told its end). Pure.
 */
export function groupAppTurns(items: readonly ChatItem[]): TranscriptEntry[] {
  const out: TranscriptEntry[] = [];
  let open: Extract<TranscriptEntry, { kind: 'app' }> | null = null;
  for (const item of items) {
    const startsTurn = item.type === 'user' && (item.via ?? 'turn') === 'turn';
    if (open && startsTurn) open = null;
    if (open) {
      open.items.push(item);
      if (item.type === 'turnEnd') {
        open.end = item;
        open = null;
      }
      continue;
    }
    if (item.type === 'user' && startsTurn && item.app) {
      open = { kind: 'app', id: `app-${item.id}`, user: item, items: [], end: null };
      out.push(open);
      continue;
    }
    out.push({ kind: 'item', id: item.id, item });
  }
  return out;
}

/** The one line an app turn's folded row shows: what it asked (first line, at most 80 characters) and how it stands. */
export function appTurnLine(entry: Extract<TranscriptEntry, { kind: 'app' }>): { asked: string; status: string } {
  const first = entry.user.text.split('\n').find((l) => l.trim() !== '') ?? '';
  const asked = first.length > 80 ? `${first.slice(0, 79)}…` : first;
  const status = entry.end === null ? 'running' : entry.end.status === 'completed' ? 'answered' : entry.end.status === 'failed' ? 'failed' : 'stopped';
  return { asked, status };
}
