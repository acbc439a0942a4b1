/**
 * `angelia turn [--file PATH]… [--json] <chat> [--] <text | - | @file>`: gives a chat's agent a turn over the
 * local API (`POST /turn`). From inside an agent, a turn in another profile's chat needs that profile's
 * `accept_from`, and arrives labelled `[from <profile>]`. `--file` (owner only) attaches files into the
 * profile's `.inbox/`. Prints `queued <turn id>` (`--json`: the API's answer).
 * Exit: 0 queued · 1 refused (e.g. the chat already holds 10 messages) · 2 usage, or no such chat · 3 not running.
 */
import { isAbsolute, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { EXIT, messageArg, positionalsBeforeTerminator, processIo, type CliIo } from '../../api/cli';
import type { CliCommand } from '../command';
import { API_EXITS, MESSAGE_OPTIONS, withApiNamed } from '../exit';

const USAGE = 'usage: angelia turn [--file PATH]… [--json] <chat> [--] <text | - | @file>\n';

/** Runs `turn` with `argv` on `io`; answers the exit code. */
export async function runTurn(argv: string[], io: CliIo): Promise<number> {
  let values: { file?: string[]; json?: boolean };
  let positionals: string[];
  let tokens: { kind: string; index: number }[];
  try {
    ({ values, positionals, tokens } = parseArgs({
      args: argv,
      allowPositionals: true,
      tokens: true,
      options: { file: { type: 'string', multiple: true }, json: { type: 'boolean' } },
    }));
  } catch (e) {
    io.stderr(`angelia turn: ${(e as Error).message}\n${USAGE}`);
    return EXIT.usage;
  }
  const [key, ...words] = positionals;
  const files = (values.file ?? []).map((f) => (f.startsWith('~') || isAbsolute(f) ? f : resolve(io.cwd, f)));
  if (!key || (words.length === 0 && files.length === 0)) {
    io.stderr(USAGE);
    return EXIT.usage;
  }
  return withApiNamed(
    'turn',
    io,
    async (ep, api) => {
      const text = words.length ? await messageArg(words, io, positionalsBeforeTerminator(tokens) <= 1) : undefined;
      return api<{ ok: true; queued: number; turn: string }>('POST', '/turn', {
        key,
        ...(text !== undefined ? { text } : {}),
        ...(files.length ? { files } : {}),
        ...(ep.from && ep.from !== key ? { from: ep.from } : {}),
      });
    },
    (out) => {
      io.stdout(values.json ? `${JSON.stringify(out)}\n` : `queued ${out.turn}\n`);
      return EXIT.ok;
    },
  );
}

/** The `turn` command of the command table. */
export const turn: CliCommand = {
  summary: "give a chat's agent a turn: turn [--file PATH]… [--json] <chat> [--] <text | - | @file>",
  exits: API_EXITS,
  options: [...MESSAGE_OPTIONS, "--file PATH  attach a file into the profile's .inbox/ (owner only; repeatable)", "--json   print the API's answer as JSON"],
  run: (argv) => runTurn(argv, processIo()),
};
