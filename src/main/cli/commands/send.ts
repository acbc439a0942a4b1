/**
 * `angelia send <chat> [--] <text | - | @file>`: posts a line into a chat over the local API (`POST /send`),
 * shown without running a turn. Inside an agent it speaks with the chat token (`ANGELIA_API_TOKEN`, or
 * the identity file of the chat's mailbox) and, for another chat, sends `from` = its own chat; otherwise
 * as the owner. The socket is used when it connects, else the chat's mailbox (api/client.ts).
 * `MEDIA:<absolute path>` lines attach files (not into another profile's chat). Prints `sent`.
 * Exit: 0 sent · 1 refused · 2 usage, or no such chat · 3 Angelia is not running.
 */
import { parseArgs } from 'node:util';
import { EXIT, messageArg, positionalsBeforeTerminator, processIo, type CliIo } from '../../api/cli';
import type { CliCommand } from '../command';
import { API_EXITS, MESSAGE_OPTIONS, withApiNamed } from '../exit';

const USAGE = 'usage: angelia send <chat> [--] <text | - | @file>\n';

/** Runs `send` with `argv` (after the command name) on `io`; answers the exit code. */
export async function runSend(argv: string[], io: CliIo): Promise<number> {
  let positionals: string[];
  let tokens: { kind: string; index: number }[];
  try {
    ({ positionals, tokens } = parseArgs({ args: argv, allowPositionals: true, tokens: true, options: {} }));
  } catch (e) {
    io.stderr(`angelia send: ${(e as Error).message}\n${USAGE}`);
    return EXIT.usage;
  }
  const [key, ...words] = positionals;
  if (!key || words.length === 0) {
    io.stderr(USAGE);
    return EXIT.usage;
  }
  return withApiNamed(
    'send',
    io,
    async (ep, api) => {
      const text = await messageArg(words, io, positionalsBeforeTerminator(tokens) <= 1);
      return api('POST', '/send', { key, text, ...(ep.from && ep.from !== key ? { from: ep.from } : {}) });
    },
    () => {
      io.stdout('sent\n');
      return EXIT.ok;
    },
  );
}

/** The `send` command of the command table. */
export const send: CliCommand = {
  summary: 'post a line into a chat (no turn): send <chat> [--] <text | - | @file>',
  exits: API_EXITS,
  options: MESSAGE_OPTIONS,
  run: (argv) => runSend(argv, processIo()),
};
