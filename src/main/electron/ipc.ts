/**
 * Binds the contract to Electron IPC: one `angelia:invoke` handler (generic over the invoke table,
 * through the one dispatcher) and one `angelia:event` channel. Electron objects are parameters, so this
 * is testable in Node. Only senders whose frame URL is the app's own renderer are served.
 */
import type { CoreApi } from '../../shared/contract';
import { err } from '../../shared/result';
import { dispatch } from '../dispatch';

/** The part of `ipcMain` this module uses. */
export interface IpcMainLike {
  handle(channel: string, listener: (event: { senderFrame: { url: string } | null }, ...args: unknown[]) => Promise<unknown>): void;
  removeHandler(channel: string): void;
}

/** The part of `webContents` events are sent to. */
export interface EventTarget {
  send(channel: string, payload: unknown): void;
  isDestroyed(): boolean;
}

/**
 * Serves the contract on `ipcMain` and forwards every core event to `targets()`. `isTrustedUrl`
 * decides which sender frames may invoke (the app's own renderer). Returns the unbind function.
 */
export function bindContract(ipcMain: IpcMainLike, core: CoreApi, targets: () => EventTarget[], isTrustedUrl: (url: string) => boolean): () => void {
  ipcMain.handle('angelia:invoke', async (event, channel, input) => {
    const url = event.senderFrame?.url ?? '';
    if (!isTrustedUrl(url)) return err('untrusted-sender', 'this window may not talk to Angelia');
    return dispatch(core, channel, input);
  });
  const unsubscribe = core.subscribe((e) => {
    for (const t of targets()) if (!t.isDestroyed()) t.send('angelia:event', e);
  });
  return () => {
    unsubscribe();
    ipcMain.removeHandler('angelia:invoke');
  };
}
