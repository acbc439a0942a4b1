/**
 * Server-sent events for `GET /events` (README): `event: <name>` and one JSON `data:` line per
 * event, a `: ping` comment every 15 s, and a client that lets more than 1 MiB pile up unread is
 * disconnected (it reconnects and reads `/permissions` again).
 */
import type { ServerResponse } from 'node:http';
import type { ApiEvent } from './core';

/** The most bytes a client may leave unread before it is dropped. */
export const MAX_UNREAD_BYTES = 1024 * 1024;
/** How often a `: ping` comment is sent. */
export const PING_MS = 15_000;

/** An open event stream. `send` answers false once the client is gone (or was dropped). */
export interface SseStream {
  send(e: ApiEvent): boolean;
  /** Ends the stream (server shutdown). */
  end(): void;
  /** Resolves when the stream is closed, by either side. */
  closed: Promise<void>;
}

/** Starts an event stream on `res` (writes the 200 head). `pingMs` is for tests. */
export function openSse(res: ServerResponse, pingMs = PING_MS): SseStream {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    'x-content-type-options': 'nosniff',
  });
  res.write(': angelia events\n\n');
  let open = true;
  let resolveClosed: () => void = () => undefined;
  const closed = new Promise<void>((r) => (resolveClosed = r));
  const ping = setInterval(() => write(': ping\n\n'), pingMs);
  ping.unref?.();
  const close = (): void => {
    if (!open) return;
    open = false;
    clearInterval(ping);
    resolveClosed();
  };
  res.on('close', close);
  function write(chunk: string): boolean {
    if (!open || res.destroyed) return false;
    if (res.writableLength > MAX_UNREAD_BYTES) {
      close();
      res.destroy();
      return false;
    }
    res.write(chunk);
    return true;
  }
  return {
    send: (e) => write(`event: ${e.event}\ndata: ${JSON.stringify(e)}\n\n`),
    end: () => {
      if (open) res.end();
      close();
    },
    closed,
  };
}
