/**
 * Files dropped on a chat: each is checked (at most 25 MB) and sent — over HTTP when the client has an
 * uploader (the headless host), else read as base64 and sent with `chats:attach` (Electron IPC); the
 * composer shows a line per file and gets a reference to where it went.
 */
import { ATTACH_MAX_BYTES } from '../../../shared/contract';
import { attachDone, attachRefused, attachStarted } from '../store/composer';
import { withSlice } from '../store/app';
import { update } from '../store/store';
import type { LinkedApi } from './wsApi';

/** The largest file a drop sends (the contract's `chats:attach` limit). */
export const MAX_ATTACH_BYTES = ATTACH_MAX_BYTES;

/** Why a file of `size` bytes is refused before sending, or null when it may go. */
export function attachRefusal(name: string, size: number): string | null {
  // Rounded up, so a file just over the limit never reads "25.0 MB".
  if (size > MAX_ATTACH_BYTES) return `${name} is ${(Math.ceil((size / 1024 / 1024) * 10) / 10).toFixed(1)} MB; files over 25 MB are refused`;
  if (name.length > 255) return 'the file name is longer than 255 characters';
  return null;
}

/** Reads a file as base64 (without the `data:` prefix). */
export function readBase64(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onerror = () => reject(reader.error ?? new Error('the file could not be read'));
    reader.onload = () => {
      const url = String(reader.result);
      resolve(url.slice(url.indexOf(',') + 1));
    };
    reader.readAsDataURL(file);
  });
}

let nextLine = 1;

/** Sends each of `files` to chat `chatId`, one after the other. */
export async function attachFiles(api: LinkedApi, chatId: string, files: readonly File[]): Promise<void> {
  for (const file of files) {
    const id = nextLine++;
    const refusal = attachRefusal(file.name, file.size);
    if (refusal) {
      update((s) => withSlice(s, 'composer', attachRefused(s.composer, chatId, id, file.name, refusal)));
      continue;
    }
    update((s) => withSlice(s, 'composer', attachStarted(s.composer, chatId, id, file.name)));
    if (api.upload) {
      const r = await api.upload(chatId, file.name, file);
      update((s) => withSlice(s, 'composer', attachDone(s.composer, chatId, id, r)));
      continue;
    }
    let data: string;
    try {
      data = await readBase64(file);
    } catch (e) {
      const message = `could not read ${file.name}: ${e instanceof Error ? e.message : String(e)}`;
      update((s) => withSlice(s, 'composer', attachDone(s.composer, chatId, id, { ok: false, error: { code: 'unreadable', message } })));
      continue;
    }
    const r = await api.invoke('chats:attach', { chatId, name: file.name, dataBase64: data });
    update((s) => withSlice(s, 'composer', attachDone(s.composer, chatId, id, r)));
  }
}
