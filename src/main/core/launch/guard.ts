/**
 * The launch guard READER (docs/architecture.md flow (a) step 5): the only module that reads and
 * interprets the guard file the last `angelia compile --write` left in `<state>/compiled/` (out of every
 * profile's reach), and the profile's `.claude/settings.json` the launch check compares it with.
 * check.ts decides on what is read here; compile/plan.ts asks `parseGuard` whether the guard it would
 * write is already there.
 *
 * The file is WRITTEN by compile; its shape and path are compile/guardFile.ts's (`guardPath`,
 * `guardFileSchema`): `<state>/compiled/<encodeURIComponent(profile)>.json` = `{"version":1,"profile",
 * "cwd","backend","deny":[rules],"codexSandbox","write","readOnly","mcp","bin","read","env","compiledAt"}`
 * (guardFileSchema documents each), rules in settings.json syntax (`Read(/abs/**)`, `Edit(/abs/file)`,
 * `mcp__name`).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { guardFileSchema, guardPath, type GuardFile } from '../compile/guardFile';
import { SETTINGS_REL } from '../compile/settingsMerge';

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

/** The guard as read: the validated file, or why there is none (`never-compiled`, `guard-invalid`). */
export type GuardRead = { ok: true; guard: GuardFile } | { ok: false; kind: 'never-compiled' | 'guard-invalid'; text: string };

/**
 * Reads the guard file's text `file` against guardFileSchema. Pure; never throws. Unreadable, missing,
 * not JSON or not of the schema each come back with the sentence a refusal shows.
 */
export function parseGuard(file: FileText): GuardRead {
  if (file.error) return { ok: false, kind: 'guard-invalid', text: `the launch guard ${file.path} cannot be read (${file.error})` };
  if (file.text === null) return { ok: false, kind: 'never-compiled', text: `never compiled: there is no launch guard ${file.path}` };
  try {
    const result = guardFileSchema.safeParse(JSON.parse(file.text));
    if (result.success) return { ok: true, guard: result.data };
    const issue = result.error.issues[0];
    return {
      ok: false,
      kind: 'guard-invalid',
      text: `the launch guard ${file.path} cannot be read (${issue ? `${issue.path.join('.') || 'top level'}: ${issue.message}` : 'invalid'})`,
    };
  } catch (e) {
    return { ok: false, kind: 'guard-invalid', text: `the launch guard ${file.path} cannot be read (not JSON: ${(e as Error).message})` };
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
export async function readLaunchFiles(stateDir: string, profile: { name: string; cwd: string }): Promise<{ guard: FileText; settings: FileText }> {
  const [guard, settings] = await Promise.all([readFileText(guardPath(stateDir, profile.name)), readFileText(settingsFilePath(profile.cwd))]);
  return { guard, settings };
}

/** The guard of `profile` as the last compile wrote it, or null when it is missing or invalid. */
export async function readGuard(stateDir: string, profile: string): Promise<GuardFile | null> {
  const read = parseGuard(await readFileText(guardPath(stateDir, profile)));
  return read.ok ? read.guard : null;
}

function listAt(text: string | null, pick: (o: Record<string, unknown>) => unknown): string[] {
  if (text === null) return [];
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return [];
  }
  if (typeof v !== 'object' || v === null) return [];
  const list = pick(v as Record<string, unknown>);
  return Array.isArray(list) ? list.filter((r): r is string => typeof r === 'string') : [];
}

/**
 * Every deny rule recorded for `profile`: the guard's `deny` and the settings file's `permissions.deny`,
 * read leniently (a file that is missing, not JSON or of another shape adds none; a rule that is not a
 * string is skipped), so a damaged file never drops the other's rules. In file order, guard first;
 * duplicates kept.
 */
export async function recordedDenyRules(stateDir: string, profile: { name: string; cwd: string }): Promise<string[]> {
  const { guard, settings } = await readLaunchFiles(stateDir, profile);
  return [
    ...listAt(guard.text, (g) => g.deny),
    ...listAt(settings.text, (s) => (typeof s.permissions === 'object' && s.permissions !== null ? (s.permissions as Record<string, unknown>).deny : null)),
  ];
}
