/** Globals the renderer may find: the preload bridge under Electron, nothing in a browser. */
import type { RendererApi } from '../../shared/contract';

declare global {
  interface Window {
    angelia?: RendererApi;
  }
}

export {};
