/**
 * Angelia's own program on this machine: the package root (the folder of its package.json, from src/
 * or from the built out/), the CLI runtime the `angelia` command of agents runs (launch/agentCommand.ts
 * writes the launcher), and the files of the install that run outside every sandbox, which the grant
 * check keeps out of every agent's reach (compile/grants.ts; docs/security-model.md). Reads only
 * whether files exist; writes nothing. The core finds its root here, never through a host or the demo.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The package root: the nearest folder above this module holding `package.json` (works from src/ and
 * out/), or the current folder when none is found. Absolute path.
 */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const up = dirname(dir);
    if (up === dir) return process.cwd();
    dir = up;
  }
}

/** How to run Angelia's CLI: the executable, the built CLI script, and whether it is Electron's binary. */
export interface CliRuntime {
  /** Absolute path of Node (or of the Electron binary when `electron`). */
  exec: string;
  /** Absolute path of the built CLI (`out/main/cli.js`). */
  script: string;
  /** True inside Electron: the launcher sets ELECTRON_RUN_AS_NODE=1 so the binary runs as Node. */
  electron: boolean;
}

/**
 * The CLI runtime of this process: `process.execPath` and `<package root>/out/main/cli.js`. Null when
 * the CLI is not built (then agents get no `angelia` command, and their instructions do not mention it).
 */
export function currentCliRuntime(): CliRuntime | null {
  const script = join(packageRoot(), 'out', 'main', 'cli.js');
  if (!existsSync(script)) return null;
  return { exec: process.execPath, script, electron: typeof process.versions.electron === 'string' };
}

/**
 * Angelia's own program as it runs outside the sandbox: the executable of this process (Node, or the
 * Electron binary) and, in the install folder (the folder of package.json), `bin/`, `out/`,
 * `node_modules/` and `package.json`. The grant check (compile/grants.ts) refuses a start when an agent
 * can write any of them: an agent that rewrote `bin/angelia.js` would run its code with the user's full
 * access at the next `angelia` command (found by an attack on a profile whose folder held the install).
 * Absolute paths; reads nothing.
 */
export function angeliaProgram(): string[] {
  const root = packageRoot();
  return [process.execPath, ...['bin', 'out', 'node_modules', 'package.json'].map((n) => join(root, n))];
}
