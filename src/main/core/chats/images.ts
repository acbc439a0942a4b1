/**
 * Images a message gives the agent (Codex `localImage` user input, codex 0.169.0 `UserInput`). The
 * window attaches a pasted or dropped image with `chats:attach` (profiles/attach.ts: into the profile's
 * `<cwd>/.inbox/`), then names those files in `chats:send` `images`; `POST /turn` `images` does the same
 * after its own copy into `.inbox/`.
 *
 * Codex reads a `localImage` path itself, in the app-server process, which the sandbox does not confine:
 * measured on codex 0.169.0, a file outside every grant and one in `<state>/private/` both reached the
 * model as `input_image` (docs/security-model.md "What an image input lets Codex read"). So this module
 * is the boundary, and Codex is never given a path the agent could change afterwards:
 * - each path must name a file directly in the chat's profile `.inbox/` (lexically, as given or below
 *   its real path); `.inbox` must be a real folder (no link) whose real path is inside the profile's
 *   real folder;
 * - the file is opened once with O_NOFOLLOW|O_NONBLOCK (instance/noFollow.ts), checked on the open
 *   descriptor (a regular file with one link, at most `MAX_IMAGE_BYTES`, really at
 *   `<real .inbox>/<name>`: `/proc/self/fd` on Linux, device and inode elsewhere), read from it, and
 *   sniffed by content (png, jpeg, gif, webp: shared/images.ts);
 * - every image is checked before any is copied, and the bytes read are copied into
 *   `<state>/private/images/<uuid>/<name>` (folders 700, file 600; `private/` is denied whole to every
 *   agent: compile/floor.ts). That copy is the path Codex gets, and the one a `user` item records, so
 *   the window shows it again after a restart (`chats:image`).
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { lstat, mkdir, realpath, writeFile, type FileHandle } from 'node:fs/promises';
import { dirname, isAbsolute, join, normalize, relative, sep } from 'node:path';
import { MAX_IMAGE_BYTES, sniffImage, type ImageData, type ImageRef, type ImageType } from '../../../shared/images';
import { AppFailure } from '../../../shared/result';
import { isLinkError, readNoFollow } from '../instance/noFollow';
import { isWithin } from '../instance/paths';
import { INBOX } from '../profiles/attach';
import type { LoadedTable } from '../table/load';

/** The folder of Angelia's image copies, under `<state>/private/`. */
export const IMAGES_DIR = 'images';

/** Whether `/proc/self/fd` shows where an open file is (Linux). */
const PROC_FD = existsSync('/proc/self/fd');

/** The bytes of one checked image, and its name and type. */
interface CheckedImage {
  name: string;
  type: ImageType;
  data: Buffer;
}

const refused = (code: string, message: string, where: string, fix: string): AppFailure => new AppFailure({ code, message, where, fix });

/**
 * The folder of the chat's profile, from the accepted table. Throws AppFailure `unknown-profile` when
 * the profile left the table (`tableFile` is named as where to look).
 */
export function profileFolder(table: LoadedTable, profile: string, chatId: string, tableFile: string): string {
  const p = table.profiles[profile];
  if (!p)
    throw refused(
      'unknown-profile',
      `the profile "${profile}" of chat "${chatId}" is no longer in the table`,
      tableFile,
      'use a chat of a profile that exists',
    );
  return p.cwd;
}

/** The real path of `<cwd>/.inbox`. Throws AppFailure `image-inbox` when it is missing, a link, not a folder, or outside `cwd`. */
async function realInbox(cwd: string): Promise<string> {
  const inbox = join(cwd, INBOX);
  const bad = (why: string): AppFailure =>
    refused('image-inbox', `no image was sent: ${inbox} ${why}`, inbox, 'attach the image again (Angelia makes .inbox as a plain folder)');
  const s = await lstat(inbox).catch(() => null);
  if (s === null) throw bad('does not exist');
  if (s.isSymbolicLink()) throw bad('is a symbolic link');
  if (!s.isDirectory()) throw bad('is not a folder');
  const [realCwd, real] = await Promise.all([realpath(cwd), realpath(inbox).catch(() => null)]);
  if (real === null || !isWithin(real, realCwd) || real === realCwd) throw bad(`resolves outside the profile's folder ${realCwd}`);
  return real;
}

/** Throws (to refuse the read) unless the open `handle` is the file at `expected`. */
async function mustBeAt(handle: FileHandle, expected: string): Promise<void> {
  if (PROC_FD) {
    const at = await realpath(`/proc/self/fd/${handle.fd}`).catch(() => null);
    if (at !== expected) throw new Error(`it is really ${at ?? 'somewhere Angelia cannot see'}`);
    return;
  }
  const [mine, there] = await Promise.all([handle.stat(), lstat(expected).catch(() => null)]);
  if (there === null || there.dev !== mine.dev || there.ino !== mine.ino) throw new Error('it changed while it was opened');
}

/**
 * Reads the image at `path` (its real path `expected`) with every check of the module comment; `shown`
 * is how errors name it. Throws AppFailure `image-missing`, `image-link`, `image-not-file`,
 * `image-links`, `image-too-large`, `image-moved`, `image-not-image`.
 */
async function readImage(expected: string, shown: string): Promise<{ type: ImageType; data: Buffer }> {
  const fix = 'attach the image again';
  let moved: string | null = null;
  const r = await readNoFollow(expected, {
    maxBytes: MAX_IMAGE_BYTES,
    oneLink: true,
    anyLink: true,
    noCtty: true,
    verify: (h) => mustBeAt(h, expected).catch((e: unknown) => Promise.reject(new Error((moved = (e as Error).message)))),
  }).catch((e: unknown) => {
    if (moved !== null) throw refused('image-moved', `${shown} was not sent: ${moved}`, shown, fix);
    throw e;
  });
  switch (r.kind) {
    case 'missing':
      throw refused('image-missing', `${shown} does not exist`, shown, fix);
    case 'open-failed':
      if (isLinkError(r.code)) throw refused('image-link', `${shown} is a symbolic link; only a file attached to the chat is sent`, shown, fix);
      throw r.error;
    case 'not-file':
      throw refused('image-not-file', `${shown} is not a regular file`, shown, fix);
    case 'links':
      throw refused('image-links', `${shown} has more than one hard link; only a file attached to the chat is sent`, shown, fix);
    case 'too-large':
    case 'grew':
      throw refused('image-too-large', `${shown} is larger than ${MAX_IMAGE_BYTES / 1048576} MiB`, shown, 'send a smaller image');
    case 'ok': {
      const type = sniffImage(r.data);
      if (!type) throw refused('image-not-image', `${shown} is not a PNG, JPEG, GIF or WebP image (by its content)`, shown, 'attach it as a file instead');
      return { type, data: r.data };
    }
  }
}

/** Checks one path named by a message (see the module comment) and reads it. */
async function checkOne(cwd: string, inboxReal: string, raw: string): Promise<CheckedImage> {
  const inbox = join(cwd, INBOX);
  const outside = (): AppFailure =>
    refused(
      'image-outside-inbox',
      `${raw} is not a file attached to this chat (only files directly in ${inbox} are sent as images)`,
      raw,
      'attach the image to the chat',
    );
  if (!isAbsolute(raw)) throw outside();
  const given = normalize(raw);
  const folder = dirname(given);
  const name = given.slice(folder.length + (folder.endsWith(sep) ? 0 : 1));
  if ((folder !== inbox && folder !== inboxReal) || name === '' || name === '.' || name === '..') throw outside();
  return { name, ...(await readImage(join(inboxReal, name), raw)) };
}

/**
 * Checks the images a message names (`paths`: absolute paths of files `chats:attach` wrote into
 * `<cwd>/.inbox/`), then copies them into `<privateDir>/images/<uuid>/<name>` and returns those copies,
 * in order. Nothing is copied unless every one passes. Throws AppFailure `image-inbox`,
 * `image-outside-inbox` and the codes of `readImage`.
 */
export async function takeInboxImages(cwd: string, privateDir: string, paths: readonly string[]): Promise<ImageRef[]> {
  const inboxReal = await realInbox(cwd);
  const checked: CheckedImage[] = [];
  for (const p of paths) checked.push(await checkOne(cwd, inboxReal, p));
  const out: ImageRef[] = [];
  for (const img of checked) {
    const folder = join(privateDir, IMAGES_DIR, randomUUID());
    await mkdir(folder, { recursive: true, mode: 0o700 });
    const path = join(folder, img.name);
    await writeFile(path, img.data, { mode: 0o600, flag: 'wx' });
    out.push({ path, name: img.name });
  }
  return out;
}

/**
 * `chats:image`: the bytes of one of Angelia's image copies (`<privateDir>/images/<uuid>/<name>`, as a
 * `user` item records it), for the window's thumbnail. Any other path is refused. Throws AppFailure
 * `image-unknown` and the codes of `readImage`.
 */
export async function readStoredImage(privateDir: string, path: string): Promise<ImageData> {
  const root = join(privateDir, IMAGES_DIR);
  const rel = isAbsolute(path) ? relative(root, normalize(path)) : '';
  const parts = rel.split(sep);
  if (parts.length !== 2 || parts.some((p) => p === '' || p === '.' || p === '..')) {
    throw refused('image-unknown', `${path} is not an image of a chat`, path, 'open the chat again');
  }
  const realRoot = await realpath(root).catch(() => null);
  if (realRoot === null) throw refused('image-missing', `${path} does not exist`, path, 'the image was removed');
  const { type, data } = await readImage(join(realRoot, ...parts), path);
  return { mime: type, dataBase64: data.toString('base64') };
}
