import type { CliCommand } from '../command';
import { initInstance } from '../../core/instance/init';
import { resolveInstance } from '../../core/instance/paths';
import { formatFailure } from '../../core/table/errors';

/**
 * `angelia init`: creates the instance (ANGELIA_STATE_DIR or ~/.angelia, mode 700) with a starter
 * table and one profile `assistant`, and says what comes next (check, compile, sign Codex in). Exit 0 when created; 1 when a table already exists or a folder
 * cannot be made (the reason on stderr as `init error: …`); 2 on an unexpected argument.
 */
export const init: CliCommand = {
  summary: 'create the instance with a starter profile',
  exits: { 0: 'created', 1: 'a table already exists, or a folder cannot be made', 2: 'usage error (init takes no arguments)' },
  async run(argv) {
    if (argv.length > 0) {
      process.stderr.write(`usage: angelia init (no arguments; ANGELIA_STATE_DIR and ANGELIA_CONFIG choose where)\n`);
      return 2;
    }
    const paths = resolveInstance(process.env);
    try {
      const result = await initInstance(paths);
      process.stdout.write(
        `created the instance in ${paths.stateDir}\n` +
          `  table: ${result.tableFile}\n` +
          `  profile assistant: ${result.profileDir}\n` +
          `next: angelia check-config, then angelia compile assistant --write (an agent starts only once its profile is compiled)\n` +
          // Always said: knowing would cost a Codex start; `angelia account` tells (docs/architecture.md "Account").
          `  and sign Codex in with angelia login (angelia account says whether it is; a model provider that needs no OpenAI sign-in needs none)\n`,
      );
      return 0;
    } catch (e) {
      process.stderr.write(`init error: ${formatFailure(e)}\n`);
      return 1;
    }
  },
};
