/**
 * Images given to the agent as input (Codex `localImage` user input, codex 0.169.0 `UserInput`): the
 * shapes the contract uses (`chats:send` `images`, a `user` item's `images`, `chats:image`), the limits,
 * and the one content sniff (png, jpeg, gif, webp) shared by the core (which decides) and the renderer
 * (which only chooses between "image" and "plain file" for a pasted or dropped file).
 * docs/architecture.md "Images as input"; docs/security-model.md "What an image input lets Codex read".
 */
import { z } from 'zod';

/** The image types an agent is given, by content (never by name). */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];

/** The largest image a message carries, in bytes (10 MiB). */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

/** The most images one message carries. */
export const MAX_IMAGES = 10;

/**
 * An image a `user` item carries: `path` is Angelia's private copy (the file Codex read: under
 * `<state>/private/images/`, shown through `chats:image`), `name` the file's name as attached.
 */
export const ImageRef = z.object({ path: z.string(), name: z.string() });
export type ImageRef = z.infer<typeof ImageRef>;

/**
 * `chats:send` `images`: 1–10 absolute paths of files `chats:attach` wrote into the chat's profile
 * folder `.inbox/` (each checked again by the core: core/chats/images.ts).
 */
export const SendImages = z.array(z.string().min(1).max(4096)).min(1).max(MAX_IMAGES);

/** `chats:image`: one image of the chat's transcript, as bytes for a thumbnail (`data:<mime>;base64,…`). */
export const ImageData = z.object({ mime: z.enum(IMAGE_TYPES), dataBase64: z.string() });
export type ImageData = z.infer<typeof ImageData>;

/** How many leading bytes `sniffImage` needs. */
export const SNIFF_BYTES = 12;

const startsWith = (b: Uint8Array, sig: readonly number[], at = 0): boolean => sig.every((x, i) => b[at + i] === x);

/**
 * The image type of `bytes` by its signature, or null: PNG `89 50 4E 47 0D 0A 1A 0A`, JPEG `FF D8 FF`,
 * GIF `GIF87a` / `GIF89a`, WebP `RIFF????WEBP`. Pure; reads at most the first `SNIFF_BYTES` bytes.
 */
export function sniffImage(bytes: Uint8Array): ImageType | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, [0x47, 0x49, 0x46, 0x38]) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61) return 'image/gif';
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8)) return 'image/webp';
  return null;
}
