/**
 * The one-time move of Angelia's private files from the top of the state folder into `<state>/private/`
 * (instance/paths.ts PRIVATE_DIR says why: a file Angelia rewrites or creates next to a named deny is
 * readable to commands already running, measured on codex 0.169.0). Run by every entry that opens these
 * files, before it opens them: `Orchestrator.create` (the app, `angelia run`, `serve`, `demo`) and
 * `angelia export`.
 *
 * Each of PRIVATE_FILES found at `<state>/<name>` is moved to its place in `<state>/private/` (the paths
 * of InstancePaths). A move never overwrites: the file is hard-linked under its new name (link(2) fails
 * when that name exists, so a copy another process made meanwhile is never replaced), then the old name
 * is removed. A move interrupted between the two leaves both names on ONE file; the next run sees that
 * (same device and inode) and only removes the old name. On a filesystem without hard links the file
 * is renamed instead, after checking that the new name is free.
 *
 * Left alone, never moved and never a conflict: an old name holding an empty regular file (nothing to
 * lose; codex 0.169.0 puts exactly such a file at a denied path that is missing while an approved
 * escalation runs, measured, and removes it afterwards), and the sessions lock `sessions.json.lock` (it
 * exists only while a process writes). When both an old and a new copy with content exist, nothing at
 * all is moved and the caller gets an error naming both files and the fix: Angelia does not guess which
 * one holds the chats.
 */
import { linkSync, lstatSync, mkdirSync, renameSync, unlinkSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { AppFailure } from '../../../shared/result';
import { PRIVATE_FILES, type InstancePaths } from './paths';

/** One file moved: from its old path at the top of the state folder to its path in `<state>/private/`. */
export interface MovedFile {
  from: string;
  to: string;
}

/** What `migratePrivateFiles` did: the files moved (empty when there was nothing to move). */
export interface MigrationReport {
  moved: MovedFile[];
}

type PrivateName = (typeof PRIVATE_FILES)[number];

/** The paths of the instance the migration touches. */
export type MigrationPaths = Pick<InstancePaths, 'stateDir' | 'privateDir' | 'sessionsFile' | 'childrenFile' | 'auditLog' | 'apiToken'>;

/** The new path of each private file, taken from InstancePaths (so nothing here repeats a layout). */
function newPaths(paths: MigrationPaths): Record<PrivateName, string> {
  return {
    'sessions.json': paths.sessionsFile,
    'sessions.json.bak': `${paths.sessionsFile}.bak`,
    'children.json': paths.childrenFile,
    'audit.jsonl': paths.auditLog,
    'api.token': paths.apiToken,
  };
}

function lstatOrNull(p: string): Stats | null {
  try {
    return lstatSync(p);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

function sameFile(a: Stats, b: Stats): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

function unlinkIfThere(p: string): void {
  try {
    unlinkSync(p);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
}

/** The error for old and new copies that both hold something (nothing has been moved). */
function conflictError(pairs: MovedFile[], privateDir: string): AppFailure {
  const both = pairs.map((p) => `${p.from} and ${p.to}`).join('; ');
  const moves = pairs.map((p) => `mv '${p.from}' '${p.to}.old'`).join(' && ');
  return new AppFailure({
    code: 'state-layout',
    message: `Angelia keeps its private files in ${privateDir} now, but an old copy at the top of the state folder and a new copy in ${privateDir} both exist (${both}), so nothing was moved`,
    where: pairs.map((p) => p.from).join(', '),
    fix: `stop every Angelia process, compare each pair and keep the file you want at its new path; move the other one into ${privateDir} under another name (to keep the new copies: ${moves}), then start again`,
  });
}

/**
 * Moves the private files of an instance from the top of its state folder into `paths.privateDir` once
 * (see the module comment). Creates `privateDir` (mode 700) only when there is something to move.
 * Synchronous; returns what it moved. Throws AppFailure `state-layout` when an old and a new copy both
 * hold something (naming both files; nothing is moved then) or when `privateDir` exists but is not a
 * folder (checked first, whether or not there is anything to move); the fs error when a file cannot be
 * read, linked or removed.
 */
export function migratePrivateFiles(paths: MigrationPaths): MigrationReport {
  const notFolder = (): AppFailure =>
    new AppFailure({
      code: 'state-layout',
      message: `${paths.privateDir} is not a folder, so Angelia cannot keep its private files there`,
      where: paths.privateDir,
      fix: 'move it out of the state folder (Angelia creates the folder itself), then start again',
    });
  const dir = lstatOrNull(paths.privateDir);
  if (dir !== null && !dir.isDirectory()) throw notFolder();
  const targets = newPaths(paths);
  const moves: MovedFile[] = [];
  const leftovers: string[] = [];
  const conflicts: MovedFile[] = [];
  for (const name of PRIVATE_FILES) {
    const from = join(paths.stateDir, name);
    const to = targets[name];
    const old = lstatOrNull(from);
    if (old === null || (old.isFile() && old.size === 0)) continue;
    const now = lstatOrNull(to);
    if (now === null) moves.push({ from, to });
    else if (sameFile(old, now)) leftovers.push(from);
    else conflicts.push({ from, to });
  }
  if (conflicts.length > 0) throw conflictError(conflicts, paths.privateDir);
  for (const from of leftovers) unlinkIfThere(from);
  if (moves.length === 0) return { moved: [] };

  try {
    mkdirSync(paths.privateDir, { recursive: true, mode: 0o700 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST' || (e as NodeJS.ErrnoException).code === 'ENOTDIR') throw notFolder();
    throw e;
  }
  if (!lstatSync(paths.privateDir).isDirectory()) throw notFolder();
  const moved: MovedFile[] = [];
  for (const m of moves) {
    try {
      linkSync(m.from, m.to);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') continue; // another Angelia process moved it meanwhile
      if (code === 'EEXIST') {
        const old = lstatOrNull(m.from);
        const now = lstatOrNull(m.to);
        if (old === null) continue;
        if (now !== null && sameFile(old, now)) {
          unlinkIfThere(m.from);
          continue;
        }
        throw conflictError([m], paths.privateDir);
      }
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'EMLINK') throw e;
      // No hard links here: rename, once the new name is known to be free.
      if (lstatOrNull(m.to) !== null) throw conflictError([m], paths.privateDir);
      renameSync(m.from, m.to);
      moved.push(m);
      continue;
    }
    unlinkIfThere(m.from);
    moved.push(m);
  }
  return { moved };
}
