import { parseArgs } from 'node:util';
import type { CliCommand } from '../command';
import { configFindings } from '../../core/compile/configCheck';
import { gatherFacts } from '../../core/compile/gather';
import { snapshotProfile, type ProfileSnapshot } from '../../core/compile/snapshot';
import { resolveInstance } from '../../core/instance/paths';
import { launchFindings } from '../../core/launch/check';
import { formatFailure, keyPath, problemJson, TableFailure, type ProblemJson, type TableProblem } from '../../core/table/errors';
import { loadTable } from '../../core/table/load';
import { toAppError } from '../../../shared/result';

/** The `--json` answer: `{"table", "ok", "profiles": <count>, "errors": [...], "warnings": [...]}`. */
export interface CheckConfigJson {
  table: string;
  ok: boolean;
  profiles: number;
  errors: ProblemJson[];
  warnings: ProblemJson[];
}

/** Every error of a failed load as plain data (all problems of a TableFailure, else the one error). */
function errorsOf(e: unknown, file: string): ProblemJson[] {
  if (e instanceof TableFailure) return e.problems.map((p) => problemJson(e.file, p, 'table-invalid'));
  const app = toAppError(e);
  return [{ code: app.code, path: '(top level)', where: app.where ?? file, message: app.message, fix: app.fix ?? '' }];
}

function warningText(w: ProblemJson): string {
  return `warning: ${w.path}: ${w.message}\n  fix: ${w.fix}\n`;
}

/**
 * `angelia check-config [--json]`: loads the table (ANGELIA_CONFIG or <state>/workspace/angelia.toml)
 * and checks every profile without writing anything: the table's warnings, then compile's (never
 * compiled or drifted from the floor, self-deny, missing executable, lifted floor entries …), then every
 * other reason a start would be refused with (launch/check.ts `launchFindings`: a loosening waiting for
 * `angelia compile --write`, another folder, plan mode left …). Text:
 * `table: <file>`, one `warning: <key path>: <message>` + `  fix: …` pair per warning, then
 * `ok: N profiles` (exit 0) — or `config error: …` with `at:` and `fix:` (exit 1). `--json` prints one
 * `CheckConfigJson` object instead. Exit 2 on a bad option.
 */
export const checkConfig: CliCommand = {
  summary: 'load and check the table',
  exits: { 0: "the table loads and every profile's launch can be built", 1: 'config error (named with its field and fix)', 2: 'usage error' },
  async run(argv) {
    let json: boolean;
    try {
      json = parseArgs({ args: argv, options: { json: { type: 'boolean' } }, strict: true, allowPositionals: false }).values.json ?? false;
    } catch (e) {
      process.stderr.write(`check-config: ${e instanceof Error ? e.message : String(e)}\nusage: angelia check-config [--json]\n`);
      return 2;
    }
    const paths = resolveInstance(process.env);
    let out: CheckConfigJson;
    let failure: unknown = null;
    try {
      const table = await loadTable(paths.tableFile, { home: paths.home });
      const facts = await gatherFacts(paths);
      const snaps: Record<string, ProfileSnapshot> = {};
      for (const p of Object.values(table.profiles)) snaps[p.name] = await snapshotProfile(table, p, facts);
      const found = configFindings(table, facts, snaps, process.env);
      // Every reason a start would be refused with that compile's own view does not name (launch/check.ts).
      found.warnings.push(...(await launchFindings(paths.stateDir, table, facts)));
      const json = (p: TableProblem, code: string): ProblemJson => problemJson(table.file, p, code);
      out = {
        table: table.file,
        ok: found.errors.length === 0,
        profiles: Object.keys(table.profiles).length,
        errors: found.errors.map((p) => json(p, 'launch-invalid')),
        warnings: [...table.warnings, ...found.warnings].map((p) => json(p, 'warning')),
      };
      if (found.errors.length > 0) failure = found.errors.map((p) => `${keyPath(p.path)}: ${p.message}\n  fix: ${p.fix}`).join('\n');
    } catch (e) {
      out = { table: paths.tableFile, ok: false, profiles: 0, errors: errorsOf(e, paths.tableFile), warnings: [] };
      failure = e;
    }
    if (json) {
      process.stdout.write(`${JSON.stringify(out)}\n`);
      return out.ok ? 0 : 1;
    }
    process.stdout.write(`table: ${out.table}\n`);
    for (const w of out.warnings) process.stdout.write(warningText(w));
    if (failure !== null) {
      // The table was named once, on stdout, above.
      process.stderr.write(`config error: ${typeof failure === 'string' ? failure : formatFailure(failure)}\n`);
      return 1;
    }
    process.stdout.write(`ok: ${out.profiles} profile${out.profiles === 1 ? '' : 's'}\n`);
    return 0;
  },
};
