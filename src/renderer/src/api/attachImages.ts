/**
 * Pasted or dropped files, split by content: an image (PNG, JPEG, GIF or WebP by its first bytes,
 * shared/images.ts `sniffImage`; at most `MAX_IMAGE_BYTES`) is attached like any file (`chats:attach`, or
 * the headless host's upload) and waits in the composer as a thumbnail, to go with the next message as
 * an image input (`chats:send` `images`); anything else keeps the plain attach of api/attach.ts (a line
 * and a path in the text). docs/architecture.md "Images as input".
 */
import { MAX_IMAGE_BYTES, MAX_IMAGES, SNIFF_BYTES, sniffImage } from '../../../shared/images';
import { imageAttached, imageRefused, imageStarted } from '../store/composerImages';
import { withSlice } from '../store/app';
import { update, useAppStore } from '../store/store';
import { attachFiles } from './attach';
import type { LinkedApi } from './wsApi';

/** True when the file's first bytes are an image the agent can be given. Never rejects (unreadable: false). */
export async function isImageFile(file: Blob): Promise<boolean> {
  try {
    return sniffImage(new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer())) !== null;
  } catch {
    return false;
  }
}

/** Reads a file as a `data:` URL (the thumbnail, and its base64 after the comma). */
function readDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onerror = () => reject(reader.error ?? new Error('the file could not be read'));
    reader.onload = () => resolve(String(reader.result));
    reader.readAsDataURL(file);
  });
}

/** Why an image of `size` bytes is refused before sending, or null when it may go. */
export function imageRefusal(name: string, size: number, waiting: number): string | null {
  if (waiting >= MAX_IMAGES) return `at most ${MAX_IMAGES} images go with one message`;
  if (size > MAX_IMAGE_BYTES)
    return `${name} is ${(Math.ceil((size / 1048576) * 10) / 10).toFixed(1)} MB; images over ${MAX_IMAGE_BYTES / 1048576} MB are refused`;
  if (name.length > 255) return 'the file name is longer than 255 characters';
  return null;
}

let nextImage = 1;

/** Attaches each image of `files` to chat `chatId`, one after the other, as thumbnails waiting in the composer. */
export async function attachImages(api: LinkedApi, chatId: string, files: readonly File[]): Promise<void> {
  for (const file of files) {
    const id = nextImage++;
    const name = file.name || 'image.png';
    const refusal = imageRefusal(name, file.size, (useAppStore.getState().composer.images[chatId] ?? []).length);
    if (refusal) {
      update((s) => withSlice(s, 'composer', imageRefused(s.composer, chatId, id, name, refusal)));
      continue;
    }
    let url: string;
    try {
      url = await readDataUrl(file);
    } catch (e) {
      const message = `could not read ${name}: ${e instanceof Error ? e.message : String(e)}`;
      update((s) => withSlice(s, 'composer', imageRefused(s.composer, chatId, id, name, message)));
      continue;
    }
    update((s) => withSlice(s, 'composer', imageStarted(s.composer, chatId, id, name, url)));
    const r = api.upload
      ? await api.upload(chatId, name, file)
      : await api.invoke('chats:attach', { chatId, name, dataBase64: url.slice(url.indexOf(',') + 1) });
    update((s) => withSlice(s, 'composer', imageAttached(s.composer, chatId, id, r)));
  }
}

/** Pasted or dropped files: images as image inputs (attachImages), the rest as plain attachments (attach.ts). */
export async function attachDropped(api: LinkedApi, chatId: string, files: readonly File[]): Promise<void> {
  const kinds = await Promise.all(files.map(isImageFile));
  const images = files.filter((_, i) => kinds[i]);
  const others = files.filter((_, i) => !kinds[i]);
  if (images.length) await attachImages(api, chatId, images);
  if (others.length) await attachFiles(api, chatId, others);
}
