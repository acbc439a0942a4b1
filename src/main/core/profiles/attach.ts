/**
 * A file dropped into a chat (contract `chats:attach`): decoded from base64, its name made safe, and
 * written into the profile's `<cwd>/.inbox/` where the agent can read it. The checks, in order:
 * - the decoded size is at most 25 MiB (`MAX_ATTACH_BYTES`), the text is base64;
 * - `.inbox` is created mode 700 when missing; a `.inbox` that is a symbolic link, not a folder, or
 *   whose real path is outside the profile's real folder is refused;
 * - the file is created with O_CREAT|O_EXCL|O_NOFOLLOW, mode 600, below the real path of `.inbox` (so a
 *   link swapped in afterwards is not followed) and never over an existing name: `report-1.pdf`,
 *   `report-2.pdf`, … are tried instead.
 * Nothing is said in the chat here: the caller returns the path and the renderer shows it.
 */
import { constants } from 'node:fs';
import { lstat, mkdir, open, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { AppFailure } from '../../../shared/result';
import { isWithin } from '../instance/paths';

/** The largest attachment, decoded: 25 MiB. */
export const MAX_ATTACH_BYTES = 25 * 1024 * 1024;

/** The folder attachments go into, relative to the profile's folder. */
export const INBOX = '.inbox';

// eslint-disable-next-line no-control-regex -- control characters are exactly what is matched
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const MAX_NAME_BYTES = 200;

/**
 * A safe file name from the name a person dropped: NFC; control and bidi-override characters removed;
 * `/`, `\` and `:` become `_`; runs of dots become one dot (no `..`); leading dots and spaces and
 * trailing dots and spaces removed; at most 200 UTF-8 bytes, keeping the extension (the last `.xyz` of
 * up to 16 characters). Never empty (`file`).
 */
export function sanitizeName(name: string): string {
  let s = name.normalize('NFC').replace(CONTROL, '').replace(/[/\\:]/g, '_').replace(/\.{2,}/g, '.');
  s = s.replace(/^[.\s]+/, '').replace(/[.\s]+$/, '');
  if (s.length === 0) return 'file';
  const dot = s.lastIndexOf('.');
  const ext = dot > 0 && s.length - dot <= 17 ? s.slice(dot) : '';
  let stem = ext ? s.slice(0, dot) : s;
  while (Buffer.byteLength(stem + ext) > MAX_NAME_BYTES) stem = [...stem].slice(0, -1).join('');
  return (stem || 'file') + ext;
}

/** `name` with `-n` before its extension (`a.tar.gz` → `a.tar-1.gz`). */
export function numbered(name: string, n: number): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? `${name.slice(0, dot)}-${n}${name.slice(dot)}` : `${name}-${n}`;
}

/**
 * Decodes standard or URL-safe base64 (padding optional, whitespace ignored). Throws AppFailure
 * `attach-not-base64`, or `attach-too-large` (more than MAX_ATTACH_BYTES, checked before decoding).
 */
export function decodeAttachment(data: string): Buffer {
  const clean = data.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(clean) || clean.replace(/=+$/, '').length % 4 === 1) {
    throw new AppFailure({ code: 'attach-not-base64', message: 'the attachment is not base64 data', fix: 'send the file again' });
  }
  const bytes = Math.floor((clean.replace(/=+$/, '').length * 3) / 4);
  if (bytes > MAX_ATTACH_BYTES) {
    throw new AppFailure({ code: 'attach-too-large', message: `the file is ${(bytes / 1048576).toFixed(1)} MiB; at most 25 MiB can be attached`, fix: 'put the file in the profile\'s folder yourself, or send a smaller one' });
  }
  return Buffer.from(clean, 'base64');
}

/** The real path of `<cwd>/.inbox`, made (mode 700) when missing. Throws AppFailure `attach-inbox` when unsafe. */
async function inboxDir(cwd: string): Promise<string> {
  const inbox = join(cwd, INBOX);
  const refuse = (why: string): AppFailure => new AppFailure({ code: 'attach-inbox', message: `nothing was attached: ${inbox} ${why}`, where: inbox, fix: `remove ${inbox} (Angelia makes it again as a plain folder)` });
  let s = await lstat(inbox).catch((e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? null : Promise.reject(e)));
  if (s === null) {
    await mkdir(inbox, { mode: 0o700 }).catch((e: NodeJS.ErrnoException) => (e.code === 'EEXIST' ? undefined : Promise.reject(e)));
    s = await lstat(inbox);
  }
  if (s.isSymbolicLink()) throw refuse('is a symbolic link');
  if (!s.isDirectory()) throw refuse('is not a folder');
  const [realCwd, realInbox] = await Promise.all([realpath(cwd), realpath(inbox)]);
  if (!isWithin(realInbox, realCwd) || realInbox === realCwd) throw refuse(`resolves to ${realInbox}, outside the profile's folder ${realCwd}`);
  return realInbox;
}

/**
 * Writes `data` (base64) as a new file named after `name` in `<cwd>/.inbox/` (see the module comment)
 * and returns its absolute path. `cwd` is the profile's folder (absolute). Throws AppFailure
 * `attach-not-base64`, `attach-too-large`, `attach-inbox`, `attach-full` (1000 files of that name), or
 * the fs error.
 */
export async function attachFile(cwd: string, name: string, data: string): Promise<string> {
  const bytes = decodeAttachment(data);
  const dir = await inboxDir(cwd);
  const safe = sanitizeName(name);
  for (let n = 0; n < 1000; n++) {
    const path = join(dir, n === 0 ? safe : numbered(safe, n));
    let handle;
    try {
      handle = await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw e;
    }
    try {
      await handle.writeFile(bytes);
    } finally {
      await handle.close();
    }
    return path;
  }
  throw new AppFailure({ code: 'attach-full', message: `${dir} already holds 1000 files named like ${safe}`, where: dir, fix: 'clear the .inbox folder' });
}
