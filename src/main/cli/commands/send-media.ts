/**
 * `angelia send-media <chat> <path> [caption…] [--caption X] [--name FILE]`: posts a file into a chat over
 * the local API (`POST /send-media`). The path is made absolute here (against the working folder; `~/`
 * is expanded by Angelia); Angelia checks it (no credential, system or state location, the asking
 * profile's Read rules, a regular file of at most 25 MiB) and shows a private copy. An agent may post
 * only into its own chat. Prints `sent <name> (<size> bytes)`.
 * Exit: 0 sent · 1 refused · 2 usage, or no such chat · 3 Angelia is not running.
 */
import { isAbsolute, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { isHomePath } from '../../../shared/homePath';
import { EXIT, processIo, type CliIo } from '../../api/cli';
import type { CliCommand } from '../command';
import { API_EXITS, withApiNamed } from '../exit';

const USAGE = 'usage: angelia send-media <chat> <path> [caption] [--caption X] [--name FILE]\n';

/** Runs `send-media` with `argv` on `io`; answers the exit code. */
export async function runSendMedia(argv: string[], io: CliIo): Promise<number> {
  let values: { caption?: string; name?: string };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { caption: { type: 'string' }, name: { type: 'string' } } }));
  } catch (e) {
    io.stderr(`angelia send-media: ${(e as Error).message}\n${USAGE}`);
    return EXIT.usage;
  }
  const [key, path, ...words] = positionals;
  if (!key || !path || (words.length > 0 && values.caption !== undefined)) {
    io.stderr(USAGE);
    return EXIT.usage;
  }
  const caption = values.caption ?? (words.length ? words.join(' ') : undefined);
  const absolute = isHomePath(path) || isAbsolute(path) ? path : resolve(io.cwd, path);
  return withApiNamed(
    'send-media',
    io,
    async (ep, api) =>
      api<{ name: string; size: number }>('POST', '/send-media', {
        key,
        path: absolute,
        ...(caption !== undefined ? { caption } : {}),
        ...(values.name !== undefined ? { file_name: values.name } : {}),
        ...(ep.from && ep.from !== key ? { from: ep.from } : {}),
      }),
    (out) => {
      io.stdout(`sent ${out.name} (${out.size} bytes)\n`);
      return EXIT.ok;
    },
  );
}

/** The `send-media` command of the command table. */
export const sendMedia: CliCommand = {
  summary: 'post a file into a chat: send-media <chat> <path> [caption] [--caption X] [--name FILE]',
  exits: API_EXITS,
  run: (argv) => runSendMedia(argv, processIo()),
};
