/**
 * Where the built renderer is: `ANGELIA_RENDERER_DIR`, else `<package root>/out/renderer` (built by
 * `npm ci` through `prepare`). Either must hold `index.html`; otherwise an AppFailure `no-renderer`
 * with the fix ("npm run build"), so `angelia serve` and `angelia demo` refuse before starting anything.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AppFailure } from '../../shared/result';
import { packageRoot } from '../core/instance/program';

/** The absolute folder holding the renderer's index.html. Throws AppFailure `no-renderer` when it is not built. */
export function rendererDir(env: NodeJS.ProcessEnv = process.env): string {
  const dir = packageRoot();
  const given = env.ANGELIA_RENDERER_DIR ? resolve(env.ANGELIA_RENDERER_DIR) : null;
  const out = given ?? join(dir, 'out', 'renderer');
  if (!existsSync(join(out, 'index.html'))) {
    throw new AppFailure({
      code: 'no-renderer',
      message: 'the UI is not built (its index.html is missing)',
      where: given ? `ANGELIA_RENDERER_DIR=${given}` : out,
      fix: given ? `run "npm run build" in ${dir}, or point ANGELIA_RENDERER_DIR at a built renderer folder (or unset it)` : `run "npm run build" in ${dir}`,
    });
  }
  return out;
}
