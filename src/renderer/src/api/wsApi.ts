/**
 * The RendererApi over the headless host's WebSocket (`/ws?token=…`, messages as in the contract's
 * `WsClientMessage` / `WsServerMessage`). Reconnects by itself with a growing delay (capped); an invoke
 * made while the link is down, or still unanswered when it drops, resolves to a `disconnected` error.
 * A message over the host's cap (`WS_MAX_MESSAGE_BYTES`) is not sent: it resolves to a `too-big` error
 * and the link stays up.
 */
import {
  WS_MAX_MESSAGE_BYTES,
  type AppEvent,
  type Channel,
  type InputOf,
  type OutputOf,
  type RendererApi,
  type WsServerMessage,
} from '../../../shared/contract';
import { err, type Result } from '../../../shared/result';
import type { Uploader } from './upload';

/** The part of a WebSocket this client uses (the browser's, or `ws` in Node tests). */
export interface SocketLike {
  readonly readyState: number;
  onopen: ((ev: unknown) => void) | null;
  onclose: ((ev: unknown) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  send(data: string): void;
  close(): void;
}

/** Link status as the UI shows it. */
export type LinkStatus = 'connecting' | 'open' | 'closed';

/** A RendererApi with a visible link status. */
export interface LinkedApi extends RendererApi {
  /** Calls `listener` with the current status now and on every change; returns the unsubscribe function. */
  onStatus(listener: (s: LinkStatus) => void): () => void;
  /** Stops reconnecting and closes the socket. */
  close(): void;
  /**
   * The native folder picker (Electron only): an absolute path, or null when cancelled. The headless
   * host's browser build lacks it, so folder fields are typed there.
   */
  pickFolder?: () => Promise<string | null>;
  /**
   * Opens an http(s) URL in the system browser (Electron only: `shell.openExternal`; true when handed
   * over). The headless host's browser build lacks it: the sign-in screen shows the link to click.
   */
  openExternal?: (url: string) => Promise<boolean>;
  /**
   * Tells Electron's main which chat this window shows (null: the list), so a finished turn of the chat
   * in front of a focused window is not notified (Electron only; the preload's `showingChat`).
   */
  showingChat?: (chatId: string | null) => void;
  /** Sends a dropped file over HTTP (headless host: `POST /attach`); absent: `chats:attach` carries it. */
  upload?: Uploader;
}

/** Options of the WebSocket client. Delays are in milliseconds. */
export interface WsApiOptions {
  /** ws://127.0.0.1:PORT/ws?token=… */
  url: string;
  createSocket?: (url: string) => SocketLike;
  minDelay?: number;
  maxDelay?: number;
}

const OPEN = 1;

/** Builds the `/ws` URL of the page's own host. */
export function wsUrlFor(location: { protocol: string; host: string }, token: string): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}/ws?token=${encodeURIComponent(token)}`;
}

/** Connects now and keeps reconnecting until `close()`. */
export function createWsApi(opts: WsApiOptions): LinkedApi {
  const createSocket = opts.createSocket ?? ((url: string) => new WebSocket(url) as unknown as SocketLike);
  const minDelay = opts.minDelay ?? 250;
  const maxDelay = opts.maxDelay ?? 5000;
  const events = new Set<(e: AppEvent) => void>();
  const statuses = new Set<(s: LinkStatus) => void>();
  const pending = new Map<number, (r: Result<unknown>) => void>();
  let status: LinkStatus = 'connecting';
  let socket: SocketLike | null = null;
  let nextId = 1;
  let delay = minDelay;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;

  const setStatus = (s: LinkStatus): void => {
    if (s === status) return;
    status = s;
    for (const l of [...statuses]) l(s);
  };

  const failPending = (tooBig = false): void => {
    const e = tooBig
      ? err('too-big', `a message was larger than Angelia takes (${WS_MAX_MESSAGE_BYTES / 1024 / 1024} MB), so the connection was closed`, {
          fix: 'send less at once; it reconnects by itself',
        })
      : err('disconnected', 'the connection to Angelia was lost', { fix: 'it reconnects by itself; try again in a moment' });
    for (const resolve of pending.values()) resolve(e);
    pending.clear();
  };

  const onMessage = (data: unknown): void => {
    if (typeof data !== 'string') return;
    let msg: WsServerMessage;
    try {
      msg = JSON.parse(data) as WsServerMessage;
    } catch {
      return;
    }
    if (msg.type === 'event') {
      for (const l of [...events]) l(msg.event);
    } else if (msg.type === 'result' && typeof msg.id === 'number') {
      const resolve = pending.get(msg.id);
      pending.delete(msg.id);
      resolve?.(msg.result);
    }
  };

  const connect = (): void => {
    timer = null;
    if (stopped) return;
    setStatus('connecting');
    const s = createSocket(opts.url);
    socket = s;
    s.onopen = () => {
      if (socket !== s) return;
      delay = minDelay;
      setStatus('open');
    };
    s.onmessage = (ev) => {
      if (socket === s) onMessage(ev.data);
    };
    s.onerror = () => undefined;
    s.onclose = (ev) => {
      if (socket !== s) return;
      socket = null;
      // 1009: the host refused a message over its cap.
      failPending((ev as { code?: unknown } | null)?.code === 1009);
      setStatus('closed');
      if (stopped) return;
      timer = setTimeout(connect, delay);
      delay = Math.min(delay * 2, maxDelay);
    };
  };

  connect();

  return {
    invoke<C extends Channel>(channel: C, input: InputOf<C>): Promise<Result<OutputOf<C>>> {
      const s = socket;
      if (!s || s.readyState !== OPEN) {
        return Promise.resolve(err('disconnected', 'not connected to Angelia', { fix: 'it reconnects by itself; try again in a moment' }));
      }
      const id = nextId++;
      const message = JSON.stringify({ type: 'invoke', id, channel, input });
      // UTF-8 bytes: at most 3 per UTF-16 unit, so only a long message is measured exactly.
      if (message.length * 3 > WS_MAX_MESSAGE_BYTES && new TextEncoder().encode(message).length > WS_MAX_MESSAGE_BYTES) {
        return Promise.resolve(
          err('too-big', `this is more than Angelia takes in one message (${WS_MAX_MESSAGE_BYTES / 1024 / 1024} MB)`, { fix: 'send less at once' }),
        );
      }
      return new Promise((resolve) => {
        pending.set(id, resolve as (r: Result<unknown>) => void);
        s.send(message);
      });
    },
    onEvent(listener) {
      events.add(listener);
      return () => {
        events.delete(listener);
      };
    },
    onStatus(listener) {
      statuses.add(listener);
      listener(status);
      return () => {
        statuses.delete(listener);
      };
    },
    close() {
      stopped = true;
      if (timer) clearTimeout(timer);
      const s = socket;
      socket = null;
      failPending();
      setStatus('closed');
      s?.close();
    },
  };
}
