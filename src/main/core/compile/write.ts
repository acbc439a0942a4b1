/**
 * The three things `angelia compile` does with plans (README "Use it"): plan profiles (read only),
 * write named profiles (`compileWrite`, refusing on any conflict), and check compiled profiles for
 * drift (`compileCheck`). The accepted-table refusal is NOT here: the caller runs it first (see the
 * hook in cli/commands/compile.ts) and passes the table it returns.
 */
import { AppFailure } from '../../../shared/result';
import { keyPath } from '../table/errors';
import type { LoadedTable } from '../table/load';
import { applyPlan } from './apply';
import { profileOf } from './codexProfile';
import type { CompileFacts } from './facts';
import { checkGrants, execAtCompile, grantNotes, problemText } from './grants';
import { liveFs, type FsView } from './pathWalk';
import { planProfile, type PlanLine, type ProfilePlan } from './plan';
import { snapshotProfile } from './snapshot';

/**
 * `plan` with the grant check's refusals as conflicts (compile/grants.ts `checkGrants`, with what a
 * start would run outside the sandbox as `env` resolves it) and its notes (`grantNotes`: another
 * profile runs with `sandbox = false`; a skill denied inside a shared_write folder). Pure over `fs`.
 */
export function withGrantCheck(
  plan: ProfilePlan,
  table: LoadedTable,
  facts: CompileFacts,
  fs: FsView = liveFs,
  env: NodeJS.ProcessEnv = process.env,
): ProfilePlan {
  const problems = checkGrants(table, facts, fs, { profiles: [plan.profile], exec: (p) => execAtCompile(p, facts, env) });
  const conflicts = problems.map((p) => `${problemText(p)} (${table.file}: ${keyPath(p.key)}); fix: ${p.fix}`);
  const notes = grantNotes(table, facts, fs, plan.profile);
  if (conflicts.length === 0 && notes.length === 0) return plan;
  const firstNote = plan.lines.findIndex((l) => l.kind === 'note');
  const at = firstNote < 0 ? plan.lines.length : firstNote;
  const lines: PlanLine[] = [
    ...plan.lines.slice(0, at),
    ...conflicts.map((text): PlanLine => ({ kind: 'CONFLICT', text })),
    ...plan.lines.slice(at),
    ...notes.map((text): PlanLine => ({ kind: 'note', text })),
  ];
  return { ...plan, lines, conflicts: [...plan.conflicts, ...conflicts] };
}

/**
 * Snapshots and plans each of `names` (every profile when empty) in table order of `names`, each with
 * the grant check (`withGrantCheck`). `now` is stamped into records and guards. Writes nothing. Throws
 * AppFailure `profile-unknown`.
 */
export async function planProfiles(
  table: LoadedTable,
  names: readonly string[],
  facts: CompileFacts,
  now: string = new Date().toISOString(),
): Promise<ProfilePlan[]> {
  const list = names.length > 0 ? [...names] : Object.keys(table.profiles);
  const plans: ProfilePlan[] = [];
  for (const name of list) {
    const profile = profileOf(table, name);
    plans.push(withGrantCheck(planProfile(table, name, facts, await snapshotProfile(table, profile, facts), now), table, facts));
  }
  return plans;
}

/** What `compileWrite` did for one profile. */
export interface WriteResult {
  plan: ProfilePlan;
  /** Absolute paths written or changed ([] when the profile was up to date). */
  written: string[];
}

/**
 * `angelia compile --write <names…>`: plans every named profile, refuses when any plan has a conflict
 * (nothing is written then, for any profile), else applies each plan in order. Capabilities go live
 * one profile at a time, so names are required. Call it only with a table the user accepted.
 * Throws AppFailure `compile-names` (no names), `profile-unknown`, `compile-conflict` (message lists
 * the first conflicts, `where` the profile's folder), or apply's errors.
 */
export async function compileWrite(table: LoadedTable, names: readonly string[], facts: CompileFacts): Promise<WriteResult[]> {
  if (names.length === 0) {
    throw new AppFailure({
      code: 'compile-names',
      message: '--write needs the names of the profiles to write (capabilities go live one profile at a time)',
      where: table.file,
      fix: `name them, e.g. angelia compile --write ${Object.keys(table.profiles)[0] ?? '<profile>'}`,
    });
  }
  const plans = await planProfiles(table, names, facts);
  const blocked = plans.filter((p) => p.conflicts.length > 0);
  if (blocked.length > 0) {
    const first = blocked[0]!;
    const all = blocked.flatMap((p) => p.conflicts.map((c) => `${p.profile}: ${c}`));
    throw new AppFailure({
      code: 'compile-conflict',
      message: `nothing was written: ${all.length} conflict(s): ${all.slice(0, 5).join('; ')}${all.length > 5 ? `; and ${all.length - 5} more` : ''}`,
      where: first.cwd,
      fix: 'resolve each CONFLICT line shown by angelia compile (they are never fixed automatically), then write again',
    });
  }
  const out: WriteResult[] = [];
  for (const plan of plans) out.push({ plan, written: plan.changed ? await applyPlan(plan) : [] });
  return out;
}

/** The drift of one profile for `--check`. */
export interface CheckResult {
  profile: string;
  /** `skipped`: never compiled; `differs`: a compile would change something (or has a conflict). */
  status: 'skipped' | 'up to date' | 'differs';
  plan: ProfilePlan;
}

/**
 * `angelia compile --check [names…]`: for each profile (every one when `names` is empty) whether its
 * files differ from what a compile would write. Profiles never compiled (no record and no guard) are
 * skipped. Writes nothing.
 */
export async function compileCheck(table: LoadedTable, names: readonly string[], facts: CompileFacts): Promise<CheckResult[]> {
  const plans = await planProfiles(table, names, facts);
  return plans.map((plan) => ({
    profile: plan.profile,
    status: !plan.compiled ? 'skipped' : plan.changed || plan.conflicts.length > 0 ? 'differs' : 'up to date',
    plan,
  }));
}
