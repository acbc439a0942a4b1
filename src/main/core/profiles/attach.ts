/**
 * A file dropped into a chat (contract `chats:attach`): decoded from base64, its name made safe, and
 * written into the profile's `<cwd>/.inbox/` where the agent can read it. The checks, in order:
 * - the decoded size is at most 25 MiB (`MAX_ATTACH_BYTES`), the text is base64;
 * - `.inbox` is created mode 700 when missing; a `.inbox` that is a symbolic link, not a folder, or
 *   whose real path is outside the profile's real folder is refused;
 * - the file is created with O_CREAT|O_EXCL|O_NOFOLLOW, mode 600, in `.inbox`, and never over an
 *   existing name: `report-1.pdf`, `report-2.pdf`, … are tried instead. The agent owns its folder and
 *   can swap `.inbox` for a symbolic link between the checks above and the open (a tester got 4 of ~200
 *   attachments written into a folder the agent cannot write). So on Linux `.inbox` is opened once as a
 *   folder (O_DIRECTORY|O_NOFOLLOW), checked to be the folder checked above (real path of
 *   `/proc/self/fd/<fd>`), and the file is created through that descriptor
 *   (`/proc/self/fd/<folder>/<name>`); elsewhere it is created below the real path of `.inbox`;
 * - before any byte is written, where the open file really is is checked through its descriptor. Linux:
 *   the real path of `/proc/self/fd/<fd>` must be `<real .inbox>/<name>`; elsewhere: `.inbox` must
 *   still resolve to the same real path and `<real .inbox>/<name>` must be the open file (same dev and
 *   inode). On a mismatch the file just created is removed (only when the name found is that very file;
 *   on Linux through the folder's descriptor) and the attach fails with `attach-inbox`.
 * Nothing is said in the chat here: the caller returns the path and the renderer shows it.
 */
import { existsSync } from 'node:fs';
import { lstat, mkdir, realpath, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { AppFailure } from '../../../shared/result';
import { createNoFollow, openFolderNoFollow } from '../instance/noFollow';
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
  let s = name
    .normalize('NFC')
    .replace(CONTROL, '')
    .replace(/[/\\:]/g, '_')
    .replace(/\.{2,}/g, '.');
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
    throw new AppFailure({
      code: 'attach-too-large',
      message: `the file is ${(bytes / 1048576).toFixed(1)} MiB; at most 25 MiB can be attached`,
      fix: "put the file in the profile's folder yourself, or send a smaller one",
    });
  }
  return Buffer.from(clean, 'base64');
}

/** The real path of `<cwd>/.inbox`, made (mode 700) when missing. Throws AppFailure `attach-inbox` when unsafe. */
async function inboxDir(cwd: string): Promise<string> {
  const inbox = join(cwd, INBOX);
  const refuse = (why: string): AppFailure =>
    new AppFailure({
      code: 'attach-inbox',
      message: `nothing was attached: ${inbox} ${why}`,
      where: inbox,
      fix: `remove ${inbox} (Angelia makes it again as a plain folder)`,
    });
  // Something else in the folder may be renaming `.inbox` right now: a name that vanishes or turns into
  // a link or a file between two of these steps is refused like one found so.
  const moved = (e: NodeJS.ErrnoException): Promise<never> =>
    Promise.reject(e.code === 'ENOENT' || e.code === 'ENOTDIR' || e.code === 'ELOOP' ? refuse(`changed while it was being checked (${e.code})`) : e);
  let s = await lstat(inbox).catch((e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? null : Promise.reject(e)));
  if (s === null) {
    await mkdir(inbox, { mode: 0o700 }).catch((e: NodeJS.ErrnoException) => (e.code === 'EEXIST' ? undefined : Promise.reject(e)));
    s = await lstat(inbox).catch(moved);
  }
  if (s.isSymbolicLink()) throw refuse('is a symbolic link');
  if (!s.isDirectory()) throw refuse('is not a folder');
  const [realCwd, realInbox] = await Promise.all([realpath(cwd), realpath(inbox).catch(moved)]);
  if (!isWithin(realInbox, realCwd) || realInbox === realCwd) throw refuse(`resolves to ${realInbox}, outside the profile's folder ${realCwd}`);
  return realInbox;
}

/** Whether `/proc/self/fd` shows where an open file is (Linux). */
const PROC_FD = existsSync('/proc/self/fd');

/** Removes `path` only when it is still the file open on `handle` (same dev and inode); never throws. */
async function unlinkIfSame(path: string, handle: FileHandle): Promise<boolean> {
  try {
    const [mine, there] = await Promise.all([handle.stat(), lstat(path)]);
    if (mine.dev !== there.dev || mine.ino !== there.ino) return false;
    await unlink(path);
    return (await handle.stat()).nlink === 0;
  } catch {
    return false;
  }
}

/** Where a new file goes: the folder it is created in (a path, or a folder descriptor's path on Linux) and how it is checked. */
interface Target {
  /** The path to create `<name>` at: `/proc/self/fd/<folder fd>/<name>` on Linux, `<real .inbox>/<name>` elsewhere. */
  at(name: string): string;
  /**
   * Null when the file open on `handle` is `expected` (`<real .inbox>/<name>`), else where it landed
   * and whether it was removed (see the module comment). Never throws.
   */
  misplaced(handle: FileHandle, name: string, expected: string): Promise<{ at: string; removed: boolean } | null>;
  close(): Promise<void>;
}

/**
 * Linux: `.inbox` opened as a folder (O_DIRECTORY|O_NOFOLLOW: a link there fails), checked to be the
 * folder `inboxDir` checked (its real path through `/proc/self/fd`), and every file created through
 * that descriptor, so a name swapped in afterwards cannot redirect the create nor the removal.
 */
async function folderTarget(inbox: string, realInbox: string, changed: (why: string) => AppFailure): Promise<Target> {
  const folder = await openFolderNoFollow(inbox).catch((e: NodeJS.ErrnoException) =>
    Promise.reject(e.code === 'ENOENT' || e.code === 'ENOTDIR' || e.code === 'ELOOP' ? changed(e.code) : e),
  );
  const real = await realpath(`/proc/self/fd/${folder.fd}`).catch(() => null);
  if (real !== realInbox) {
    await folder.close();
    throw changed(`it is now ${real ?? 'a folder Angelia cannot see'}`);
  }
  const via = (name: string): string => `/proc/self/fd/${folder.fd}/${name}`;
  return {
    at: via,
    misplaced: async (handle, name, expected) => {
      const at = await realpath(`/proc/self/fd/${handle.fd}`).catch(() => null);
      if (at === expected) return null;
      return { at: at ?? 'somewhere Angelia cannot see', removed: await unlinkIfSame(via(name), handle) };
    },
    close: () => folder.close(),
  };
}

/**
 * Elsewhere (macOS): files created below the real path of `.inbox`; afterwards `.inbox` must still
 * resolve to that real path and `<real .inbox>/<name>` must be the open file (same dev and inode).
 */
function pathTarget(inbox: string, realInbox: string): Target {
  return {
    at: (name) => join(realInbox, name),
    misplaced: async (handle, name, expected) => {
      const [now, mine, there] = await Promise.all([realpath(inbox).catch(() => null), handle.stat(), lstat(expected).catch(() => null)]);
      if (now === realInbox && there !== null && there.dev === mine.dev && there.ino === mine.ino) return null;
      // No descriptor says where it went: look where `.inbox` leads now, a few times (it may be swapped
      // back and forth), and remove the name there only when it is that very file.
      let removed = false;
      for (let i = 0; i < 20 && !removed; i++) {
        const at = i === 0 ? now : await realpath(inbox).catch(() => null);
        removed = (at !== null && (await unlinkIfSame(join(at, name), handle))) || (await handle.stat()).nlink === 0;
      }
      return { at: now === null ? 'somewhere else (.inbox is gone)' : `somewhere else (.inbox resolved to ${now})`, removed };
    },
    close: () => Promise.resolve(),
  };
}

/**
 * Writes `data` (base64) as a new file named after `name` in `<cwd>/.inbox/` (see the module comment)
 * and returns its absolute path. `cwd` is the profile's folder (absolute). Throws AppFailure
 * `attach-not-base64`, `attach-too-large`, `attach-inbox` (also when `.inbox` was swapped while the
 * file was being created: nothing is written then), `attach-full` (1000 files of that name), or the fs
 * error. `opts.procFd`: false forces the check used where `/proc/self/fd` is missing (macOS), for tests.
 */
export async function attachFile(cwd: string, name: string, data: string, opts: { procFd?: boolean } = {}): Promise<string> {
  const bytes = decodeAttachment(data);
  const dir = await inboxDir(cwd);
  const inbox = join(cwd, INBOX);
  const changed = (why: string): AppFailure =>
    new AppFailure({
      code: 'attach-inbox',
      message: `nothing was attached: ${inbox} changed while the file was being created (${why})`,
      where: inbox,
      fix: "send the file again; if this repeats, something in the profile's folder keeps replacing .inbox",
    });
  const safe = sanitizeName(name);
  const target = (opts.procFd ?? PROC_FD) ? await folderTarget(inbox, dir, changed) : pathTarget(inbox, dir);
  try {
    for (let n = 0; n < 1000; n++) {
      const file = n === 0 ? safe : numbered(safe, n);
      const path = join(dir, file);
      let handle;
      try {
        handle = await createNoFollow(target.at(file), 0o600);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'EEXIST') continue;
        // `.inbox` went missing, or became a link or a file, since it was checked.
        if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP') throw changed(code);
        throw e;
      }
      try {
        const wrong = await target.misplaced(handle, file, path);
        if (wrong !== null)
          throw changed(`an empty file landed in ${wrong.at}, not in ${dir}; ${wrong.removed ? 'it was removed' : 'it could not be removed safely'}`);
        await handle.writeFile(bytes);
      } finally {
        await handle.close();
      }
      return path;
    }
  } finally {
    await target.close();
  }
  throw new AppFailure({ code: 'attach-full', message: `${dir} already holds 1000 files named like ${safe}`, where: dir, fix: 'clear the .inbox folder' });
}
