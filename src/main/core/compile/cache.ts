/**
 * Per-profile package caches (docs/security-model.md): `<state>/cache/codex/<first 16 hex of sha256(name)>`
 * with `npm`, `uv`, `pip`, `xdg` and `tmp` inside, writable to that profile alone. Not `~/.npm` (its
 * `_npx` holds code run later outside the sandbox) and not the shared temp folder: `/tmp` is not in a
 * sandboxed profile's sandbox at all (no grant names it; docs/security-model.md), and each profile's
 * `TMPDIR` is its own `tmp/` here, a write entry of its own, so one profile's agent cannot leave files
 * for another's.
 */
import { createHash } from 'node:crypto';
import { lstat, mkdir, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ensurePlainFolder } from './safeWrite';

/** The cache folder of `profileName` under the state folder `stateDir`. Pure. */
export function cacheDirFor(stateDir: string, profileName: string): string {
  const hash = createHash('sha256').update(profileName, 'utf8').digest('hex').slice(0, 16);
  return join(stateDir, 'cache', 'codex', hash);
}

/** The agent's temporary folder (TMPDIR) in `cacheDir`: `<cacheDir>/tmp`. Pure. */
export function cacheTmpDir(cacheDir: string): string {
  return join(cacheDir, 'tmp');
}

/** The sub-folders of a cache folder. */
export const CACHE_SUBDIRS = ['npm', 'uv', 'pip', 'xdg', 'tmp'] as const;

/**
 * Environment variables that point npm, uv, pip and XDG programs at `cacheDir`, and the temp folder
 * (`TMPDIR`, with `TMP`/`TEMP` for tools that read those) at its `tmp/`. Set on the Codex process, so
 * Codex's own `:tmpdir` is that folder too and every command inherits it. Pure.
 */
export function cacheEnv(cacheDir: string): Record<string, string> {
  return {
    npm_config_cache: join(cacheDir, 'npm'),
    UV_CACHE_DIR: join(cacheDir, 'uv'),
    PIP_CACHE_DIR: join(cacheDir, 'pip'),
    XDG_CACHE_HOME: join(cacheDir, 'xdg'),
    TMPDIR: cacheTmpDir(cacheDir),
    TMP: cacheTmpDir(cacheDir),
    TEMP: cacheTmpDir(cacheDir),
  };
}

/**
 * Creates `cacheDir` (`<state>/cache/codex/<hash>`, `cacheDirFor`) and its sub-folders, mode 700, before
 * a launch (Codex ignores a writable entry whose folder does not exist — measured on 0.169.0), never
 * through a link: `<state>/cache`, `cache/codex` and the cache folder itself must be plain folders
 * (AppFailure `unsafe-path` otherwise); a sub-folder the agent replaced (it may write its cache) by a
 * link or a file is removed, not followed, and made again. Throws the fs error.
 */
export async function ensureCacheDirs(cacheDir: string): Promise<void> {
  const codex = dirname(cacheDir);
  const cache = dirname(codex);
  await mkdir(dirname(cache), { recursive: true, mode: 0o700 });
  for (const dir of [cache, codex, cacheDir]) await ensurePlainFolder(dir, 0o700, "the agents' package caches");
  for (const sub of CACHE_SUBDIRS) {
    const path = join(cacheDir, sub);
    const s = await lstat(path).catch(() => null);
    if (s !== null && !s.isDirectory()) await unlink(path);
    await ensurePlainFolder(path, 0o700, "the agent's package cache");
  }
}

/**
 * The mount points Codex's Linux sandbox needs in every writable root (bubblewrap keeps these paths
 * read-only), measured on codex 0.169.0: `.agents`, `.codex`, `.git`, and `.aws` (from the credential
 * floor's deny of `~/.aws`).
 */
export const SANDBOX_PLACEHOLDERS = ['.agents', '.aws', '.codex', '.git'] as const;

/**
 * The placeholders made as an empty read-only FILE rather than a folder: `.codex`. A `.codex` folder
 * in the profile's folder makes codex 0.169.0 take it for a project with a config folder and record its
 * trust in the user's Codex config at the first writable start (measured: docs/security-model.md "The
 * user's Codex config is never written"), and a trusted project's `.codex/` folder is a config layer
 * with hooks and exec policies. A file is as good a mount point (0 of 40 concurrent starts failed) and can
 * hold nothing.
 */
export const PLACEHOLDER_FILES: ReadonlySet<string> = new Set(['.codex']);

/**
 * Creates the missing `SANDBOX_PLACEHOLDERS` (PLACEHOLDER_FILES as an empty file, mode 444; the others as
 * an empty folder, mode 755 as Codex makes them) in each of `roots` that is a folder, before a launch.
 * Without them, sandboxes started at the same moment in a shared root (`_common/`, a shared add_dir, two
 * chats of one profile) raced to create them: measured with 20 concurrent starts, most failed with
 * "bwrap: Can't mount tmpfs on …/_common/.agents: No such file or directory" (docs/benchmarks.md,
 * many-agents); 8 concurrent starts sharing an add_dir: without them 1 to 4 of 8 failed (4 runs), with
 * them (`.codex` a file) 0 of 8 (5 runs). Only adds what is missing, and never through a link: an existing entry of that name
 * (folder, file or link; an older Angelia's `.codex` folder too) is left as it is. Never throws.
 */
export async function ensureSandboxPlaceholders(roots: readonly string[]): Promise<void> {
  for (const root of roots) {
    for (const name of SANDBOX_PLACEHOLDERS) {
      try {
        // `wx` (O_CREAT|O_EXCL) and mkdir both fail on an existing entry, a symbolic link included.
        if (PLACEHOLDER_FILES.has(name)) await writeFile(join(root, name), '', { flag: 'wx', mode: 0o444 });
        else await mkdir(join(root, name), { mode: 0o755 });
      } catch {
        // Exists already (as anything), or the root is not a folder we can write: Codex does as before.
      }
    }
  }
}
