/**
 * send-media path checks (docs/security-model.md "Files the API copies"), applied once for every caller,
 * and the private copy.
 *
 * A path is taken as given when something exists there, else trimmed of quotes and trailing punctuation
 * (mediaPathAsMeant); `~/` is expanded, the path required absolute, and checked
 * twice — as given (normalised) and as its real path (symlinks followed) — against: the system folders
 * `/etc /proc /sys /dev /var/db /private/etc /private/var/db`; every credential location under home
 * (compile/floor.ts HOME_PRIVATE, plus `~/.claude ~/.grok ~/.pi ~/.codex ~/.config/git`,
 * `~/Library/Application Support|Containers|Group Containers`) and `CODEX_HOME`; Angelia's state folders
 * (the configured one, `~/.angelia` and `ANGELIA_STATE_DIR`) except their `workspace/`; any folder segment
 * `secrets .secrets credentials keychains .gnupg .ssh`; and credential file names (`.env*`, `.netrc`,
 * `id_*`, `*.pem`, `*token*.json`, `auth.json`, …). Comparisons are case- and Unicode-folded (NFKC,
 * lower case). A file that is one of the private files by identity (device and inode: a hard link to
 * `<state>/env` or `<state>/private/api.token` counts), or that has more than one hard link (its other names cannot be checked), is
 * refused. For an agent caller, the profile's `Read` deny rules apply too. Then the file must be a
 * regular, non-empty file of at most `MEDIA_MAX_BYTES`.
 *
 * The copy is taken through ONE descriptor (opened with O_NOFOLLOW on the last component): what it has
 * open is checked again — its identity and size by fstat, and every check above on its real path
 * (`/proc/self/fd/N` on Linux) — and the bytes are read from it, so a folder or file swapped for a link
 * after the path check is never what is copied (docs/security-model.md "Files the API copies
 * (send-media)"). The copy goes into `<state>/media/<uuid>/<name>` (folders 700, file 600).
 */
import { randomUUID } from 'node:crypto';
import type { Stats } from 'node:fs';
import { lstat, mkdir, readlink, realpath, stat, writeFile } from 'node:fs/promises';
import { basename, isAbsolute, join, normalize } from 'node:path';
import { HOME_PRIVATE_DIRS, HOME_PRIVATE_DIRS_MACOS, HOME_PRIVATE_FILES, STATE_PRIVATE } from '../core/compile/floor';
import { parseRule } from '../core/compile/rules';
import { readNoFollow } from '../core/instance/noFollow';
import { expandHome, isHomePath } from '../../shared/homePath';
import { isWithin, PRIVATE_FILES, privateFile } from '../core/instance/paths';
import { MAX_ATTACH_BYTES, sanitizeName } from '../core/profiles/attach';
import { ApiError } from './errors';

/** The largest file send-media takes: 25 MiB (as a file dropped into a chat). */
export const MEDIA_MAX_BYTES = MAX_ATTACH_BYTES;

/** The refusal every location check gives (the reason is not shown: it would map the machine). */
export const LOCATION_REFUSED = 'refusing to send from that location';
/** The refusal of a file the asking profile may not read. */
export const READ_DENIED = 'this profile may not read that file';

/** System folders nothing is sent from. */
export const SYSTEM_DIRS = ['/etc', '/proc', '/sys', '/dev', '/var/db', '/private/etc', '/private/var/db'];
/** Folders under home nothing is sent from, besides HOME_PRIVATE (other tools' state). */
export const HOME_REFUSED_DIRS = [
  '.claude',
  '.grok',
  '.pi',
  '.codex',
  '.config/git',
  'Library/Application Support',
  'Library/Containers',
  'Library/Group Containers',
];
/** Folder names that refuse everything below them, wherever they are. */
export const REFUSED_SEGMENTS = ['secrets', '.secrets', 'credentials', 'keychains', '.gnupg', '.ssh'];
/** File names (folded) that are never sent. */
export const REFUSED_NAMES: readonly RegExp[] = [
  /^\.env/,
  /^\.netrc$/,
  /^\.npmrc$/,
  /^\.pypirc$/,
  /^\.pgpass$/,
  /^\.vault-token$/,
  /^\.git-credentials$/,
  /^\..*_history$/,
  /^credentials(\.toml)?$/,
  /^id_/,
  /\.(pem|key|p12|pfx|keystore|jks)$/,
  /token.*\.json$/,
  /^auth\.json$/,
  /credentials.*\.json$/,
];

/** Where the checks look: home, every state folder to protect, Codex's home. All absolute. */
export interface MediaPlaces {
  home: string;
  /** The configured state folder first (its `media/` receives the copies), then `~/.angelia`, `ANGELIA_STATE_DIR`. */
  stateDirs: string[];
  codexHome: string;
}

/**
 * A file that passed the checks: its real path, its name, size and identity, and what it was checked
 * against (readChecked checks the open descriptor against the same).
 */
export interface CheckedMedia {
  path: string;
  name: string;
  size: number;
  dev: number;
  ino: number;
  places: MediaPlaces;
  readDeny: readonly string[] | null;
  /** The path as asked for (normalised), matched against the Read rules as well. */
  given: string;
}

/** Case- and Unicode-folded form of a path or name. */
export function fold(s: string): string {
  return s.normalize('NFKC').toLowerCase();
}

function under(p: string, roots: readonly string[]): boolean {
  const fp = fold(p);
  return roots.some((r) => isWithin(fp, fold(r)));
}

async function withReal(paths: readonly string[]): Promise<string[]> {
  const real = await Promise.all(paths.map((p) => realpath(p).catch(() => null)));
  return [...new Set([...paths, ...real.filter((r): r is string => r !== null)])];
}

/** Every refused folder for `places` (lexical and, where they exist, real paths). */
async function refusedRoots(places: MediaPlaces): Promise<{ roots: string[]; stateRoots: string[]; workspaces: string[] }> {
  const h = (rel: string): string => join(places.home, rel);
  const roots = await withReal([
    ...SYSTEM_DIRS,
    ...[...HOME_PRIVATE_DIRS, ...HOME_PRIVATE_DIRS_MACOS, ...HOME_PRIVATE_FILES, ...HOME_REFUSED_DIRS].map(h),
    places.codexHome,
  ]);
  return { roots, stateRoots: await withReal(places.stateDirs), workspaces: await withReal(places.stateDirs.map((s) => join(s, 'workspace'))) };
}

/**
 * The private files compared by identity: state private files (at the top, under their old names too,
 * and in `<state>/private/`), home credential files, Codex's login.
 */
function privateFiles(places: MediaPlaces): string[] {
  return [
    ...places.stateDirs.flatMap((s) => STATE_PRIVATE.map((rel) => join(s, rel))),
    ...places.stateDirs.flatMap((s) => PRIVATE_FILES.map((name) => privateFile(s, name))),
    ...HOME_PRIVATE_FILES.map((rel) => join(places.home, rel)),
    join(places.codexHome, 'auth.json'),
  ];
}

/**
 * Null when `p` (absolute, normalised) passes the location checks, else a short reason (for tests and
 * logs; callers are told only LOCATION_REFUSED).
 */
export async function locationReason(p: string, places: MediaPlaces): Promise<string | null> {
  const { roots, stateRoots, workspaces } = await refusedRoots(places);
  if (under(p, roots)) return 'a system or credential location';
  if (under(p, stateRoots) && !under(p, workspaces)) return "Angelia's state";
  const parts = p.split('/').filter(Boolean).map(fold);
  const name = parts.pop() ?? '';
  if (parts.some((seg) => REFUSED_SEGMENTS.includes(seg))) return 'a secrets folder';
  if (REFUSED_NAMES.some((re) => re.test(fold(name)))) return 'a credential file name';
  return null;
}

/** `p` with a leading `~` or `~/` expanded to `home` (shared/homePath.ts) and then normalised; anything else as it is. */
function expandHomeHere(p: string, home: string): string {
  return isHomePath(p) ? join(expandHome(p, home)) : p;
}

/**
 * The path as written, cleaned: leading quotes, and trailing quotes and punctuation in any order
 * (`"~/a.pdf".`, `"~/a.pdf",`), trimmed; `~/` expanded. Not yet checked.
 */
export function cleanMediaPath(raw: string, home: string): string {
  return expandHomeHere(
    raw
      .trim()
      .replace(/^["'`]+/, '')
      .replace(/["'`.,;:!?]+$/, '')
      .trim(),
    home,
  );
}

/**
 * The path send-media checks (README: quotes and trailing punctuation trimmed), trimmed only as much
 * as needed: the path exactly as given (only `~/` expanded) when something exists there — a file named
 * `ok.txt.` is sent as itself, not as `ok.txt` —, else without its surrounding quotes (and punctuation
 * after the closing quote) when that exists (`'/a/ok.txt.'`), else fully trimmed (cleanMediaPath), for
 * a path copied out of a sentence (`"~/report.pdf".`). Not yet checked.
 */
export async function mediaPathAsMeant(raw: string, home: string): Promise<string> {
  const cleaned = cleanMediaPath(raw, home);
  const candidates = [
    expandHomeHere(raw, home),
    expandHomeHere(
      raw
        .trim()
        .replace(/^["'`]+/, '')
        .replace(/["'`]+[.,;:!?]*$/, ''),
      home,
    ),
  ];
  for (const p of new Set(candidates)) {
    if (p === cleaned) break;
    if (
      isAbsolute(p) &&
      (await lstat(p).then(
        () => true,
        () => false,
      ))
    )
      return p;
  }
  return cleaned;
}

function isAccessError(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException).code;
  return code === 'EACCES' || code === 'EPERM';
}

/**
 * The checks on what a path resolved to (module comment): `real` (no symbolic link in it) and the
 * file's status `st` (of `real`, or of an open descriptor). `given`: the path as asked for, also matched
 * against the Read rules, or null. Throws the ApiError of the first check that refuses.
 */
async function checkResolved(real: string, st: Stats, given: string | null, places: MediaPlaces, readDeny: readonly string[] | null): Promise<void> {
  const refuse = (): ApiError => new ApiError(403, 'media-refused', LOCATION_REFUSED);
  if (await locationReason(real, places)) throw refuse();
  const ids = await Promise.all(privateFiles(places).map((f) => stat(f).catch(() => null)));
  if (ids.some((s) => s !== null && s.dev === st.dev && s.ino === st.ino)) throw refuse();
  if (readDeny) {
    const rules = readDeny
      .map((r) => parseRule(r, places.home))
      .filter((r) => r?.tool === 'Read')
      .map((r) => r!.path);
    if ((given !== null && under(given, rules)) || under(real, await withReal(rules))) throw new ApiError(403, 'media-denied', READ_DENIED);
  }
  if (!st.isFile()) throw new ApiError(403, 'media-kind', 'only regular files can be sent');
  if (st.nlink > 1) throw new ApiError(403, 'media-kind', 'the file has several hard links, so where else it lives cannot be checked; send a copy');
  if (st.size === 0) throw new ApiError(400, 'media-empty', 'the file is empty');
  if (st.size > MEDIA_MAX_BYTES)
    throw new ApiError(413, 'media-too-large', `the file is ${(st.size / 1048576).toFixed(1)} MiB; at most ${MEDIA_MAX_BYTES / 1048576} MiB can be sent`);
}

/**
 * Runs every check of the module comment on `raw`, by path: the early answer (404, 413 … before anything
 * is copied). What is read later is checked again on the open descriptor (readChecked), so a folder or
 * file swapped after this check is never copied. `readDeny`: the asking agent's deny rules
 * (settings.json syntax; only `Read(…)` rules count), or null for the owner. Throws ApiError: 400
 * (`media-path`: not absolute), 403 (`media-refused` LOCATION_REFUSED, `media-denied` READ_DENIED,
 * `media-kind`: not a regular file or hard-linked), 404 (`media-missing`), 413 (`media-too-large`),
 * 400 (`media-empty`).
 */
export async function checkMedia(raw: string, places: MediaPlaces, readDeny: readonly string[] | null): Promise<CheckedMedia> {
  const cleaned = await mediaPathAsMeant(raw, places.home);
  if (!isAbsolute(cleaned)) throw new ApiError(400, 'media-path', 'the path must be absolute (or start with ~/)');
  const given = normalize(cleaned).replace(/(.)\/+$/, '$1');
  const refuse = (): ApiError => new ApiError(403, 'media-refused', LOCATION_REFUSED);
  if (await locationReason(given, places)) throw refuse();
  let real: string;
  try {
    real = await realpath(given);
  } catch (e) {
    if (isAccessError(e)) throw refuse();
    throw new ApiError(404, 'media-missing', 'no such file');
  }
  if (await locationReason(real, places)) throw refuse();
  let st: Stats;
  try {
    st = await lstat(real);
  } catch {
    throw new ApiError(404, 'media-missing', 'no such file');
  }
  await checkResolved(real, st, given, places, readDeny);
  return { path: real, name: basename(real), size: st.size, dev: st.dev, ino: st.ino, places, readDeny, given };
}

/**
 * The real path of what descriptor `fd` has open, or null when it cannot be known race-free. Linux:
 * the kernel's own name of the open file, `readlink /proc/self/fd/<fd>` (no symbolic link in it; null
 * for a deleted file, which the nlink check refuses anyway, or one that is not a file path). Elsewhere
 * (macOS has no /proc, and Node exposes no F_GETPATH): `path` resolved again, taken only when it names
 * the same file as the descriptor (`st`: its fstat).
 */
async function openFilePath(fd: number, path: string, st: Stats): Promise<string | null> {
  if (process.platform === 'linux') {
    const named = await readlink(`/proc/self/fd/${fd}`).catch(() => null);
    return named !== null && named.startsWith('/') && !named.endsWith(' (deleted)') ? named : null;
  }
  const real = await realpath(path).catch(() => null);
  const now = real === null ? null : await stat(real).catch(() => null);
  return now !== null && now.dev === st.dev && now.ino === st.ino ? real : null;
}

/**
 * Reads the checked file through ONE descriptor and returns its bytes: opened once (O_NOFOLLOW on the
 * last component, O_NONBLOCK and O_NOCTTY so no FIFO or terminal can hold it), then what is open —
 * its fstat and its real path (openFilePath) — must be the file checked (device, inode) and pass every
 * check of checkMedia again (location, private files, the caller's Read rules, one link, size), and the
 * bytes come from that same descriptor. Throws ApiError 409 `media-changed` when it is not the file
 * checked, or the 403 of the check that refuses it.
 */
export async function readChecked(media: CheckedMedia): Promise<Buffer> {
  const changed = (): ApiError => new ApiError(409, 'media-changed', 'the file changed while it was being sent; send it again');
  // instance/noFollow.ts: one open, the kind, link count and size checked by fstat, bytes from that descriptor.
  const read = await readNoFollow(media.path, {
    noCtty: true,
    oneLink: true,
    maxBytes: MEDIA_MAX_BYTES,
    verify: async (handle, st) => {
      if (st.dev !== media.dev || st.ino !== media.ino) throw changed();
      const opened = await openFilePath(handle.fd, media.path, st);
      if (opened === null) throw changed();
      await checkResolved(opened, st, media.given, media.places, media.readDeny);
    },
  });
  if (read.kind !== 'ok' || read.data.length === 0) throw changed();
  return read.data;
}

/**
 * The private copy of a checked file: `<stateDir>/media/<uuid>/<name>` (folders 700, file 600, never
 * over an existing file), `name` = the sanitised `fileName` or the file's own name. Answers its path.
 */
export async function snapshotMedia(media: CheckedMedia, stateDir: string, fileName?: string): Promise<{ path: string; name: string; data: Buffer }> {
  const data = await readChecked(media);
  const name = sanitizeName(fileName ?? media.name);
  const dir = join(stateDir, 'media', randomUUID());
  await mkdir(join(stateDir, 'media'), { recursive: true, mode: 0o700 });
  await mkdir(dir, { mode: 0o700 });
  const path = join(dir, name);
  await writeFile(path, data, { mode: 0o600, flag: 'wx' });
  return { path, name, data };
}
