/**
 * Per-profile package caches (seed-spec.md §4.3): `<state>/cache/codex/<first 16 hex of sha256(name)>`
 * with `npm`, `uv`, `pip`, `xdg` inside, writable to that profile alone. Not `~/.npm` (its `_npx` holds
 * code run later outside the sandbox) and not temp (every sandboxed profile can write it).
 */
import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';

/** The cache folder of `profileName` under the state folder `stateDir`. Pure. */
export function cacheDirFor(stateDir: string, profileName: string): string {
  const hash = createHash('sha256').update(profileName, 'utf8').digest('hex').slice(0, 16);
  return join(stateDir, 'cache', 'codex', hash);
}

/** The four sub-folders of a cache folder. */
export const CACHE_SUBDIRS = ['npm', 'uv', 'pip', 'xdg'] as const;

/** Environment variables that point npm, uv, pip and XDG programs at `cacheDir`. Pure. */
export function cacheEnv(cacheDir: string): Record<string, string> {
  return {
    npm_config_cache: join(cacheDir, 'npm'),
    UV_CACHE_DIR: join(cacheDir, 'uv'),
    PIP_CACHE_DIR: join(cacheDir, 'pip'),
    XDG_CACHE_HOME: join(cacheDir, 'xdg'),
  };
}

/**
 * Creates `cacheDir` and its four sub-folders, mode 700, before a launch (Codex ignores a writable
 * entry whose folder does not exist — measured on 0.169.0). Throws the fs error.
 */
export async function ensureCacheDirs(cacheDir: string): Promise<void> {
  for (const sub of CACHE_SUBDIRS) await mkdir(join(cacheDir, sub), { recursive: true, mode: 0o700 });
}
