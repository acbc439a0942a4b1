/**
 * Where an instance's state folder is, from the environment alone: Node built-ins only, so the CLI can
 * find it before loading the core (cli/index.ts, `angelia run`'s early Codex start). `paths.ts`
 * (`resolveInstance`) builds every other path on it.
 */
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { expandHome } from '../../../shared/homePath';

/** Environment variables Angelia reads to place an instance. */
export type InstanceEnv = Record<string, string | undefined>;

/**
 * Expands a leading `~` (alone or followed by `/`) to `home` (shared/homePath.ts `expandHome`), then
 * resolves the result to an absolute, normalised path against `base` (default: the process's working
 * directory). `~user` is not expanded.
 */
export function expandPath(p: string, home: string, base: string = process.cwd()): string {
  const out = expandHome(p, home);
  return isAbsolute(out) ? resolve(out) : resolve(base, out);
}

/**
 * The user's home (`HOME`, else the OS answer) and the state folder (`ANGELIA_STATE_DIR`, `~`-expanded,
 * relative to the working directory; else `~/.angelia`). Touches no file.
 */
export function resolveStateDir(env: InstanceEnv = process.env): { home: string; stateDir: string } {
  const home = resolve(env.HOME && env.HOME.length > 0 ? env.HOME : homedir());
  return { home, stateDir: env.ANGELIA_STATE_DIR ? expandPath(env.ANGELIA_STATE_DIR, home) : join(home, '.angelia') };
}
