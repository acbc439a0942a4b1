/**
 * Security defaults of every Angelia window, in one place (Electron's security checklist): isolated,
 * sandboxed renderers without Node; a strict Content-Security-Policy on responses; no navigation, no new
 * windows, no <webview>, no permissions. Links to http(s) pages open in the system browser.
 *
 * Electron objects are parameters (`hardenWebContents(contents, …)`), so this is tested in Node.
 */

/**
 * The renderer's Content-Security-Policy exactly as src/renderer/index.html carries it in its
 * `<meta http-equiv>` (a test holds the two equal): only our own scripts, styles and images (plus
 * `data:` images), inline style attributes (React and the virtualized list set them), no plugins, no
 * `<base>`, no form posts. `connect-src 'self'` is all either host needs: under Electron the renderer
 * talks through the preload's IPC and opens no connection at all; in the headless host the page and its
 * WebSocket share one origin (`http://127.0.0.1:PORT` → `ws://127.0.0.1:PORT/ws`), which CSP Level 3's
 * 'self' covers (a ws: URL on the page's own host and port; Chromium does so, measured in
 * test/e2e/ui-fake.test.ts), and the attachment upload (`POST /attach`) is same-origin.
 */
export const RENDERER_CSP =
  "default-src 'self'; script-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; object-src 'none'; base-uri 'none'; form-action 'none'";

/**
 * The CSP sent as a response header (Electron's dev server responses, the headless host's files):
 * `RENDERER_CSP` plus `frame-ancestors 'none'`, which only a header can carry (in a meta tag Chromium
 * ignores it and logs an error).
 */
export const CSP = `${RENDERER_CSP}; frame-ancestors 'none'`;

/**
 * The CSP for a renderer origin. Production (`devServerUrl` null): `CSP`. Under `electron-vite dev` the
 * Vite server needs its inline React-refresh preamble and its HMR WebSocket, so script-src adds
 * 'unsafe-inline' and connect-src adds the dev server's ws:// origin — development only.
 */
export function contentSecurityPolicy(devServerUrl: string | null = null): string {
  if (!devServerUrl) return CSP;
  const u = new URL(devServerUrl);
  const ws = `${u.protocol === 'https:' ? 'wss:' : 'ws:'}//${u.host}`;
  return `default-src 'self'; script-src 'self' 'unsafe-inline'; connect-src 'self' ${ws}; img-src 'self' data:; style-src 'self' 'unsafe-inline'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;
}

/**
 * The `webPreferences` of every Angelia window: context isolation, the Chromium sandbox, no Node in
 * the page, workers or subframes, web security on, no insecure content, no <webview>, no experimental
 * features, no navigation by drag and drop. `preload` is the contract bridge (out/preload/index.cjs).
 */
export function secureWebPreferences(preload: string) {
  return {
    preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    experimentalFeatures: false,
    navigateOnDragDrop: false,
    safeDialogs: true,
  } as const;
}

/** True for an absolute http: or https: URL (the only kind handed to the system browser). */
export function isExternalHttpUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return (u.protocol === 'https:' || u.protocol === 'http:') && u.hostname.length > 0;
  } catch {
    return false;
  }
}

/** Response headers with our CSP set (any CSP the response had, in any letter case, replaced). */
export function withCsp(headers: Record<string, string[] | string> | undefined, csp: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(headers ?? {})) {
    if (k.toLowerCase() === 'content-security-policy') continue;
    out[k] = Array.isArray(v) ? v : [v];
  }
  out['Content-Security-Policy'] = [csp];
  return out;
}

/** An event whose default action can be prevented (Electron's `Event`). */
export interface PreventableEvent {
  preventDefault(): void;
}

/** The part of an Electron `Session` hardened here. */
export interface SessionLike {
  setPermissionRequestHandler(handler: ((wc: unknown, permission: string, callback: (granted: boolean) => void) => void) | null): void;
  setPermissionCheckHandler(handler: ((...args: unknown[]) => boolean) | null): void;
  webRequest: {
    onHeadersReceived(
      listener:
        | ((
            details: { url: string; responseHeaders?: Record<string, string[]> },
            callback: (response: { responseHeaders?: Record<string, string[] | string> }) => void,
          ) => void)
        | null,
    ): void;
  };
}

/** The part of Electron's `WebContents` hardened here. */
export interface WebContentsLike {
  on(event: 'will-navigate', listener: (event: PreventableEvent & { url?: string }, url: string) => void): unknown;
  on(event: 'will-redirect', listener: (event: PreventableEvent) => void): unknown;
  on(event: 'will-attach-webview', listener: (event: PreventableEvent) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
  session: SessionLike;
}

/** Options of `hardenWebContents`. */
export interface HardenOptions {
  /** Opens a URL in the system browser (`shell.openExternal`); only http(s) URLs are passed. */
  openExternal: (url: string) => void;
  /** The CSP set on responses (`contentSecurityPolicy(devUrl)`). */
  csp?: string;
}

const hardenedSessions = new WeakSet<object>();

/**
 * Hardens one webContents (and, once, its session): `will-navigate` and `will-redirect` are prevented
 * (an http(s) link the page tried to follow opens in the system browser instead); `setWindowOpenHandler`
 * denies every new window (http(s) URLs go to the system browser); `<webview>` cannot attach; every
 * permission request and check is denied; the CSP is set on every response that goes through the
 * network stack (the dev server). Files loaded from file:// carry no headers: the renderer's own
 * `<meta http-equiv="Content-Security-Policy">` applies there.
 */
export function hardenWebContents(contents: WebContentsLike, opts: HardenOptions): void {
  const external = (url: string): void => {
    if (isExternalHttpUrl(url)) opts.openExternal(url);
  };
  contents.on('will-navigate', (event, url) => {
    event.preventDefault();
    external(typeof event.url === 'string' ? event.url : url);
  });
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    external(url);
    return { action: 'deny' };
  });
  const session = contents.session;
  if (hardenedSessions.has(session)) return;
  hardenedSessions.add(session);
  session.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  const csp = opts.csp ?? CSP;
  session.webRequest.onHeadersReceived((details, callback) => callback({ responseHeaders: withCsp(details.responseHeaders, csp) }));
}
