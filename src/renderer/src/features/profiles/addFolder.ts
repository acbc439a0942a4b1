/**
 * "Add this folder to the profile", as pure functions: the path a failed command's output says it was
 * refused ("Permission denied", "Operation not permitted", "Read-only file system"), the folder to
 * offer for it, and whether the profile already gives that folder (then adding it would not help).
 * A folder that is, holds or lies in Angelia's private state or a Codex home is never offered: no profile
 * can be given it (docs/security-model.md), and the editor would refuse it.
 */
import type { ProfileView } from '../../../../shared/contract';
import { joinPath } from './draft';

/** The messages the sandbox's refusals print. */
const DENIED = /Permission denied|Operation not permitted|Read-only file system/;

/** Quoted ('…', ‘…’, "…", `…'), or a bare absolute path before or after the message. */
const QUOTED = /['‘"`]([^'’"`\n]+)['’"`]/g;
const BARE_BEFORE = /(?:^|\s)((?:\/|~\/)[^\s:'"]*)\s*:\s*(?:Permission denied|Operation not permitted|Read-only file system)/;
const BARE_AFTER = /(?:Permission denied|Operation not permitted|Read-only file system)\s*:\s*((?:\/|~\/)\S*)/;

const looksLikePath = (s: string): boolean => s.startsWith('/') || s.startsWith('~/') || s.startsWith('./') || /^[\w.-]+(\/[\w.-]+)*$/.test(s);

/** A refused path, and whether the output says it is a folder (it was opened or entered, not written in). */
export interface Refusal {
  path: string;
  isFolder: boolean;
}

const FOLDER_OP = /open directory|cd: |scandir|opendir|Is a directory/;

/**
 * The path in the first line of `output` that reports a refusal, made absolute against the command's
 * folder `cwd`; null when no such line names a path.
 */
export function refusedPath(output: string, cwd: string): Refusal | null {
  for (const line of output.split('\n')) {
    if (!DENIED.test(line)) continue;
    const bare = BARE_BEFORE.exec(line) ?? BARE_AFTER.exec(line);
    let found = bare?.[1] ?? null;
    if (!found) {
      for (const m of line.matchAll(QUOTED)) {
        const p = m[1]?.trim() ?? '';
        if (p && looksLikePath(p)) {
          found = p;
          break;
        }
      }
    }
    if (!found) continue;
    const raw = found.replace(/[.,;)]+$/, '');
    const path = raw.startsWith('/') || raw.startsWith('~/') ? joinPath(raw.startsWith('~') ? '~' : '/', raw.replace(/^~?\//, '')) : joinPath(cwd, raw);
    return { path, isFolder: FOLDER_OP.test(line) };
  }
  return null;
}

/**
 * The folder to offer for a refusal: the folder itself when one was opened, else the parent (a refused
 * file is written inside a folder, a new folder is made inside its parent); never the root or the
 * bare home.
 */
export function folderFor(refusal: Refusal): string | null {
  const trimmed = refusal.path.replace(/\/+$/, '') || '/';
  const cut = trimmed.lastIndexOf('/');
  const folder = refusal.isFolder ? trimmed : cut <= 0 ? '/' : trimmed.slice(0, cut);
  if (folder === '/' || folder === '~') return null;
  return folder;
}

function within(path: string, dir: string): boolean {
  const d = dir.endsWith('/') ? dir : `${dir}/`;
  return path === dir || path.startsWith(d);
}

/** True when the profile already gives `folder` (inside its folder or one of its add_dirs). */
export function alreadyGiven(folder: string, profile: Pick<ProfileView, 'cwd' | 'addDirs'> | undefined): boolean {
  if (!profile) return false;
  return [profile.cwd, ...profile.addDirs].some((d) => within(folder, d));
}

/** Angelia's state folder and the Codex homes, as `app:info` names them (absolute paths). */
export interface PrivatePlaces {
  stateDir: string;
  codexHomes: string[];
}

/**
 * Why `folder` can never be added to a profile, as one sentence, or null when it can: it is, holds or
 * lies in Angelia's state folder (all of it but `workspace/`) or a Codex home — the places compile
 * refuses as grants (docs/security-model.md "Filesystem: private by default", "Codex's home").
 */
export function privateFolder(folder: string, places: PrivatePlaces | null | undefined): string | null {
  if (!places) return null;
  const f = folder.replace(/\/+$/, '') || '/';
  const none = 'which no profile can be given (docs/security-model.md)';
  const state = places.stateDir;
  if (within(f, state) && !within(f, `${state}/workspace`)) return `${f} is Angelia's private state, ${none}.`;
  if (within(state, f)) return `${f} holds Angelia's private state (${state}), ${none}.`;
  for (const home of places.codexHomes) {
    if (within(f, home)) return `${f} is ${f === home ? '' : 'in '}a Codex home (${home}): Angelia's private state, ${none}.`;
    if (within(home, f)) return `${f} holds a Codex home (${home}): Angelia's private state, ${none}.`;
  }
  return null;
}

/** The folder to offer for a failed command, or null (no refusal with a path, or already given). */
export function folderToOffer(output: string, cwd: string, profile: Pick<ProfileView, 'cwd' | 'addDirs'> | undefined): string | null {
  const refusal = refusedPath(output, cwd);
  const folder = refusal ? folderFor(refusal) : null;
  return folder && !alreadyGiven(folder, profile) ? folder : null;
}
