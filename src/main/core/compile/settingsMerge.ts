/**
 * `<cwd>/.claude/settings.json` merged (by plan.ts, written by apply.ts): `permissions.deny` and
 * `permissions.additionalDirectories` get what compile wants; every other key is kept as it is. Only
 * entries the previous record lists as Angelia's are removed; a hand-written entry stays, and one that
 * contradicts a deny is a conflict (never "fixed"). A file that does not parse refuses ("fix it by hand
 * first"). Pure.
 */
import { isWithin } from '../instance/paths';
import { parseRule } from './rules';
import type { FileState } from './snapshotTypes';

/** The settings file's path relative to the profile's folder. */
export const SETTINGS_REL = '.claude/settings.json';

/** What compile wants in settings.json, and what the previous record says was Angelia's. */
export interface SettingsWant {
  deny: string[];
  dirs: string[];
}

/** The merge of one settings file. */
export interface SettingsPlan {
  /** The new text, or null when the file stays as it is (or cannot be merged). */
  text: string | null;
  /** True when there is no file yet. */
  created: boolean;
  addedDeny: string[];
  removedDeny: string[];
  addedDirs: string[];
  removedDirs: string[];
  /** Reasons the file cannot be merged, or hand-written entries that contradict a deny. */
  conflicts: string[];
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

function parseCurrent(current: FileState): { data: Json | null; conflict: string | null } {
  const fix = 'fix it by hand first';
  switch (current.state) {
    case 'missing':
      return { data: null, conflict: null };
    case 'link':
      return {
        data: null,
        conflict: `${SETTINGS_REL} is a link (to ${current.target}); compile writes only plain files: replace it with a plain file by hand first`,
      };
    case 'other':
      return { data: null, conflict: `${SETTINGS_REL} is ${current.what}, not a plain file; ${fix}` };
    case 'error':
      return { data: null, conflict: `${SETTINGS_REL} cannot be read (${current.code}); ${fix}` };
    case 'file':
      break;
  }
  if (current.nlink > 1)
    return {
      data: null,
      conflict: `${SETTINGS_REL} has ${current.nlink} hard links; compile writes only files with one link: replace it with a copy by hand first`,
    };
  let data: unknown;
  try {
    data = JSON.parse(current.text);
  } catch (e) {
    return { data: null, conflict: `${SETTINGS_REL} does not parse as JSON (${(e as Error).message}); ${fix}` };
  }
  if (!isObject(data)) return { data: null, conflict: `${SETTINGS_REL} is not a JSON object; ${fix}` };
  const p = data.permissions;
  if (p !== undefined && !isObject(p)) return { data: null, conflict: `${SETTINGS_REL}: "permissions" is not an object; ${fix}` };
  for (const key of ['deny', 'additionalDirectories', 'allow']) {
    const v = isObject(p) ? p[key] : undefined;
    if (v !== undefined && !isStrings(v)) return { data: null, conflict: `${SETTINGS_REL}: "permissions.${key}" is not a list of strings; ${fix}` };
  }
  return { data, conflict: null };
}

function mergeList(existing: string[], want: string[], ours: string[]): { list: string[]; added: string[]; removed: string[] } {
  const stale = ours.filter((x) => !want.includes(x));
  const removed = existing.filter((x) => stale.includes(x));
  const list = existing.filter((x) => !stale.includes(x));
  const added: string[] = [];
  for (const x of want) {
    if (!list.includes(x)) {
      list.push(x);
      added.push(x);
    }
  }
  return { list, added, removed: [...new Set(removed)] };
}

/** Hand-written entries of settings.json that a deny of this profile forbids. */
function contradictions(perm: Json, want: SettingsWant, previous: SettingsWant | null): string[] {
  const out: string[] = [];
  const wantDeny = new Set(want.deny);
  for (const rule of (perm.allow as string[] | undefined) ?? []) {
    if (wantDeny.has(rule)) out.push(`${SETTINGS_REL}: permissions.allow has ${rule}, which this profile denies; remove it by hand`);
  }
  const readDenied = want.deny
    .map((r) => parseRule(r, '/'))
    .filter((r) => r?.tool === 'Read')
    .map((r) => r!.path);
  const ours = new Set([...(previous?.dirs ?? []), ...want.dirs]);
  for (const dir of (perm.additionalDirectories as string[] | undefined) ?? []) {
    if (ours.has(dir)) continue;
    const hit = readDenied.find((d) => isWithin(dir, d));
    if (hit) out.push(`${SETTINGS_REL}: permissions.additionalDirectories has ${dir}, inside the denied ${hit}; remove it by hand`);
  }
  return out;
}

/**
 * Merges `want` into the settings file `current`. `previous` is what the last record says compile
 * wrote (null: nothing is Angelia's). Returns the new text (null when unchanged or on a conflict).
 */
export function mergeSettings(current: FileState, want: SettingsWant, previous: SettingsWant | null): SettingsPlan {
  const empty = { addedDeny: [], removedDeny: [], addedDirs: [], removedDirs: [] };
  const { data, conflict } = parseCurrent(current);
  if (conflict) return { text: null, created: false, ...empty, conflicts: [conflict] };
  const created = data === null;
  const obj: Json = data ?? {};
  const perm: Json = isObject(obj.permissions) ? obj.permissions : {};
  const conflicts = contradictions(perm, want, previous);
  const deny = mergeList((perm.deny as string[] | undefined) ?? [], want.deny, previous?.deny ?? []);
  const dirs = mergeList((perm.additionalDirectories as string[] | undefined) ?? [], want.dirs, previous?.dirs ?? []);
  const changed = created || deny.added.length + deny.removed.length + dirs.added.length + dirs.removed.length > 0;
  let text: string | null = null;
  if (changed) {
    const nextPerm: Json = { ...perm, deny: deny.list };
    if (dirs.list.length > 0 || perm.additionalDirectories !== undefined) nextPerm.additionalDirectories = dirs.list;
    text = `${JSON.stringify({ ...obj, permissions: nextPerm }, null, 2)}\n`;
  }
  return {
    text,
    created,
    addedDeny: deny.added,
    removedDeny: deny.removed,
    addedDirs: dirs.added,
    removedDirs: dirs.removed,
    conflicts,
  };
}
