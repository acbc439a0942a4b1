/**
 * What a profile of a loaded table compiles to, as the editor's preview and the policy inspector show it
 * (README "The desktop app"): the compile plan lines, the effective permission entries with their origin, the
 * network rule, the Codex argv and the warnings with key paths. Everything is DERIVED from the compiler
 * itself — `compileCodexLaunch` (the permission profile's filesystem entries and each entry's source),
 * `planProfiles` (the `compile --write` plan) and `profilePolicy` (its warnings) — never recomputed here.
 * Reads the disk (plan snapshot, lstat/realpath of entries); writes nothing.
 */
import { lstat, readlink, realpath } from 'node:fs/promises';
import type { PolicyEntry, ProfilePreview, TableIssue } from '../../../shared/contract';
import { compileCodexLaunch, profileOf, type CodexLaunch } from '../compile/codexProfile';
import type { CompileFacts } from '../compile/facts';
import { profilePolicy } from '../compile/policy';
import type { PlanLine } from '../compile/plan';
import { planProfiles } from '../compile/write';
import type { TableProblem } from '../table/errors';
import type { LoadedTable } from '../table/load';

/** A table problem (key path with numbers) as the contract's TableIssue (key path as strings). */
export function toIssue(p: TableProblem): TableIssue {
  return { path: p.path.map(String), message: p.message, fix: p.fix };
}

/** Origins of entries, by the source text the compiler gives each rule (compile/policy.ts, floor.ts, codexProfile.ts). */
const ORIGINS: ReadonlyArray<readonly [RegExp, string | ((m: RegExpExecArray) => string)]> = [
  [/^this profile's package cache\b/, 'cache'],
  [/^this profile's folder\b/, 'cwd'],
  [/^read_dirs \(starter set\b/, 'read_dirs:starter'],
  [/^read_dirs\b/, 'read_dirs'],
  [/^(?:secret of )?skill capability (.+)$/, (m) => `capability:${m[1]}`],
  [/^skills installed for every profile\b/, 'skills'],
  [/^(Codex's own program|the angelia command|Angelia's CLI)\b/, 'runtime'],
  [/^this chat's mailbox\b/, 'mailbox'],
  [
    /^(Angelia's private state|other profiles' package caches|credential location|Codex's login, transcripts or user config|another CLI's transcripts or config|profile .+'s folder)$/,
    'floor',
  ],
  [/^(shared_write|shared doctrine and capabilities\b.*)$/, 'shared'],
  [/^launch file\b/, 'launch'],
  [/^(?:secret of )?denied capability (.+)$/, (m) => `capability:${m[1]}`],
  [/^directory capability (.+)$/, (m) => `capability:${m[1]}`],
  [/^add_dirs$/, 'add_dirs'],
  [/^(_common\/|isolated: no _common\/)/, 'common'],
];

/**
 * The origin of a compiled rule from its source text: `floor`, `cache`, `cwd`, `read_dirs`,
 * `read_dirs:starter`, `skills`, `runtime` (what commands need to run: Codex's program, the angelia
 * command), `mailbox`, `shared`, `launch`, `add_dirs`, `common`, `capability:<name>`; `compile` for a
 * source this list does not know (a test keeps it empty).
 */
export function originOf(source: string): string {
  for (const [re, origin] of ORIGINS) {
    const m = re.exec(source);
    if (m) return typeof origin === 'string' ? origin : origin(m);
  }
  return 'compile';
}

/** Where `path` points when it is a symbolic link (its real path, else the link's text), or null (Codex binds the target). */
export async function linkTarget(path: string): Promise<string | null> {
  const isLink = await lstat(path).then(
    (s) => s.isSymbolicLink(),
    () => false,
  );
  if (!isLink) return null;
  return realpath(path).catch(() => readlink(path).catch(() => null));
}

/**
 * The effective permission table of a launch: first what every sandboxed launch gives (`:minimal`, the
 * system folders commands need, origin `mode`), then every filesystem entry of the compiled permission
 * profile (sorted by path) with its origin and the compiler's source as `note`: the grants (the
 * profile's folder, add_dirs, read_dirs and where each comes from), and the deny entries that stay for
 * escalated commands. Nothing else is readable (docs/security-model.md "Filesystem: private by
 * default"). Without sandbox: one entry, `/` write (origin `mode`).
 */
export async function policyEntries(launch: CodexLaunch, cwd: string): Promise<PolicyEntry[]> {
  const entries: PolicyEntry[] = [];
  const add = async (path: string, access: PolicyEntry['access'], origin: string, note: string | null): Promise<void> => {
    entries.push({ path, access, origin, note, symlinkTarget: path.startsWith('/') ? await linkTarget(path) : null });
  };
  if (!launch.sandboxed) {
    await add('/', 'write', 'mode', 'sandbox = false: full access to everything your user can reach; no deny rule holds');
    return entries;
  }
  if (launch.specials[':minimal'] === 'read') {
    await add(
      ':minimal',
      'read',
      'mode',
      `the system folders commands need (/usr, /etc, /bin, /lib, /dev, /proc); nothing else is readable but the grants below, HOME and /tmp included${launch.readOnly ? '; read-only: nothing is writable' : ''}`,
    );
  }
  if (!Object.hasOwn(launch.filesystem, cwd)) {
    await add(cwd, launch.readOnly ? 'read' : 'write', 'cwd', "the profile's folder");
  }
  for (const [path, access] of Object.entries(launch.filesystem)) {
    const source = launch.sources[path] ?? '';
    await add(path, access, originOf(source), source || null);
  }
  return entries;
}

/** The network rule of a launch, as one flag and a sentence. */
export function networkOf(launch: CodexLaunch): ProfilePreview['network'] {
  if (!launch.sandboxed) return { enabled: true, note: 'full access (sandbox = false): no proxy; every socket and loopback port answers' };
  return { enabled: true, note: "on through Codex's network proxy, every web domain; no Unix socket and no loopback port is reachable" };
}

/** The parts of a launch a permission diff compares. */
export type LaunchPolicy = Pick<CodexLaunch, 'sandboxed' | 'permissionsExtends' | 'filesystem' | 'sources'>;

/**
 * What changes in the sandbox from `before` (the profile as accepted) to `after` (as it would be): the
 * sandbox switched, the built-in profile it extends, then each filesystem entry added (`+ write /x
 * (add_dirs)`), removed (`- …`) or changed (`~ /x: read → deny (…)`), by path.
 */
export function permissionLines(before: LaunchPolicy, after: LaunchPolicy): PlanLine[] {
  const out: PlanLine[] = [];
  if (before.sandboxed !== after.sandboxed)
    out.push({ kind: '~', text: `sandbox: ${before.sandboxed ? 'on' : 'OFF'} → ${after.sandboxed ? 'on' : 'OFF (full access)'}` });
  else if (before.permissionsExtends !== after.permissionsExtends)
    out.push({ kind: '~', text: `permission profile extends ${before.permissionsExtends ?? 'nothing'} → ${after.permissionsExtends ?? 'nothing'}` });
  const paths = [...new Set([...Object.keys(before.filesystem), ...Object.keys(after.filesystem)])].sort();
  for (const path of paths) {
    const a = before.filesystem[path];
    const b = after.filesystem[path];
    if (a === b) continue;
    if (a === undefined) out.push({ kind: '+', text: `${b} ${path} (${after.sources[path] ?? ''})` });
    else if (b === undefined) out.push({ kind: '-', text: `${a} ${path} (${before.sources[path] ?? ''})` });
    else out.push({ kind: '~', text: `${path}: ${a} → ${b} (${after.sources[path] ?? ''})` });
  }
  return out;
}

/** The facts a description uses: `plan` for the compile plan (as `compile --write`), `launch` for what a start passes. */
export interface DescribeFacts {
  plan: CompileFacts;
  launch: CompileFacts;
}

/** What `describeProfile` returns: every field of a ProfilePreview but the validation ones. */
export type ProfileDescription = Pick<ProfilePreview, 'plan' | 'entries' | 'network' | 'codexArgs'> & { warnings: TableIssue[]; conflicts: string[] };

function issueKey(i: TableIssue): string {
  return JSON.stringify([i.path, i.message]);
}

/**
 * Describes profile `name` of `table`: the `compile --write` plan lines (a note "up to date" when it
 * would change nothing), the entries of `policyEntries`, network, the codex argv (the `-c` pairs and
 * "app-server"), and the warnings that concern it — the table's warnings about this profile or about no
 * profile in particular, the compiler's (key paths kept), and entries the sandbox cannot take (a glob or
 * relative path; at `profiles.<name>`). `missingCwd`: the folder does not exist yet (a new profile):
 * the plan's "cannot be resolved" conflict becomes a `+ folder` line. `previous`: the profile's launch as
 * accepted; the sandbox changes from it come first in the plan (`permissionLines`). Throws AppFailure
 * `profile-unknown`, or compile's `mcp-collision` / `mcp-name` / `compile-unencodable`.
 */
export async function describeProfile(
  table: LoadedTable,
  name: string,
  facts: DescribeFacts,
  opts: { missingCwd?: boolean; previous?: LaunchPolicy | null } = {},
): Promise<ProfileDescription> {
  const profile = profileOf(table, name);
  const [plan] = await planProfiles(table, [name], facts.plan);
  const launch = compileCodexLaunch(table, name, facts.launch);
  const folderConflict = `the profile's folder ${profile.cwd} cannot be resolved`;
  const conflicts = plan!.conflicts.filter((c) => !(opts.missingCwd && c.startsWith(folderConflict)));
  const lines = plan!.lines.filter((l) => !(opts.missingCwd && l.kind === 'CONFLICT' && l.text.startsWith(folderConflict)));
  if (opts.missingCwd) lines.unshift({ kind: '+', text: `folder ${profile.cwd} (mode 700)` });
  else if (!plan!.changed && conflicts.length === 0) lines.unshift({ kind: 'note', text: 'up to date: compile would change nothing' });
  if (opts.previous) lines.unshift(...permissionLines(opts.previous, launch));

  const mine = (p: TableProblem): boolean => p.path[0] !== 'profiles' || p.path[1] === name;
  const warnings: TableIssue[] = [];
  const seen = new Set<string>();
  const push = (i: TableIssue): void => {
    if (!seen.has(issueKey(i))) {
      seen.add(issueKey(i));
      warnings.push(i);
    }
  };
  for (const w of table.warnings.filter(mine)) push(toIssue(w));
  for (const w of profilePolicy(table, profile, facts.launch).warnings) push(toIssue(w));
  for (const w of launch.warnings) {
    if (w.startsWith('not passed to the sandbox'))
      push({ path: ['profiles', name], message: w, fix: 'rename the folder so its path is absolute and holds no * ? [ or ]' });
  }
  return {
    plan: lines.map((l) => ({ kind: l.kind, text: l.text })),
    conflicts,
    entries: await policyEntries(launch, profile.cwd),
    network: networkOf(launch),
    codexArgs: launch.codexArgs,
    warnings,
  };
}
