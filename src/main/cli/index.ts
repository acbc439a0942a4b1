/**
 * The `angelia` command line: one table of commands over the same core the app uses. Each command
 * lives in `commands/<name>.ts` and exports `run(argv): Promise<number>` (the exit code). Unknown
 * command → usage on stderr, exit 2.
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
  return command.run(rest);
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
