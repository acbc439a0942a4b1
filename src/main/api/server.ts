/**
 * The loopback API server (seed-spec §6.1): HTTP/1.1 over the Unix socket `<state>/api.sock`, never a
 * TCP port. The socket path is at most 100 bytes; a file already at that path is removed only when it
 * is a socket nothing answers on ("another Angelia answers on …" otherwise); the socket is chmod 600
 * right after listen, in a folder of mode 700. The owner token is `<state>/api.token` (minted, mode 600,
 * by core/api/tokens.ts).
 *
 * Per request, in order: the route (404, 405), the token (401), the query and body (JSON objects of at
 * most 256 KB: 413 over, 400 for bad JSON, a non-object or a schema error naming the field), the
 * caller's class for the targeted chat (403; an agent's `from` must be its own chat), the chat
 * (404), then the handler. Errors answer `{error, code}` with a message safe to show (errors.ts).
 */
import { mkdir, chmod, lstat, unlink } from 'node:fs/promises';
import { connect } from 'node:net';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import type { z } from 'zod';
import { AppFailure } from '../../shared/result';
import { ensureOwnerToken } from '../core/api/tokens';
import { expandPath } from '../core/instance/paths';
import { bearerOf, classify, identify, type Caller, type CallerClass } from './auth';
import type { ApiCore } from './core';
import { ApiError, errorAnswer } from './errors';
import type { MediaPlaces } from './media';
import { openApiDocument } from './openapi';
import { RateLimiter } from './policy';
import { findRoute, routes, type RouteContext, type RouteDeps } from './routes';
import { openSse, PING_MS, type SseStream } from './sse';

/** The largest request body: 256 KB. */
export const MAX_BODY_BYTES = 256 * 1024;
/** The longest socket path (Unix socket addresses hold 104–108 bytes; the seed keeps 100). */
export const MAX_SOCKET_PATH_BYTES = 100;
/** How long `/ask` waits by default: 10 minutes. */
export const ASK_TIMEOUT_MS = 10 * 60_000;

/** Options of `startApi`. Paths absolute. */
export interface ApiOptions {
  core: ApiCore;
  /** `<state>/api.sock`. */
  socketPath: string;
  /** `<state>/api.token` (minted when missing). */
  tokenFile: string;
  /** The instance's state folder: media copies go to `<stateDir>/media/`. */
  stateDir: string;
  /** The user's home folder (credential locations, `~`). */
  home: string;
  /** `CODEX_HOME` (default `~/.codex`). */
  codexHome: string;
  /** The environment (`ANGELIA_STATE_DIR` is protected as a state folder too). Default `process.env`. */
  env?: NodeJS.ProcessEnv;
  askTimeoutMs?: number;
  /** SSE ping interval (tests). */
  pingMs?: number;
  /** The rate limiter of messages between chats (tests pass one with a clock). */
  limiter?: RateLimiter;
  /** Told of every unexpected (500) failure; default: nothing (the answer says "internal error"). */
  onError?: (e: unknown) => void;
}

/** A running API. */
export interface RunningApi {
  socketPath: string;
  /** Stops listening, ends every event stream and open connection, removes the socket file. */
  close(): Promise<void>;
}

/** True when something accepts a connection on the socket at `path` (within 1 s). */
export function socketAnswers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect({ path });
    const done = (v: boolean): void => {
      s.destroy();
      resolve(v);
    };
    s.setTimeout(1000, () => done(true));
    s.once('connect', () => done(true));
    s.once('error', (e: NodeJS.ErrnoException) => done(!(e.code === 'ECONNREFUSED' || e.code === 'ENOENT')));
  });
}

/**
 * Makes `path` free for a new socket: refuses a path over 100 bytes, a file that is not a socket, and
 * a socket something answers on (AppFailure `api-socket`); removes a stale socket.
 */
export async function claimSocket(path: string): Promise<void> {
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH_BYTES) {
    throw new AppFailure({ code: 'api-socket', message: `the API socket path is ${Buffer.byteLength(path)} bytes long; at most ${MAX_SOCKET_PATH_BYTES}`, where: path, fix: 'set ANGELIA_STATE_DIR to a shorter folder' });
  }
  const st = await lstat(path).catch((e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? null : Promise.reject(e)));
  if (!st) return;
  if (!st.isSocket()) throw new AppFailure({ code: 'api-socket', message: `${path} exists and is not a socket; Angelia will not remove it`, where: path, fix: 'move that file away' });
  if (await socketAnswers(path)) throw new AppFailure({ code: 'api-socket', message: `another Angelia answers on ${path}`, where: path, fix: 'quit the other Angelia (or angelia serve) first' });
  await unlink(path);
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
  res.end(text);
}

/** Reads the body, at most MAX_BODY_BYTES. Throws ApiError 413. */
function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? NaN);
    if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) {
      reject(new ApiError(413, 'too-large', `the body is over ${MAX_BODY_BYTES / 1024} KB`));
      req.resume();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        reject(new ApiError(413, 'too-large', `the body is over ${MAX_BODY_BYTES / 1024} KB`));
        req.removeAllListeners('data');
        req.resume();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function issues(e: z.ZodError, where: string): string {
  return e.issues.slice(0, 5).map((i) => `${[where, ...i.path.map(String)].join('.')}: ${i.message}`).join('; ');
}

/** Parses a route's query (strings only, no repeated names) against its schema. Throws ApiError 400. */
function parseQuery(schema: z.ZodType | null, params: URLSearchParams): unknown {
  const obj: Record<string, string> = {};
  for (const [k, v] of params) {
    if (Object.prototype.hasOwnProperty.call(obj, k)) throw new ApiError(400, 'bad-request', `query: ${k} is given twice`);
    obj[k] = v;
  }
  if (!schema) {
    if (Object.keys(obj).length) throw new ApiError(400, 'bad-request', 'this route takes no query');
    return undefined;
  }
  const r = schema.safeParse(obj);
  if (!r.success) throw new ApiError(400, 'bad-request', issues(r.error, 'query'));
  return r.data;
}

/** Parses a JSON object body against `schema`. Throws ApiError 400 / 413. */
async function parseBody(schema: z.ZodType | null, req: IncomingMessage): Promise<unknown> {
  const raw = await readBody(req);
  if (!schema) {
    if (raw.length) throw new ApiError(400, 'bad-request', 'this route takes no body');
    return undefined;
  }
  let value: unknown;
  try {
    value = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new ApiError(400, 'bad-json', 'the body is not JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ApiError(400, 'bad-json', 'the body must be a JSON object');
  const r = schema.safeParse(value);
  if (!r.success) throw new ApiError(400, 'bad-request', issues(r.error, 'body'));
  return r.data;
}

function keyOf(v: unknown): string | null {
  return typeof v === 'object' && v !== null && typeof (v as { key?: unknown }).key === 'string' ? (v as { key: string }).key : null;
}

function fromOf(v: unknown): string | null {
  return typeof v === 'object' && v !== null && typeof (v as { from?: unknown }).from === 'string' ? (v as { from: string }).from : null;
}

/**
 * Starts the API on `opts.socketPath` (see the module comment). Throws AppFailure `api-socket` when the
 * socket cannot be claimed, or the listen error.
 */
export async function startApi(opts: ApiOptions): Promise<RunningApi> {
  const env = opts.env ?? process.env;
  const ownerToken = ensureOwnerToken(opts.tokenFile);
  const stateDirs = [...new Set([
    opts.stateDir, join(opts.home, '.angelia'),
    ...(env.ANGELIA_STATE_DIR ? [expandPath(env.ANGELIA_STATE_DIR, opts.home)] : []),
  ])];
  const places: MediaPlaces = { home: opts.home, stateDirs, codexHome: opts.codexHome };
  const document = openApiDocument(routes);
  const deps: RouteDeps = {
    core: opts.core, places, limiter: opts.limiter ?? new RateLimiter(),
    askTimeoutMs: opts.askTimeoutMs ?? ASK_TIMEOUT_MS, socketPath: opts.socketPath, openapi: () => document,
  };
  const streams = new Set<SseStream>();

  /** Who is calling, as far as known: decides how errors are shown (errors.ts). */
  interface Who {
    caller: Caller | null;
    /** Folders the caller may see named in an error (an agent: its profile's folder). */
    allowed: string[];
  }

  async function handle(req: IncomingMessage, res: ServerResponse, signal: AbortSignal, who: Who): Promise<void> {
    if (!(req.url ?? '').startsWith('/')) throw new ApiError(400, 'bad-request', 'the request target must be a path');
    const url = new URL(req.url ?? '/', 'http://localhost');
    const { route, pathKnown } = findRoute(req.method ?? 'GET', url.pathname);
    if (!route) throw new ApiError(pathKnown ? 405 : 404, pathKnown ? 'bad-method' : 'not-found', pathKnown ? 'that method is not served on this path' : 'no such route');
    let cls: CallerClass | null = null;
    let chatIds: string[] = [];
    if (route.access !== 'public') {
      const token = bearerOf(req);
      const chats = await opts.core.chats();
      chatIds = chats.map((c) => c.id);
      const caller = token === null ? null : identify(token, ownerToken, chatIds);
      if (!caller) {
        req.resume();
        throw new ApiError(401, 'unauthorized', token === null ? 'a bearer token is needed' : 'that token names nobody');
      }
      who.caller = caller;
      if (caller.kind === 'agent') {
        const own = chats.find((c) => c.id === caller.chat);
        const profile = (await opts.core.profiles()).find((p) => p.name === own?.profile);
        who.allowed = profile ? [profile.cwd] : [];
      }
    }
    const query = parseQuery(route.query, url.searchParams);
    const body = route.method === 'POST' ? await parseBody(route.body, req) : (req.resume(), undefined);
    const target = keyOf(body) ?? keyOf(query);
    const caller = who.caller;
    if (caller && route.access !== 'public') {
      cls = classify(caller, target);
      const from = fromOf(body);
      if (from !== null && (caller.kind === 'owner' || from !== caller.chat)) {
        throw new ApiError(403, 'forbidden', caller.kind === 'owner' ? '`from` is only for agent tokens' : '`from` must be your own chat');
      }
      if (!route.access.includes(cls)) {
        throw new ApiError(403, 'forbidden', cls === 'peer' && route.path === '/send-media' ? 'files go only into your own chat'
          : cls === 'chat' && route.path === '/ask' ? 'an agent cannot ask its own chat (its own turn is running)'
            : 'this token may not do that');
      }
      if (target !== null && !chatIds.includes(target)) throw new ApiError(404, 'unknown-chat', 'no such chat');
    }
    const ctx: RouteContext = { query, body, caller, cls, target, deps, signal };
    if (route.kind === 'sse') {
      const stream = openSse(res, opts.pingMs ?? PING_MS);
      streams.add(stream);
      const cleanup = await route.open(ctx, stream.send);
      void stream.closed.then(() => {
        cleanup();
        streams.delete(stream);
      });
      return;
    }
    sendJson(res, 200, await route.handle(ctx));
  }

  const server: Server = createServer((req, res) => {
    const abort = new AbortController();
    res.on('close', () => abort.abort());
    const who: Who = { caller: null, allowed: [] };
    handle(req, res, abort.signal, who).catch((e: unknown) => {
      const { status, body } = errorAnswer(e, who.caller?.kind === 'owner', who.allowed);
      if (status >= 500 && !(e instanceof ApiError)) opts.onError?.(e);
      sendJson(res, status, body);
    });
  });
  server.requestTimeout = 0;
  server.headersTimeout = 10_000;

  await mkdir(dirname(opts.socketPath), { recursive: true, mode: 0o700 });
  await claimSocket(opts.socketPath);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  });
  await chmod(opts.socketPath, 0o600);

  return {
    socketPath: opts.socketPath,
    close: async () => {
      for (const s of streams) s.end();
      streams.clear();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await unlink(opts.socketPath).catch(() => undefined);
    },
  };
}
