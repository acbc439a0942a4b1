import { parseArgs } from 'node:util';
import type { CliCommand } from '../command';
import { compileCodexLaunch, type CodexLaunch } from '../../core/compile/codexProfile';
import { gatherFacts } from '../../core/compile/gather';
import { planText } from '../../core/compile/planText';
import { resolveInstance } from '../../core/instance/paths';
import { formatFailure } from '../../core/table/errors';
import { loadTable } from '../../core/table/load';

const USAGE = 'usage: angelia compile [profile...] [--json]   (--json needs exactly one profile)\n';

/**
 * The stable `--json` shape (checked from outside): exactly these keys, in this order.
 * `{"profile", "sandboxed", "codexArgs", "env", "filesystem", "warnings"}`.
 */
export function compileJson(launch: CodexLaunch): string {
  const { profile, sandboxed, codexArgs, env, filesystem, warnings } = launch;
  return JSON.stringify({ profile, sandboxed, codexArgs, env, filesystem, warnings });
}

/**
 * `angelia compile [profile…] [--json]`: shows what each profile compiles to for Codex (nothing is
 * written yet). Without names, every profile. `--json` with one name prints exactly one JSON object
 * (see `compileJson`). Exit 0; 1 on a table or compile error (`compile error: …` on stderr); 2 on
 * bad usage.
 */
export const compile: CliCommand = {
  summary: 'show the Codex launch a profile compiles to',
  async run(argv) {
    let json: boolean;
    let names: string[];
    try {
      const parsed = parseArgs({ args: argv, options: { json: { type: 'boolean' } }, strict: true, allowPositionals: true });
      json = parsed.values.json ?? false;
      names = parsed.positionals;
    } catch (e) {
      process.stderr.write(`compile: ${e instanceof Error ? e.message : String(e)}\n${USAGE}`);
      return 2;
    }
    if (json && names.length !== 1) {
      process.stderr.write(`compile: --json needs exactly one profile name\n${USAGE}`);
      return 2;
    }
    const paths = resolveInstance(process.env);
    try {
      const table = await loadTable(paths.tableFile, { home: paths.home });
      const facts = await gatherFacts(paths);
      const launches = (names.length > 0 ? names : Object.keys(table.profiles)).map((name) => compileCodexLaunch(table, name, facts));
      if (json) {
        process.stdout.write(`${compileJson(launches[0]!)}\n`);
      } else {
        process.stdout.write(`table: ${table.file}\n`);
        for (const launch of launches) process.stdout.write(`\n${planText(launch, table.profiles[launch.profile]!.permissionMode)}`);
      }
      return 0;
    } catch (e) {
      process.stderr.write(`compile error: ${formatFailure(e)}\n`);
      return 1;
    }
  },
};
