import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  contentSecurityPolicy,
  CSP,
  hardenWebContents,
  isExternalHttpUrl,
  RENDERER_CSP,
  secureWebPreferences,
  withCsp,
  type WebContentsLike,
} from '../../src/main/electron/security';
import { mainWindowOptions, popoverWindowOptions } from '../../src/main/electron/windows';
import { preventable } from './fakes';

type Handler = (...args: unknown[]) => unknown;

/** A webContents with its session: records handlers so a test can play what Chromium would do. */
function fakeContents() {
  const listeners = new Map<string, Handler>();
  const session = {
    permissionRequest: null as Handler | null,
    permissionCheck: null as Handler | null,
    headers: null as Handler | null,
    installs: 0,
    setPermissionRequestHandler(h: Handler | null) {
      this.installs++;
      this.permissionRequest = h;
    },
    setPermissionCheckHandler(h: Handler | null) {
      this.permissionCheck = h;
    },
    webRequest: { onHeadersReceived: (h: Handler | null) => void (session.headers = h) },
  };
  let openHandler: Handler | null = null;
  const contents = {
    session,
    on(event: string, l: Handler) {
      listeners.set(event, l);
      return contents;
    },
    setWindowOpenHandler(h: Handler) {
      openHandler = h;
    },
  };
  return { contents: contents as unknown as WebContentsLike, session, listeners, open: (url: string) => openHandler?.({ url }) };
}

describe('secureWebPreferences', () => {
  it('isolates and sandboxes the renderer, without Node, with web security', () => {
    const p = secureWebPreferences('/app/out/preload/index.cjs');
    expect(p).toMatchObject({ preload: '/app/out/preload/index.cjs', contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true });
    expect(p).toMatchObject({
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
    });
  });

  it('is what both windows use', () => {
    expect(mainWindowOptions('/p').webPreferences).toEqual(secureWebPreferences('/p'));
    expect(popoverWindowOptions('/p').webPreferences).toEqual(secureWebPreferences('/p'));
  });
});

describe('hardenWebContents', () => {
  it('denies every navigation; an http(s) link opens in the system browser, anything else nowhere', () => {
    const { contents, listeners } = fakeContents();
    const opened: string[] = [];
    hardenWebContents(contents, { openExternal: (u) => opened.push(u) });
    for (const url of ['https://example.com/docs', 'file:///etc/passwd', 'javascript:alert(1)', 'http://localhost:8080/']) {
      const e = preventable({ url });
      listeners.get('will-navigate')?.(e, url);
      expect(e.defaultPrevented).toBe(true);
    }
    expect(opened).toEqual(['https://example.com/docs', 'http://localhost:8080/']);
    const redirect = preventable();
    listeners.get('will-redirect')?.(redirect, 'https://elsewhere/');
    expect(redirect.defaultPrevented).toBe(true);
    const webview = preventable();
    listeners.get('will-attach-webview')?.(webview, {}, {});
    expect(webview.defaultPrevented).toBe(true);
  });

  it('denies every new window; http(s) URLs go to the system browser only', () => {
    const { contents, open } = fakeContents();
    const opened: string[] = [];
    hardenWebContents(contents, { openExternal: (u) => opened.push(u) });
    expect(open('https://github.com/openai/codex')).toEqual({ action: 'deny' });
    expect(open('file:///Users/me/.ssh/id_rsa')).toEqual({ action: 'deny' });
    expect(open('smb://server/share')).toEqual({ action: 'deny' });
    expect(open('mailto:someone@example.com')).toEqual({ action: 'deny' });
    expect(opened).toEqual(['https://github.com/openai/codex']);
  });

  it('denies every permission request and check', () => {
    const { contents, session } = fakeContents();
    hardenWebContents(contents, { openExternal: () => undefined });
    const answers: boolean[] = [];
    for (const p of ['media', 'notifications', 'geolocation', 'clipboard-read', 'openExternal'])
      session.permissionRequest?.({}, p, (granted: boolean) => answers.push(granted));
    expect(answers).toEqual([false, false, false, false, false]);
    expect(session.permissionCheck?.({}, 'media', 'file://')).toBe(false);
  });

  it('sets the strict CSP on responses, replacing any the response had', () => {
    const { contents, session } = fakeContents();
    hardenWebContents(contents, { openExternal: () => undefined });
    let out: { responseHeaders?: Record<string, string[]> } = {};
    session.headers?.(
      { url: 'http://localhost:5173/', responseHeaders: { 'content-security-policy': ['default-src *'], 'Content-Type': ['text/html'] } },
      (r: typeof out) => (out = r),
    );
    expect(out.responseHeaders).toEqual({ 'Content-Type': ['text/html'], 'Content-Security-Policy': [CSP] });
    expect(CSP).toBe(
      "default-src 'self'; script-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
  });

  it('hardens a session once, however many windows share it', () => {
    const { contents, session } = fakeContents();
    hardenWebContents(contents, { openExternal: () => undefined });
    hardenWebContents(contents, { openExternal: () => undefined });
    expect(session.installs).toBe(1);
  });
});

describe('CSP and links', () => {
  it('relaxes the CSP only for the dev server (inline React refresh preamble, HMR socket)', () => {
    expect(contentSecurityPolicy(null)).toBe(CSP);
    const dev = contentSecurityPolicy('http://localhost:5173/');
    expect(dev).toContain("script-src 'self' 'unsafe-inline'");
    expect(dev).toContain("connect-src 'self' ws://localhost:5173");
  });

  it("the renderer's own meta CSP is the same policy: 'self' only, no ws: origins, no frame-ancestors (a header-only directive)", () => {
    const root = join(__dirname, '..', '..');
    const metaOf = (html: string): string | null => /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"/.exec(html)?.[1] ?? null;
    expect(metaOf(readFileSync(join(root, 'src', 'renderer', 'index.html'), 'utf8'))).toBe(RENDERER_CSP);
    expect(RENDERER_CSP).not.toMatch(/ws:|wss:|localhost|127\.0\.0\.1|frame-ancestors|unsafe-eval/);
    expect(RENDERER_CSP).toMatch(/connect-src 'self';/);
    expect(CSP).toBe(`${RENDERER_CSP}; frame-ancestors 'none'`);
  });

  it('treats only absolute http(s) URLs as external links', () => {
    expect(isExternalHttpUrl('https://example.com')).toBe(true);
    expect(isExternalHttpUrl('http://example.com/x')).toBe(true);
    for (const u of ['file:///x', 'javascript:void 0', '/relative', 'ftp://x', '']) expect(isExternalHttpUrl(u)).toBe(false);
  });

  it('withCsp keeps other headers and adds the policy', () => {
    expect(withCsp(undefined, 'x')).toEqual({ 'Content-Security-Policy': ['x'] });
    expect(withCsp({ a: 'b' }, 'x')).toEqual({ a: ['b'], 'Content-Security-Policy': ['x'] });
  });
});
