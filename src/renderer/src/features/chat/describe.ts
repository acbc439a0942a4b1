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
