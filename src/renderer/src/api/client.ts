/**
 * The renderer's one client. Under Electron the preload bridge (`window.angelia`) is used as is; in a
 * browser, the headless host's WebSocket with the token from the URL fragment (`#token=…`). The token
 * is then kept in sessionStorage and wiped from the address bar, so a reload still works and the token
 * does not linger on screen.
 */
import type { RendererApi } from '../../../shared/contract';
import { httpUploader } from './upload';
import { createWsApi, wsUrlFor, type LinkedApi } from './wsApi';

const TOKEN_KEY = 'angelia.token';

/** Reads `token` from a URL fragment such as `#token=abc`; null when absent or empty. */
export function tokenFromHash(hash: string): string | null {
  const params = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
  const token = params.get('token');
  return token && token.length > 0 ? token : null;
}

/** Wraps the preload bridge: IPC is always up while the window exists. Its folder picker, browser opener and shown-chat report, if any, are kept. */
export function bridgeApi(
  bridge: RendererApi & {
    pickFolder?: () => Promise<string | null>;
    openExternal?: (url: string) => Promise<boolean>;
    showingChat?: (chatId: string | null) => void;
  },
): LinkedApi {
  const pickFolder = bridge.pickFolder;
  const openExternal = bridge.openExternal;
  const showingChat = bridge.showingChat;
  return {
    ...(showingChat ? { showingChat: (chatId: string | null) => showingChat(chatId) } : {}),
    ...(pickFolder ? { pickFolder: () => pickFolder() } : {}),
    ...(openExternal ? { openExternal: (url: string) => openExternal(url) } : {}),
    invoke: (channel, input) => bridge.invoke(channel, input),
    onEvent: (listener) => bridge.onEvent(listener),
    onStatus: (listener) => {
      listener('open');
      return () => undefined;
    },
    close: () => undefined,
  };
}

function browserToken(): string | null {
  const fromHash = tokenFromHash(window.location.hash);
  if (fromHash) {
    try {
      window.sessionStorage.setItem(TOKEN_KEY, fromHash);
      window.history.replaceState(null, '', window.location.pathname + window.location.search);
    } catch {
      // Storage or history unavailable: the token stays in the fragment, which still works.
    }
    return fromHash;
  }
  try {
    return window.sessionStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

/** The client for this window, or null when running in a browser without a token. */
export function connectClient(): LinkedApi | null {
  if (window.angelia) return bridgeApi(window.angelia);
  const token = browserToken();
  if (!token) return null;
  // Files go over HTTP (POST /attach), not the WebSocket.
  return { ...createWsApi({ url: wsUrlFor(window.location, token) }), upload: httpUploader(window.location.origin, token) };
}
