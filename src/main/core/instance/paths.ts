/**
 * Where an Angelia instance keeps its files (product.md §2 "Instance", seed-spec.md §1.2), and the one
 * path-expansion helper the core uses (`~` → home, relative → absolute against a base folder).
 */
import { homedir } from 'node:os';
import { isAbsolute, join, resolve, sep } from 'node:path';

/**
 * Every path of one instance, all absolute. `stateDir` is mode 700; everything but `workspace/` is
 * private state an agent must never read (see core/compile/floor.ts).
 */
export interface InstancePaths {
  /** The user's home folder (`HOME`, else the OS answer). */
  home: string;
  /** `ANGELIA_STATE_DIR`, else `~/.angelia`. */
  stateDir: string;
  /** `<state>/workspace`: the part the user may keep in git (table, profile folders). */
  workspace: string;
  /** The table: `ANGELIA_CONFIG`, else `<workspace>/angelia.toml`. */
  tableFile: string;
  /** `<state>/compiled`: launch guards and the accepted table (out of every agent's reach). */
  compiledDir: string;
  /** `<state>/compiled/angelia.accepted.toml`: the copy of the table the user accepted. */
  acceptedTable: string;
  /** `<state>/sessions.json`: chats and their Codex threads. */
  sessionsFile: string;
  /** `<state>/api.token`: the owner token of the local API (mode 600). */
  apiToken: string;
  /** `<state>/api.sock`: the local API's Unix socket (mode 600, never a TCP port). */
  apiSock: string;
  /** `<state>/env`: `NAME=value` secrets (mode 600), read into memory only. */
  envFile: string;
  /** `<state>/audit.jsonl`: the append-only approval audit log. */
  auditLog: string;
  /** `<state>/cache/codex`: the root of the per-profile package caches. */
  cacheRoot: string;
  /** `<state>/logs`: logs (ids and counts only). */
  logsDir: string;
  /** `CODEX_HOME`, else `~/.codex`. Angelia only reads it, never writes it. */
  codexHome: string;
}

/** Environment variables Angelia reads to place an instance. */
export type InstanceEnv = Record<string, string | undefined>;

/**
 * Expands a leading `~` (alone or followed by `/`) to `home`, then resolves the result to an absolute,
 * normalised path against `base` (default: the process's working directory). `~user` is not expanded.
 */
export function expandPath(p: string, home: string, base: string = process.cwd()): string {
  let out = p;
  if (out === '~') out = home;
  else if (out.startsWith('~/')) out = join(home, out.slice(2));
  return isAbsolute(out) ? resolve(out) : resolve(base, out);
}

/**
 * True when `child` is `parent` itself or lies below it. Both must be absolute and normalised
 * (as `expandPath` returns them).
 */
export function isWithin(child: string, parent: string): boolean {
  if (child === parent) return true;
  const prefix = parent.endsWith(sep) ? parent : parent + sep;
  return child.startsWith(prefix);
}

/**
 * Resolves the instance's paths from `env` (default `process.env`): `ANGELIA_STATE_DIR`,
 * `ANGELIA_CONFIG`, `CODEX_HOME` (each `~`-expanded; relative ones against the working directory).
 * Pure apart from reading the OS home folder when `HOME` is unset; touches no file.
 */
export function resolveInstance(env: InstanceEnv = process.env): InstancePaths {
  const home = resolve(env.HOME && env.HOME.length > 0 ? env.HOME : homedir());
  const stateDir = env.ANGELIA_STATE_DIR ? expandPath(env.ANGELIA_STATE_DIR, home) : join(home, '.angelia');
  const workspace = join(stateDir, 'workspace');
  const compiledDir = join(stateDir, 'compiled');
  return {
    home,
    stateDir,
    workspace,
    tableFile: env.ANGELIA_CONFIG ? expandPath(env.ANGELIA_CONFIG, home) : join(workspace, 'angelia.toml'),
    compiledDir,
    acceptedTable: join(compiledDir, 'angelia.accepted.toml'),
    sessionsFile: join(stateDir, 'sessions.json'),
    apiToken: join(stateDir, 'api.token'),
    apiSock: join(stateDir, 'api.sock'),
    envFile: join(stateDir, 'env'),
    auditLog: join(stateDir, 'audit.jsonl'),
    cacheRoot: join(stateDir, 'cache', 'codex'),
    logsDir: join(stateDir, 'logs'),
    codexHome: env.CODEX_HOME ? expandPath(env.CODEX_HOME, home) : join(home, '.codex'),
  };
}
