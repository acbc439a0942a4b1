/**
 * Skill links (written by compile): one symlink per allowed skill in `<cwd>/.agents/skills/<name>`
 * (where Codex looks for a project's skills). Link text is relative when the target and the profile
 * share a folder below home (so a cloned workspace still works), absolute otherwise. Only links the
 * previous record lists as Angelia's are replaced or removed; anything else at a skill's name is a
 * conflict, and so is a denied skill that is installed (a deny rule does not stop a skill typed as
 * `/name`). Pure.
 */
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { isWithin } from '../instance/paths';
import type { LoadedTable, ResolvedProfile } from '../table/load';
import { allowedCapabilities, deniedCapabilities } from '../table/types';
import type { EntryState, ProfileSnapshot } from './snapshotTypes';

/** The skills folder relative to the profile's folder. */
export const SKILLS_REL = '.agents/skills';

/** One link operation, relative to `<real cwd>/.agents/skills`. */
export interface LinkOp {
  op: 'create' | 'replace' | 'remove';
  name: string;
  /** The link text to write (create / replace). */
  text?: string;
}

/** The skill part of a plan. */
export interface SkillPlan {
  ops: LinkOp[];
  /** Skill name → target folder, for the record (the links Angelia keeps). */
  links: Record<string, string>;
  /** Plan lines for changes, in order (`+ link …`, `~ link …`, `- link …`). */
  lines: Array<{ kind: '+' | '-' | '~'; text: string }>;
  conflicts: string[];
  notes: string[];
}

function commonDir(a: string, b: string): string {
  const pa = a.split(sep);
  const pb = b.split(sep);
  let i = 0;
  while (i < pa.length && i < pb.length && pa[i] === pb[i]) i++;
  return pa.slice(0, i).join(sep) || sep;
}

/**
 * The link text for a link in folder `linkDir` to `target`: relative when both lie in one folder
 * strictly below `home`, absolute otherwise.
 */
export function linkText(linkDir: string, target: string, home: string): string {
  const shared = commonDir(linkDir, target);
  return shared !== home && isWithin(shared, home) ? relative(linkDir, target) : target;
}

/** Where a link's text points, read from the folder that holds it. */
function pointsTo(linkDir: string, text: string): string {
  return isAbsolute(text) ? resolve(text) : resolve(linkDir, text);
}

function isOurs(entry: EntryState, linkDir: string, recorded: string | undefined, home: string): boolean {
  if (entry.state !== 'link' || recorded === undefined) return false;
  return entry.target === recorded || pointsTo(linkDir, entry.target) === recorded || entry.target === linkText(linkDir, recorded, home);
}

/**
 * Plans the skill links of `profile`. `previous` is the record's `links` (null: none are Angelia's);
 * `userSkills` are folders installed user-wide (`$CODEX_HOME/skills/*`, `~/.agents/skills/*`).
 */
export function planSkills(
  table: Pick<LoadedTable, 'capabilities'>,
  profile: ResolvedProfile,
  snap: ProfileSnapshot,
  home: string,
  previous: Record<string, string> | null,
  userSkills: readonly string[],
): SkillPlan {
  const plan: SkillPlan = { ops: [], links: {}, lines: [], conflicts: [], notes: [] };
  const allowed = allowedCapabilities(table, profile).flatMap((c) => (c.kind === 'skill' ? [c] : []));
  const denied = deniedCapabilities(table, profile).flatMap((c) => (c.kind === 'skill' ? [c] : []));
  for (const dir of ['.agents', '.agents/skills'] as const) {
    const s = snap.dirs[dir];
    if (s.state === 'link' || s.state === 'other')
      plan.conflicts.push(
        `${dir} is ${s.state === 'link' ? `a link (to ${s.target})` : 'not a folder'}; compile writes only into plain folders: replace it with a folder by hand`,
      );
  }
  if (plan.conflicts.length > 0) return plan;
  const real = snap.realCwd ?? profile.cwd;
  const linkDir = join(real, SKILLS_REL);
  const prev = previous ?? {};
  const entry = (name: string): EntryState => snap.skills[name] ?? { state: 'missing' };

  for (const cap of allowed) {
    const target = snap.skillTargets[cap.path] ?? null;
    const at = `${SKILLS_REL}/${cap.name}`;
    if (target === null) {
      plan.conflicts.push(`skill ${cap.name}: its folder ${cap.path} does not exist; create it or correct capabilities.${cap.name}.path`);
      continue;
    }
    const text = linkText(linkDir, target, home);
    const e = entry(cap.name);
    if (e.state === 'missing') {
      plan.ops.push({ op: 'create', name: cap.name, text });
      plan.lines.push({ kind: '+', text: `link ${at} -> ${text}` });
    } else if (e.state === 'link' && (pointsTo(linkDir, e.target) === target || pointsTo(linkDir, e.target) === cap.path)) {
      if (e.target !== text) {
        plan.ops.push({ op: 'replace', name: cap.name, text });
        plan.lines.push({ kind: '~', text: `link ${at} -> ${text} (was ${e.target})` });
      }
    } else if (isOurs(e, linkDir, prev[cap.name], home)) {
      plan.ops.push({ op: 'replace', name: cap.name, text });
      plan.lines.push({ kind: '~', text: `link ${at} -> ${text} (was ${e.state === 'link' ? e.target : '?'})` });
    } else {
      const found = e.state === 'link' ? `a link to ${e.target}` : e.state === 'dir' ? 'a folder' : 'a file';
      plan.conflicts.push(`${at} is ${found}, not Angelia's link to ${cap.path}; remove it by hand or rename capability ${cap.name}`);
      continue;
    }
    plan.links[cap.name] = cap.path;
  }

  const removing = new Set<string>();
  for (const [name, recorded] of Object.entries(prev)) {
    if (allowed.some((c) => c.name === name)) continue;
    const e = entry(name);
    if (isOurs(e, linkDir, recorded, home)) {
      plan.ops.push({ op: 'remove', name });
      plan.lines.push({ kind: '-', text: `link ${SKILLS_REL}/${name}` });
      removing.add(name);
    } else if (e.state !== 'missing') {
      plan.notes.push(`${SKILLS_REL}/${name} was Angelia's link but has been changed by hand; it is left in place`);
    }
  }

  for (const cap of denied) {
    const denyReason = `a deny rule does not stop a skill typed as /${cap.name}`;
    for (const [name, e] of Object.entries(snap.skills)) {
      if (removing.has(name)) continue;
      const hit = name === cap.name || (e.state === 'link' && pointsTo(linkDir, e.target) === (snap.skillTargets[cap.path] ?? cap.path));
      if (hit) plan.conflicts.push(`denied skill ${cap.name} is installed at ${SKILLS_REL}/${name} (${denyReason}); remove it by hand`);
    }
    for (const dir of userSkills) {
      if (basename(dir) === cap.name) plan.conflicts.push(`denied skill ${cap.name} is installed user-wide at ${dir} (${denyReason}); remove it there`);
    }
  }
  const unfiltered = userSkills.filter((d) => !denied.some((c) => c.name === basename(d)));
  if (unfiltered.length > 0) {
    plan.notes.push(
      `skills installed user-wide reach every profile and are not filtered: ${unfiltered.map((d) => `${basename(d)} (${dirname(d)})`).join(', ')}`,
    );
  }
  return plan;
}
