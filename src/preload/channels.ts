/**
 * The two IPC channels between the preload bridge and main (src/main/electron/ipc.ts). No imports, so
 * the sandboxed preload bundle stays tiny.
 */

/** Renderer → main: `invoke(INVOKE_CHANNEL, channel, input)` answered with a `Result`. */
export const INVOKE_CHANNEL = 'angelia:invoke';
/** Main → renderer: every core event (`AppEvent`). */
export const EVENT_CHANNEL = 'angelia:event';
