/**
 * Preload: exposes the contract generically as `window.angelia` (a RendererApi), nothing else — no
 * `ipcRenderer`, no Node. Main checks every invoke's sender and parses its input (ipc.ts).
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { AppEvent, RendererApi } from '../shared/contract';
import { EVENT_CHANNEL, INVOKE_CHANNEL } from './channels';

const api: RendererApi = {
  invoke: (channel, input) => ipcRenderer.invoke(INVOKE_CHANNEL, channel, input),
  onEvent: (listener) => {
    const wrapped = (_e: IpcRendererEvent, ev: AppEvent): void => listener(ev);
    ipcRenderer.on(EVENT_CHANNEL, wrapped);
    return () => {
      ipcRenderer.removeListener(EVENT_CHANNEL, wrapped);
    };
  },
};

contextBridge.exposeInMainWorld('angelia', api satisfies RendererApi);
