/**
 * The images a chat's composer will send with the next message (pasted or dropped: api/attachImages.ts),
 * shown as thumbnails above the text until then. Each is attached first (`chats:attach`, into the
 * profile's `.inbox/`), and the message names the attached paths in `chats:send` `images`, which the
 * core checks and gives the agent as images (docs/architecture.md "Images as input"). Pure transitions
 * over the composer slice; each returns the same object when nothing changed.
 */
import type { AppError, Result } from '../../../shared/result';
import type { ComposerSlice, ImageDraft } from './composer';

export type { ImageDraft } from './composer';

const draftsOf = (state: ComposerSlice, chatId: string): ImageDraft[] => state.images[chatId] ?? [];

function put(state: ComposerSlice, chatId: string, list: ImageDraft[]): ComposerSlice {
  return { ...state, images: { ...state.images, [chatId]: list } };
}

function putDraft(state: ComposerSlice, chatId: string, draft: ImageDraft): ComposerSlice {
  const list = draftsOf(state, chatId);
  const at = list.findIndex((d) => d.id === draft.id);
  return put(state, chatId, at < 0 ? [...list, draft] : list.map((d, i) => (i === at ? draft : d)));
}

/** An image is being attached; `preview` is its `data:` URL. */
export function imageStarted(state: ComposerSlice, chatId: string, id: number, name: string, preview: string): ComposerSlice {
  return putDraft(state, chatId, { id, name, status: 'sending', preview, path: null, message: null });
}

/** An image was refused before it was attached (too large, unreadable). */
export function imageRefused(state: ComposerSlice, chatId: string, id: number, name: string, message: string): ComposerSlice {
  return putDraft(state, chatId, { id, name, status: 'refused', preview: null, path: null, message });
}

const errorLine = (e: AppError): string => `${e.message}${e.fix ? ` — ${e.fix}` : ''}`;

/** `chats:attach` answered for image `id`: ready to send with its path, or refused. A removed image stays removed. */
export function imageAttached(state: ComposerSlice, chatId: string, id: number, r: Result<{ path: string }>): ComposerSlice {
  const draft = draftsOf(state, chatId).find((d) => d.id === id);
  if (!draft || draft.status !== 'sending') return state;
  if (!r.ok) return putDraft(state, chatId, { ...draft, status: 'refused', message: errorLine(r.error) });
  return putDraft(state, chatId, { ...draft, status: 'ready', path: r.value.path });
}

/** Removes one image (its × button), or, with `id` null once the message was sent, every image not still being attached. */
export function removeImage(state: ComposerSlice, chatId: string, id: number | null = null): ComposerSlice {
  const list = draftsOf(state, chatId);
  const next = id === null ? list.filter((d) => d.status === 'sending') : list.filter((d) => d.id !== id);
  return next.length === list.length ? state : put(state, chatId, next);
}

/** The paths a message with these waiting images sends as `images`, in the order they were added. */
export function readyImages(drafts: readonly ImageDraft[]): string[] {
  return drafts.flatMap((d) => (d.status === 'ready' && d.path !== null ? [d.path] : []));
}

/** True while one of these images is still being attached (the message waits for it). */
export function imagesPending(drafts: readonly ImageDraft[]): boolean {
  return drafts.some((d) => d.status === 'sending');
}

/**
 * Whether a message can be sent with `text` and these waiting images: something to send (a text that is
 * not all blank, or a ready image), and no image still being attached.
 */
export function canSend(text: string, drafts: readonly ImageDraft[]): boolean {
  return (text.trim() !== '' || readyImages(drafts).length > 0) && !imagesPending(drafts);
}
