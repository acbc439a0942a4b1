/**
 * Preload: exposes the contract generically as `window.angelia` (a RendererApi), nothing else.
 */
import { contextBridge, ipcRenderer } from 'electron';
import type { AppEvent, RendererApi } from '../shared/contract';

const api: RendererApi = {
  invoke: (channel, input) => ipcRenderer.invoke('angelia:invoke', channel, input),
  onEvent: (listener) => {
    const wrapped = (_e: unknown, ev: AppEvent): void => listener(ev);
    ipcRenderer.on('angelia:event', wrapped);
    return () => ipcRenderer.removeListener('angelia:event', wrapped);
  },
};

contextBridge.exposeInMainWorld('angelia', api satisfies RendererApi);
