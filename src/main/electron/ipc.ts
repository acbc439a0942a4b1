/**
 * Binds the contract to Electron IPC: one `angelia:invoke` handler (generic over the invoke table,
 * through the one dispatcher) and one `angelia:event` channel. Electron objects are parameters, so this
 * is testable in Node.
 *
 * Every invoke's SENDER is checked before anything runs: it must be one of our windows' webContents,
 * from its top frame, whose URL is our renderer's (renderer.ts: the built index.html, or the dev server
 * in development). Anything else gets a `Result` error `untrusted-sender` and the core never sees it.
 * Events go only to our windows, and only while they show our renderer. The native folder picker and
 * the system browser opener have channels of their own (`bindFolderPicker`, `bindOpenExternal`), with
 * the same sender check.
 */
import { isAbsolute } from 'node:path';
import type { CoreApi } from '../../shared/contract';
import { err, ok, type Result } from '../../shared/result';
import { EVENT_CHANNEL, INVOKE_CHANNEL, OPEN_EXTERNAL_CHANNEL, PICK_FOLDER_CHANNEL, SHOWN_CHAT_CHANNEL } from '../../preload/channels';
import { dispatch } from '../dispatch';
import { isExternalHttpUrl } from './security';

/** The channels, declared once beside the preload bridge (src/preload/channels.ts). */
export { EVENT_CHANNEL, INVOKE_CHANNEL, OPEN_EXTERNAL_CHANNEL, PICK_FOLDER_CHANNEL, SHOWN_CHAT_CHANNEL };

/** The part of Electron's `IpcMainInvokeEvent` checked here. `parent` is null for a top frame. */
export interface InvokeEvent {
  sender?: { id: number } | null;
  senderFrame: { url: string; parent?: unknown } | null;
}

/** The part of `ipcMain` this module uses. */
export interface IpcMainLike {
  handle(channel: string, listener: (event: InvokeEvent, ...args: unknown[]) => Promise<unknown>): void;
  removeHandler(channel: string): void;
}

/** The part of `webContents` events are sent to. */
export interface EventTarget {
  send(channel: string, payload: unknown): void;
  isDestroyed(): boolean;
  /** The page it shows now; events are withheld when it is not our renderer. */
  getURL?(): string;
}

/** Who may talk to the core, and where events go. */
export interface IpcTrust {
  /** Whether a frame URL is our renderer (`isRendererUrl(url, location)`). */
  isTrustedUrl(url: string): boolean;
  /** Whether a webContents id is one of our windows (WindowManager.isOurs). Omitted: not checked. */
  isOurSender?(webContentsId: number): boolean;
  /** Our windows' webContents. */
  targets(): EventTarget[];
}

/**
 * Checks an invoke's sender (pure): ok, or `untrusted-sender` saying why — no frame (it navigated away
 * or was destroyed), a subframe, a URL that is not our renderer, or a webContents that is not one of
 * our windows.
 */
export function checkSender(event: InvokeEvent, trust: Pick<IpcTrust, 'isTrustedUrl' | 'isOurSender'>): Result<null> {
  const frame = event.senderFrame;
  const refuse = (why: string): Result<null> =>
    err('untrusted-sender', `this page may not talk to Angelia (${why})`, { fix: 'only the Angelia window can use Angelia' });
  if (!frame) return refuse('its frame is gone');
  if (frame.parent !== undefined && frame.parent !== null) return refuse('a subframe');
  if (!trust.isTrustedUrl(frame.url)) return refuse(`not the Angelia renderer: ${frame.url.slice(0, 120) || '(no URL)'}`);
  if (trust.isOurSender && (!event.sender || !trust.isOurSender(event.sender.id))) return refuse('not an Angelia window');
  return ok(null);
}

/**
 * Serves the contract on `ipcMain` (every sender checked with `checkSender`) and forwards every core
 * event to our windows. Returns the unbind function.
 */
export function bindContract(ipcMain: IpcMainLike, core: CoreApi, trust: IpcTrust): () => void {
  ipcMain.handle(INVOKE_CHANNEL, async (event, channel, input) => {
    const checked = checkSender(event, trust);
    if (!checked.ok) return checked;
    return dispatch(core, channel, input);
  });
  const unsubscribe = core.subscribe((e) => {
    for (const t of trust.targets()) {
      if (t.isDestroyed()) continue;
      if (t.getURL && !trust.isTrustedUrl(t.getURL())) continue;
      t.send(EVENT_CHANNEL, e);
    }
  });
  return () => {
    unsubscribe();
    ipcMain.removeHandler(INVOKE_CHANNEL);
  };
}

/** What Electron's `dialog.showOpenDialog` resolves to (the part used here). */
export interface OpenDialogResult {
  canceled: boolean;
  filePaths: string[];
}

/** The options the folder dialog opens with (a subset of Electron's `OpenDialogOptions`). */
export interface FolderDialogOptions {
  title: string;
  buttonLabel: string;
  properties: Array<'openDirectory' | 'createDirectory' | 'dontAddToRecent'>;
}

/** One folder, which may be created in the dialog (macOS), not added to the recent documents (Windows). */
export const FOLDER_DIALOG: FolderDialogOptions = {
  title: 'Choose a folder',
  buttonLabel: 'Choose',
  properties: ['openDirectory', 'createDirectory', 'dontAddToRecent'],
};

/**
 * Opens the folder dialog for the window whose webContents (`senderId`) asked; desktop.ts passes
 * `dialog.showOpenDialog(window, FOLDER_DIALOG)`.
 */
export type ShowFolderDialog = (senderId: number, options: FolderDialogOptions) => Promise<OpenDialogResult>;

/**
 * Serves the preload's `pickFolder` on `PICK_FOLDER_CHANNEL`: the sender is checked as for invokes
 * (`checkSender`; a foreign one gets `untrusted-sender` and no dialog), then `show` opens the dialog.
 * Answers `Result<string | null>`: the absolute folder chosen, null when cancelled, `dialog-failed`
 * when the dialog threw (also passed to `report`), `bad-folder` for a path that is not absolute.
 * Returns the unbind function.
 */
export function bindFolderPicker(
  ipcMain: IpcMainLike,
  trust: Pick<IpcTrust, 'isTrustedUrl' | 'isOurSender'>,
  show: ShowFolderDialog,
  report: (e: unknown) => void = () => undefined,
): () => void {
  ipcMain.handle(PICK_FOLDER_CHANNEL, async (event): Promise<Result<string | null>> => {
    const checked = checkSender(event, trust);
    if (!checked.ok) return checked;
    let answer: OpenDialogResult;
    try {
      answer = await show(event.sender?.id ?? -1, FOLDER_DIALOG);
    } catch (e) {
      report(e);
      return err('dialog-failed', `the folder dialog did not open: ${e instanceof Error ? e.message : String(e)}`, { fix: 'type the folder instead' });
    }
    const path = answer.filePaths[0];
    if (answer.canceled || path === undefined) return ok(null);
    if (!isAbsolute(path)) return err('bad-folder', `the folder dialog answered a relative path (${path.slice(0, 200)})`, { fix: 'type the folder instead' });
    return ok(path);
  });
  return () => ipcMain.removeHandler(PICK_FOLDER_CHANNEL);
}

/** The longest URL handed to the system browser (a ChatGPT sign-in URL is well under 2 000 characters). */
export const MAX_EXTERNAL_URL = 8192;

/**
 * Serves the preload's `openExternal` on `OPEN_EXTERNAL_CHANNEL` (the sign-in screen's ChatGPT page): the
 * sender is checked as for invokes (`checkSender`), then only an http(s) URL of at most
 * `MAX_EXTERNAL_URL` characters goes to `open` (desktop.ts passes Electron's `shell.openExternal`).
 * Answers `Result<boolean>`: true once handed over; `bad-url` for anything else (a file:, javascript:
 * or custom-scheme URL opens nothing); `open-failed` when `open` threw (also passed to `report`).
 * Returns the unbind function.
 */
export function bindOpenExternal(
  ipcMain: IpcMainLike,
  trust: Pick<IpcTrust, 'isTrustedUrl' | 'isOurSender'>,
  open: (url: string) => Promise<void>,
  report: (e: unknown) => void = () => undefined,
): () => void {
  ipcMain.handle(OPEN_EXTERNAL_CHANNEL, async (event, url): Promise<Result<boolean>> => {
    const checked = checkSender(event, trust);
    if (!checked.ok) return checked;
    if (typeof url !== 'string' || url.length > MAX_EXTERNAL_URL || !isExternalHttpUrl(url)) {
      return err('bad-url', 'only an http(s) address opens in the browser', { fix: 'copy the link from the window instead' });
    }
    try {
      await open(url);
      return ok(true);
    } catch (e) {
      report(e);
      return err('open-failed', `the browser did not open: ${e instanceof Error ? e.message : String(e)}`, { fix: 'copy the link from the window instead' });
    }
  });
  return () => ipcMain.removeHandler(OPEN_EXTERNAL_CHANNEL);
}

/** The longest chat id a window may report as shown (chat ids are profile names, far shorter). */
const MAX_SHOWN_CHAT_ID = 300;

/**
 * Serves the preload's `showingChat` on `SHOWN_CHAT_CHANNEL`: the sender is checked as for invokes
 * (`checkSender`), then `record(senderId, chatId)` remembers which chat that window shows (null: the
 * list, or nothing). Answers `Result<null>`; `bad-input` for anything but a string of at most
 * `MAX_SHOWN_CHAT_ID` characters or null. Returns the unbind function.
 */
export function bindShownChat(
  ipcMain: IpcMainLike,
  trust: Pick<IpcTrust, 'isTrustedUrl' | 'isOurSender'>,
  record: (senderId: number, chatId: string | null) => void,
): () => void {
  ipcMain.handle(SHOWN_CHAT_CHANNEL, async (event, chatId): Promise<Result<null>> => {
    const checked = checkSender(event, trust);
    if (!checked.ok) return checked;
    if (chatId !== null && (typeof chatId !== 'string' || chatId.length === 0 || chatId.length > MAX_SHOWN_CHAT_ID)) {
      return err('bad-input', 'the chat shown must be a chat id or null', { fix: 'report the open chat as its id' });
    }
    if (event.sender) record(event.sender.id, chatId);
    return ok(null);
  });
  return () => ipcMain.removeHandler(SHOWN_CHAT_CHANNEL);
}
