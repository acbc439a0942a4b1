/**
 * The loopback API server (README "The loopback API"): HTTP/1.1 over the Unix socket `<state>/api.sock`, never a
 * TCP port. The socket path is at most 100 bytes; a file already at that path is removed only when it
 * is a socket nothing answers on ("another Angelia answers on …" otherwise); the socket is chmod 600
 * right after listen, in a folder of mode 700. The owner token is `<state>/private/api.token` (minted,
 * mode 600, by core/api/tokens.ts).
 *
 * Every request goes through the one handler (handler.ts: route, token, query and body, caller class,
 * chat, then the route), which the chats' mailboxes use too: with `mailboxes` set, `startApi` also serves
 * `<state>/mailbox/<chat>/` (mailbox.ts), the channel of agents whose commands cannot reach the socket
 * (Linux: docs/sandbox-sockets.md).
 *
 * Timeouts: a request's head must arrive within 10 s, its body within 30 s after the head
 * (REQUEST_TIMEOUT_MS: 408 `request-timeout`, then the connection is closed); answers and the event
 * stream are not timed.
 */
import { mkdir, chmod, lstat, unlink } from 'node:fs/promises';
import { connect } from 'node:net';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { AppFailure } from '../../shared/result';
import { ensureOwnerToken } from '../core/api/tokens';
import { expandPath } from '../core/instance/paths';
import { bearerOf } from './auth';
import type { ApiCore } from './core';
import { ApiError } from './errors';
import { createHandler, MAX_BODY_BYTES, type ApiRequest } from './handler';
import { startMailboxes, type RunningMailboxes } from './mailbox';
import type { MediaPlaces } from './media';
import { openApiDocument } from './openapi';
import { RateLimiter } from './policy';
import { routes, type RouteDeps } from './routes';
import { openSse, PING_MS, type SseStream } from './sse';

export { MAX_BODY_BYTES } from './handler';
/** The longest socket path (Unix socket addresses hold 104–108 bytes; 100 fits everywhere). */
export const MAX_SOCKET_PATH_BYTES = 100;
/** How long `/ask` waits by default: 10 minutes. */
export const ASK_TIMEOUT_MS = 10 * 60_000;
/**
 * How long a request's body may take to arrive whole, counted from when its head arrived (the head itself
 * must arrive within HEADERS_TIMEOUT_MS): 30 s. A body still incomplete then is answered 408
 * `request-timeout` (JSON) and the connection is closed. Only the
 * request is timed: an answer may take longer (`/ask` waits up to 10 minutes) and the event stream
 * (`GET /events`, whose request has no body) stays open for as long as the client reads it.
 */
export const REQUEST_TIMEOUT_MS = 30_000;
/** How long the head (request line and headers) may take: 10 s (at most the request timeout). */
export const HEADERS_TIMEOUT_MS = 10_000;
/**
 * Node's own request timeout, a backstop for a request whose body the handler never reads (Node answers
 * it a bare 408, or closes the connection when an answer was already sent): this much after the request
 * timeout (at most the request timeout itself again).
 */
const BACKSTOP_MS = 5_000;

/** Options of `startApi`. Paths absolute. */
export interface ApiOptions {
  core: ApiCore;
  /** `<state>/api.sock`. */
  socketPath: string;
  /** `<state>/private/api.token`, InstancePaths `apiToken` (minted when missing). */
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
  /** Serve the chats' mailboxes under `<stateDir>/mailbox` too (default false). */
  mailboxes?: boolean;
  /** Told of each mailbox entry refused (a symbolic link, a FIFO, a bad file) and of watch failures. */
  report?: (message: string) => void;
  /** How often the mailboxes are listed again (tests); default mailbox.ts RESCAN_MS. */
  mailboxRescanMs?: number;
  /** How long a request may take to arrive whole (REQUEST_TIMEOUT_MS; tests pass less). */
  requestTimeoutMs?: number;
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
    throw new AppFailure({
      code: 'api-socket',
      message: `the API socket path is ${Buffer.byteLength(path)} bytes long; at most ${MAX_SOCKET_PATH_BYTES}`,
      where: path,
      fix: 'set ANGELIA_STATE_DIR to a shorter folder',
    });
  }
  const st = await lstat(path).catch((e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? null : Promise.reject(e)));
  if (!st) return;
  if (!st.isSocket())
    throw new AppFailure({
      code: 'api-socket',
      message: `${path} exists and is not a socket; Angelia will not remove it`,
      where: path,
      fix: 'move that file away',
    });
  if (await socketAnswers(path))
    throw new AppFailure({
      code: 'api-socket',
      message: `another Angelia answers on ${path}`,
      where: path,
      fix: 'quit the other Angelia (or angelia serve) first',
    });
  await unlink(path);
}

function sendJson(res: ServerResponse, status: number, body: unknown, close = false): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    ...(close ? { connection: 'close' } : {}),
  });
  res.end(text);
}

/** The status of the answer to a request that did not arrive whole in time. */
export const REQUEST_TIMEOUT_STATUS = 408;

/**
 * Reads the body, at most MAX_BODY_BYTES, by `deadline` (epoch ms). Throws ApiError 413 (too large) or
 * 408 `request-timeout` (not whole by the deadline; the caller closes the connection).
 */
function readBody(req: IncomingMessage, deadline: number, timeoutMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? NaN);
    if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) {
      reject(new ApiError(413, 'too-large', `the body is over ${MAX_BODY_BYTES / 1024} KB`));
      req.resume();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const timer = setTimeout(
      () => {
        req.removeAllListeners('data');
        reject(new ApiError(REQUEST_TIMEOUT_STATUS, 'request-timeout', `the request did not arrive whole within ${timeoutMs / 1000} s; send the body at once`));
      },
      Math.max(0, deadline - Date.now()),
    );
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        clearTimeout(timer);
        reject(new ApiError(413, 'too-large', `the body is over ${MAX_BODY_BYTES / 1024} KB`));
        req.removeAllListeners('data');
        req.resume();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks));
    });
    req.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
  });
}

/**
 * Starts the API on `opts.socketPath` (see the module comment). Throws AppFailure `api-socket` when the
 * socket cannot be claimed, or the listen error.
 */
export async function startApi(opts: ApiOptions): Promise<RunningApi> {
  const env = opts.env ?? process.env;
  const ownerToken = ensureOwnerToken(opts.tokenFile);
  const stateDirs = [
    ...new Set([opts.stateDir, join(opts.home, '.angelia'), ...(env.ANGELIA_STATE_DIR ? [expandPath(env.ANGELIA_STATE_DIR, opts.home)] : [])]),
  ];
  const places: MediaPlaces = { home: opts.home, stateDirs, codexHome: opts.codexHome };
  // Built on the first `GET /openapi.json`, not here: converting every route's schemas took ~50 ms of the
  // host's start-up (docs/benchmarks.md, host ready).
  let document: ReturnType<typeof openApiDocument> | null = null;
  const deps: RouteDeps = {
    core: opts.core,
    places,
    limiter: opts.limiter ?? new RateLimiter(),
    askTimeoutMs: opts.askTimeoutMs ?? ASK_TIMEOUT_MS,
    socketPath: opts.socketPath,
    openapi: () => (document ??= openApiDocument(routes)),
  };
  const handler = createHandler({ core: opts.core, ownerToken, routeDeps: deps, onError: opts.onError });
  const streams = new Set<SseStream>();

  const requestTimeoutMs = opts.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  const server: Server = createServer(
    {
      // Node's own timeouts, checked every connectionsCheckingInterval: a backstop behind readBody's.
      requestTimeout: requestTimeoutMs + Math.min(BACKSTOP_MS, requestTimeoutMs),
      headersTimeout: Math.min(HEADERS_TIMEOUT_MS, requestTimeoutMs),
      connectionsCheckingInterval: Math.min(30_000, Math.max(50, Math.round(requestTimeoutMs / 4))),
    },
    (req, res) => {
      const deadline = Date.now() + requestTimeoutMs;
      const abort = new AbortController();
      res.on('close', () => abort.abort());
      const request: ApiRequest = {
        method: req.method ?? 'GET',
        target: req.url ?? '/',
        token: bearerOf(req),
        readBody: () => readBody(req, deadline, requestTimeoutMs),
        discardBody: () => void req.resume(),
      };
      void handler
        .handle(request, { kind: 'socket' }, abort.signal)
        .then(async (out) => {
          if (out.kind === 'json') {
            // The rest of a body that did not arrive in time is not read: the connection is closed after the answer.
            sendJson(res, out.status, out.body, out.status === REQUEST_TIMEOUT_STATUS);
            return;
          }
          const stream = openSse(res, opts.pingMs ?? PING_MS);
          streams.add(stream);
          const cleanup = await out.open(stream.send);
          void stream.closed.then(() => {
            cleanup();
            streams.delete(stream);
          });
        })
        .catch((e: unknown) => {
          opts.onError?.(e);
          sendJson(res, 500, { error: 'internal error', code: 'internal' });
        });
    },
  );

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
  let mailboxes: RunningMailboxes | null = null;
  if (opts.mailboxes) {
    try {
      mailboxes = await startMailboxes({
        stateDir: opts.stateDir,
        handler,
        chatIds: async () => (await opts.core.chats()).map((c) => c.id),
        ...(opts.report ? { report: opts.report } : {}),
        ...(opts.mailboxRescanMs ? { rescanMs: opts.mailboxRescanMs } : {}),
      });
    } catch (e) {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await unlink(opts.socketPath).catch(() => undefined);
      throw e;
    }
  }

  return {
    socketPath: opts.socketPath,
    close: async () => {
      await mailboxes?.close();
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
