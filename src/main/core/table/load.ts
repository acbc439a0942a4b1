/**
 * Loads the table (`angelia.toml`): TOML parsed with smol-toml, validated with the strict schema,
 * then each profile's paths resolved (`~` expanded, relative paths against the table's folder) and
 * checked. Every error is an AppFailure with `where` = `<file>: <key path>` and a `fix`.
 */
import { lstat, readFile, realpath, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { parse } from 'smol-toml';
import { isHomePath } from '../../../shared/homePath';
import { FIELD_KEYS } from '../../../shared/profileFields';
import { AppFailure } from '../../../shared/result';
import { expandPath, resolveInstance } from '../instance/paths';
import { checkNames, globProblem, refList, resolveAccess, resolveCapabilities } from './capabilities';
import { problemsFromIssues, syntaxFailure, tableFailure, type TableProblem } from './errors';
import { PROFILE_NAME, READ_DIRS_STARTER, tableSchema, type RawProfile, type RawTable } from './schema';
import { camelKey, RESOLVED_BY_HAND, type Capability, type CopiedFields, type LoadedTable, type ResolvedProfile } from './types';
import { tableWarnings } from './warnings';

export type { Capability, LoadedTable, ResolvedProfile, TableDefaults } from './types';

/** Options of `loadTable` / `resolveTable`. */
export interface LoadOptions {
  /** Home folder for `~` (default: `resolveInstance().home`). */
  home?: string;
  /** Environment consulted for the sandbox tolerance of `cwd` checks (default `process.env`). */
  env?: Record<string, string | undefined>;
}

/** Names that make `bypassPermissions` need `unsafe_ok` when found directly in cwd or an add_dir. */
export const UNSAFE_NAMES = ['.env', 'secrets'];

/**
 * Parses and validates table text (no file access). Throws AppFailure `table-syntax` (with line,
 * column and the offending line) or `table-invalid` (first problem's key path in `where`).
 */
export function parseTableText(text: string, file: string): RawTable {
  let data: unknown;
  try {
    data = parse(text);
  } catch (e) {
    throw syntaxFailure(file, text, e);
  }
  const result = tableSchema.safeParse(data, { reportInput: true });
  if (!result.success) throw tableFailure(file, problemsFromIssues(result.error.issues));
  const problems: TableProblem[] = [];
  checkNames(result.data, problems);
  if (problems.length > 0) throw tableFailure(file, problems);
  const bad = Object.keys(result.data.profiles).filter((name) => !PROFILE_NAME.test(name));
  if (bad.length > 0) {
    throw tableFailure(
      file,
      bad.map((name) => ({
        path: ['profiles', name],
        message: 'a profile name may hold only letters, digits, "_" and "-"',
        fix: `rename it, e.g. [profiles.${name.replace(/[^A-Za-z0-9_-]+/g, '-') || 'assistant'}]`,
      })),
    );
  }
  return result.data;
}

async function checkCwd(path: string, at: PropertyKey[], env: LoadOptions['env']): Promise<TableProblem | null> {
  try {
    const s = await stat(path);
    if (s.isDirectory()) return null;
    return { path: at, message: `${path} is not a folder`, fix: 'point cwd at a folder' };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // Inside a Codex sandbox a folder of another profile may be unreadable: that is expected there.
    if ((code === 'EACCES' || code === 'EPERM') && (env?.CODEX_SANDBOX || env?.ANGELIA_SANDBOX)) return null;
    if (code === 'ENOENT')
      return { path: at, message: `${path} does not exist`, fix: `create the folder (mkdir -p '${path.replace(/'/g, `'\\''`)}') or correct cwd` };
    return { path: at, message: `${path} cannot be checked (${code ?? String(e)})`, fix: 'make the folder readable by you' };
  }
}

async function present(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  );
}

/** `bypassPermissions` without `unsafe_ok` on a folder holding `.env` or `secrets` (secrets used unseen). */
async function bypassProblem(name: string, raw: RawProfile, dirs: string[]): Promise<TableProblem | null> {
  if (raw.permission_mode !== 'bypassPermissions' || raw.unsafe_ok) return null;
  for (const dir of dirs) {
    for (const unsafe of UNSAFE_NAMES) {
      if (await present(join(dir, unsafe))) {
        return {
          path: ['profiles', name, 'permission_mode'],
          message: `bypassPermissions never asks, and ${join(dir, unsafe)} holds secrets the agent could use without you seeing it`,
          fix: 'use permission_mode = "acceptEdits", move the secrets out of the folder, or set unsafe_ok = true to accept the risk',
        };
      }
    }
  }
  return null;
}

async function resolveProfile(
  name: string,
  raw: RawProfile,
  defaults: RawTable['defaults'],
  base: string,
  home: string,
  env: LoadOptions['env'],
  problems: TableProblem[],
  warnings: TableProblem[],
): Promise<ResolvedProfile> {
  const at = (...rest: PropertyKey[]): PropertyKey[] => ['profiles', name, ...rest];
  const cwd = expandPath(raw.cwd, home, base);
  const cwdProblem = globProblem(cwd, at('cwd')) ?? (await checkCwd(cwd, at('cwd'), env));
  if (cwdProblem) problems.push(cwdProblem);
  let bin: string | null = null;
  if (raw.bin !== undefined) {
    if (!isHomePath(raw.bin) && !raw.bin.startsWith('/')) {
      problems.push({
        path: at('bin'),
        message: `${JSON.stringify(raw.bin)} is not a full path`,
        fix: 'give the full path of the codex executable (or ~/…), or leave bin out',
      });
    } else bin = expandPath(raw.bin, home, base);
  }
  const addDirs: string[] = [];
  for (const [i, dir] of raw.add_dirs.entries()) {
    const abs = expandPath(dir, home, base);
    const problem = globProblem(abs, at('add_dirs', i));
    if (problem) problems.push(problem);
    else if (!addDirs.includes(abs)) addDirs.push(abs);
    if (!problem) {
      const ok = await stat(abs).then(
        (s) => s.isDirectory(),
        () => false,
      );
      if (!ok)
        warnings.push({
          path: at('add_dirs', i),
          message: `${abs} is not an existing folder; Codex ignores a writable folder that is not there`,
          fix: `create it (mkdir -p '${abs.replace(/'/g, `'\\''`)}') or remove it from add_dirs`,
        });
    }
  }
  // read_dirs: resolved like add_dirs; left out, the starter set (schema.ts READ_DIRS_STARTER), whose
  // missing entries are simply not given (compile's plan says which), so they warn about nothing.
  const readDirs: string[] = [];
  for (const [i, dir] of (raw.read_dirs ?? READ_DIRS_STARTER).entries()) {
    const abs = expandPath(dir, home, base);
    const problem = globProblem(abs, at('read_dirs', i));
    // The starter set gives only real folders: one reached through a symbolic link (a dotfile manager's
    // `~/.local/bin`, say) is left out with a warning instead of refusing every start (compile/grants.ts
    // refuses a named grant through a link; docs/security-model.md).
    const linked =
      !problem && raw.read_dirs === undefined
        ? await realpath(abs).then(
            (r) => (r !== abs ? r : null),
            () => null,
          )
        : null;
    if (linked !== null) {
      warnings.push({
        path: at('read_dirs'),
        message: `${abs} (read_dirs starter set) goes through a symbolic link to ${linked}, so it is not given`,
        fix: `name the real path in read_dirs, e.g. read_dirs = ["${linked}"]`,
      });
      continue;
    }
    if (problem) problems.push(problem);
    else if (!readDirs.includes(abs)) readDirs.push(abs);
    if (!problem && raw.read_dirs !== undefined && !(await present(abs))) {
      warnings.push({
        path: at('read_dirs', i),
        message: `${abs} does not exist; it is not given to the agent until it does (at its next start)`,
        fix: `create it or remove it from read_dirs`,
      });
    }
  }
  if (!cwdProblem) {
    const bypass = await bypassProblem(name, raw, [cwd, ...addDirs]);
    if (bypass) problems.push(bypass);
  }
  const access = resolveAccess(defaults, raw);
  return {
    ...copiedFields(raw),
    name,
    cwd,
    bin,
    addDirs,
    readDirs,
    readDirsStarter: raw.read_dirs === undefined,
    allowed: access.allowed,
    denied: access.denied,
    acceptFrom: refList(raw.accept_from),
    answerFrom: refList(raw.answer_from),
    env: [...new Set(raw.env)],
  };
}

/**
 * The keys of a profile not resolved by hand (types.ts `RESOLVED_BY_HAND`), as validated: camelCase
 * names, null for one left out without a default (`model`, `effort`).
 */
export function copiedFields(raw: RawProfile): CopiedFields {
  const out: Record<string, unknown> = {};
  for (const key of FIELD_KEYS) {
    if (!(RESOLVED_BY_HAND as readonly string[]).includes(key)) out[camelKey(key)] = raw[key] ?? null;
  }
  return out as CopiedFields;
}

/**
 * Resolves a validated table read from `file`: paths made absolute against the table's folder, `cwd`
 * checked to be an existing folder, glob-like paths refused, `bypassPermissions` on a folder holding
 * `.env` or `secrets` refused without `unsafe_ok`, capabilities resolved per profile, warnings
 * gathered (warnings.ts). Throws TableFailure (AppFailure `table-invalid`) listing every problem.
 */
export async function resolveTable(raw: RawTable, file: string, options: LoadOptions = {}): Promise<LoadedTable> {
  const home = options.home ?? resolveInstance().home;
  const env = options.env ?? process.env;
  const base = dirname(file);
  const problems: TableProblem[] = [];
  const warnings: TableProblem[] = [];
  const capabilities: Record<string, Capability> = resolveCapabilities(raw.capabilities, base, home, problems);
  const profiles: Record<string, ResolvedProfile> = {};
  for (const [name, rawProfile] of Object.entries(raw.profiles)) {
    profiles[name] = await resolveProfile(name, rawProfile, raw.defaults, base, home, env, problems, warnings);
  }
  if (problems.length > 0) throw tableFailure(file, problems);
  const d = raw.defaults;
  const table: LoadedTable = {
    file,
    defaults: {
      permissionTimeoutMinutes: d.permission_timeout_minutes,
      turnStallMinutes: d.turn_stall_minutes,
      idleExitMinutes: d.idle_exit_minutes,
      warmAgents: d.warm_agents,
      warmMemoryMb: d.warm_memory_mb,
      capabilities: [...d.capabilities],
      deny: [...d.deny],
    },
    capabilities,
    profiles,
    warnings,
  };
  table.warnings.push(...(await tableWarnings(table)));
  return table;
}

/**
 * Reads, parses, validates and resolves the table at `file` (made absolute). Throws AppFailure:
 * `table-missing` (no file), `table-unreadable`, `table-syntax`, `table-invalid`.
 */
export async function loadTable(file: string, options: LoadOptions = {}): Promise<LoadedTable> {
  const abs = expandPath(file, options.home ?? resolveInstance().home);
  let text: string;
  try {
    text = await readFile(abs, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      throw new AppFailure({
        code: 'table-missing',
        message: 'there is no table here',
        where: abs,
        fix: 'run angelia init, or set ANGELIA_CONFIG to your table',
      });
    }
    throw new AppFailure({
      code: 'table-unreadable',
      message: `the table cannot be read (${code ?? String(e)})`,
      where: abs,
      fix: 'make the file readable by you',
    });
  }
  return resolveTable(parseTableText(text, abs), abs, options);
}
