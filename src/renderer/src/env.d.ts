/** Globals the renderer may find: the preload bridge under Electron, nothing in a browser. */
import type { RendererApi } from '../../shared/contract';

declare global {
  interface Window {
    /**
     * The preload bridge. `pickFolder` is the seam for Electron's native folder dialog (absolute path,
     * or null when cancelled); a preload that does not offer it, and the browser build, leave the
     * editor with typed folder fields only. `openExternal` opens an http(s) URL in the system browser
     * (Electron's `shell.openExternal`: the ChatGPT sign-in page); true when it was handed over.
     */
    angelia?: RendererApi & { pickFolder?: () => Promise<string | null>; openExternal?: (url: string) => Promise<boolean> };
  }
}

export {};
