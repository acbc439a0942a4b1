/**
 * Where an Angelia instance keeps its files (`ANGELIA_STATE_DIR`, default `~/.angelia`), and the one
 * path-expansion helper the core uses (`~` → home, relative → absolute against a base folder).
 */
import { join, sep } from 'node:path';
import { expandPath, resolveStateDir, type InstanceEnv } from './stateDir';

export { expandPath, resolveStateDir, type InstanceEnv } from './stateDir';

/**
 * `<state>/private`: the one folder (mode 700) that holds every file Angelia itself creates or rewrites
 * at the top of its state: the sessions store with its `.bak`, `.lock` and write-file-atomic temps, the
 * record of Codex children, the audit log and the owner token. Why a folder: codex 0.169.0 on Linux
 * denies a NAMED file by bind-mounting over that file's inode when it builds a command's sandbox
 * (measured), so a file replaced by a rename afterwards (an atomic rewrite), or first created
 * afterwards, is readable to every command already running, and renames over a named deny at a high
 * rate make sandbox builds fail (40 commands while `<state>/sessions.json` and its `.bak` were rewritten
 * atomically ~260 times/s: 10/40 failed with "bwrap: Can't bind mount … Unable to find … in mount
 * table" or "Unable to remount destination … Invalid argument", and the other 29/40 read the file). A
 * folder denied whole hides whatever is created or renamed inside it later, and renames inside it never
 * race a sandbox build (the same churn in `private/`: 0/40 failed, 0/40 read it;
 * test/integration/sandbox-state-late.test.ts, sandbox-state-churn.test.ts). The floor denies it whole
 * (compile/floor.ts STATE_PRIVATE_FOLDERS) and it exists before any launch (launch/prepare.ts `ensureStateFolders`).
 */
export const PRIVATE_DIR = 'private';

/**
 * The files of PRIVATE_DIR that Angelia kept at the top of the state folder before it existed, by
 * name (the same name in both places). instance/migrate.ts moves them in once; the floor keeps
 * denying the old names (a legacy file may still lie there).
 */
export const PRIVATE_FILES = ['sessions.json', 'sessions.json.bak', 'children.json', 'audit.jsonl', 'api.token'] as const;

/** `<stateDir>/private/<name>`: where Angelia keeps its private file `name` (see PRIVATE_DIR). */
export function privateFile(stateDir: string, name: string): string {
  return join(stateDir, PRIVATE_DIR, name);
}

/**
 * Every path of one instance, all absolute. `stateDir` is mode 700; everything but `workspace/` is
 * private state an agent must never read (see core/compile/floor.ts). Files Angelia writes itself live
 * in `privateDir`; `env`, which the user writes, stays at the top (see `envFile`).
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
  /** `<state>/private`: Angelia's own private files (PRIVATE_DIR; mode 700). */
  privateDir: string;
  /** `<state>/private/sessions.json`: chats and their Codex threads (`.bak` and `.lock` beside it). */
  sessionsFile: string;
  /** `<state>/private/children.json`: the Codex children Angelia runs (codex/children.ts). */
  childrenFile: string;
  /** `<state>/private/api.token`: the owner token of the local API (mode 600). */
  apiToken: string;
  /** `<state>/api.sock`: the local API's Unix socket (mode 600, never a TCP port; floor.ts STATE_SOCKET). */
  apiSock: string;
  /**
   * `<state>/env`: `NAME=value` secrets (mode 600), read into memory only. Kept at the top of the state
   * folder, not in `privateDir`: the user writes it (`~/.angelia/env` for the default
   * instance) and Angelia never creates nor rewrites it, so no write of Angelia's races the
   * sandbox. Denied by name: an editor that saves by renaming a new file over it while an agent runs
   * makes the new content readable to that agent's commands already running (see PRIVATE_DIR), so edit
   * it while no agent runs, or with an editor that writes the file in place.
   */
  envFile: string;
  /** `<state>/private/audit.jsonl`: the append-only approval audit log. */
  auditLog: string;
  /** `<state>/cache/codex`: the root of the per-profile package caches. */
  cacheRoot: string;
  /** `<state>/logs`: logs (ids and counts only). */
  logsDir: string;
  /** `CODEX_HOME`, else `~/.codex`. Angelia only reads it, never writes it. */
  codexHome: string;
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
  const { home, stateDir } = resolveStateDir(env);
  const workspace = join(stateDir, 'workspace');
  const compiledDir = join(stateDir, 'compiled');
  return {
    home,
    stateDir,
    workspace,
    tableFile: env.ANGELIA_CONFIG ? expandPath(env.ANGELIA_CONFIG, home) : join(workspace, 'angelia.toml'),
    compiledDir,
    acceptedTable: join(compiledDir, 'angelia.accepted.toml'),
    privateDir: join(stateDir, PRIVATE_DIR),
    sessionsFile: privateFile(stateDir, 'sessions.json'),
    childrenFile: privateFile(stateDir, 'children.json'),
    apiToken: privateFile(stateDir, 'api.token'),
    apiSock: join(stateDir, 'api.sock'),
    envFile: join(stateDir, 'env'),
    auditLog: privateFile(stateDir, 'audit.jsonl'),
    cacheRoot: join(stateDir, 'cache', 'codex'),
    logsDir: join(stateDir, 'logs'),
    codexHome: env.CODEX_HOME ? expandPath(env.CODEX_HOME, home) : join(home, '.codex'),
  };
}
