/**
 * Loads the table (`angelia.toml`): TOML parsed with smol-toml, validated with the strict schema,
 * then each profile's paths resolved (`~` expanded, relative paths against the table's folder) and
 * checked. Every error is an AppFailure with `where` = `<file>: <key path>` and a `fix`.
 */
import { readFile, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parse } from 'smol-toml';
import { AppFailure } from '../../../shared/result';
import { expandPath, resolveInstance } from '../instance/paths';
import { keyPath, problemsFromIssues, syntaxFailure, tableFailure, type TableProblem } from './errors';
import { PROFILE_NAME, tableSchema, type Backend, type Effort, type PermissionMode, type RawProfile, type RawTable } from './schema';

/** `[defaults]` after validation (minutes). */
export interface TableDefaults {
  permissionTimeoutMinutes: number;
  /** 0 = never stop a stalled turn. */
  turnStallMinutes: number;
  idleExitMinutes: number;
}

/** One profile with every path absolute and every default applied. */
export interface ResolvedProfile {
  name: string;
  /** Absolute path of an existing folder. */
  cwd: string;
  backend: Backend;
  /** Absolute path of the Codex executable, or null for the bundled one. */
  bin: string | null;
  permissionMode: PermissionMode;
  /** False only when the table says `sandbox = false`. */
  sandbox: boolean;
  /** Absolute, de-duplicated, in table order. */
  addDirs: string[];
  model: string | null;
  effort: Effort | null;
}

/** A loaded table. */
export interface LoadedTable {
  /** Absolute path of the file read. */
  file: string;
  defaults: TableDefaults;
  profiles: Record<string, ResolvedProfile>;
  /** Problems that do not stop loading (e.g. an add_dirs folder that does not exist yet). */
  warnings: string[];
}

/** Options of `loadTable` / `resolveTable`. */
export interface LoadOptions {
  /** Home folder for `~` (default: `resolveInstance().home`). */
  home?: string;
  /** Environment consulted for the sandbox tolerance of `cwd` checks (default `process.env`). */
  env?: Record<string, string | undefined>;
}

/** Characters Codex reads as a glob in a filesystem path (measured on 0.169.0: `[`, `?` and `*`). */
const GLOB_CHARS = /[*?[\]]/;

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
  const bad = Object.keys(result.data.profiles).filter((name) => !PROFILE_NAME.test(name));
  if (bad.length > 0) {
    throw tableFailure(file, bad.map((name) => ({
      path: ['profiles', name],
      message: 'a profile name may hold only letters, digits, "_" and "-"',
      fix: `rename it, e.g. [profiles.${name.replace(/[^A-Za-z0-9_-]+/g, '-') || 'assistant'}]`,
    })));
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
    if (code === 'ENOENT') return { path: at, message: `${path} does not exist`, fix: `create the folder (mkdir -p '${path.replace(/'/g, `'\\''`)}') or correct cwd` };
    return { path: at, message: `${path} cannot be checked (${code ?? String(e)})`, fix: 'make the folder readable by you' };
  }
}

function globProblem(path: string, at: PropertyKey[]): TableProblem | null {
  if (!GLOB_CHARS.test(path)) return null;
  return {
    path: at,
    message: `${path} contains * ? [ or ], which Codex's sandbox reads as a pattern, so its rules would not hold`,
    fix: 'rename the folder without those characters',
  };
}

async function resolveProfile(
  name: string, raw: RawProfile, base: string, home: string, env: LoadOptions['env'], problems: TableProblem[], warnings: string[],
): Promise<ResolvedProfile> {
  const at = (...rest: PropertyKey[]): PropertyKey[] => ['profiles', name, ...rest];
  const cwd = expandPath(raw.cwd, home, base);
  const cwdProblem = globProblem(cwd, at('cwd')) ?? (await checkCwd(cwd, at('cwd'), env));
  if (cwdProblem) problems.push(cwdProblem);
  let bin: string | null = null;
  if (raw.bin !== undefined) {
    if (raw.bin !== '~' && !raw.bin.startsWith('~/') && !raw.bin.startsWith('/')) {
      problems.push({ path: at('bin'), message: `${JSON.stringify(raw.bin)} is not a full path`, fix: 'give the full path of the codex executable (or ~/…), or leave bin out' });
    } else bin = expandPath(raw.bin, home, base);
  }
  const addDirs: string[] = [];
  for (const [i, dir] of raw.add_dirs.entries()) {
    const abs = expandPath(dir, home, base);
    const problem = globProblem(abs, at('add_dirs', i));
    if (problem) problems.push(problem);
    else if (!addDirs.includes(abs)) addDirs.push(abs);
    if (!problem) {
      const ok = await stat(abs).then((s) => s.isDirectory(), () => false);
      if (!ok) warnings.push(`${keyPath(at('add_dirs', i))}: ${abs} is not an existing folder; Codex ignores a writable folder that is not there`);
    }
  }
  return {
    name,
    cwd,
    backend: raw.backend,
    bin,
    permissionMode: raw.permission_mode,
    sandbox: raw.sandbox,
    addDirs,
    model: raw.model ?? null,
    effort: raw.effort ?? null,
  };
}

/**
 * Resolves a validated table read from `file`: paths made absolute against the table's folder, `cwd`
 * checked to be an existing folder, glob-like paths refused. Throws AppFailure `table-invalid`.
 */
export async function resolveTable(raw: RawTable, file: string, options: LoadOptions = {}): Promise<LoadedTable> {
  const home = options.home ?? resolveInstance().home;
  const env = options.env ?? process.env;
  const base = dirname(file);
  const problems: TableProblem[] = [];
  const warnings: string[] = [];
  const profiles: Record<string, ResolvedProfile> = {};
  for (const [name, rawProfile] of Object.entries(raw.profiles)) {
    profiles[name] = await resolveProfile(name, rawProfile, base, home, env, problems, warnings);
  }
  if (problems.length > 0) throw tableFailure(file, problems);
  const d = raw.defaults;
  return {
    file,
    defaults: { permissionTimeoutMinutes: d.permission_timeout_minutes, turnStallMinutes: d.turn_stall_minutes, idleExitMinutes: d.idle_exit_minutes },
    profiles,
    warnings,
  };
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
      throw new AppFailure({ code: 'table-missing', message: 'there is no table here', where: abs, fix: 'run angelia init, or set ANGELIA_CONFIG to your table' });
    }
    throw new AppFailure({ code: 'table-unreadable', message: `the table cannot be read (${code ?? String(e)})`, where: abs, fix: 'make the file readable by you' });
  }
  return resolveTable(parseTableText(text, abs), abs, options);
}
