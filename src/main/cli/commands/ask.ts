/**
 * `angelia ask [--json] <chat> [--] <text | - | @file>`: asks a chat's agent over the local API (`POST /ask`)
 * and prints its answer (Angelia waits up to 10 minutes). From inside an agent, the asked profile's
 * `answer_from` must list the asking one; an agent cannot ask its own chat.
 * Exit: 0 answered · 1 refused, failed or timed out · 2 usage, or no such chat · 3 Angelia is not running.
 */
import { parseArgs } from 'node:util';
import { EXIT, messageArg, positionalsBeforeTerminator, processIo, type CliIo } from '../../api/cli';
import type { CliCommand } from '../command';
import { API_EXITS, MESSAGE_OPTIONS, withApiNamed } from '../exit';
import { visibleText } from '../../../shared/untrustedText';

const USAGE = 'usage: angelia ask [--json] <chat> [--] <text | - | @file>\n';
/** The client waits a minute longer than Angelia does, so Angelia's own timeout answer arrives. */
const CLIENT_TIMEOUT_MS = 11 * 60_000;

/** Runs `ask` with `argv` on `io`; answers the exit code. */
export async function runAsk(argv: string[], io: CliIo): Promise<number> {
  let values: { json?: boolean };
  let positionals: string[];
  let tokens: { kind: string; index: number }[];
  try {
    ({ values, positionals, tokens } = parseArgs({ args: argv, allowPositionals: true, tokens: true, options: { json: { type: 'boolean' } } }));
  } catch (e) {
    io.stderr(`angelia ask: ${(e as Error).message}\n${USAGE}`);
    return EXIT.usage;
  }
  const [key, ...words] = positionals;
  if (!key || words.length === 0) {
    io.stderr(USAGE);
    return EXIT.usage;
  }
  return withApiNamed(
    'ask',
    io,
    async (ep, api) => {
      const text = await messageArg(words, io, positionalsBeforeTerminator(tokens) <= 1);
      return api<{ answer: string }>('POST', '/ask', { key, text, ...(ep.from && ep.from !== key ? { from: ep.from } : {}) }, { timeoutMs: CLIENT_TIMEOUT_MS });
    },
    (out) => {
      // The agent's answer is escaped on a terminal (visibleText), printed as written into a pipe or file.
      io.stdout(values.json ? `${JSON.stringify(out)}\n` : `${io.stdoutIsTTY ? visibleText(out.answer, { lines: true }) : out.answer}\n`);
      return EXIT.ok;
    },
  );
}

/** The `ask` command of the command table. */
export const ask: CliCommand = {
  summary: "ask a chat's agent and print the answer: ask [--json] <chat> [--] <text | - | @file>",
  exits: { ...API_EXITS, 1: 'Angelia refused, or the answer failed or timed out' },
  options: [...MESSAGE_OPTIONS, "--json   print the API's answer as JSON"],
  run: (argv) => runAsk(argv, processIo()),
};
