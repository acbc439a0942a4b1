/**
 * The compile plan of one profile (docs/architecture.md flow (a) step 3): a PURE function of the
 * table, the facts of the machine, a snapshot of the profile's files (snapshot.ts) and the time. It
 * says what `--write` would change — skill links, `.claude/settings.json`, CLAUDE.md's managed block,
 * `_common/`, the compiled record and the launch guard — as plan lines, and holds the exact contents
 * apply.ts writes. Any conflict refuses the whole profile.
 */
import { toAppError } from '../../../shared/result';
import type { LoadedTable } from '../table/load';
import { blockLines, CLAUDE_MD, duplicateNotes, placeBlock } from './claudeMd';
import { compileCodexLaunch, profileOf } from './codexProfile';
import type { CompileFacts } from './facts';
import { parseGuard } from '../launch/guard';
import { guardPath, outsideSandbox, type GuardFile } from './guardFile';
import { profilePolicy } from './policy';
import { parseRecord, RECORD_REL, recordText, sameRecord, type CompiledRecord } from './record';
import { wantDeny, wantRead, wantWrite } from './rules';
import { mergeSettings, SETTINGS_REL } from './settingsMerge';
import { planSkills, type LinkOp } from './skillLinks';
import type { FileState, ProfileSnapshot } from './snapshot';

/** The prefix of a plan line: add, remove, change, conflict, note. */
export type PlanLineKind = '+' | '-' | '~' | 'CONFLICT' | 'note';

/** One line of a printed plan. */
export interface PlanLine {
  kind: PlanLineKind;
  text: string;
}

/** One file to write inside the profile's folder (path relative to its real path). */
export interface FileWrite {
  rel: string;
  text: string;
  /** File mode for a new file (an existing file keeps its mode). */
  mode: number;
}

/** The plan of one profile. */
export interface ProfilePlan {
  profile: string;
  /** The profile's folder as the table has it, and its real path (writes go below the real path). */
  cwd: string;
  realCwd: string;
  lines: PlanLine[];
  /** Why `--write` must refuse this profile ([] = it may be written). */
  conflicts: string[];
  /** True when `--write` would change anything (an add, remove or change line). */
  changed: boolean;
  /** True when the profile was compiled before (it has a record or a launch guard). */
  compiled: boolean;
  /** Link operations in `<real cwd>/.agents/skills`, in order. */
  links: LinkOp[];
  /** Files to write, in apply order (settings.json, CLAUDE.md, record). */
  writes: FileWrite[];
  /** Folders to create (mode 700) before writing: `_common/` when given. */
  mkdirs: string[];
  record: CompiledRecord;
  guardPath: string;
  guard: GuardFile;
  /** True when the guard file must be (re)written. */
  guardChanged: boolean;
}

const NEW_FILE_MODE = 0o644;

function modeOf(f: FileState): number {
  return f.state === 'file' ? f.mode : NEW_FILE_MODE;
}

function previousRecord(snap: ProfileSnapshot, conflicts: string[], notes: string[]): CompiledRecord | null {
  const r = snap.record;
  if (r.state === 'missing') return null;
  if (r.state !== 'file') {
    conflicts.push(
      `${RECORD_REL} is ${r.state === 'link' ? `a link (to ${r.target})` : r.state === 'other' ? r.what : `unreadable (${r.code})`}; compile writes only plain files: remove it by hand`,
    );
    return null;
  }
  if (r.nlink > 1) {
    conflicts.push(`${RECORD_REL} has ${r.nlink} hard links; remove it by hand (compile writes a fresh one)`);
    return null;
  }
  const parsed = parseRecord(r.text);
  if (parsed.ok) return parsed.record;
  notes.push(`${RECORD_REL} ${parsed.why}: nothing in the profile's files is taken as Angelia's, so no entry is removed; it is rewritten`);
  return null;
}

function guardChanged(current: FileState, want: GuardFile): { changed: boolean; line: PlanLine | null } {
  if (current.state === 'missing') return { changed: true, line: { kind: '+', text: 'launch guard' } };
  if (current.state !== 'file') return { changed: true, line: { kind: '~', text: 'launch guard (unreadable; rewritten)' } };
  // The guard is read only by launch/guard.ts; compile asks it whether the guard it wants is there.
  const read = parseGuard({ path: '', text: current.text });
  const parsed = read.ok ? read.guard : null;
  const same = parsed !== null && JSON.stringify({ ...parsed, compiledAt: '' }) === JSON.stringify({ ...want, compiledAt: '' });
  return same ? { changed: false, line: null } : { changed: true, line: { kind: '~', text: 'launch guard' } };
}

/**
 * Plans profile `name` of `table`. `snap` is `snapshotProfile`'s view of its files; `now` the ISO
 * time stamped into the record and guard. Throws AppFailure `profile-unknown` only; every other
 * problem is a conflict in the plan.
 */
export function planProfile(table: LoadedTable, name: string, facts: CompileFacts, snap: ProfileSnapshot, now: string): ProfilePlan {
  const profile = profileOf(table, name);
  const conflicts: string[] = [];
  const notes: string[] = [];
  const lines: PlanLine[] = [];
  const policy = profilePolicy(table, profile, facts);
  const deny = wantDeny(policy);
  try {
    compileCodexLaunch(table, name, facts);
  } catch (e) {
    const app = toAppError(e);
    conflicts.push(`${app.message}${app.where ? ` (${app.where})` : ''}${app.fix ? `; fix: ${app.fix}` : ''}`);
  }
  if (snap.realCwd === null) conflicts.push(`the profile's folder ${profile.cwd} cannot be resolved; create it or correct profiles.${name}.cwd`);
  const claude = snap.dirs['.claude'];
  if (claude.state === 'link' || claude.state === 'other') {
    conflicts.push(
      `.claude is ${claude.state === 'link' ? `a link (to ${claude.target})` : 'not a folder'}; compile writes only into plain folders: replace it with a folder by hand`,
    );
  }
  const previous = previousRecord(snap, conflicts, notes);

  const skills = planSkills(table, profile, snap, facts.home, previous?.links ?? null, facts.userSkills ?? []);
  conflicts.push(...skills.conflicts);
  notes.push(...skills.notes);
  lines.push(...skills.lines);

  const writes: FileWrite[] = [];
  const settings = mergeSettings(snap.settings, { deny, dirs: policy.dirs }, previous ? { deny: previous.deny, dirs: previous.additionalDirectories } : null);
  conflicts.push(...settings.conflicts);
  if (settings.created) lines.push({ kind: '+', text: SETTINGS_REL });
  for (const r of settings.addedDeny) lines.push({ kind: '+', text: `deny ${r}` });
  for (const r of settings.removedDeny) lines.push({ kind: '-', text: `deny ${r}` });
  for (const d of settings.addedDirs) lines.push({ kind: '+', text: `additionalDirectories ${d}` });
  for (const d of settings.removedDirs) lines.push({ kind: '-', text: `additionalDirectories ${d}` });
  if (settings.text !== null) writes.push({ rel: SETTINGS_REL, text: settings.text, mode: modeOf(snap.settings) });

  const block = blockLines(table, profile);
  const placed = placeBlock(snap.claudeMd, block, snap.agentsMd);
  conflicts.push(...placed.conflicts);
  notes.push(...placed.notes, ...duplicateNotes(table, profile, snap.claudeMd));
  const blockVerb = {
    create: ['+', `${CLAUDE_MD} (new, with the managed block)`],
    add: ['+', `${CLAUDE_MD} managed block`],
    replace: ['~', `${CLAUDE_MD} managed block`],
    remove: ['-', `${CLAUDE_MD} managed block`],
  } as const;
  if (placed.op !== 'none') lines.push({ kind: blockVerb[placed.op][0], text: blockVerb[placed.op][1] });
  if (placed.text !== null) writes.push({ rel: CLAUDE_MD, text: placed.text, mode: modeOf(snap.claudeMd) });

  const mkdirs = policy.common ? [policy.common] : [];
  if (policy.common && !snap.commonExists) lines.push({ kind: '+', text: `folder ${policy.common}` });

  const record: CompiledRecord = {
    version: 1,
    backend: profile.backend,
    links: Object.fromEntries(Object.entries(skills.links).sort(([a], [b]) => a.localeCompare(b))),
    mcpServers: policy.mcpAllowed,
    deny,
    additionalDirectories: policy.dirs,
    blockLines: block,
    compiledAt: now,
  };
  if (!previous || !sameRecord(previous, record)) {
    lines.push({ kind: previous ? '~' : '+', text: RECORD_REL });
    writes.push({ rel: RECORD_REL, text: recordText(record), mode: modeOf(snap.record) });
  }

  const guard: GuardFile = {
    version: 1,
    profile: name,
    cwd: profile.cwd,
    backend: profile.backend,
    deny,
    codexSandbox: profile.sandbox,
    write: wantWrite(policy),
    readOnly: profile.sandbox && profile.permissionMode === 'plan',
    ...outsideSandbox(table, profile, policy.mcpAllowed),
    read: wantRead(policy),
    env: profile.env,
    compiledAt: now,
  };
  const g = guardChanged(snap.guard, guard);
  if (g.line) lines.push(g.line);

  notes.push(
    profile.sandbox
      ? "deny rules and writable folders are held by Codex's own sandbox, shell commands included"
      : 'full access (sandbox = false): the deny rules bind nothing, and in every mode it runs commands without asking',
  );
  for (const m of policy.mcpAllowed) {
    const cap = table.capabilities[m];
    if (cap?.kind === 'mcp' && cap.command !== null)
      notes.push(`MCP server ${m} is started by Codex outside the agent's sandbox (measured on codex 0.169.0): it runs with your full access`);
  }

  const changed = lines.length > 0;
  const out: PlanLine[] = [
    ...lines,
    ...conflicts.map((c): PlanLine => ({ kind: 'CONFLICT', text: c })),
    ...notes.map((n): PlanLine => ({ kind: 'note', text: n })),
  ];
  return {
    profile: name,
    cwd: profile.cwd,
    realCwd: snap.realCwd ?? profile.cwd,
    lines: out,
    conflicts,
    changed,
    compiled: snap.record.state !== 'missing' || snap.guard.state !== 'missing',
    links: skills.ops,
    writes,
    mkdirs,
    record,
    guardPath: guardPath(facts.stateDir, name),
    guard,
    guardChanged: g.changed,
  };
}
