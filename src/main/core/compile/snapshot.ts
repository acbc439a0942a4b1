/**
 * What is on disk for one profile before a compile (the effectful half of the plan: plan.ts is pure
 * over this snapshot). Nothing is written. Links are read, never followed, except to learn whether a
 * skill's target exists and where it really is.
 */
import { lstat, readdir, readFile, readlink, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { LoadedTable, ResolvedProfile } from '../table/load';
import { allowedCapabilities, deniedCapabilities } from '../table/types';
import { CLAUDE_MD, AGENTS_MD } from './claudeMd';
import type { CompileFacts } from './facts';
import type { EntryState, FileState, ProfileSnapshot } from './snapshotTypes';
import { guardPath } from './guardFile';
import { RECORD_REL } from './record';
import { SETTINGS_REL } from './settingsMerge';
import { SKILLS_REL } from './skillLinks';

export type { EntryState, FileState, ProfileSnapshot } from './snapshotTypes';

function what(s: { isDirectory(): boolean; isFIFO(): boolean; isSocket(): boolean }): string {
  return s.isDirectory() ? 'a folder' : s.isFIFO() ? 'a FIFO' : s.isSocket() ? 'a socket' : 'not a plain file';
}

/** The state of the file at `path` (never follows a link; never opens a FIFO). */
export async function fileState(path: string): Promise<FileState> {
  try {
    const s = await lstat(path);
    if (s.isSymbolicLink()) return { state: 'link', target: await readlink(path) };
    if (!s.isFile()) return { state: 'other', what: what(s) };
    return { state: 'file', text: await readFile(path, 'utf8'), nlink: s.nlink, mode: s.mode & 0o7777 };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? String(e);
    return code === 'ENOENT' || code === 'ENOTDIR' ? { state: 'missing' } : { state: 'error', code };
  }
}

async function entryState(path: string): Promise<EntryState> {
  try {
    const s = await lstat(path);
    if (s.isSymbolicLink()) return { state: 'link', target: await readlink(path) };
    return s.isDirectory() ? { state: 'dir' } : { state: 'other' };
  } catch {
    return { state: 'missing' };
  }
}

async function realOrNull(path: string): Promise<string | null> {
  try {
    await stat(path);
    return await realpath(path);
  } catch {
    return null;
  }
}

/**
 * Reads the snapshot of `profile` (see ProfileSnapshot). Skill folders read are those the profile is
 * given or denied. Errors reading a file are kept in its FileState, never thrown.
 */
export async function snapshotProfile(
  table: Pick<LoadedTable, 'capabilities'>,
  profile: ResolvedProfile,
  facts: Pick<CompileFacts, 'stateDir' | 'workspace'>,
): Promise<ProfileSnapshot> {
  const cwd = profile.cwd;
  const dirs = {
    '.claude': await entryState(join(cwd, '.claude')),
    '.agents': await entryState(join(cwd, '.agents')),
    '.agents/skills': await entryState(join(cwd, SKILLS_REL)),
  };
  const skills: Record<string, EntryState> = {};
  if (dirs['.agents/skills'].state === 'dir') {
    const names = await readdir(join(cwd, SKILLS_REL)).catch(() => [] as string[]);
    for (const name of names.sort()) skills[name] = await entryState(join(cwd, SKILLS_REL, name));
  }
  const skillTargets: Record<string, string | null> = {};
  for (const cap of [...allowedCapabilities(table, profile), ...deniedCapabilities(table, profile)]) {
    if (cap.kind === 'skill') skillTargets[cap.path] = await realOrNull(cap.path);
  }
  return {
    profile: profile.name,
    realCwd: await realOrNull(cwd),
    dirs,
    settings: await fileState(join(cwd, SETTINGS_REL)),
    record: await fileState(join(cwd, RECORD_REL)),
    claudeMd: await fileState(join(cwd, CLAUDE_MD)),
    agentsMd: (await entryState(join(cwd, AGENTS_MD))).state !== 'missing',
    skills,
    skillTargets,
    guard: await fileState(guardPath(facts.stateDir, profile.name)),
    commonExists: (await entryState(join(facts.workspace, '_common'))).state === 'dir',
  };
}
