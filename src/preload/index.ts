/**
 * Preload: exposes the contract generically as `window.angelia` (a RendererApi) plus the native folder
 * picker, the system browser opener (the ChatGPT sign-in page) and the report of the chat shown, nothing else — no `ipcRenderer`, no Node. Main checks every invoke's sender and parses its
 * input (ipc.ts).
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { AppEvent, RendererApi } from '../shared/contract';
import type { Result } from '../shared/result';
import { EVENT_CHANNEL, INVOKE_CHANNEL, OPEN_EXTERNAL_CHANNEL, PICK_FOLDER_CHANNEL, SHOWN_CHAT_CHANNEL } from './channels';

const api: RendererApi & { openExternal(url: string): Promise<boolean>; showingChat(chatId: string | null): void } = {
  invoke: (channel, input) => ipcRenderer.invoke(INVOKE_CHANNEL, channel, input),
  onEvent: (listener) => {
    const wrapped = (_e: IpcRendererEvent, ev: AppEvent): void => listener(ev);
    ipcRenderer.on(EVENT_CHANNEL, wrapped);
    return () => {
      ipcRenderer.removeListener(EVENT_CHANNEL, wrapped);
    };
  },
  // The folder fields treat null as "nothing picked"; why the dialog failed is in main's log and here.
  pickFolder: async () => {
    const r = (await ipcRenderer.invoke(PICK_FOLDER_CHANNEL)) as Result<string | null>;
    if (r.ok) return r.value;
    console.error(`The folder dialog failed: ${r.error.message}`);
    return null;
  },
  // False when main refused (not an http(s) URL) or the browser did not open; the screen still shows the link.
  openExternal: async (url) => {
    const r = (await ipcRenderer.invoke(OPEN_EXTERNAL_CHANNEL, url)) as Result<boolean>;
    return r.ok && r.value;
  },
  // Fire and forget: main only remembers it (a notice for a turn that ends is skipped while this window, focused, shows that chat).
  showingChat: (chatId) => void ipcRenderer.invoke(SHOWN_CHAT_CHANNEL, typeof chatId === 'string' ? chatId : null).catch(() => undefined),
};

contextBridge.exposeInMainWorld('angelia', api satisfies RendererApi);
