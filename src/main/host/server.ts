/**
 * The headless host (`angelia serve`): the built renderer over HTTP (with the renderer's CSP as a
 * header), the contract over a WebSocket at `/ws`, and dropped files over `POST /attach`, on 127.0.0.1
 * only. A connection must present the token (`/ws?token=…`; the upload: `Authorization: Bearer …`),
 * come with this host's Host header (no DNS rebinding) and, from a browser, this host's Origin. Thin:
 * every invoke goes through the one dispatcher, every core event is pushed to every open connection.
 *
 * Limits: a WebSocket message is at most `WS_MAX_MESSAGE_BYTES` (2 MB; more closes the connection with
 * 1009, message too big); a file is at most `ATTACH_MAX_BYTES` (25 MB, answered 413 with a JSON error
 * beyond) and never travels over the WebSocket, so one big file neither blocks nor drops the link.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import type { Duplex } from 'node:stream';
import type { RawData, WebSocket, WebSocketServer } from 'ws';
import { ATTACH_MAX_BYTES, ATTACH_ROUTE, WS_MAX_MESSAGE_BYTES, WsClientMessage, type CoreApi, type WsServerMessage } from '../../shared/contract';
import { err, type Result } from '../../shared/result';
import { dispatch } from '../dispatch';
import { CSP } from '../electron/security';
import { hostAllowed, newToken, originAllowed, tokenMatches } from './guard';
import { serveStatic } from './static';

/** Options of `startHost`. */
export interface HostOptions {
  core: CoreApi;
  /** The built renderer (out/renderer). */
  rendererDir: string;
  /** TCP port on 127.0.0.1; 0 (the default) picks a free one. */
  port?: number;
  /** The access token (at least 16 characters); default 24 random bytes, base64url. */
  token?: string;
}

/** A running host. `url` opens the renderer with the token in the fragment (never sent to the server). */
export interface RunningHost {
  url: string;
  port: number;
  token: string;
  /** Closes every connection and the listener. */
  close(): Promise<void>;
}

/** Largest accepted WebSocket message (a `chats:send` text is at most 100 000 characters; files go to `POST /attach`). */
export const MAX_MESSAGE_BYTES = WS_MAX_MESSAGE_BYTES;
/** A client that lets this much pile up unread is dropped (it reconnects and reloads). */
const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;

function reject(socket: Duplex, status: number, text: string): void {
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`);
}

function send(ws: WebSocket, msg: WsServerMessage): void {
  if (ws.readyState !== ws.OPEN) return;
  if (ws.bufferedAmount > MAX_BUFFERED_BYTES) {
    ws.terminate();
    return;
  }
  ws.send(JSON.stringify(msg));
}

/** Handles one client message: parses it, dispatches it, answers with a result. Never throws. */
async function onMessage(core: CoreApi, ws: WebSocket, data: RawData, isBinary: boolean): Promise<void> {
  if (isBinary) {
    send(ws, { type: 'result', id: null, result: err('bad-message', 'binary messages are not accepted; send JSON text') });
    return;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(data.toString());
  } catch {
    send(ws, { type: 'result', id: null, result: err('bad-message', 'the message is not JSON') });
    return;
  }
  const parsed = WsClientMessage.safeParse(raw);
  if (!parsed.success) {
    const id = typeof raw === 'object' && raw !== null && 'id' in raw ? (raw as { id: unknown }).id : null;
    const safeId = typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id)) ? id : null;
    send(ws, { type: 'result', id: safeId, result: err('bad-message', 'expected {"type":"invoke","id":…,"channel":"domain:verb","input":{…}}') });
    return;
  }
  const { id, channel, input } = parsed.data;
  const result = await dispatch(core, channel, input);
  send(ws, { type: 'result', id, result });
}

/** Answers an upload with a JSON Result (refusals too, so the window shows them like any error). */
function answerJson(res: ServerResponse, status: number, result: Result<unknown>, extra: Record<string, string> = {}): void {
  if (res.headersSent) return;
  // A refused upload's body is not read: the connection closes after the answer instead of draining it.
  const close = status === 200 ? {} : { connection: 'close' };
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    ...close,
    ...extra,
  });
  res.end(JSON.stringify(result));
}

const mb = (bytes: number): string => `${Math.round(bytes / 1024 / 1024)} MB`;

function tooBig(res: ServerResponse): void {
  answerJson(
    res,
    413,
    err('too-big', `the file is larger than ${mb(ATTACH_MAX_BYTES)}; files over ${mb(ATTACH_MAX_BYTES)} are refused`, {
      fix: 'send a smaller file, or put it into the profile folder yourself',
    }),
  );
}

/**
 * `POST /attach?chatId=…&name=…`: checks the origin and the token, reads the body up to
 * `ATTACH_MAX_BYTES` (413 as soon as it is more, by Content-Length or by counting) and hands it to
 * `chats:attach` (which copies it into the profile's `.inbox/`). Answers a JSON Result; never throws.
 */
async function receiveAttachment(core: CoreApi, token: string, port: number, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'POST') return answerJson(res, 405, err('bad-method', `${ATTACH_ROUTE} only takes POST`), { allow: 'POST' });
  if (!originAllowed(req.headers.origin, port)) return answerJson(res, 403, err('forbidden', 'uploads are accepted from the Angelia page of this host only'));
  const auth = req.headers.authorization ?? '';
  if (!tokenMatches(auth.startsWith('Bearer ') ? auth.slice('Bearer '.length) : null, token)) {
    return answerJson(
      res,
      401,
      err('unauthorized', "the upload did not carry this host's token", {
        fix: 'send it as "Authorization: Bearer <token>" (the token `angelia serve` printed)',
      }),
    );
  }
  const query = new URL(req.url ?? '/', 'http://127.0.0.1').searchParams;
  const chatId = query.get('chatId');
  const name = query.get('name');
  if (!chatId || !name) return answerJson(res, 400, err('bad-input', `${ATTACH_ROUTE} needs ?chatId=<chat id>&name=<file name>`));
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > ATTACH_MAX_BYTES) return tooBig(res);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > ATTACH_MAX_BYTES) return tooBig(res);
      chunks.push(chunk);
    }
  } catch {
    return; // The client went away mid-upload: nobody to answer.
  }
  answerJson(res, 200, await dispatch(core, 'chats:attach', { chatId, name, dataBase64: Buffer.concat(chunks, size).toString('base64') }));
}

function tokenOf(req: IncomingMessage): string | null {
  try {
    return new URL(req.url ?? '/', 'http://127.0.0.1').searchParams.get('token');
  } catch {
    return null;
  }
}

/** Starts the headless host on 127.0.0.1. Resolves once it listens; rejects a token shorter than 16 characters. */
export async function startHost(opts: HostOptions): Promise<RunningHost> {
  const token = opts.token ?? newToken();
  if (token.length < 16) throw new Error('the host token must be at least 16 characters (leave it out to get a random one)');
  const root = resolve(opts.rendererDir);
  // The WebSocket library is loaded when the first WebSocket asks to connect, not before the host
  // listens: it was ~12 ms of `angelia serve`'s start on a 2-core machine (docs/benchmarks.md, host ready).
  let webSockets: Promise<WebSocketServer> | null = null;
  let closing = false;
  const loadWebSockets = (): Promise<WebSocketServer> =>
    (webSockets ??= import('ws').then(({ WebSocketServer: Wss }) => {
      const wss = new Wss({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
      wss.on('connection', (ws: WebSocket) => {
        const unsubscribe = opts.core.subscribe((event) => send(ws, { type: 'event', event }));
        ws.on('message', (data, isBinary) => void onMessage(opts.core, ws, data, isBinary));
        ws.on('close', unsubscribe);
        // A message over the cap: ws is already closing with 1009 (message too big); let that close frame
        // reach the client so it can say why. Any other error ends the connection at once.
        ws.on('error', (e: Error & { code?: string }) => {
          if (e.code !== 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') ws.terminate();
        });
      });
      return wss;
    }));
  let port = opts.port ?? 0;

  const server: Server = createServer((req, res) => {
    if (!hostAllowed(req.headers.host, port)) {
      res.writeHead(421, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('misdirected request: this host only answers to 127.0.0.1 and localhost');
      return;
    }
    if ((req.url ?? '/').split('?')[0] === ATTACH_ROUTE) {
      void receiveAttachment(opts.core, token, port, req, res);
      return;
    }
    res.setHeader('content-security-policy', CSP);
    void serveStatic(root, req, res);
  });

  server.on('upgrade', (req, socket, head) => {
    socket.on('error', () => socket.destroy());
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/ws') return reject(socket, 404, 'Not Found');
    if (!hostAllowed(req.headers.host, port)) return reject(socket, 421, 'Misdirected Request');
    if (!originAllowed(req.headers.origin, port)) return reject(socket, 403, 'Forbidden');
    if (!tokenMatches(tokenOf(req), token)) return reject(socket, 401, 'Unauthorized');
    // A client sends nothing on this socket before the 101 answer, so nothing is lost while `ws` loads.
    loadWebSockets().then(
      (wss) => {
        if (closing || socket.destroyed) socket.destroy();
        else wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
      },
      () => reject(socket, 500, 'Internal Server Error'),
    );
  });

  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', fail);
      ok();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the host did not get a TCP port');
  port = address.port;

  return {
    url: `http://127.0.0.1:${port}/#token=${token}`,
    port,
    token,
    close: async () => {
      closing = true;
      const wss = webSockets ? await webSockets.catch(() => null) : null;
      if (wss) {
        for (const ws of wss.clients) ws.terminate();
        await new Promise<void>((ok) => wss.close(() => ok()));
      }
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}
