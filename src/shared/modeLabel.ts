/**
 * How a chat's mode (contract `ChatMode`) is labelled wherever it is shown: the chat header, the chat
 * list and the tray. A running chat shows what its start was attested with; a cold one shows what the
 * accepted table applies at the next start, never an old attestation as if it were in force. Full
 * access is always dangerous (red, with a warning glyph). Nothing here imports Node, Electron or React.
 */
import type { AgentState, ChatMode } from './contract';

/** A badge's text, tooltip and how alarming it is. `source` is the mode's source, for tests and styling. */
export interface ModeLabel {
  text: string;
  title: string;
  /** Full access: drawn red. */
  danger: boolean;
  /** Full access or an external sandbox: marked with a warning glyph. */
  warning: boolean;
  /** The class suffix of the badge: managed, disabled, external or unknown. */
  kind: 'managed' | 'disabled' | 'external' | 'unknown';
  source: ChatMode['source'];
}

/** The label of `mode` (see the module comment). */
export function chatModeLabel(mode: ChatMode): ModeLabel {
  const how = `mode ${mode.permissionMode ?? 'unknown'} · approval ${mode.approvalPolicy ?? 'unknown'}`;
  if (mode.source === 'attested') {
    const at = mode.attestedAt ? ` (attested at its start, ${mode.attestedAt})` : '';
    const changed = mode.tableChanged ? ` — ${mode.tableChanged}` : '';
    switch (mode.sandbox) {
      case 'managed':
        return {
          text: 'managed sandbox',
          title: `Codex's own OS sandbox enforces this chat: ${how}${at}${changed}`,
          danger: false,
          warning: false,
          kind: 'managed',
          source: 'attested',
        };
      case 'disabled':
        return {
          text: 'FULL ACCESS',
          title: `No sandbox: this agent can do anything you can; ${how}${at}${changed}`,
          danger: true,
          warning: true,
          kind: 'disabled',
          source: 'attested',
        };
      case 'external':
        return {
          text: 'external sandbox',
          title: `Enforced outside Codex: Angelia cannot vouch for it; ${how}${at}${changed}`,
          danger: false,
          warning: true,
          kind: 'external',
          source: 'attested',
        };
      default:
        return {
          text: 'unknown sandbox',
          title: `Codex did not report its sandbox${at}${changed}`,
          danger: false,
          warning: true,
          kind: 'unknown',
          source: 'attested',
        };
    }
  }
  if (mode.sandbox === 'disabled') {
    return {
      text: 'FULL ACCESS — next start',
      title: `Not started. The table says sandbox = false: the next start runs with no sandbox (${how}).`,
      danger: true,
      warning: true,
      kind: 'disabled',
      source: 'next-start',
    };
  }
  const next = mode.sandbox === 'managed' ? `the next start runs under Codex's managed sandbox (${how})` : 'the profile is not in the table in force';
  return { text: 'not started', title: `Nothing is in force now: ${next}.`, danger: false, warning: false, kind: 'unknown', source: 'next-start' };
}

/** How an agent's state reads wherever it is shown (chat list, header, tray): idle, starting, working, needs you, error, refused, stopped. */
export const AGENT_STATE_LABEL: Record<AgentState, string> = {
  idle: 'idle',
  starting: 'starting',
  working: 'working',
  'needs-you': 'needs you',
  error: 'error',
  refused: 'refused',
  stopped: 'stopped',
};
