/**
 * The `angelia` command line: one table of commands over the same core the app uses. Each command
 * lives in `commands/<name>.ts` and exports `run(argv): Promise<number>` (the exit code). Unknown
 * command → usage on stderr, exit 2. `angelia <command> --help` (or `-h`, before any `--`: after it
 * every word is an argument) prints the command's usage line, its options and its exit codes, exit 0. `angelia --version` (or `-v`) is `angelia version`. A bad option
 * (Node's parseArgs errors, `ERR_PARSE_ARGS_*`) is a usage error: exit 2; so is an unknown profile,
 * chat or session a command did not catch itself (cli/exit.ts `isUnknownName`).
 */
import type { CliCommand } from './command';
import { loadAllCommands, loadCommand } from './commands/lazy';

// Only the named command's module is loaded (commands/lazy.ts); the usage text loads them all, and
// cli/exit.ts (it reaches the API client) is loaded only for help and errors.
async function usage(commands: Record<string, CliCommand>): Promise<string> {
  const { exitCodesText } = await import('./exit');
  const lines = Object.entries(commands).map(([name, c]) => `  ${name.padEnd(14)} ${c.summary}`);
  return (
    `usage: angelia <command> [options]   (angelia <command> --help: its usage and exit codes; angelia --version)\n\ncommands:\n${lines.join('\n')}\n\n` +
    exitCodesText({
      0: 'done',
      1: 'a failure during the work',
      2: 'usage error, or an unknown profile, chat or session',
      3: 'the start was refused (or, for the commands that talk to Angelia, it is not running)',
    })
  );
}

/** The text `angelia <name> --help` prints (cli/exit.ts commandHelpText). */
async function helpText(name: string, command: CliCommand): Promise<string> {
  return (await import('./exit')).commandHelpText(name, command);
}

/**
 * `angelia run <profile> …`: starts Codex from the chat's last launch while the rest of `run` loads
 * (core/codex/prespawn.ts; used only if the plan then computed is identical, else killed). The chat of
 * `run <profile>` is the profile's first chat, named after it.
 */
async function prespawnForRun(args: string[]): Promise<void> {
  let profile: string | undefined;
  for (let i = 0; i < args.length && profile === undefined; i++) {
    const a = args[i]!;
    if (a === '--') profile = args[i + 1];
    else if (a === '--approve') i++;
    else if (!a.startsWith('-')) profile = a;
  }
  if (!profile) return;
  const [{ prespawnCodex }, { resolveStateDir }] = await Promise.all([import('../core/codex/prespawn'), import('../core/instance/stateDir')]);
  prespawnCodex(resolveStateDir(process.env).stateDir, profile, process.env);
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === 'run' && !rest.includes('--help') && !rest.includes('-h')) await prespawnForRun(rest);
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(await usage(await loadAllCommands()));
    return name ? 0 : 2;
  }
  if (name === '--version' || name === '-v') return (await loadCommand('version'))!.run(rest);
  const command = await loadCommand(name);
  if (!command) {
    process.stderr.write(`angelia: unknown command "${name}"\n${await usage(await loadAllCommands())}`);
    return 2;
  }
  // After `--` every word is an argument (`angelia send alpha -- --help` sends the text "--help").
  const terminator = rest.indexOf('--');
  const options = terminator === -1 ? rest : rest.slice(0, terminator);
  if (options.includes('--help') || options.includes('-h')) {
    process.stdout.write(await helpText(name, command));
    return 0;
  }
  try {
    return await command.run(rest);
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`angelia ${name}: ${(e as Error).message}\nusage: angelia ${name}: ${command.summary}\n`);
      return 2;
    }
    if ((await import('./exit')).isUnknownName(e)) {
      process.stderr.write(`angelia ${name}: ${(e as Error).message}\n`);
      return 2;
    }
    throw e;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`angelia: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 1;
  },
);
