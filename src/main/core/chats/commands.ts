/**
 * The chat commands typed in the composer (product.md §4, seed-spec §5): how a message is recognised as
 * one, and the texts they answer with. The commands themselves run in chat.ts; they cost no model tokens.
 */
import type { SessionRow } from './sessions';

/** Every command a chat answers, with its one-line help. */
export const COMMANDS = {
  new: 'start a new session (the current one stays in /resume)',
  resume: '/resume lists recent sessions; /resume <n|id> switches to one',
  model: '/model lists models; /model <name> sets one for this session; /model default clears it',
  effort: '/effort lists reasoning efforts; /effort <level> for this session; /effort default clears it',
  compact: 'summarise the conversation so far to free context (waits until Codex has compacted)',
  stop: 'stop the running turn and drop queued messages',
  status: 'profile, session, model, sandbox and queue of this chat',
  export: 'write this session as Markdown to the exports folder',
  help: 'this list',
} as const;

/** A command's name. */
export type CommandName = keyof typeof COMMANDS;

/** A parsed command: its name and the rest of the line (trimmed, "" when none). */
export interface ParsedCommand {
  name: CommandName;
  arg: string;
}

/**
 * Reads `text` as a command. Returns the command, `{ unknown }` for a `/word` that is no command (so
 * a typo never reaches the agent as a prompt), or null for an ordinary message (including text that
 * starts with a path such as `/usr/bin is missing`, or with a space).
 */
export function parseCommand(text: string): ParsedCommand | { unknown: string } | null {
  const m = /^\/([A-Za-z][A-Za-z-]*)(?:\s+([\s\S]*))?$/.exec(text.trimEnd());
  if (!m?.[1]) return null;
  const name = m[1].toLowerCase();
  if (Object.prototype.hasOwnProperty.call(COMMANDS, name)) return { name: name as CommandName, arg: (m[2] ?? '').trim() };
  return { unknown: `/${m[1]}` };
}

/** The `/help` text. */
export function helpText(): string {
  const lines = Object.entries(COMMANDS).map(([name, help]) => `/${name} — ${help}`);
  return ['Commands (answered by Angelia, no model tokens):', ...lines, 'To send text that starts with "/" to the agent, put a space before it.'].join('\n');
}

/** The first 8 characters of an id, as ids are shown. */
export function id8(id: string): string {
  return id.slice(0, 8);
}

/** The `/resume` list: `N. <id8>[ *] · <turns> turns · <label>`, most recently used first. */
export function sessionsText(rows: SessionRow[], activeId: string | null): string {
  if (!rows.length) return 'No sessions yet.';
  const lines = rows.map((r, i) => `${i + 1}. ${id8(r.id)}${r.id === activeId ? ' *' : ''} · ${r.turns} turn${r.turns === 1 ? '' : 's'} · ${r.label || '(no message yet)'}`);
  return ['Sessions (* = active). /resume <n|id> switches.', ...lines].join('\n');
}

/** What `/status` reports. */
export interface StatusFacts {
  profile: string;
  session: SessionRow | null;
  codexVersion: string | null;
  model: string | null;
  modelSource: string;
  effort: string | null;
  sandbox: string;
  warm: boolean;
  queued: number;
  running: boolean;
  sessions: number;
}

/** The `/status` text (three lines plus the sandbox line). */
export function statusText(f: StatusFacts): string {
  const s = f.session;
  const first = [`angelia · profile ${f.profile}`, s ? `session ${id8(s.id)} · ${s.turns} turn${s.turns === 1 ? '' : 's'}` : 'no session yet',
    f.codexVersion ? `codex ${f.codexVersion}` : 'codex', f.model ? `model ${f.model} (${f.modelSource})` : null, f.effort ? `effort ${f.effort}` : null].filter(Boolean).join(' · ');
  const second = [s ? `last used ${s.last_used_at}` : null, f.warm ? 'warm' : 'cold', f.running ? 'a turn is running' : null, `${f.queued} queued`].filter(Boolean).join(' · ');
  return [first, second, `sandbox: ${f.sandbox}`, `${f.sessions} session${f.sessions === 1 ? '' : 's'} in history`].join('\n');
}
