/**
 * Composer slice: what is typed in each chat's composer (kept when another chat is opened) and the
 * files dropped on the chat, one line each ("Attached → .inbox/x.txt", or why it was refused). An
 * attached file's path is put into the message as a reference. Pure transitions; each returns the same
 * object when nothing changed.
 */
import type { AppError, Result } from '../../../shared/result';

/** One dropped file. */
export interface AttachLine {
  /** Unique within the window (the drop order). */
  id: number;
  name: string;
  status: 'sending' | 'attached' | 'refused';
  /** Where the core put it (relative to the profile's folder), once attached. */
  path: string | null;
  /** Why it was refused. */
  message: string | null;
}

/** One image waiting in the composer (its transitions: store/composerImages.ts). */
export interface ImageDraft {
  /** Unique within the window (the paste or drop order). */
  id: number;
  name: string;
  status: 'sending' | 'ready' | 'refused';
  /** The thumbnail: the file as a `data:` URL (the CSP's img-src allows `data:` only). */
  preview: string | null;
  /** Where `chats:attach` put it, once ready. */
  path: string | null;
  /** Why it was refused. */
  message: string | null;
}

/** Composer texts, attachment lines and images to send (store/composerImages.ts) by chat id. */
export interface ComposerSlice {
  text: Record<string, string>;
  attached: Record<string, AttachLine[]>;
  images: Record<string, ImageDraft[]>;
}

/** Nothing typed, nothing dropped. */
export const initialComposer: ComposerSlice = { text: {}, attached: {}, images: {} };

/** The composer's text for `chatId` changed. */
export function setText(state: ComposerSlice, chatId: string, text: string): ComposerSlice {
  if ((state.text[chatId] ?? '') === text) return state;
  return { ...state, text: { ...state.text, [chatId]: text } };
}

/** `text` with a reference to `path` appended on its own word, ready for more typing. */
export function withReference(text: string, path: string): string {
  if (text === '' || /\s$/.test(text)) return `${text}${path} `;
  return `${text} ${path} `;
}

const linesOf = (state: ComposerSlice, chatId: string): AttachLine[] => state.attached[chatId] ?? [];

function putLine(state: ComposerSlice, chatId: string, line: AttachLine): ComposerSlice {
  const list = linesOf(state, chatId);
  const at = list.findIndex((l) => l.id === line.id);
  const next = at < 0 ? [...list, line] : list.map((l, i) => (i === at ? line : l));
  return { ...state, attached: { ...state.attached, [chatId]: next } };
}

/** A dropped file is being sent. */
export function attachStarted(state: ComposerSlice, chatId: string, id: number, name: string): ComposerSlice {
  return putLine(state, chatId, { id, name, status: 'sending', path: null, message: null });
}

/** A dropped file was refused before sending (too big, unreadable). */
export function attachRefused(state: ComposerSlice, chatId: string, id: number, name: string, message: string): ComposerSlice {
  return putLine(state, chatId, { id, name, status: 'refused', path: null, message });
}

const errorLine = (e: AppError): string => `${e.message}${e.fix ? ` — ${e.fix}` : ''}`;

/** `chats:attach` answered: the line shows where the file went and the message gets a reference to it. */
export function attachDone(state: ComposerSlice, chatId: string, id: number, r: Result<{ path: string }>): ComposerSlice {
  const line = linesOf(state, chatId).find((l) => l.id === id);
  if (!line || line.status !== 'sending') return state;
  if (!r.ok) return putLine(state, chatId, { ...line, status: 'refused', message: errorLine(r.error) });
  const next = putLine(state, chatId, { ...line, status: 'attached', path: r.value.path });
  return setText(next, chatId, withReference(next.text[chatId] ?? '', r.value.path));
}

/** Drops one line (its × button), or, with `id` null once the message was sent, every line not still sending. */
export function clearAttached(state: ComposerSlice, chatId: string, id: number | null = null): ComposerSlice {
  const list = linesOf(state, chatId);
  const next = id === null ? list.filter((l) => l.status === 'sending') : list.filter((l) => l.id !== id);
  if (next.length === list.length) return state;
  return { ...state, attached: { ...state.attached, [chatId]: next } };
}
