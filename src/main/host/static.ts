/**
 * Static files of the built renderer for the headless host: GET/HEAD only, `/` → index.html, a fixed
 * content-type table, and no way out of the renderer folder (`..`, encoded separators, NUL bytes and
 * symlinks pointing outside are all refused).
 */
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, isAbsolute, join, relative, sep } from 'node:path';

/** Content types by extension; anything else is served as application/octet-stream. */
export const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * Maps a request URL path to a file path inside `root`, or null when the path is malformed or would
 * leave `root`. Pure (no file system access); `root` must be absolute.
 */
export function resolveStaticPath(root: string, urlPath: string): string | null {
  const pathname = urlPath.split('?')[0]?.split('#')[0] ?? '';
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (!decoded.startsWith('/') || decoded.includes('\0') || decoded.includes('\\')) return null;
  const segments = decoded.split('/').filter((s) => s.length > 0);
  if (segments.some((s) => s === '..' || s === '.')) return null;
  const rel = segments.length === 0 ? 'index.html' : segments.join(sep);
  const full = join(root, rel);
  const back = relative(root, full);
  if (back.startsWith('..') || isAbsolute(back)) return null;
  return full;
}

function send(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' });
  res.end(text);
}

/** Serves one request from `root` (absolute). Answers 405, 404 or 200; never throws. */
export async function serveStatic(root: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('allow', 'GET, HEAD');
    send(res, 405, 'method not allowed');
    return;
  }
  const file = resolveStaticPath(root, req.url ?? '/');
  if (!file) {
    send(res, 404, 'not found');
    return;
  }
  try {
    const [realRoot, realFile] = await Promise.all([realpath(root), realpath(file)]);
    const back = relative(realRoot, realFile);
    const info = await stat(realFile);
    if (back.startsWith('..') || isAbsolute(back) || !info.isFile()) {
      send(res, 404, 'not found');
      return;
    }
    const ext = extname(realFile).toLowerCase();
    res.writeHead(200, {
      'content-type': CONTENT_TYPES[ext] ?? 'application/octet-stream',
      'content-length': String(info.size),
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'x-frame-options': 'DENY',
      'cache-control': ext === '.html' ? 'no-store' : 'public, max-age=3600',
    });
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    const stream = createReadStream(realFile);
    stream.on('error', () => res.destroy());
    stream.pipe(res);
  } catch {
    if (!res.headersSent) send(res, 404, 'not found');
    else res.destroy();
  }
}
