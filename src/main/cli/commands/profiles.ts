/**
 * `angelia profiles [--json]`: the profiles of the accepted table and their chats, from the running
 * Angelia (`GET /profiles`, owner token). `--json` prints the API's answer as it is
 * (`{version: 1, profiles: [{name, backend, folder, permissionMode, sandboxed, model, effort, isolated,
 * acceptFrom, answerFrom, chats: [{chat, session, sessions}]}]}`).
 * Exit: 0 · 1 refused · 2 usage · 3 Angelia is not running.
 */
import { parseArgs } from 'node:util';
import { EXIT, processIo, withApi, type CliIo } from '../../api/cli';
import { shortId } from '../../core/chats/sessions';
import type { CliCommand } from '../command';

interface ProfilesAnswer {
  version: 1;
  profiles: {
    name: string;
    folder: string;
    permissionMode: string;
    sandboxed: boolean;
    model: string | null;
    isolated: boolean;
    chats: { chat: string; session: string | null; sessions: string[] }[];
  }[];
}

/** Runs `profiles` with `argv` on `io`; answers the exit code. */
export async function runProfiles(argv: string[], io: CliIo): Promise<number> {
  let values: { json?: boolean };
  try {
    ({ values } = parseArgs({ args: argv, allowPositionals: false, options: { json: { type: 'boolean' } } }));
  } catch (e) {
    io.stderr(`angelia profiles: ${(e as Error).message}\nusage: angelia profiles [--json]\n`);
    return EXIT.usage;
  }
  return withApi(
    'profiles',
    io,
    (_ep, api) => api<ProfilesAnswer>('GET', '/profiles'),
    (out) => {
      if (values.json) {
        io.stdout(`${JSON.stringify(out, null, 2)}\n`);
        return EXIT.ok;
      }
      for (const p of out.profiles) {
        const flags = [
          p.permissionMode,
          p.sandboxed ? 'sandboxed' : 'NO SANDBOX',
          ...(p.isolated ? ['isolated'] : []),
          ...(p.model ? [`model ${p.model}`] : []),
        ];
        io.stdout(`${p.name}  ${p.folder}  (${flags.join(', ')})\n`);
        for (const c of p.chats)
          io.stdout(`  chat ${c.chat}: ${c.sessions.length} session(s)${c.session ? `, active ${shortId(c.session, c.sessions)}` : ''}\n`);
      }
      if (out.profiles.length === 0) io.stdout('no profiles\n');
      return EXIT.ok;
    },
  );
}

/** The `profiles` command of the command table. */
export const profiles: CliCommand = {
  summary: 'the profiles and their chats, from the running Angelia: profiles [--json]',
  exits: { 0: 'listed', 1: 'Angelia refused', 2: 'usage error', 3: 'Angelia is not running' },
  run: (argv) => runProfiles(argv, processIo()),
};
