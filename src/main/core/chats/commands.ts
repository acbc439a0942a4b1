/**
 * The chat commands typed in the composer (README "Chats"): how a message is recognised as
 * one, and the texts they answer with. The commands themselves run in chat.ts; they cost no model tokens.
 */
import { shortId, type SessionRow } from './sessions';

/** Every command a chat answers, with its one-line help. */
export const COMMANDS = {
  new: 'start a new session (the current one stays in /resume)',
  resume: '/resume lists recent sessions; /resume <n|id> switches to one',
  model: '/model lists models; /model <name> sets one for this session; /model default clears it',
  effort: '/effort lists reasoning efforts; /effort <level> for this session; /effort default clears it',
  compact: 'summarise the conversation so far to free context (waits until Codex has compacted)',
  stop: 'stop the running turn (or the one still starting) and drop queued messages',
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

/** What `parseCommand` makes of a line. */
export type ParsedLine =
  /** A chat command, answered by Angelia. */
  | ParsedCommand
  /** A `/word` that names no command (`unknown` is the `/word` as typed): answered "unknown command". */
  | { unknown: string }
  /** `//text`: the text for the agent, one slash dropped ("/text"). */
  | { message: string };

/** The hint an unknown command is answered with: how to send such a text to the agent after all. */
export const SLASH_ESCAPE_HINT = 'start with // to send it as a message';

/**
 * Reads `text` (as typed; only the blank end is ignored) as a command. The rule:
 * - a known command (`/new`, `/resume 2`, … any case) → that command, with the rest of the line as `arg`;
 * - `//text` → `{ message: "/text" }`: the text goes to the agent literally, one slash dropped;
 * - text that starts with a path (`/usr/bin is missing`, `/etc/hosts?`: a second `/` or a `.` right
 *   after the first word) → null: no command has either, so it is an ordinary message;
 * - any other text that starts with one `/` → `{ unknown: "/word" }`, whether the word stands alone
 *   (`/frobnicate`) or more text follows (`/usr is missing`, `/modle x`), so a typo never reaches the
 *   agent as a prompt; the chat answers it with `SLASH_ESCAPE_HINT`;
 * - anything else (including text that starts with a space) → null: an ordinary message.
 */
export function parseCommand(text: string): ParsedLine | null {
  const line = text.trimEnd();
  if (!line.startsWith('/')) return null;
  if (line.startsWith('//')) return { message: line.slice(1) };
  if (/^\/[^\s/.]*[/.]/.test(line)) return null;
  const m = /^\/([A-Za-z][A-Za-z-]*)(?:\s+([\s\S]*))?$/.exec(line);
  const name = m?.[1]?.toLowerCase();
  if (m && name && Object.prototype.hasOwnProperty.call(COMMANDS, name)) return { name: name as CommandName, arg: (m[2] ?? '').trim() };
  return { unknown: `/${/^\/(\S*)/.exec(line)?.[1] ?? ''}` };
}

/** The commands that take no text after their name (`/resume`, `/model`, `/effort` take one). */
export const NO_ARG_COMMANDS: readonly CommandName[] = ['new', 'help', 'export', 'compact', 'stop', 'status'];

/**
 * Why a parsed command is refused for the text after it, or null when it may run: a command of
 * `NO_ARG_COMMANDS` given text (`/new fix the bug`) would otherwise drop that text silently. The answer
 * says how to send it: "/new takes no text; send the message after /new".
 */
export function extraTextRefusal(cmd: ParsedCommand): string | null {
  if (!cmd.arg || !NO_ARG_COMMANDS.includes(cmd.name)) return null;
  return `/${cmd.name} takes no text; send the message after /${cmd.name}. Nothing was done and nothing was sent (to send it as a message, start it with //).`;
}

/** The `/help` text. */
export function helpText(): string {
  const lines = Object.entries(COMMANDS).map(([name, help]) => `/${name} — ${help}`);
  return [
    'Commands (answered by Angelia, no model tokens):',
    ...lines,
    'To send the agent a message that starts with "/", start it with "//" (//usr is missing → /usr is missing).',
  ].join('\n');
}

/** The first 8 characters of an id, as ids are shown. */
export function id8(id: string): string {
  return id.slice(0, 8);
}

/**
 * How a session is named in chat notices: its `shortId` (`…c7f1a3d8`, unique among `among`) once Codex
 * gave it a thread, else `the new session` (a row without a thread has a provisional id that changes).
 */
export function sessionRef(row: SessionRow, among: readonly string[] = []): string {
  return row.threadId ? shortId(row.id, among) : 'the new session';
}

/**
 * The `/resume` list: `N. <id>[ *] · <turns> turns · <label>`, most recently used first. `<id>` is the
 * session's `shortId` (`…c7f1a3d8`, unique among `among`: pass every id of the chat), or `new` for a
 * row Codex has not given a thread yet (its id would change; `/resume N` reaches it).
 */
export function sessionsText(rows: SessionRow[], activeId: string | null, among: readonly string[] = rows.map((r) => r.id)): string {
  if (!rows.length) return 'No sessions yet.';
  const lines = rows.map(
    (r, i) =>
      `${i + 1}. ${r.threadId ? shortId(r.id, among) : 'new'}${r.id === activeId ? ' *' : ''} · ${r.turns} turn${r.turns === 1 ? '' : 's'} · ${r.label || '(no message yet)'}`,
  );
  return ['Sessions (* = active). /resume <n|id> switches.', ...lines].join('\n');
}

/** What `/status` reports. */
export interface StatusFacts {
  profile: string;
  session: SessionRow | null;
  /** The version of the Codex that runs (or ran last) for this chat; null before its first start. */
  codexVersion: string | null;
  /** The model and effort sent with the next turn/start, and where each comes from. */
  model: string | null;
  modelSource: string;
  effort: string | null;
  effortSource: string | null;
  /** How the sandbox stands, one phrase (shown after "sandbox: "). */
  sandbox: string;
  /** A Codex process runs for this chat (started by a turn, or warmed before one). */
  codexRunning: boolean;
  /** Why the last start was refused, with the fix; null when it was not. */
  refusal: string | null;
  /** Why Codex stopped, when that is known ("exited after idle_exit_minutes; …"); null otherwise. */
  down: string | null;
  queued: number;
  running: boolean;
  sessions: number;
}

/**
 * The `/status` text, four lines: profile · session · Codex version ("codex not started yet" before the
 * first start) · model · effort in force; last use · whether Codex runs (why not, when known: refused, exited idle, crashed) · turn · queue;
 * the sandbox; the number of sessions.
 */
export function statusText(f: StatusFacts): string {
  const s = f.session;
  const first = [
    `angelia · profile ${f.profile}`,
    s ? `session ${s.threadId ? shortId(s.id) : 'new (its id comes with the first message)'} · ${s.turns} turn${s.turns === 1 ? '' : 's'}` : 'no session yet',
    f.codexVersion ? `codex ${f.codexVersion}` : 'codex not started yet',
    f.model ? `model ${f.model} (${f.modelSource})` : null,
    f.effort ? `effort ${f.effort}${f.effortSource ? ` (${f.effortSource})` : ''}` : null,
  ]
    .filter(Boolean)
    .join(' · ');
  const second = [
    s ? `last used ${s.last_used_at}` : null,
    f.codexRunning
      ? 'Codex running'
      : f.refusal
        ? `Codex not started: ${f.refusal}`
        : f.down
          ? `Codex stopped (${f.down})`
          : f.codexVersion
            ? 'Codex not running'
            : null, // the first line says "codex not started yet"
    f.running ? 'a turn is running' : null,
    `${f.queued} queued`,
  ]
    .filter(Boolean)
    .join(' · ');
  return [first, second, `sandbox: ${f.sandbox}`, `${f.sessions} session${f.sessions === 1 ? '' : 's'} in history`].join('\n');
}
