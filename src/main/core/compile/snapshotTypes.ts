/**
 * The shapes of what compile finds on disk for one profile (snapshot.ts reads them, plan.ts decides
 * over them). Apart from snapshot.ts so that the modules whose names snapshot.ts reads (claudeMd.ts,
 * settingsMerge.ts, skillLinks.ts) can use the shapes without an import cycle.
 */

/** One file as found: a plain file (with its text), a link, something else, absent, or unreadable. */
export type FileState =
  | { state: 'missing' }
  | { state: 'file'; text: string; nlink: number; mode: number }
  | { state: 'link'; target: string }
  | { state: 'other'; what: string }
  | { state: 'error'; code: string };

/** One name in a folder: absent, a link (with its text), a folder, or something else. */
export type EntryState = { state: 'missing' } | { state: 'link'; target: string } | { state: 'dir' } | { state: 'other' };

/** The files of one profile that compile reads or writes. Paths are absolute. */
export interface ProfileSnapshot {
  profile: string;
  /** The real path of the profile's folder (links resolved), or null when it cannot be resolved. */
  realCwd: string | null;
  /** `.claude`, `.agents`, `.agents/skills` inside the profile (a link there is a conflict). */
  dirs: Record<'.claude' | '.agents' | '.agents/skills', EntryState>;
  settings: FileState;
  record: FileState;
  claudeMd: FileState;
  agentsMd: boolean;
  /** Every name in `.agents/skills` and what it is. */
  skills: Record<string, EntryState>;
  /** For each skill folder the table names: its real path, or null when it does not exist. */
  skillTargets: Record<string, string | null>;
  /** The launch guard in the state folder. */
  guard: FileState;
  /** Whether `<workspace>/_common` exists (compile creates it for a profile given it). */
  commonExists: boolean;
}
