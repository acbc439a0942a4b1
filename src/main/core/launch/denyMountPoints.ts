/**
 * The mount points of the deny floor (compile/floor.ts), made before a start so that Codex never has to
 * make them itself. For an approved escalation, codex 0.171.0 on Linux runs the command with `/` writable
 * and every deny entry kept; it masks a deny entry whose path is missing by creating an empty read-only
 * file at its first missing component on the host for the command's duration (a "synthetic mount target")
 * and removes it afterwards unless another Codex process still uses it. Codex tracks those users in a
 * registry in `$TMPDIR/codex-bwrap-synthetic-mount-targets-<uid>` (it refuses one that is a link), and
 * every profile has its own TMPDIR (compile/cache.ts `cacheEnv`), so Codex processes of two profiles never
 * see each other: one removes `~/.ssh` while the other's bubblewrap is mounting on it, and the other's
 * command fails before it runs ("bwrap: Can't bind mount /bindfile… on …/.ssh: Unable to mount source on
 * destination: No such file or directory" / "Unable to find … in mount table"); measured with the load run
 * (test/reliability/load.test.ts, 20 chats of 20 profiles, each turn an approved escalation): 13 of 40
 * command outputs. The same race leaves some of those files behind (measured: `~/.config` and `~/.aws` as
 * empty read-only files after the run). A path that exists before the start is "pre-existing" to Codex:
 * masked, never created nor removed, so nothing races (docs/architecture.md "Sandboxes of many profiles at
 * once"). With these made, the load run's 20 × 5 turns: 0 of 100 failed on them.
 *
 * What is made, never through a link, and only where its parent folder exists: Angelia's own legacy names
 * at the top of the state folder as empty files mode 600 (instance/migrate.ts leaves an empty old name
 * alone; an older Angelia still running may write them); the folders of the floor (`~/.ssh`, `~/.aws`, the
 * Codex homes' `sessions`, …) as empty folders mode 700, as the tools make them; the credential files
 * whose empty content means the same as no file to their tool (EMPTY_MEANS_NONE) and the Codex homes' two
 * logs (CODEX_LOGS), mode 600. A file a tool parses (an `auth.json`, `~/.claude.json`,
 * `~/.m2/settings.xml`, …) or the user's Codex config is never made: while missing, its race stays (the
 * load run counts it apart: 7 of 100 on `~/.pi` and `~/.gem` with an empty home).
 */
import { lstat, mkdir, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { PRIVATE_FILES } from '../instance/paths';
import { CODEX_STORES, HOME_PRIVATE_DIRS, HOME_PRIVATE_FILES } from '../compile/floor';

/** One mount point to make: an empty folder or an empty file, with its mode. */
export interface MountPoint {
  path: string;
  /** The folder it is made under (home, the state folder, a Codex home): every folder from there to its parent must be real. */
  base: string;
  kind: 'folder' | 'file';
  mode: number;
}

/**
 * Floor files under home whose empty content is what their tool reads as "none": `.netrc`, git's
 * credential store, npm's and pip's config, libpq's password file, Vault's token file (no token), the
 * shells' and REPLs' histories (appended to by their owner, hence mode 600) and cargo's credentials
 * (empty TOML).
 */
export const EMPTY_MEANS_NONE: ReadonlySet<string> = new Set([
  '.netrc',
  '.git-credentials',
  '.npmrc',
  '.pypirc',
  '.pgpass',
  '.vault-token',
  '.zsh_history',
  '.bash_history',
  '.python_history',
  '.node_repl_history',
  '.cargo/credentials.toml',
  '.cargo/credentials',
]);

/** The floor's folders under home (compile/floor.ts HOME_PRIVATE_DIRS and OTHER_CLI_STORES' folders). */
const HOME_FOLDERS = [...HOME_PRIVATE_DIRS, '.claude/projects', '.claude/file-history', '.claude/paste-cache', '.grok/sessions', '.pi/agent/sessions'];
/**
 * The stores of a Codex home (compile/floor.ts CODEX_STORES) made when missing: its folders, and its two
 * append-only logs (an empty JSONL file is what Codex starts them as). Never `auth.json` nor `config.toml`
 * (docs/security-model.md "The user's Codex config is never written").
 */
export const CODEX_FOLDERS = ['sessions', 'archived_sessions', 'memories'] as const;
export const CODEX_LOGS = ['history.jsonl', 'session_index.jsonl'] as const;

/**
 * The mount points to make for the deny floor of instance `paths` on Linux, in creation order. Pure.
 * A point is made only where its parent folder exists (ensureMountPoints): `~/.ssh` is made, but no
 * tool's folder that is missing (`~/.pi`, `~/.m2`, a `~/.codex` that is not CODEX_HOME) is started,
 * where Codex masks the whole folder with one placeholder (compile/entries.ts `bwrapSafeEntries`).
 * The entries stay in the floor whether made or not: this only decides what exists before Codex looks.
 */
export function denyMountPoints(paths: { home: string; stateDir: string; codexHome: string }): MountPoint[] {
  const out: MountPoint[] = [];
  for (const name of PRIVATE_FILES) out.push({ path: join(paths.stateDir, name), base: paths.stateDir, kind: 'file', mode: 0o600 });
  for (const rel of HOME_FOLDERS) out.push({ path: join(paths.home, rel), base: paths.home, kind: 'folder', mode: 0o700 });
  for (const rel of HOME_PRIVATE_FILES) if (EMPTY_MEANS_NONE.has(rel)) out.push({ path: join(paths.home, rel), base: paths.home, kind: 'file', mode: 0o600 });
  for (const home of new Set([join(paths.home, '.codex'), paths.codexHome])) {
    for (const rel of CODEX_FOLDERS)
      if ((CODEX_STORES as readonly string[]).includes(rel)) out.push({ path: join(home, rel), base: home, kind: 'folder', mode: 0o700 });
    for (const rel of CODEX_LOGS)
      if ((CODEX_STORES as readonly string[]).includes(rel)) out.push({ path: join(home, rel), base: home, kind: 'file', mode: 0o600 });
  }
  return out;
}

/** True when `path` is a real folder (not a link). */
async function isFolder(path: string): Promise<boolean> {
  const s = await lstat(path).catch(() => null);
  return s !== null && s.isDirectory();
}

/** True when `base` and every folder below it down to `dir` are real folders (no link on the way, e.g. `~/.pi` → elsewhere). */
async function realFoldersDown(base: string, dir: string): Promise<boolean> {
  const rest = relative(base, dir);
  if (rest.startsWith('..') || isAbsolute(rest)) return false;
  let at = base;
  if (!(await isFolder(at))) return false;
  for (const part of rest.split(sep).filter(Boolean)) {
    at = join(at, part);
    if (!(await isFolder(at))) return false;
  }
  return true;
}

/**
 * Makes each of `points` that is missing and whose parent is a real folder, as is every folder between it
 * and the point's base (no link on the way, not a file):
 * an empty folder or an empty file with its mode. An existing entry at the point (anything, a link
 * included) is left as it is. Never throws: a point that cannot be made stays missing, and Codex masks
 * it as before.
 */
export async function ensureMountPoints(points: readonly MountPoint[]): Promise<void> {
  for (const p of points) {
    if (!(await realFoldersDown(p.base, dirname(p.path)))) continue;
    try {
      // mkdir and `wx` (O_CREAT|O_EXCL) both fail on an existing entry, a symbolic link included.
      if (p.kind === 'folder') await mkdir(p.path, { mode: p.mode });
      else await writeFile(p.path, '', { flag: 'wx', mode: p.mode });
    } catch {
      // Exists already (as anything), or cannot be made: Codex masks it as before.
    }
  }
}
