/**
 * The warnings `angelia check-config` adds to the table's own (table/warnings.ts),
 * from compile and the launch guard: a profile never compiled or whose settings.json lacks part of the current
 * deny rules ("run angelia compile <name> --write"), a settings.json deny rule that covers the
 * profile's own folder (self-deny), a Codex executable that cannot be found, and the compile warnings
 * of each profile (lifted floor entries, overlapping reach, paths the sandbox cannot hold). A profile
 * whose launch cannot be built is an error. Each names the key path and the fix.
 */
import { join } from 'node:path';
import { AppFailure, toAppError } from '../../../shared/result';
import { resolveCodexBin } from '../codex/resolve';
import { isWithin } from '../instance/paths';
import { keyPath, type TableProblem } from '../table/errors';
import type { LoadedTable, ResolvedProfile } from '../table/load';
import { compileCodexLaunch } from './codexProfile';
import { foldRules } from './entries';
import type { CompileFacts } from './facts';
import { checkGrants, execAtCompile } from './grants';
import { liveFs } from './pathWalk';
import { profilePolicy } from './policy';
import { parseRule, wantDeny } from './rules';
import { SETTINGS_REL } from './settingsMerge';
import type { ProfileSnapshot } from './snapshot';

/** check-config's findings beyond the table's own warnings. */
export interface ConfigFindings {
  warnings: TableProblem[];
  /** Profiles whose launch cannot be built (e.g. an MCP name collision). */
  errors: TableProblem[];
}

function settingsDeny(snap: ProfileSnapshot): string[] | null {
  if (snap.settings.state !== 'file') return null;
  try {
    const data = JSON.parse(snap.settings.text) as { permissions?: { deny?: unknown } };
    const deny = data?.permissions?.deny;
    return Array.isArray(deny) ? deny.filter((r): r is string => typeof r === 'string') : [];
  } catch {
    return null;
  }
}

function compiledWarnings(p: ResolvedProfile, want: string[], snap: ProfileSnapshot, home: string): TableProblem[] {
  const at = ['profiles', p.name];
  const fix = `run angelia compile ${p.name} --write`;
  const file = join(p.cwd, SETTINGS_REL);
  if (snap.record.state === 'missing' && snap.guard.state === 'missing') {
    return [{ path: at, message: `never compiled: its agent will not start until compile writes its deny rules`, fix }];
  }
  const have = settingsDeny(snap);
  if (have === null) return [{ path: at, message: `${file} is missing or does not parse, so its deny rules are not in force`, fix }];
  const out: TableProblem[] = [];
  const missing = want.filter((r) => !have.includes(r));
  if (missing.length > 0) {
    out.push({ path: at, message: `${file} lacks ${missing.length} of the current deny rules (e.g. ${missing.slice(0, 3).join(', ')})`, fix });
  }
  for (const rule of have) {
    const parsed = parseRule(rule, home);
    if (parsed?.tool === 'Read' && isWithin(p.cwd, parsed.path)) {
      out.push({ path: at, message: `${file} denies ${rule}, which covers the profile's own folder ${p.cwd}`, fix: `remove ${rule} from ${file}` });
    }
  }
  return out;
}

function executableWarning(p: ResolvedProfile, env: NodeJS.ProcessEnv): TableProblem | null {
  try {
    resolveCodexBin(p.bin ?? undefined, { env });
    return null;
  } catch (e) {
    return {
      path: p.bin ? ['profiles', p.name, 'bin'] : ['profiles', p.name],
      message: `the Codex executable cannot be found: ${(e as Error).message.split('\n')[0]}`,
      fix: p.bin
        ? 'point bin at the codex executable, or remove bin to use the bundled one'
        : 'reinstall Angelia (the bundled @openai/codex is missing) or set bin to a codex executable',
    };
  }
}

/**
 * Why compile refuses profile `p` of `table` whatever its files hold: its Codex launch cannot be built
 * (`compileCodexLaunch` throws: `unsafe-reach` — a cwd or add_dir that is, or holds, Angelia's state
 * folder or a Codex home —, `mcp-name`, `mcp-collision`, `compile-unencodable`), or the grant check
 * refuses it (compile/grants.ts: a grant an agent could redirect, a restriction it could escape, a
 * program run outside the sandbox from a folder an agent writes). Null when neither. The problem's path is the field compile named (`profiles.<name>.add_dirs[0]`, `.cwd`), else
 * the profile.
 */
export function launchProblem(table: LoadedTable, p: ResolvedProfile, facts: CompileFacts): TableProblem | null {
  try {
    compileCodexLaunch(table, p.name, facts);
    // Every grant by real path, and what would run outside the sandbox (compile/grants.ts).
    const [grant] = checkGrants(table, facts, liveFs, { profiles: [p.name], exec: (q) => execAtCompile(q, facts) });
    return grant ? { path: grant.key, message: grant.message, fix: grant.fix } : null;
  } catch (e) {
    const app = toAppError(e);
    const field = app.where?.startsWith(`profiles.${p.name}`) ? fieldPath(app.where) : null;
    const where = app.where && !field ? ` (${app.where})` : '';
    return { path: field ?? ['profiles', p.name], message: `its Codex launch cannot be built: ${app.message}${where}`, fix: app.fix ?? 'correct the table' };
  }
}

/** `profiles.coder.add_dirs[0]` as key path segments (`['profiles', 'coder', 'add_dirs', 0]`). */
function fieldPath(where: string): PropertyKey[] {
  return where.split('.').flatMap((part) => {
    const m = /^([^[]+)((?:\[\d+\])*)$/.exec(part);
    if (!m) return [part];
    return [m[1]!, ...[...m[2]!.matchAll(/\[(\d+)\]/g)].map((x) => Number(x[1]))];
  });
}

/**
 * The refusal of `angelia accept` (and the window's "accept"): a table compile would refuse is never
 * accepted. Throws AppFailure `table-compile-refused` naming the table file and the field
 * (`<table>: profiles.coder.add_dirs[0]`), compile's reason and its fix, with every such profile in the
 * message; returns when every profile's launch can be built.
 */
export function refuseUncompilable(table: LoadedTable, facts: CompileFacts): void {
  const problems = Object.values(table.profiles)
    .map((p) => launchProblem(table, p, facts))
    .filter((x): x is TableProblem => x !== null);
  const [first, ...rest] = problems;
  if (!first) return;
  const also =
    rest.length > 0
      ? `; also ${rest
          .slice(0, 3)
          .map((x) => `${keyPath(x.path)}: ${x.message}`)
          .join('; ')}${rest.length > 3 ? `; and ${rest.length - 3} more` : ''}`
      : '';
  throw new AppFailure({
    code: 'table-compile-refused',
    message: `compile would refuse it: ${keyPath(first.path)}: ${first.message}${also}`,
    where: `${table.file}: ${keyPath(first.path)}`,
    fix: `${first.fix}; then run angelia accept again`,
  });
}

/**
 * The findings for every profile of `table`, given a snapshot of each (by profile name) and the
 * environment the executable is looked up in.
 */
export function configFindings(table: LoadedTable, facts: CompileFacts, snaps: Record<string, ProfileSnapshot>, env: NodeJS.ProcessEnv): ConfigFindings {
  const warnings: TableProblem[] = [];
  const errors: TableProblem[] = [];
  for (const p of Object.values(table.profiles)) {
    const exe = executableWarning(p, env);
    if (exe) warnings.push(exe);
    const refused = launchProblem(table, p, facts);
    if (refused) {
      errors.push(refused);
      continue;
    }
    const policy = profilePolicy(table, p, facts);
    warnings.push(...policy.warnings);
    if (p.sandbox) {
      for (const w of foldRules(policy.rules, p.permissionMode === 'plan').warnings) {
        warnings.push({ path: ['profiles', p.name], message: w, fix: 'rename that folder so its path holds none of * ? [ ]' });
      }
    }
    const snap = snaps[p.name];
    if (snap) warnings.push(...compiledWarnings(p, wantDeny(policy), snap, facts.home));
  }
  return { warnings, errors };
}
