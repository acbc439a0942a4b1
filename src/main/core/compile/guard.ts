/**
 * The launch guard CHECK (docs/architecture.md flow (a) step 5; guardFile.ts): before every start of
 * an agent, the guard file the last `angelia compile --write` left in `<state>/compiled/` (out of every
 * profile's reach) is compared with the profile as the accepted table has it now and with the
 * profile's `.claude/settings.json`. Any reason refuses the start; a check that cannot run refuses too.
 *
 * The guard file is WRITTEN by compile; its shape and path are compile/guardFile.ts's (`guardPath`,
 * `guardFileSchema`): `<state>/compiled/<encodeURIComponent(profile)>.json` = `{"version":1,"profile",
 * "cwd","backend","deny":[rules],"codexSandbox","write","readOnly","mcp","bin","read","env","compiledAt"}`
 * (guardFileSchema documents each), rules in settings.json syntax (`Read(/abs/**)`, `Edit(/abs/file)`,
 * `mcp__name`). What this file checks against the table is the shape of the start; what the accepted
 * table loosens since the last compile is launch/plan.ts `assertCompileCurrent`.
 */
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { AppFailure } from '../../../shared/result';
import type { ResolvedProfile } from '../table/load';
import { guardFileSchema, guardPath, type GuardFile } from './guardFile';
import { SETTINGS_REL } from './settingsMerge';

/** `<cwd>/.claude/settings.json`: where compile writes `permissions.deny`. Pure. */
export function settingsFilePath(cwd: string): string {
  return join(cwd, SETTINGS_REL);
}

/** A file as the check sees it: its text, `null` when it does not exist, or why it could not be read. */
export interface FileText {
  path: string;
  text: string | null;
  /** Set when the file exists but could not be read (e.g. "EACCES"); `text` is then null. */
  error?: string;
}

/** Why a start is refused; `kind` drives the one-line refusal message. */
export type LaunchReasonKind =
  | 'never-compiled' | 'guard-invalid' | 'other-folder' | 'other-backend'
  | 'settings-unreadable' | 'deny-missing' | 'sandbox-off' | 'mode-loosened' | 'check-failed';

/** One reason to refuse a start. */
export interface LaunchReason {
  kind: LaunchReasonKind;
  text: string;
}

/** The profile fields the check reads. */
export type GuardedProfile = Pick<ResolvedProfile, 'name' | 'cwd' | 'backend' | 'sandbox' | 'permissionMode'>;

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
  if (typeof permissions !== 'object' || permissions === null || Array.isArray(permissions)) return { ok: false, why: 'has a "permissions" that is not an object' };
  const deny = (permissions as Record<string, unknown>).deny;
  if (deny === undefined) return { ok: true, deny: [] };
  if (!Array.isArray(deny) || !deny.every((r) => typeof r === 'string')) return { ok: false, why: 'has a "permissions.deny" that is not a list of rules' };
  return { ok: true, deny };
}

function check(guard: FileText, settings: FileText, profile: GuardedProfile): LaunchReason[] {
  if (guard.error) return [{ kind: 'guard-invalid', text: `the launch guard ${guard.path} cannot be read (${guard.error})` }];
  if (guard.text === null) return [{ kind: 'never-compiled', text: `never compiled: there is no launch guard ${guard.path}` }];
  let parsed: GuardFile;
  try {
    const result = guardFileSchema.safeParse(JSON.parse(guard.text));
    if (!result.success) {
      const issue = result.error.issues[0];
      return [{ kind: 'guard-invalid', text: `the launch guard ${guard.path} cannot be read (${issue ? `${issue.path.join('.') || 'top level'}: ${issue.message}` : 'invalid'})` }];
    }
    parsed = result.data;
  } catch (e) {
    return [{ kind: 'guard-invalid', text: `the launch guard ${guard.path} cannot be read (not JSON: ${(e as Error).message})` }];
  }
  if (parsed.profile !== profile.name) {
    return [{ kind: 'guard-invalid', text: `the launch guard ${guard.path} was written for profile ${JSON.stringify(parsed.profile)}, not ${JSON.stringify(profile.name)}` }];
  }
  const reasons: LaunchReason[] = [];
  if (resolve(parsed.cwd) !== resolve(profile.cwd)) reasons.push({ kind: 'other-folder', text: `compiled for another folder (${parsed.cwd}); the profile's folder is now ${profile.cwd}` });
  if (parsed.backend !== profile.backend) reasons.push({ kind: 'other-backend', text: `compiled for ${parsed.backend}, not ${profile.backend}; compile again` });
  const read = readSettings(settings);
  if (!read.ok) {
    reasons.push({ kind: 'settings-unreadable', text: `${settings.path} ${read.why}, so every deny rule in it would be dropped` });
  } else {
    const present = new Set(read.deny);
    for (const rule of parsed.deny) if (!present.has(rule)) reasons.push({ kind: 'deny-missing', text: `deny ${rule}` });
  }
  if (parsed.codexSandbox && !profile.sandbox) {
    reasons.push({ kind: 'sandbox-off', text: "sandbox off: the table turned Codex's sandbox off since the last compile; compile again to accept it" });
  }
  // Plan mode compiles to a read-only sandbox; another mode writes the profile's folder. A guard from
  // before this was recorded counts as read-only (fail closed).
  if (profile.sandbox && profile.permissionMode !== 'plan' && (parsed.readOnly ?? true)) {
    reasons.push({
      kind: 'mode-loosened',
      text: parsed.readOnly === undefined
        ? `permission_mode ${profile.permissionMode}: the last compile did not record whether this profile may write; compile again`
        : `permission_mode is now ${profile.permissionMode}, but the last compile was in plan mode (read-only); the profile may write its folder only after you compile again`,
    });
  }
  return reasons;
}

/**
 * The launch check, pure: `guard` is the guard file, `settings` the profile's `.claude/settings.json`
 * (text `null` = absent: read as no rules, so every recorded deny rule shows as missing), `profile` as
 * the accepted table has it now. Returns every reason to refuse ([] = start allowed), in this order:
 * never compiled | guard unreadable or invalid (alone); then another folder, another backend,
 * settings unreadable or one `deny <rule>` per rule the last compile wrote that settings.json lacks
 * (rules added since are fine), `sandbox off`, `mode-loosened` (compiled read-only in plan mode, or
 * before that was recorded, and now in another mode). Never throws: an exception becomes
 * `the check failed: <message>`.
 */
export function launchCheck(guard: FileText, settings: FileText, profile: GuardedProfile): LaunchReason[] {
  try {
    return check(guard, settings, profile);
  } catch (e) {
    return [{ kind: 'check-failed', text: `the check failed: ${e instanceof Error ? e.message : String(e)}` }];
  }
}

async function readFileText(path: string): Promise<FileText> {
  try {
    return { path, text: await readFile(path, 'utf8') };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { path, text: null };
    return { path, text: null, error: code ?? String(e) };
  }
}

/** Reads the guard file and the settings file of `profile` (missing → text null; other errors → `error`). */
export async function readLaunchFiles(stateDir: string, profile: GuardedProfile): Promise<{ guard: FileText; settings: FileText }> {
  const [guard, settings] = await Promise.all([readFileText(guardPath(stateDir, profile.name)), readFileText(settingsFilePath(profile.cwd))]);
  return { guard, settings };
}

/** Reads the files and runs `launchCheck`; any exception becomes a `check-failed` reason (fail closed). */
export async function checkLaunch(stateDir: string, profile: GuardedProfile): Promise<LaunchReason[]> {
  try {
    const { guard, settings } = await readLaunchFiles(stateDir, profile);
    return launchCheck(guard, settings, profile);
  } catch (e) {
    return [{ kind: 'check-failed', text: `the check failed: ${e instanceof Error ? e.message : String(e)}` }];
  }
}

/**
 * The one-line reason a refused chat shows: "its profile was never compiled, so it has no
 * deny rules yet"; "<n> of its protections were changed outside Angelia: …" when every reason is a
 * missing deny rule or `sandbox off`; else the first reason.
 */
export function refusalText(reasons: readonly LaunchReason[]): string {
  const first = reasons[0];
  if (!first) return '';
  if (first.kind === 'never-compiled') return 'its profile was never compiled, so it has no deny rules yet';
  if (reasons.every((r) => r.kind === 'deny-missing' || r.kind === 'sandbox-off')) {
    const n = reasons.length;
    const listed = reasons.slice(0, 5).map((r) => r.text).join('; ');
    return `${n} of its protections ${n === 1 ? 'was' : 'were'} changed outside Angelia: ${listed}${n > 5 ? `; and ${n - 5} more` : ''}`;
  }
  return first.text;
}

/**
 * Runs the check for `profile` and throws AppFailure code `refused` on any reason: message per
 * `refusalText`, `where` the guard file, fix `angelia compile --write <profile>`. Resolves when the
 * start may go on.
 */
export async function assertLaunchAllowed(stateDir: string, profile: GuardedProfile): Promise<void> {
  const reasons = await checkLaunch(stateDir, profile);
  if (reasons.length === 0) return;
  throw new AppFailure({
    code: 'refused',
    message: refusalText(reasons),
    where: guardPath(stateDir, profile.name),
    fix: `angelia compile --write ${profile.name}`,
  });
}
