/**
 * Where the built renderer is: `ANGELIA_RENDERER_DIR`, else `<package root>/out/renderer` (built by
 * `npm ci` through `prepare`). Throws an AppFailure with the fix when it is missing.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { AppFailure } from '../../shared/result';
import { repoRoot } from '../demo/codexHome';

/** The absolute folder holding the renderer's index.html. */
export function rendererDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.ANGELIA_RENDERER_DIR) return env.ANGELIA_RENDERER_DIR;
  const dir = repoRoot();
  const out = join(dir, 'out', 'renderer');
  if (!existsSync(join(out, 'index.html'))) {
    throw new AppFailure({ code: 'no-renderer', message: 'the UI is not built', where: out, fix: `run "npm run build" in ${dir}` });
  }
  return out;
}
