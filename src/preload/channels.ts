/**
 * The IPC channels between the preload bridge and main (src/main/electron/ipc.ts). No imports, so the
 * sandboxed preload bundle stays tiny.
 */

/** Renderer → main: `invoke(INVOKE_CHANNEL, channel, input)` answered with a `Result`. */
export const INVOKE_CHANNEL = 'angelia:invoke';
/** Main → renderer: every core event (`AppEvent`). */
export const EVENT_CHANNEL = 'angelia:event';
/** Renderer → main: `invoke(PICK_FOLDER_CHANNEL)` opens the native folder dialog, answered with a `Result<string | null>`. */
export const PICK_FOLDER_CHANNEL = 'angelia:pickFolder';
/** Renderer → main: `invoke(OPEN_EXTERNAL_CHANNEL, url)` opens an http(s) URL in the system browser, answered with a `Result<boolean>`. */
export const OPEN_EXTERNAL_CHANNEL = 'angelia:openExternal';
/** Renderer → main: `invoke(SHOWN_CHAT_CHANNEL, chatId | null)` names the chat the window shows (null: none), for the notifications' focus rule; answered with a `Result<null>`. */
export const SHOWN_CHAT_CHANNEL = 'angelia:shownChat';
