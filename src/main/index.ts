/**
 * Electron entry: wiring only. The core runs in this (main) process; see src/main/electron for the
 * tray, notifications and windows.
 */
import { app } from 'electron';

app.whenReady().then(() => {
  // Wiring lands with the desktop issue; the core and the headless host run under plain Node.
});
