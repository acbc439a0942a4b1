/**
 * The headless host (`angelia serve`): the built renderer over HTTP and the contract over a WebSocket at
 * `/ws`, on 127.0.0.1 only. A connection must present the token (`/ws?token=…`), come with this host's
 * Host header (no DNS rebinding) and, from a browser, this host's Origin. Thin: every invoke goes through
 * the one dispatcher, every core event is pushed to every open connection.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { resolve } from 'node:path';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { WsClientMessage, type CoreApi, type WsServerMessage } from '../../shared/contract';
import { err } from '../../shared/result';
import { dispatch } from '../dispatch';
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

/** Largest accepted WebSocket message (a `chats:send` text is at most 100 000 characters). */
const MAX_MESSAGE_BYTES = 2 * 1024 * 1024;
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
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  let port = opts.port ?? 0;

  const server: Server = createServer((req, res) => {
    if (!hostAllowed(req.headers.host, port)) {
      res.writeHead(421, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('misdirected request: this host only answers to 127.0.0.1 and localhost');
      return;
    }
    void serveStatic(root, req, res);
  });

  server.on('upgrade', (req, socket, head) => {
    socket.on('error', () => socket.destroy());
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/ws') return reject(socket, 404, 'Not Found');
    if (!hostAllowed(req.headers.host, port)) return reject(socket, 421, 'Misdirected Request');
    if (!originAllowed(req.headers.origin, port)) return reject(socket, 403, 'Forbidden');
    if (!tokenMatches(tokenOf(req), token)) return reject(socket, 401, 'Unauthorized');
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });

  wss.on('connection', (ws: WebSocket) => {
    const unsubscribe = opts.core.subscribe((event) => send(ws, { type: 'event', event }));
    ws.on('message', (data, isBinary) => void onMessage(opts.core, ws, data, isBinary));
    ws.on('close', unsubscribe);
    ws.on('error', () => ws.terminate());
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
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((ok) => wss.close(() => ok()));
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}
