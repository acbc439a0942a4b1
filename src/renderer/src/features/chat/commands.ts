/**
 * The chat commands the composer hints at when a message starts with "/". The core answers them
 * (product.md §4); this list only helps the user type them, so it never decides what is a command.
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

/** The composer text after picking `hint`: the command and, when it takes arguments, a space to type them. */
export function completeCommand(hint: CommandHint): string {
  return hint.args ? `/${hint.name} ` : `/${hint.name}`;
}
