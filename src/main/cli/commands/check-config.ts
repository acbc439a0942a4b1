import { parseArgs } from 'node:util';
import type { CliCommand } from '../command';
import { compileCodexLaunch } from '../../core/compile/codexProfile';
import { gatherFacts } from '../../core/compile/gather';
import { resolveInstance } from '../../core/instance/paths';
import { formatFailure } from '../../core/table/errors';
import { loadTable } from '../../core/table/load';
import { toAppError } from '../../../shared/result';

/**
 * `angelia check-config [--json]`: loads the table (ANGELIA_CONFIG or <state>/workspace/angelia.toml),
 * compiles every profile without writing anything, and prints the table used, the warnings and
 * `ok: N profiles` (exit 0), or `config error: …` with where and fix (exit 1). `--json` prints one
 * object `{ok, table, profiles?, warnings?, error?}` instead. Exit 2 on a bad option.
 */
export const checkConfig: CliCommand = {
  summary: 'load and check the table',
  async run(argv) {
    let json: boolean;
    try {
      json = parseArgs({ args: argv, options: { json: { type: 'boolean' } }, strict: true, allowPositionals: false }).values.json ?? false;
    } catch (e) {
      process.stderr.write(`check-config: ${e instanceof Error ? e.message : String(e)}\nusage: angelia check-config [--json]\n`);
      return 2;
    }
    const paths = resolveInstance(process.env);
    try {
      const table = await loadTable(paths.tableFile, { home: paths.home });
      const facts = await gatherFacts(paths);
      const warnings = [...table.warnings];
      for (const name of Object.keys(table.profiles)) {
        for (const w of compileCodexLaunch(table, name, facts).warnings) warnings.push(`profile ${name}: ${w}`);
      }
      const names = Object.keys(table.profiles);
      if (json) {
        process.stdout.write(`${JSON.stringify({ ok: true, table: table.file, profiles: names, warnings })}\n`);
      } else {
        process.stdout.write(`table: ${table.file}\n`);
        for (const w of warnings) process.stdout.write(`warning: ${w}\n`);
        process.stdout.write(`ok: ${names.length} profile${names.length === 1 ? '' : 's'}\n`);
      }
      return 0;
    } catch (e) {
      if (json) process.stdout.write(`${JSON.stringify({ ok: false, table: paths.tableFile, error: toAppError(e) })}\n`);
      else process.stderr.write(`table: ${paths.tableFile}\nconfig error: ${formatFailure(e)}\n`);
      return 1;
    }
  },
};
