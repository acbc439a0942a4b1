/**
 * Where Angelia's renderer is and which URLs are ours. Production: the built `out/renderer/index.html`
 * as a file:// URL. Development (`electron-vite dev`, app not packaged): the Vite dev server in
 * `ELECTRON_RENDERER_URL`. A packaged app never honours that variable, so nobody can point it at a
 * remote page. Pure; no Electron.
 */
import { pathToFileURL } from 'node:url';

/** The renderer to load and, in development, the dev server it comes from. */
export interface RendererLocation {
  /** The URL windows load (no fragment). */
  url: string;
  /** The dev server's URL, or null in production. */
  devServerUrl: string | null;
}

/**
 * The renderer's location: the dev server when not packaged and `devServerUrl` is an http(s) URL,
 * else `indexFile` (absolute path of out/renderer/index.html) as a file:// URL.
 */
export function rendererLocation(opts: { indexFile: string; isPackaged: boolean; devServerUrl?: string | undefined }): RendererLocation {
  const dev = !opts.isPackaged && opts.devServerUrl ? parseHttp(opts.devServerUrl) : null;
  if (dev) return { url: dev.href, devServerUrl: dev.href };
  return { url: pathToFileURL(opts.indexFile).href, devServerUrl: null };
}

function parseHttp(s: string): URL | null {
  try {
    const u = new URL(s);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u : null;
  } catch {
    return null;
  }
}

/**
 * True when `url` (a sender frame's URL) is our renderer's page: the same file:// path as the built
 * index.html, or in development the dev server's origin at `/` or `/index.html`. Query and fragment are
 * ignored (the window's view lives in the fragment); anything else — another file, another origin,
 * `about:blank`, a data: URL, a malformed URL — is not ours.
 */
export function isRendererUrl(url: string, loc: RendererLocation): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (loc.devServerUrl) {
    const dev = new URL(loc.devServerUrl);
    return u.origin === dev.origin && (u.pathname === '/' || u.pathname === '/index.html');
  }
  const ours = new URL(loc.url);
  return u.protocol === 'file:' && ours.protocol === 'file:' && u.host === ours.host && u.pathname === ours.pathname;
}

/**
 * What a window opens on, carried in the URL fragment: a chat (`#chat=<id>`), the table review
 * (`#review=table`) or the sign-in screen (`#review=account`); null for the chat list.
 */
export type WindowView = { chat: string } | { review: 'table' | 'account' } | null;

/** The renderer URL for a view (the location's URL with the view's fragment). */
export function rendererUrlFor(loc: RendererLocation, view: WindowView): string {
  const u = new URL(loc.url);
  u.hash = view === null ? '' : 'chat' in view ? `chat=${encodeURIComponent(view.chat)}` : `review=${view.review}`;
  return u.href;
}
