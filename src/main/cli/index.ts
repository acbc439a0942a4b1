/**
 * The `angelia` command line: one table of commands over the same core the app uses. Each command
 * lives in `commands/<name>.ts` and exports `run(argv): Promise<number>` (the exit code). Unknown
 * command → usage on stderr, exit 2. `angelia <command> --help` (or `-h`) prints the command's usage
 * line, exit 0. A bad option (Node's parseArgs errors, `ERR_PARSE_ARGS_*`) is a usage error: exit 2.
 */
import { commands } from './commands';

function usage(): string {
  const lines = Object.entries(commands).map(([name, c]) => `  ${name.padEnd(14)} ${c.summary}`);
  return `usage: angelia <command> [options]\n\ncommands:\n${lines.join('\n')}\n`;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(usage());
    return name ? 0 : 2;
  }
  const command = commands[name];
  if (!command) {
    process.stderr.write(`angelia: unknown command "${name}"\n${usage()}`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(`angelia ${name}: ${command.summary}\n`);
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
