/**
 * Per-profile package caches (docs/security-model.md): `<state>/cache/codex/<first 16 hex of sha256(name)>`
 * with `npm`, `uv`, `pip`, `xdg` and `tmp` inside, writable to that profile alone. Not `~/.npm` (its
 * `_npx` holds code run later outside the sandbox) and not the shared temp folder: `/tmp` is not in a
 * sandboxed profile's sandbox at all (no grant names it; docs/security-model.md), and each profile's
 * `TMPDIR` is its own `tmp/` here, a write entry of its own, so one profile's agent cannot leave files
 * for another's. Pure paths and variables; a start creates the folders (launch/prepare.ts `ensureCacheDirs`).
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';

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
