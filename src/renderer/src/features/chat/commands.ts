/**
 * The chat commands the composer hints at when a message starts with "/". The core answers them
 * (README "Chats"); this list only helps the user type them, so it never decides what is a command.
 * The core's rule (core/chats/commands.ts): a known `/command` runs; `//text` goes to the agent as
 * `/text`; any other `/word` is answered "unknown command". So "//" shows no hints, and a "/" text that
 * names no command gets the tip to start it with "//".
 */

/** One command as the hint list shows it. */
export interface CommandHint {
  /** Without the slash. */
  name: string;
  /** Argument syntax, "" when none. */
  args: string;
  /** One line. */
  description: string;
}

/** Every command the core answers, in the order `/help` lists them. */
export const COMMAND_HINTS: readonly CommandHint[] = [
  { name: 'new', args: '', description: 'start a new session (the current one stays in /resume)' },
  { name: 'resume', args: '[n|id]', description: 'list recent sessions, or switch to one' },
  { name: 'model', args: '[name|default]', description: 'list models, or set one for this session' },
  { name: 'effort', args: '[level|default]', description: 'list reasoning efforts, or set one for this session' },
  { name: 'compact', args: '', description: 'summarise the conversation so far to free context' },
  { name: 'stop', args: '', description: 'stop the running turn and drop queued messages' },
  { name: 'status', args: '', description: 'profile, session, model, sandbox and queue of this chat' },
  { name: 'export', args: '', description: 'write this session as Markdown to the exports folder' },
  { name: 'help', args: '', description: 'the commands, as Angelia answers them' },
];

/**
 * The commands to hint at for the composer's text: while it is a slash followed only by letters (the
 * command name being typed), those whose name starts with them; otherwise none.
 */
export function commandHints(text: string): readonly CommandHint[] {
  const m = /^\/([A-Za-z-]*)$/.exec(text);
  if (!m) return [];
  const typed = (m[1] ?? '').toLowerCase();
  return COMMAND_HINTS.filter((c) => c.name.startsWith(typed));
}

/** The one-line tip on sending text that begins with "/" (the core's escape is a doubled slash). */
export const SLASH_TIP = 'Start with // to send text beginning with /';

/**
 * The one-line tip under the composer while the text starts with "/", or null: while command hints
 * show, `SLASH_TIP`; for "//…", that it goes to the agent as "/…"; for a "/word" that names no command,
 * that it is none (the core answers "unknown command") and how to send it as text instead. Text that
 * starts with a path (`/usr/bin …`, `/etc/hosts`) is a message, as in the core, and gets none. A known
 * command being given its arguments, and text not starting with "/", get none.
 */
export function slashTip(text: string): string | null {
  if (text.startsWith('//')) return `Goes to the agent as text: “${text.slice(1, 41)}${text.length > 41 ? '…' : ''}”`;
  if (/^\/[^\s/.]*[/.]/.test(text)) return null; // a path such as /usr/bin goes to the agent as typed
  const m = /^\/(\S*)/.exec(text);
  if (!m) return null;
  const word = m[1] ?? '';
  if (commandHints(text).length > 0) return SLASH_TIP;
  if (COMMAND_HINTS.some((c) => c.name === word.toLowerCase())) return null;
  return `/${word.slice(0, 30)} is not a command. ${SLASH_TIP}.`;
}

/** The composer text after picking `hint`: the command and, when it takes arguments, a space to type them. */
export function completeCommand(hint: CommandHint): string {
  return hint.args ? `/${hint.name} ` : `/${hint.name}`;
}
