import { parseArgs } from 'node:util';
import type { CliCommand } from '../command';
import { isUnknownName } from '../exit';
import { compileCodexLaunch, type CodexLaunch } from '../../core/compile/codexProfile';
import type { CompileFacts } from '../../core/compile/facts';
import { gatherFacts } from '../../core/compile/gather';
import type { ProfilePlan } from '../../core/compile/plan';
import { planLinesText, planText } from '../../core/compile/planText';
import { compileCheck, compileWrite, planProfiles } from '../../core/compile/write';
import { resolveInstance, type InstancePaths } from '../../core/instance/paths';
import { formatFailure } from '../../core/table/errors';
import { compareWithAccepted, requireAccepted, type TableComparison } from '../../core/table/accepted';
import { diffText, type TableChange } from '../../core/table/diff';
import { loadTable, type LoadedTable, type LoadOptions } from '../../core/table/load';
import { AppFailure } from '../../../shared/result';

const USAGE =
  'usage: angelia compile [profile...] [--write | --check] [--json]\n' +
  '  (no flag: print the plan; --write needs profile names; --json needs exactly one profile and no --write/--check)\n';

/**
 * HOOK (accepted table): the table `angelia compile --write` compiles: the ACCEPTED table
 * (table/accepted.ts `requireAccepted`; the first run takes the table as it stands). A table on disk
 * with changes not yet accepted is refused (`table-not-accepted`, fix `angelia accept`), so an
 * edit nobody accepted never reaches a sandbox.
 */
export async function tableForWrite(paths: InstancePaths, options: LoadOptions): Promise<LoadedTable> {
  return requireAccepted(paths, options);
}

/**
 * The stable `--json` shape (checked from outside): these keys first, in this order,
 * `{"profile", "sandboxed", "codexArgs", "env", "filesystem", "warnings"}`; fields may be added after
 * them (`mcpServers`, `plan`), never removed or renamed. `plan.tableNotAccepted`: the table on disk (what
 * the plan is of) has changes touching this profile that were never accepted (`pendingFor`).
 */
export function compileJson(launch: CodexLaunch, plan?: ProfilePlan, tableNotAccepted = false): string {
  const { profile, sandboxed, codexArgs, env, filesystem, warnings, mcpServers } = launch;
  const extra = plan
    ? { plan: { upToDate: !plan.changed && plan.conflicts.length === 0, lines: plan.lines, conflicts: plan.conflicts, tableNotAccepted } }
    : {};
  return JSON.stringify({ profile, sandboxed, codexArgs, env, filesystem, warnings, mcpServers, ...extra });
}

interface Options {
  names: string[];
  write: boolean;
  check: boolean;
  json: boolean;
}

function parse(argv: string[]): Options | string {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
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
    return planText(compileCodexLaunch(table, name, facts), table.profiles[name]!.permissionMode, table.profiles[name]!.env);
  } catch {
    return '';
  }
}

/**
 * The table on disk against the accepted copy, or null when there is nothing to tell: no accepted copy
 * yet (the first `--write` takes the table as it stands), no difference, or an accepted copy that
 * cannot be read (compile --write names that itself).
 */
async function pendingChanges(paths: InstancePaths, options: LoadOptions): Promise<TableComparison | null> {
  const cmp = await compareWithAccepted(paths, options).catch(() => null);
  return cmp && !cmp.firstRun && cmp.differs ? cmp : null;
}

/** Whether changes not accepted yet touch profile `name`: its own section, or anything outside `profiles` (defaults, capabilities). */
export function pendingFor(changes: readonly TableChange[], name: string): boolean {
  return changes.some((c) => c.path[0] !== 'profiles' || c.path.length < 2 || c.path[1] === name);
}

async function preview(paths: InstancePaths, options: LoadOptions, table: LoadedTable, o: Options, facts: CompileFacts): Promise<number> {
  const plans = await planProfiles(table, o.names, facts);
  const pending = await pendingChanges(paths, options);
  const conflicted = plans.filter((p) => p.conflicts.length > 0).map((p) => p.profile);
  if (o.json) {
    process.stdout.write(
      `${compileJson(compileCodexLaunch(table, o.names[0]!, facts), plans[0], pending !== null && pendingFor(pending.changes, o.names[0]!))}\n`,
    );
    return conflicted.length > 0 ? 1 : 0;
  }
  process.stdout.write(`table: ${table.file}\n`);
  if (pending) {
    const n = pending.changes.length;
    process.stdout.write(
      `the table on disk differs from the accepted copy (${pending.acceptedFile}): ${n} change${n === 1 ? '' : 's'} never accepted, so this plan is of a table agents do not run on, and compile --write refuses until you run angelia accept\n`,
    );
    for (const line of diffText(pending.changes)) process.stdout.write(`  ${line}\n`);
  }
  for (const plan of plans) {
    let text = planLinesText(plan);
    if (pending && pendingFor(pending.changes, plan.profile)) {
      // "up to date" with files compiled from the accepted table would hide the change waiting on disk.
      text = `${text.replace(/^ {2}up to date$/m, '  up to date with the table on disk, not with the accepted copy')}  note: the table on disk has changes for this profile that were never accepted: run angelia accept, then angelia compile --write ${plan.profile}\n`;
    }
    process.stdout.write(`\n${text}launch:\n${launchText(table, plan.profile, facts)}`);
  }
  if (conflicted.length > 0) {
    process.stderr.write(
      `compile: ${conflicted.join(', ')} ${conflicted.length === 1 ? 'has' : 'have'} a CONFLICT: compile --write would refuse and write nothing; resolve each CONFLICT line (never fixed automatically)\n`,
    );
    return 1;
  }
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
  if (drift.length > 0)
    process.stderr.write(
      `compile --check: ${drift.join(', ')} differ${drift.length === 1 ? 's' : ''} from what compile would write; run angelia compile --write ${drift.join(' ')}\n`,
    );
  return drift.length > 0 ? 1 : 0;
}

/**
 * `angelia compile [profile…] [--write | --check] [--json]` (README "Use it"). Without a flag: prints
 * each profile's plan (`+`, `-`, `~`, `CONFLICT`, `note:` lines or "up to date") and its Codex launch;
 * writes nothing. `--write <names…>`: applies the named plans, refusing (nothing written) when any has a
 * conflict. `--check`: exit 1 when any compiled profile differs from what compile would write (never
 * compiled ones are skipped). `--json` (one profile, plan only): one object, see `compileJson`.
 * The plan is of the table on disk; when it differs from the accepted copy (`angelia accept`), the plan
 * says so first, with the changes, and a profile they touch is never just "up to date".
 * Exit 0; 1 when a plan (text or `--json`) has a CONFLICT (what `--write` refuses; named on stderr), on
 * a table or compile error (`compile error: …` on stderr), or on drift with `--check`; 2 on bad usage or
 * an unknown profile.
 */
export const compile: CliCommand = {
  summary: 'show, write or check what profiles compile to',
  exits: {
    0: 'the plan is shown (no CONFLICT), written, or --check: up to date',
    1: 'a plan has a CONFLICT (--write writes nothing), the table or compile failed, or --check: a profile differs',
    2: 'usage error, or an unknown profile',
  },
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
      return o.check ? await check(table, o, facts) : await preview(paths, options, table, o, facts);
    } catch (e) {
      process.stderr.write(`compile error: ${formatFailure(e)}\n`);
      // An unknown profile is a usage error, as in every command (cli/exit.ts).
      return isUnknownName(e) ? 2 : 1;
    }
  },
};
