/**
 * What the API's CLI commands (`send`, `send-media`, `turn`, `ask`, `profiles`, `status`) share: their
 * input and output (an `io` a test can hand in), reading a message given as text, `-` (stdin) or
 * `@file`, and the exit codes:
 * `0` done · `1` Angelia refused (the reason on stderr) · `2` usage error · `3` Angelia is not running.
 * Each call picks its channel itself (client.ts): the API socket, or, inside an agent whose sandbox
 * refuses Unix sockets, the chat's mailbox.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ApiClientError, callApi, locateApi, type ApiEndpoint, type CallOptions } from './client';

/** Exit codes of the API commands. */
export const EXIT = { ok: 0, refused: 1, usage: 2, notRunning: 3 } as const;

/** Where a command reads and writes. */
export interface CliIo {
  env: NodeJS.ProcessEnv;
  /** The working folder (relative paths in arguments resolve against it). */
  cwd: string;
  stdout(text: string): void;
  stderr(text: string): void;
  /** True when stdout is a terminal (an agent's text printed there is escaped: src/main/cli/terminalText.ts). */
  stdoutIsTTY?: boolean;
  /** The whole of stdin, for `-`. */
  stdin(): Promise<string>;
}

/** The io of the running process. */
export function processIo(): CliIo {
  return {
    env: process.env,
    cwd: process.cwd(),
    stdout: (t) => void process.stdout.write(t),
    stderr: (t) => void process.stderr.write(t),
    stdoutIsTTY: process.stdout.isTTY === true,
    stdin: async () => {
      const chunks: Buffer[] = [];
      for await (const c of process.stdin) chunks.push(c as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
  };
}

/**
 * How many positionals came before `--` in parseArgs `tokens` (all of them when there is no `--`).
 * After `--` every word is text: never an option (`--help` too), never `-` (stdin) or `@file`.
 */
export function positionalsBeforeTerminator(tokens: readonly { kind: string; index: number }[]): number {
  const end = tokens.find((t) => t.kind === 'option-terminator')?.index ?? Infinity;
  return tokens.filter((t) => t.kind === 'positional' && t.index < end).length;
}

/**
 * A message argument: `-` reads stdin, `@file` reads the file, anything else is the text itself (words
 * joined by spaces). `literal` (the words came after `--`): always the text itself.
 */
export async function messageArg(words: string[], io: CliIo, literal = false): Promise<string> {
  if (literal) return words.join(' ');
  if (words.length === 1 && words[0] === '-') return (await io.stdin()).replace(/\n$/, '');
  if (words.length === 1 && words[0]!.startsWith('@') && words[0]!.length > 1) {
    return (await readFile(resolve(io.cwd, words[0]!.slice(1)), 'utf8')).replace(/\n$/, '');
  }
  return words.join(' ');
}

/**
 * Runs `call` against the located API and maps failures to exit codes with a line on stderr
 * (`angelia <command>: <reason>`). Answers the exit code `done` returns, or the failure's.
 */
export async function withApi<T>(
  command: string,
  io: CliIo,
  call: (ep: ApiEndpoint, api: <R>(method: 'GET' | 'POST', path: string, body?: unknown, opts?: CallOptions) => Promise<R>) => Promise<T>,
  done: (value: T) => number,
): Promise<number> {
  try {
    const ep = locateApi(io.env);
    const value = await call(ep, (method, path, body, opts) => callApi(ep, method, path, body, opts));
    return done(value);
  } catch (e) {
    if (e instanceof ApiClientError) {
      io.stderr(`angelia ${command}: ${e.message}\n`);
      return e.code === 'not-running' || e.code === 'no-token' ? EXIT.notRunning : EXIT.refused;
    }
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
      io.stderr(`angelia ${command}: ${(e as Error).message}\n`);
      return EXIT.usage;
    }
    throw e;
  }
}
