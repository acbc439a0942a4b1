/**
 * The exit codes every `angelia` command shares (README "The command line: exit codes"):
 * `0` done · `1` a failure during the work · `2` a usage error or an unknown name (a profile, chat or
 * session that does not exist) · `3` the start was refused (the table, the launch guard, the sessions
 * store, another Angelia on the socket) or, for the commands that talk to a running Angelia, it is not
 * running. The API commands' own table (api/cli.ts `EXIT`) is the same: 1 refused, 2 usage, 3 not running.
 */
import { AppFailure } from '../../shared/result';
import { ApiClientError } from '../api/client';
import { EXIT, withApi, type CliIo } from '../api/cli';
import type { ApiEndpoint, CallOptions } from '../api/client';
import type { CliCommand } from './command';

/** The exit codes by meaning. */
export const EXIT_CODE = { ok: 0, failed: 1, usage: 2, refused: 3 } as const;

/** The error codes that mean "no such profile, chat or session" (core: AppFailure; API: the answer's `code`). */
const UNKNOWN_NAME_CODES = new Set(['unknown-chat', 'unknown-profile', 'profile-unknown', 'unknown-session']);

/** True when `e` says a named profile, chat or session does not exist (exit 2, as a usage error). */
export function isUnknownName(e: unknown): boolean {
  if (e instanceof AppFailure) return UNKNOWN_NAME_CODES.has(e.app.code);
  if (e instanceof ApiClientError) return UNKNOWN_NAME_CODES.has(e.code);
  return false;
}

/**
 * The lines `angelia <command> --help` prints under the usage line: each exit code with what it means
 * for that command. `meanings` gives the command's own wording for the codes it uses (the others are
 * left out).
 */
export function exitCodesText(meanings: Partial<Record<0 | 1 | 2 | 3, string>>): string {
  const lines = ([0, 1, 2, 3] as const).filter((c) => meanings[c] !== undefined).map((c) => `  ${c}  ${meanings[c]}`);
  return `exit codes:\n${lines.join('\n')}\n`;
}

/**
 * The text `angelia <name> --help` prints: `angelia <name>: <summary>`, the command's `options:` lines
 * when it has any, then its exit codes (exitCodesText).
 */
export function commandHelpText(name: string, command: Pick<CliCommand, 'summary' | 'exits' | 'options'>): string {
  const options = command.options?.length ? `options:\n${command.options.map((l) => `  ${l}`).join('\n')}\n` : '';
  return `angelia ${name}: ${command.summary}\n${options}${exitCodesText(command.exits)}`;
}

/** The exit codes of the commands that talk to a running Angelia (send, send-media, turn, ask). */
export const API_EXITS = {
  0: 'done',
  1: 'Angelia refused (the reason on stderr)',
  2: 'usage error, or no such chat',
  3: 'Angelia is not running',
} as const;

/** The `options:` lines of the commands that take a message (send, turn, ask). */
export const MESSAGE_OPTIONS: readonly string[] = [
  '<text>   the words, joined by spaces; - reads stdin, @file reads the file',
  '--       after it every word is text, "--help", "-" and "@file" included (options go before it)',
];

type ApiCall = <R>(method: 'GET' | 'POST', path: string, body?: unknown, opts?: CallOptions) => Promise<R>;

/**
 * Where to look for chat names, for the caller of `ep`: the owner can list them (`angelia profiles`);
 * an agent cannot (that route takes the owner token), so it is told its own chat, how chats are named,
 * that the table (readable to it, named in its developer instructions) lists the profiles, and where
 * the manual is.
 */
export function chatsHint(ep: ApiEndpoint): string {
  if (ep.from === null && ep.mailbox === null) return 'the chats: angelia profiles';
  const own = ep.from !== null ? `your own chat is "${ep.from}"; ` : '';
  return `${own}a profile's first chat is named after the profile, and the profiles are in Angelia's table (your instructions name its file); see angelia guide profiles`;
}

/**
 * `withApi` (api/cli.ts) with an unknown chat answered as a usage error: exit 2 and
 * `angelia <command>: <reason> (<where to find the names>)` on stderr, like `run` and `export` do for an
 * unknown profile or chat (chatsHint: the owner is pointed at `angelia profiles`, an agent at what it
 * can do). Every other outcome is withApi's.
 */
export async function withApiNamed<T>(
  command: string,
  io: CliIo,
  call: (ep: ApiEndpoint, api: ApiCall) => Promise<T>,
  done: (value: T) => number,
): Promise<number> {
  let unknown: { message: string; hint: string } | null = null;
  return withApi<{ value: T } | null>(
    command,
    io,
    async (ep, api) => {
      try {
        return { value: await call(ep, api) };
      } catch (e) {
        if (!isUnknownName(e)) throw e;
        unknown = { message: (e as Error).message, hint: chatsHint(ep) };
        return null;
      }
    },
    (out) => {
      if (out === null) {
        const u = unknown as { message: string; hint: string } | null;
        io.stderr(`angelia ${command}: ${u?.message ?? 'no such chat'} (${u?.hint ?? 'the chats: angelia profiles'})\n`);
        return EXIT.usage;
      }
      return done(out.value);
    },
  );
}
