import { parseArgs } from 'node:util';
import type { CliCommand } from '../command';
import { compileCodexLaunch, type CodexLaunch } from '../../core/compile/codexProfile';
import type { CompileFacts } from '../../core/compile/facts';
import { gatherFacts } from '../../core/compile/gather';
import type { ProfilePlan } from '../../core/compile/plan';
import { planLinesText, planText } from '../../core/compile/planText';
import { compileCheck, compileWrite, planProfiles } from '../../core/compile/write';
import { resolveInstance, type InstancePaths } from '../../core/instance/paths';
import { formatFailure } from '../../core/table/errors';
import { requireAccepted } from '../../core/table/accepted';
import { loadTable, type LoadedTable, type LoadOptions } from '../../core/table/load';
import { AppFailure } from '../../../shared/result';

const USAGE = 'usage: angelia compile [profile...] [--write | --check] [--json]\n'
  + '  (no flag: print the plan; --write needs profile names; --json needs exactly one profile and no --write/--check)\n';

/**
 * HOOK (accepted table): the table `angelia compile --write` compiles: the ACCEPTED table
 * (table/accepted.ts `requireAccepted`; the first run takes the table as it stands). A table on disk
 * with changes not yet accepted is refused (`table-not-accepted`, fix `angelia accept`), seed-spec.md §2,
 * product.md §2 "Accepted table".
 */
export async function tableForWrite(paths: InstancePaths, options: LoadOptions): Promise<LoadedTable> {
  return requireAccepted(paths, options);
}

/**
 * The stable `--json` shape (checked from outside): these keys first, in this order,
 * `{"profile", "sandboxed", "codexArgs", "env", "filesystem", "warnings"}`; fields may be added after
 * them (`mcpServers`, `plan`), never removed or renamed.
 */
export function compileJson(launch: CodexLaunch, plan?: ProfilePlan): string {
  const { profile, sandboxed, codexArgs, env, filesystem, warnings, mcpServers } = launch;
  const extra = plan ? { plan: { upToDate: !plan.changed && plan.conflicts.length === 0, lines: plan.lines, conflicts: plan.conflicts } } : {};
  return JSON.stringify({ profile, sandboxed, codexArgs, env, filesystem, warnings, mcpServers, ...extra });
}

interface Options { names: string[]; write: boolean; check: boolean; json: boolean }

function parse(argv: string[]): Options | string {
  try {
    const { values, positionals } = parseArgs({
      args: argv, strict: true, allowPositionals: true,
      options: { json: { type: 'boolean' }, write: { type: 'boolean' }, check: { type: 'boolean' } },
    });
    const o = { names: positionals, write: values.write ?? false, check: values.check ?? false, json: values.json ?? false };
    if (o.write && o.check) return '--write and --check do not go together';
    if (o.write && o.names.length === 0) return '--write needs explicit profile names (capabilities go live one profile at a time)';
    if (o.json && (o.write || o.check)) return '--json goes only with the plan of one profile';
    if (o.json && o.names.length !== 1) return '--json needs exactly one profile name';
    return o;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

function launchText(table: LoadedTable, name: string, facts: CompileFacts): string {
  try {
    return planText(compileCodexLaunch(table, name, facts), table.profiles[name]!.permissionMode);
  } catch {
    return '';
  }
}

async function preview(table: LoadedTable, o: Options, facts: CompileFacts): Promise<number> {
  const plans = await planProfiles(table, o.names, facts);
  if (o.json) {
    process.stdout.write(`${compileJson(compileCodexLaunch(table, o.names[0]!, facts), plans[0])}\n`);
    return 0;
  }
  process.stdout.write(`table: ${table.file}\n`);
  for (const plan of plans) process.stdout.write(`\n${planLinesText(plan)}launch:\n${launchText(table, plan.profile, facts)}`);
  return 0;
}

async function write(paths: InstancePaths, o: Options, options: LoadOptions): Promise<number> {
  const table = await tableForWrite(paths, options);
  const facts = await gatherFacts(paths);
  process.stdout.write(`table: ${table.file}\n`);
  try {
    const results = await compileWrite(table, o.names, facts);
    for (const r of results) {
      process.stdout.write(`\n${planLinesText(r.plan)}`);
      process.stdout.write(r.written.length > 0 ? `  written: ${r.written.length} file(s) and link(s)\n` : '');
    }
    return 0;
  } catch (e) {
    if (e instanceof AppFailure && e.app.code === 'compile-conflict') {
      for (const plan of await planProfiles(table, o.names, facts)) process.stdout.write(`\n${planLinesText(plan)}`);
    }
    throw e;
  }
}

async function check(table: LoadedTable, o: Options, facts: CompileFacts): Promise<number> {
  const results = await compileCheck(table, o.names, facts);
  process.stdout.write(`table: ${table.file}\n`);
  for (const r of results) {
    if (r.status === 'differs') process.stdout.write(`\n${planLinesText(r.plan)}`);
    else process.stdout.write(`\nprofile ${r.profile}: ${r.status === 'skipped' ? 'never compiled (skipped)' : 'up to date'}\n`);
  }
  const drift = results.filter((r) => r.status === 'differs').map((r) => r.profile);
  if (drift.length > 0) process.stderr.write(`compile --check: ${drift.join(', ')} differ${drift.length === 1 ? 's' : ''} from what compile would write; run angelia compile --write ${drift.join(' ')}\n`);
  return drift.length > 0 ? 1 : 0;
}

/**
 * `angelia compile [profile…] [--write | --check] [--json]` (seed-spec.md §2). Without a flag: prints
 * each profile's plan (`+`, `-`, `~`, `CONFLICT`, `note:` lines or "up to date") and its Codex launch;
 * writes nothing. `--write <names…>`: applies the named plans, refusing (nothing written) when any has a
 * conflict. `--check`: exit 1 when any compiled profile differs from what compile would write (never
 * compiled ones are skipped). `--json` (one profile, plan only): one object, see `compileJson`.
 * Exit 0; 1 on a table, compile or conflict error (`compile error: …` on stderr) or on drift; 2 on bad
 * usage.
 */
export const compile: CliCommand = {
  summary: 'show, write or check what profiles compile to',
  async run(argv) {
    const o = parse(argv);
    if (typeof o === 'string') {
      process.stderr.write(`compile: ${o}\n${USAGE}`);
      return 2;
    }
    const paths = resolveInstance(process.env);
    const options = { home: paths.home };
    try {
      if (o.write) return await write(paths, o, options);
      const table = await loadTable(paths.tableFile, options);
      const facts = await gatherFacts(paths);
      return o.check ? await check(table, o, facts) : await preview(table, o, facts);
    } catch (e) {
      process.stderr.write(`compile error: ${formatFailure(e)}\n`);
      return 1;
    }
  },
};
