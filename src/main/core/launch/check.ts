/**
 * The launch CHECK (docs/architecture.md flow (a) steps 5 and 7): every reason a start is refused on
 * account of the last `angelia compile --write`, as one list, from one pure function (`checkLaunch`).
 * A start (plan.ts `planLaunch`), `angelia verify` (verify/run.ts) and `angelia check-config` all report
 * these same reasons; `launchRefusal` is the one place a list becomes the AppFailure a start throws.
 *
 * Two groups of reasons. The shape of the start (guard.ts reads the files): never compiled, a guard
 * that cannot be read, another folder or backend, a deny rule missing from the profile's
 * `.claude/settings.json`, the sandbox turned off, the read-only plan mode left. And what the accepted
 * table loosens since the last compile (`LOOSENING`): accepting a table does not loosen a profile's
 * sandbox by itself; a lifted deny rule, a new folder to write or read, a new `env` name, a new MCP
 * server or another `bin` takes effect only through `angelia compile --write <profile>` (one profile at
 * a time).
 */
import { resolve } from 'node:path';
import { AppFailure } from '../../../shared/result';
import { compileCodexLaunch } from '../compile/codexProfile';
import type { CompileFacts } from '../compile/facts';
import { guardPath, outsideSandbox, type GuardFile, type OutsideSandbox } from '../compile/guardFile';
import { profilePolicy } from '../compile/policy';
import { wantDeny, wantRead, wantWrite } from '../compile/rules';
import type { TableProblem } from '../table/errors';
import type { LoadedTable, ResolvedProfile } from '../table/load';
import { parseGuard, readLaunchFiles, type FileText } from './guard';

/** Why a start is refused; `kind` drives the one-line refusal message. */
export type LaunchReasonKind =
  | 'never-compiled'
  | 'guard-invalid'
  | 'other-folder'
  | 'other-backend'
  | 'settings-unreadable'
  | 'deny-missing'
  | 'sandbox-off'
  | 'mode-loosened'
  | 'check-failed'
  | 'deny-lifted'
  | 'write-added'
  | 'read-added'
  | 'env-added'
  | 'mcp-added'
  | 'bin-changed';

/** The kinds that are a loosening of the accepted table waiting for `compile --write`. */
export const LOOSENING: ReadonlySet<LaunchReasonKind> = new Set(['deny-lifted', 'write-added', 'read-added', 'env-added', 'mcp-added', 'bin-changed']);

/** One reason to refuse a start. */
export interface LaunchReason {
  kind: LaunchReasonKind;
  text: string;
}

/** The profile fields the shape check reads. */
export type GuardedProfile = Pick<ResolvedProfile, 'name' | 'cwd' | 'backend' | 'sandbox' | 'permissionMode'>;

/**
 * What the start would grant now, in the guard's terms (`currentGrants`): `deny` the deny rules compile
 * would write now, `write` its folders to write, `read` what the profile names for reading (rules.ts
 * `wantRead`; absent: none new), `env` the names it passes (absent: none new), `outside` what runs
 * outside the sandbox (guardFile.ts `outsideSandbox`; absent: not compared).
 */
export interface CurrentGrants {
  deny: readonly string[];
  write: readonly string[];
  read?: readonly string[];
  env?: readonly string[];
  outside?: OutsideSandbox;
}

/** Inputs of `checkLaunch`. `current` absent: only the shape of the start is checked. */
export interface LaunchCheckInput {
  guard: FileText;
  settings: FileText;
  profile: GuardedProfile;
  current?: CurrentGrants;
}

type SettingsRead = { ok: true; deny: string[] } | { ok: false; why: string };

function readSettings(settings: FileText): SettingsRead {
  if (settings.error) return { ok: false, why: `cannot be read (${settings.error})` };
  if (settings.text === null) return { ok: true, deny: [] };
  let data: unknown;
  try {
    data = JSON.parse(settings.text);
  } catch (e) {
    return { ok: false, why: `is not valid JSON (${(e as Error).message})` };
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return { ok: false, why: 'is not a JSON object' };
  const permissions = (data as Record<string, unknown>).permissions;
  if (permissions === undefined) return { ok: true, deny: [] };
  if (typeof permissions !== 'object' || permissions === null || Array.isArray(permissions))
    return { ok: false, why: 'has a "permissions" that is not an object' };
  const deny = (permissions as Record<string, unknown>).deny;
  if (deny === undefined) return { ok: true, deny: [] };
  if (!Array.isArray(deny) || !deny.every((r) => typeof r === 'string')) return { ok: false, why: 'has a "permissions.deny" that is not a list of rules' };
  return { ok: true, deny };
}

function shape(guard: GuardFile, settings: FileText, profile: GuardedProfile): LaunchReason[] {
  const reasons: LaunchReason[] = [];
  if (resolve(guard.cwd) !== resolve(profile.cwd))
    reasons.push({ kind: 'other-folder', text: `compiled for another folder (${guard.cwd}); the profile's folder is now ${profile.cwd}` });
  if (guard.backend !== profile.backend) reasons.push({ kind: 'other-backend', text: `compiled for ${guard.backend}, not ${profile.backend}; compile again` });
  const read = readSettings(settings);
  if (!read.ok) {
    reasons.push({ kind: 'settings-unreadable', text: `${settings.path} ${read.why}, so every deny rule in it would be dropped` });
  } else {
    const present = new Set(read.deny);
    for (const rule of guard.deny) if (!present.has(rule)) reasons.push({ kind: 'deny-missing', text: `deny ${rule}` });
  }
  if (guard.codexSandbox && !profile.sandbox) {
    reasons.push({ kind: 'sandbox-off', text: "sandbox off: the table turned Codex's sandbox off since the last compile; compile again to accept it" });
  }
  // Plan mode compiles to a read-only sandbox; another mode writes the profile's folder. A guard from
  // before this was recorded counts as read-only (fail closed).
  if (profile.sandbox && profile.permissionMode !== 'plan' && (guard.readOnly ?? true)) {
    reasons.push({
      kind: 'mode-loosened',
      text:
        guard.readOnly === undefined
          ? `permission_mode ${profile.permissionMode}: the last compile did not record whether this profile may write; compile again`
          : `permission_mode is now ${profile.permissionMode}, but the last compile was in plan mode (read-only); the profile may write its folder only after you compile again`,
    });
  }
  return reasons;
}

const few = (list: readonly string[]): string => `${list.slice(0, 3).join(', ')}${list.length > 3 ? ', …' : ''}`;

/**
 * What `current` loosens against the last compile's `guard`, in this order: deny rules lifted
 * (filesystem rules only: an `mcp__` rule follows the user's own Codex config, which may change
 * freely), folders to write, locations to read (HOME is private by default, docs/security-model.md),
 * `env` names (their values may be secrets), then, when `current.outside` is given, MCP servers given
 * or redefined (Codex starts them outside the sandbox, compile/mcpFlags.ts) and another `bin` (Codex
 * runs outside the sandbox and enforces it). A list the guard does not hold (written before it was
 * recorded) allows none (fail closed). Pure.
 */
export function loosenings(guard: GuardFile, current: CurrentGrants): LaunchReason[] {
  const reasons: LaunchReason[] = [];
  const now = new Set(current.deny);
  const lifted = guard.deny.filter((r) => /^(Read|Edit)\(/.test(r) && !now.has(r));
  if (lifted.length)
    reasons.push({
      kind: 'deny-lifted',
      text: `the accepted table now lifts ${lifted.length} deny rule(s) of the last compile (${few(lifted)}); they stay in force until you compile again`,
    });
  const compiled = new Set(guard.write ?? []);
  const added = current.write.filter((w) => !compiled.has(w));
  if (added.length)
    reasons.push({
      kind: 'write-added',
      text: `the accepted table now lets this profile write ${added.length} folder(s) the last compile did not (${few(added)}); that takes effect when you compile again`,
    });
  const recordedRead = new Set(guard.read ?? []);
  const newReads = (current.read ?? []).filter((r) => !recordedRead.has(r));
  if (newReads.length) {
    reasons.push({
      kind: 'read-added',
      text:
        guard.read === undefined
          ? `HOME is private by default now: an agent reads only its folders and what its profile names (read_dirs; left out, the toolchains ${few(newReads)}), and the last compile of this profile is from before; compile again to see and accept what it may read`
          : `the accepted table now lets this profile read ${newReads.length} location(s) the last compile did not (${few(newReads)}); that takes effect when you compile again`,
    });
  }
  const recordedEnv = new Set(guard.env ?? []);
  const newEnv = (current.env ?? []).filter((n) => !recordedEnv.has(n));
  if (newEnv.length)
    reasons.push({
      kind: 'env-added',
      text: `the accepted table now passes ${newEnv.length} environment variable(s) to this profile's commands that the last compile did not (${few(newEnv)}); their values may be secrets, so that takes effect when you compile again`,
    });
  const outside = current.outside;
  if (!outside) return reasons;
  const recorded = new Set(guard.mcp ?? []);
  const newServers = outside.mcp.filter((m) => !recorded.has(m)).map((m) => m.slice(0, m.indexOf(' ')));
  if (newServers.length > 0) {
    reasons.push({
      kind: 'mcp-added',
      text:
        guard.mcp === undefined
          ? `the last compile did not record which MCP servers this profile may start (a launch guard from before that was recorded), and it is given ${newServers.join(', ')}; MCP servers run outside the sandbox, so they start only once you compile again`
          : `the accepted table now gives this profile ${newServers.length} MCP server(s) the last compile did not (${few(newServers)}); MCP servers run outside the sandbox with your full access, so that takes effect when you compile again`,
    });
  }
  const bin = guard.bin ?? null;
  if (outside.bin !== bin) {
    reasons.push({
      kind: 'bin-changed',
      text:
        guard.bin === undefined
          ? `the last compile did not record which Codex executable this profile runs (a launch guard from before that was recorded), and its bin is ${outside.bin}; Codex runs outside the sandbox, so compile again`
          : `the accepted table now runs the Codex executable ${outside.bin ?? 'bundled with Angelia'} (bin), but the last compile recorded ${bin === null ? 'the bundled one' : bin}; Codex runs outside the sandbox and enforces it, so that takes effect when you compile again`,
    });
  }
  return reasons;
}

/**
 * The launch check, pure: `guard` is the guard file, `settings` the profile's `.claude/settings.json`
 * (text `null` = absent: read as no rules, so every recorded deny rule shows as missing), `profile` as
 * the accepted table has it now, `current` what the start would grant now (`currentGrants`; absent: not
 * compared). Returns every reason to refuse ([] = start allowed), in this order: never compiled | guard
 * unreadable, invalid or written for another profile (alone); then another folder, another backend,
 * settings unreadable or one `deny <rule>` per rule the last compile wrote that settings.json lacks
 * (rules added since are fine), `sandbox off`, `mode-loosened` (compiled read-only in plan mode, or
 * before that was recorded, and now in another mode); then the `loosenings`. Never throws: an exception
 * becomes `the check failed: <message>`.
 */
export function checkLaunch(input: LaunchCheckInput): LaunchReason[] {
  try {
    const read = parseGuard(input.guard);
    if (!read.ok) return [{ kind: read.kind, text: read.text }];
    if (read.guard.profile !== input.profile.name) {
      return [
        {
          kind: 'guard-invalid',
          text: `the launch guard ${input.guard.path} was written for profile ${JSON.stringify(read.guard.profile)}, not ${JSON.stringify(input.profile.name)}`,
        },
      ];
    }
    return [...shape(read.guard, input.settings, input.profile), ...(input.current ? loosenings(read.guard, input.current) : [])];
  } catch (e) {
    return [{ kind: 'check-failed', text: `the check failed: ${e instanceof Error ? e.message : String(e)}` }];
  }
}

/**
 * What a start of `profile` would grant now (`CurrentGrants`), from its policy on the machine of
 * `facts` (compile/policy.ts) and `mcpServers`, the MCP servers its compiled launch defines
 * (compile/codexProfile.ts `CodexLaunch.mcpServers`). Pure.
 */
export function currentGrants(table: LoadedTable, profile: ResolvedProfile, facts: CompileFacts, mcpServers: readonly string[]): CurrentGrants {
  const policy = profilePolicy(table, profile, facts);
  return { deny: wantDeny(policy), write: wantWrite(policy), read: wantRead(policy), env: profile.env, outside: outsideSandbox(table, profile, mcpServers) };
}

/**
 * The one-line reason a refused chat shows, from the shape reasons when there are any (a start checks
 * them first), else the loosenings: "its profile was never compiled, so it has no deny rules yet";
 * "<n> of its protections were changed outside Angelia: …" when every reason is a missing deny rule or
 * `sandbox off`; else the first reason.
 */
export function refusalText(reasons: readonly LaunchReason[]): string {
  const shapeOnly = reasons.filter((r) => !LOOSENING.has(r.kind));
  const list = shapeOnly.length > 0 ? shapeOnly : reasons;
  const first = list[0];
  if (!first) return '';
  if (first.kind === 'never-compiled') return 'its profile was never compiled, so it has no deny rules yet';
  if (list.every((r) => r.kind === 'deny-missing' || r.kind === 'sandbox-off')) {
    const n = list.length;
    const listed = list
      .slice(0, 5)
      .map((r) => r.text)
      .join('; ');
    return `${n} of its protections ${n === 1 ? 'was' : 'were'} changed outside Angelia: ${listed}${n > 5 ? `; and ${n - 5} more` : ''}`;
  }
  return first.text;
}

/**
 * The refusal of a start for `reasons` (non-empty): AppFailure code `refused`, message per
 * `refusalText`, `where` the guard file, fix `angelia compile --write <profile>`.
 */
export function launchRefusal(reasons: readonly LaunchReason[], stateDir: string, profile: string): AppFailure {
  return new AppFailure({ code: 'refused', message: refusalText(reasons), where: guardPath(stateDir, profile), fix: `angelia compile --write ${profile}` });
}

/** Throws `launchRefusal` when `reasons` holds any; returns when the start may go on. */
export function refuseOn(reasons: readonly LaunchReason[], stateDir: string, profile: string): void {
  if (reasons.length > 0) throw launchRefusal(reasons, stateDir, profile);
}

/**
 * Reads the guard and settings files of `profile` (guard.ts) and runs `checkLaunch` with `current`;
 * any exception becomes a `check-failed` reason (fail closed).
 */
export async function launchReasons(stateDir: string, profile: GuardedProfile, current?: CurrentGrants): Promise<LaunchReason[]> {
  try {
    const { guard, settings } = await readLaunchFiles(stateDir, profile);
    return checkLaunch({ guard, settings, profile, current });
  } catch (e) {
    return [{ kind: 'check-failed', text: `the check failed: ${e instanceof Error ? e.message : String(e)}` }];
  }
}

/** The kinds `angelia check-config` already names from compile's own view (compile/configCheck.ts). */
const NAMED_BY_CONFIG_CHECK: ReadonlySet<LaunchReasonKind> = new Set(['never-compiled', 'deny-missing', 'settings-unreadable']);

/**
 * The launch check of every profile of `table` whose launch can be built, as `angelia check-config`
 * warnings: one per reason a start would be refused with that compile/configCheck.ts does not already
 * name, at `profiles.<name>`, with the fix `run angelia compile <name> --write`. Reads the guard and
 * settings files.
 */
export async function launchFindings(stateDir: string, table: LoadedTable, facts: CompileFacts): Promise<TableProblem[]> {
  const out: TableProblem[] = [];
  for (const p of Object.values(table.profiles)) {
    let launch: ReturnType<typeof compileCodexLaunch>;
    try {
      launch = compileCodexLaunch(table, p.name, facts);
    } catch {
      continue; // An error of check-config already (configCheck.ts `launchProblem`).
    }
    const reasons = await launchReasons(stateDir, p, launch.sandboxed ? currentGrants(table, p, facts, launch.mcpServers) : undefined);
    for (const r of reasons) {
      if (!NAMED_BY_CONFIG_CHECK.has(r.kind))
        out.push({ path: ['profiles', p.name], message: `its agent will not start: ${r.text}`, fix: `run angelia compile ${p.name} --write` });
    }
  }
  return out;
}
