/** Globals the renderer may find: the preload bridge under Electron, nothing in a browser. */
import type { RendererApi } from '../../shared/contract';

declare global {
  interface Window {
    /**
     * The preload bridge. `pickFolder` is the seam for Electron's native folder dialog (absolute path,
     * or null when cancelled); a preload that does not offer it, and the browser build, leave the
     * editor with typed folder fields only.
     */
    angelia?: RendererApi & { pickFolder?: () => Promise<string | null> };
  }
}

export {};
