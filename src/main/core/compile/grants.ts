/**
 * The grant check (docs/security-model.md "Grants are checked by real path, at compile and at every
 * start"): ONE pure function, `checkGrants`, run by compile and accept (write.ts `planProfiles`,
 * configCheck.ts `launchProblem`) and by every start (launch/plan.ts `planLaunch`, which `ask` and
 * export use too). The filesystem is read through an injected `FsView` (lstat and readlink only).
 *
 * Why: codex 0.169.0 resolves each grant again, following symbolic links, every time it builds a
 * command's sandbox (measured on Linux: a granted `<cwd>/sub/build`, swapped within one turn by
 * `mv sub sub_old && mkdir sub && ln -s <elsewhere> sub/build`, had `<elsewhere>` mounted writable for
 * the turn's next command), and at every start. So a grant whose path any agent can change is a grant
 * of whatever that agent points it at. The rule, from what the table grants (never a list of bad places):
 *
 * - a GRANT (a profile's `cwd`, `add_dirs`, `read_dirs`, its allowed `directory` capabilities, the
 *   workspace folders `_common/`, `_shared/`, `_capabilities/`) is refused when any existing component
 *   of its path is a symbolic link, when it is, holds or lies in Angelia's private state (all of
 *   `<state>` but `workspace/`) or a Codex home, or when it lies (by its path as written or by its real
 *   path, a missing grant by the real path of its nearest existing folder) strictly inside a folder an
 *   agent can write: `agentWritable`, the union over EVERY profile of its write grants (its folder,
 *   add_dirs, directory capabilities, `_common/`, and `_shared/` and `_capabilities/` with
 *   shared_write) and Angelia's own places agents write (package caches, mailboxes). An agent can rename
 *   any entry of a folder it writes, so it could put a link on the grant's path;
 * - a RESTRICTION of a profile (a deny rule of its policy, or a launch file it may only read) that lies two or more folders
 *   deep inside one of its own writable folders, or whose path goes through a symbolic link in one, is
 *   refused: the agent can rename the folder between (one level deep the restricted path is itself a
 *   mount point and cannot be renamed: measured), and from its next command the rule covers nothing;
 *   measured on codex 0.169.0: a denied `<cwd>/a/secret`, then `mv a a2`, then `a2/secret` was read;
 * - what runs OUTSIDE the sandbox must not come from a folder an agent can write: the Codex executable
 *   (`bin`, or the bundled one), every folder on the PATH Codex and its MCP servers search, the folder
 *   MCP servers start in, an MCP server's `command` (resolved as Codex would: a bare name on that PATH,
 *   a relative path against that folder) and its absolute `args`; every location met on the way to
 *   the file (each link, each folder) is checked.
 *
 * A profile with `sandbox = false` counts with the folders it names; it can write every other folder
 * too (the state folder included), which no check can hold against, so `fullAccessNote` says so
 * plainly to every other profile and nothing more is refused for it (docs/security-model.md).
 */
import { delimiter, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { AppFailure } from '../../../shared/result';
import { resolveCodexBin } from '../codex/resolve';
import { isWithin } from '../instance/paths';
import { keyPath } from '../table/errors';
import type { LoadedTable, ResolvedProfile } from '../table/load';
import { allowedCapabilities } from '../table/types';
import { angeliaProgram } from '../instance/program';
import type { CompileFacts } from './facts';
import { STATE_BIN, STATE_CACHE, STATE_PUBLIC } from './floor';
import { profilePolicy } from './policy';
import { formsOf, walkPath, type FsView } from './pathWalk';

const strictlyIn = (child: string, parent: string): boolean => child !== parent && isWithin(child, parent);

/** A folder some agent can write (or rename entries in), with who can. */
export interface WritablePlace {
  path: string;
  /** Its forms (as written, real). */
  forms: string[];
  /** Who writes it, for messages: "profile coder's folder (profiles.coder.cwd)". */
  by: string;
  /** The profile whose grant it is, or null for Angelia's own places (caches, mailboxes). */
  profile: string | null;
  /** True for `_shared/` and `_capabilities/` written with shared_write (see `grantProblem`). */
  shared?: true;
}

/** One grant of a profile: a folder it is given to read or write, named by the table field that gives it. */
export interface Grant {
  profile: string;
  /** Key path of the field, e.g. `['profiles', 'coder', 'add_dirs', 0]` or `['capabilities', 'data', 'path']`. */
  key: PropertyKey[];
  path: string;
  access: 'read' | 'write';
  /** What it is, for messages after "profile coder's": "folder", "add_dir", "directory capability data". */
  what: string;
}

/** Why a grant, restriction or executable is refused: the profile, the table field, the path, the reason and the fix. */
export interface GrantProblem {
  profile: string;
  key: PropertyKey[];
  path: string;
  message: string;
  fix: string;
  /** Set on what is only said, not refused (`grantNotes`). */
  note?: true;
}

/** The facts the check reads: the instance's places (and the platform, for the credential floor). */
export type GrantFacts = Pick<CompileFacts, 'stateDir' | 'home' | 'codexHome' | 'workspace' | 'workspaceExists'> & { platform?: NodeJS.Platform };

/** What a start of the profile runs outside the sandbox (see the file comment); null parts are not checked. */
export interface LaunchExec {
  /** The Codex executable (launch/plan.ts resolves it; `bin` or the bundled one), or null. */
  codex: string | null;
  /** The PATH of the Codex process, in search order (Codex and its MCP servers look programs up there). */
  searchPath: readonly string[];
  /** The folder Codex starts MCP servers in (compile/mcpFlags.ts gives each server's `cwd`). */
  mcpCwd: string;
  /**
   * Angelia's own program, which runs outside the sandbox (every `angelia` command, the app, the agents'
   * `angelia` launcher): the Node or Electron executable and, under the install folder, `bin/`, `out/`,
   * `node_modules/` and `package.json` (instance/program.ts `angeliaProgram`). Absent: not checked.
   */
  program?: readonly string[];
}

/**
 * What a start of `profile` would run outside the sandbox, as compile and accept see it from `env`
 * (launch/plan.ts `planLaunch` gives the start's own): the Codex executable it resolves (null when
 * none is found: check-config says so), PATH `<state>/bin` then `env`'s, MCP servers started in `home`
 * (compile/mcpFlags.ts). Reads the filesystem to resolve Codex.
 */
export function execAtCompile(
  profile: Pick<ResolvedProfile, 'bin'>,
  facts: Pick<GrantFacts, 'stateDir' | 'home'>,
  env: NodeJS.ProcessEnv = process.env,
): LaunchExec {
  let codex: string | null = null;
  try {
    codex = resolveCodexBin(profile.bin ?? undefined, { env }).path;
  } catch {
    // No executable to check; the start refuses on its own.
  }
  return {
    codex,
    searchPath: [join(facts.stateDir, STATE_BIN), ...(env.PATH ? env.PATH.split(delimiter) : [])],
    mcpCwd: facts.home,
    program: angeliaProgram(),
  };
}

/** Read folders of a profile (its `read_dirs`, or the starter set when it has none). */
function readDirsOf(profile: ResolvedProfile): readonly string[] {
  return (profile as ResolvedProfile & { readDirs?: readonly string[] }).readDirs ?? [];
}

/** Every grant of `profile` (see the file comment), in table order. Pure. */
export function grantsOf(table: Pick<LoadedTable, 'capabilities'>, profile: ResolvedProfile, facts: GrantFacts): Grant[] {
  const at = (...rest: PropertyKey[]): PropertyKey[] => ['profiles', profile.name, ...rest];
  const out: Grant[] = [{ profile: profile.name, key: at('cwd'), path: profile.cwd, access: 'write', what: 'folder' }];
  profile.addDirs.forEach((d, i) => out.push({ profile: profile.name, key: at('add_dirs', i), path: d, access: 'write', what: 'add_dir' }));
  // The starter set (a profile without `read_dirs`) is named by the field it stands for.
  const starter = (profile as ResolvedProfile & { readDirsStarter?: boolean }).readDirsStarter === true;
  readDirsOf(profile).forEach((d, i) =>
    out.push({
      profile: profile.name,
      key: starter ? at('read_dirs') : at('read_dirs', i),
      path: d,
      access: 'read',
      what: starter ? 'read folder (the read_dirs starter set)' : 'read folder',
    }),
  );
  for (const cap of allowedCapabilities(table, profile)) {
    if (cap.kind === 'directory')
      out.push({ profile: profile.name, key: ['capabilities', cap.name, 'path'], path: cap.path, access: 'write', what: `directory capability ${cap.name}` });
    // A skill given is read where it lies, with its secrets (compile/policy.ts `reads`).
    if (cap.kind === 'skill') {
      out.push({ profile: profile.name, key: ['capabilities', cap.name, 'path'], path: cap.path, access: 'read', what: `skill ${cap.name}` });
      cap.secrets.forEach((secret, i) =>
        out.push({ profile: profile.name, key: ['capabilities', cap.name, 'secrets', i], path: secret, access: 'read', what: `secret of skill ${cap.name}` }),
      );
    }
  }
  if (facts.workspaceExists ?? true) {
    if (!profile.isolated)
      out.push({
        profile: profile.name,
        key: at('isolated'),
        path: join(facts.workspace, '_common'),
        access: 'write',
        what: '_common/ (every profile not isolated writes it)',
      });
    for (const sub of ['_shared', '_capabilities']) {
      out.push({
        profile: profile.name,
        key: at('shared_write'),
        path: join(facts.workspace, sub),
        access: profile.sharedWrite ? 'write' : 'read',
        what: `${sub}/`,
      });
    }
  }
  return out;
}

/**
 * Every folder an agent can write, over all profiles of `table` (sandboxed or not): each write grant
 * (`grantsOf`), plus Angelia's own places agents write: `<state>/cache/codex` (each profile's package
 * cache and TMPDIR lie in it) and `<state>/mailbox` (each chat's mailbox), taken whole. A write grant
 * that can never go live is left out (it goes through a link, or reaches private state: every start
 * refuses it), so the refusal names that grant, not every grant it holds. Pure over `fs`.
 */
export function agentWritable(table: Pick<LoadedTable, 'capabilities' | 'profiles'>, facts: GrantFacts, fs: FsView): WritablePlace[] {
  const out: WritablePlace[] = [];
  const privates = privatePlaces(facts, fs);
  for (const p of Object.values(table.profiles)) {
    for (const g of grantsOf(table, p, facts)) {
      if (g.access !== 'write' || grantProblem(g, fs, [], privates) !== null) continue;
      out.push({
        path: resolve(g.path),
        forms: formsOf(g.path, fs),
        by: `profile ${p.name}'s ${g.what} (${keyPath(g.key)})`,
        profile: p.name,
        ...(g.key[2] === 'shared_write' ? { shared: true as const } : {}),
      });
    }
  }
  out.push({
    path: join(facts.stateDir, STATE_CACHE, 'codex'),
    forms: formsOf(join(facts.stateDir, STATE_CACHE, 'codex'), fs),
    by: "the agents' package caches and temporary folders",
    profile: null,
  });
  out.push({ path: join(facts.stateDir, 'mailbox'), forms: formsOf(join(facts.stateDir, 'mailbox'), fs), by: "the chats' mailboxes", profile: null });
  return out;
}

/** The place of `places` that one of `forms` lies strictly inside (or also at, with `orAt`), skipping places that are the grant itself. */
function insidePlace(forms: readonly string[], places: readonly WritablePlace[], orAt = false): WritablePlace | null {
  for (const p of places) {
    if (!orAt && p.forms.some((a) => forms.includes(a))) continue;
    if (forms.some((f) => p.forms.some((a) => (orAt ? isWithin(f, a) : strictlyIn(f, a))))) return p;
  }
  return null;
}

/** Angelia's state (minus workspace/) and the Codex homes, each with its forms. */
function privatePlaces(facts: GrantFacts, fs: FsView): Array<{ path: string; forms: string[]; what: string; except: string[] }> {
  return [
    { path: facts.stateDir, forms: formsOf(facts.stateDir, fs), what: "Angelia's private state", except: formsOf(join(facts.stateDir, STATE_PUBLIC), fs) },
    ...[...new Set([join(facts.home, '.codex'), facts.codexHome])].map((h) => ({
      path: h,
      forms: formsOf(h, fs),
      what: "Codex's home (every profile's threads, global AGENTS.md and rules)",
      except: [],
    })),
  ];
}

function grantProblem(g: Grant, fs: FsView, writable: readonly WritablePlace[], privates: ReturnType<typeof privatePlaces>): GrantProblem | null {
  const abs = resolve(g.path);
  const walked = walkPath(abs, fs);
  const base = { profile: g.profile, key: g.key, path: g.path };
  if (walked.real === null) {
    return { ...base, message: `${g.path} goes through symbolic links that loop`, fix: `name a real folder in ${keyPath(g.key)}` };
  }
  const forms = [...new Set([abs, walked.real])];
  for (const p of privates) {
    const inside = forms.some((f) => p.forms.some((a) => isWithin(f, a)) && !p.except.some((e) => isWithin(f, e)));
    const holds = forms.some((f) => p.forms.some((a) => isWithin(a, f)));
    if (inside || holds) {
      return {
        ...base,
        message: `${g.path} ${holds ? 'is or holds' : 'lies in'} ${p.what} (${p.path}); no profile is granted any of it`,
        fix: `name the folders the agent needs outside ${p.path}`,
      };
    }
  }
  const link = walked.links[0];
  if (link !== undefined) {
    const linkIn = insidePlace([link], writable, true);
    return {
      ...base,
      message: `${g.path} goes through the symbolic link ${link} (now leading to ${walked.real})${linkIn ? `, which lies in ${linkIn.path}, writable by ${linkIn.by}` : ''}; where a link leads can change after the check, and Codex follows it again for every command, so a grant is only ever a real path`,
      fix: `name the real path ${walked.real} in ${keyPath(g.key)}${linkIn ? `, and keep it out of ${linkIn.path}` : ''}`,
    };
  }
  const place = insidePlace(forms, writable);
  if (place && g.access === 'read' && place.profile === g.profile) {
    return {
      ...base,
      message: `${g.path} (${g.what}) lies in ${place.path}, which this profile writes (${place.by}), so it reads it anyway; granted for reading as well, it is a grant its own agent could redirect with a symbolic link (Codex follows it again for every command) to read what it is not given`,
      fix: `take it out of ${keyPath(g.key)}${g.key[0] === 'capabilities' ? `, or keep ${g.path} out of the folders this profile writes` : ''}`,
    };
  }
  if (place && g.access === 'read' && place.shared) {
    // shared_write is the trust to edit what every profile reads (doctrine, skills): said plainly, not refused.
    return {
      ...base,
      note: true,
      message: `${g.path} (${g.what}) lies in ${place.path}, which ${place.by} may edit: that agent could also replace it with a symbolic link, and a running session of this profile would then read where the link leads (its next start refuses the link); give shared_write only to a profile you trust with what every profile reads`,
      fix: `move ${g.path} out of ${place.path}, or turn shared_write off for ${place.profile}`,
    };
  }
  if (place) {
    const who = place.profile === g.profile ? "this profile's own agent" : place.profile !== null ? `profile ${place.profile}'s agent` : 'an agent';
    return {
      ...base,
      message: `${g.path} lies in ${place.path}, which ${who} can write (${place.by}): it could rename a folder on the way and put a symbolic link there, and Codex follows it at the next command and start, so this ${g.access} grant would open wherever the link leads`,
      fix: `move ${g.path} out of ${place.path} (or stop granting ${place.path}), then name it in ${keyPath(g.key)}`,
    };
  }
  return null;
}

/** Restrictions of `profile` (its policy's deny and read-only rules) an agent could escape by renaming (see the file comment). */
function restrictionProblems(
  table: Pick<LoadedTable, 'capabilities' | 'profiles'>,
  profile: ResolvedProfile,
  facts: GrantFacts,
  fs: FsView,
  own: ReadonlyArray<{ g: Grant; forms: string[] }>,
): GrantProblem[] {
  const out: GrantProblem[] = [];
  const policy = profilePolicy(table, profile, { ...facts, apiSocket: null, platform: facts.platform ?? process.platform });
  const seen = new Set<string>();
  for (const rule of policy.rules) {
    // A deny rule, or a launch file kept read-only. Other read entries are grants (read_dirs, given
    // skills): inside a folder the profile writes anyway, escaping them opens nothing it is not given.
    if (
      !(rule.access === 'deny' || (rule.access === 'read' && rule.source.startsWith('launch file'))) ||
      rule.glob ||
      seen.has(rule.path) ||
      !isAbsolute(rule.path)
    )
      continue;
    seen.add(rule.path);
    const walked = walkPath(resolve(rule.path), fs);
    const forms = [...new Set([resolve(rule.path), ...(walked.real ? [walked.real] : [])])];
    for (const { g, forms: wf } of own) {
      const pair = forms.flatMap((f) => wf.filter((a) => strictlyIn(f, a)).map((a) => ({ f, a })))[0];
      if (!pair) continue;
      const steps = relative(pair.a, pair.f).split(sep);
      const linkIn = walked.links.find((l) => wf.some((a) => strictlyIn(l, a)));
      if (steps.length < 2 && linkIn === undefined) continue;
      const what = rule.access === 'deny' ? 'may not read' : 'may only read';
      // A skill denied to a shared_write profile inside `_capabilities/`: that profile may edit the folder
      // (shared_write), so the deny only keeps the skill from being loaded; said in a note, not refused.
      const cap = /^denied capability (.+)$/.exec(rule.source)?.[1];
      const note = g.key[2] === 'shared_write' && cap !== undefined && table.capabilities[cap]?.kind === 'skill' && rule.access === 'deny';
      if (note) {
        out.push({
          profile: profile.name,
          key: g.key,
          path: rule.path,
          note: true,
          message: `the skill ${cap} is denied to this profile, but it lies in ${g.path}, which this profile may edit (shared_write): its agent can still read it by renaming a folder there; the deny only keeps the skill from being loaded`,
          fix: `move the skill out of ${g.path}, or give it to this profile`,
        });
        break;
      }
      out.push({
        profile: profile.name,
        key: g.key,
        path: rule.path,
        message:
          linkIn !== undefined
            ? `${rule.path}, which this profile ${what} (${rule.source}), goes through the symbolic link ${linkIn} in ${g.path} (its ${g.what}, ${keyPath(g.key)}), which its agent writes: it could point the link elsewhere and reach ${rule.path} from its next command`
            : `${rule.path}, which this profile ${what} (${rule.source}), lies ${steps.length} folders deep in ${g.path} (its ${g.what}, ${keyPath(g.key)}), which its agent writes: it could rename ${join(pair.a, steps[0]!)} and reach it from its next command (measured on codex 0.169.0)`,
        fix: `move ${rule.path} out of ${g.path}, or give the profile narrower folders than ${g.path}`,
      });
      break;
    }
  }
  return out;
}

function execProblem(
  file: string,
  key: PropertyKey[],
  profile: string,
  what: string,
  fs: FsView,
  writable: readonly WritablePlace[],
  fix: string,
): GrantProblem | null {
  const abs = resolve(file);
  const walked = walkPath(abs, fs);
  // Every location on the way: an agent that can rename any of them can make the path lead elsewhere.
  const places = [abs, ...walked.visited, ...(walked.real ? [walked.real] : [])];
  const hit = writable.find((w) => places.some((p) => w.forms.some((a) => strictlyIn(p, a))));
  if (!hit) return null;
  return {
    profile,
    key,
    path: file,
    message: `${what} ${file} lies in ${hit.path}, which ${hit.by} can write; it runs outside the sandbox, so an agent could replace it and have its own code run with your full access at the next start`,
    fix,
  };
}

function execProblems(
  table: Pick<LoadedTable, 'file' | 'capabilities'>,
  profile: ResolvedProfile,
  exec: LaunchExec,
  fs: FsView,
  writable: readonly WritablePlace[],
): GrantProblem[] {
  const out: GrantProblem[] = [];
  const at = ['profiles', profile.name];
  if (exec.codex !== null) {
    const p = execProblem(
      exec.codex,
      profile.bin ? [...at, 'bin'] : at,
      profile.name,
      profile.bin ? 'the Codex executable (bin)' : 'the bundled Codex executable',
      fs,
      writable,
      profile.bin
        ? `install Codex where no agent can write and point ${keyPath([...at, 'bin'])} at it, or remove bin to use the bundled one`
        : "install Angelia where no profile's folder holds it",
    );
    if (p) out.push(p);
  }
  // Angelia itself: a file of its program at or inside an agent's writable folder, or such a folder
  // inside one of its program folders (a profile whose folder holds the Angelia install, say).
  for (const p of exec.program ?? []) {
    const forms = formsOf(p, fs);
    const place = insidePlace(forms, writable, true) ?? writable.find((w) => w.forms.some((a) => forms.some((f) => strictlyIn(a, f)))) ?? null;
    if (place) {
      out.push({
        profile: profile.name,
        key: at,
        path: p,
        message: `Angelia's own program ${p} ${place.forms.some((a) => forms.some((f) => strictlyIn(a, f))) ? `holds ${place.path}` : `lies in ${place.path}`}, which ${place.by} can write; it runs outside the sandbox (every angelia command, the app, the agents' angelia command), so an agent could replace it and have its own code run with your full access`,
        fix: `install Angelia where no agent can write, or stop granting ${place.path}`,
      });
      break;
    }
  }
  exec.searchPath.forEach((dir) => {
    if (!isAbsolute(dir)) {
      out.push({
        profile: profile.name,
        key: at,
        path: dir,
        message: `the PATH Codex and its MCP servers search holds ${dir === '' ? 'an empty entry (the current folder)' : `the relative folder ${JSON.stringify(dir)}`}, looked up in the folder they run in; programs found there run outside the sandbox`,
        fix: 'remove relative entries from PATH in the environment Angelia starts from',
      });
      return;
    }
    const place = insidePlace(formsOf(dir, fs), writable, true);
    if (place)
      out.push({
        profile: profile.name,
        key: at,
        path: dir,
        message: `the PATH Codex and its MCP servers search holds ${dir}, which lies in ${place.path}, writable by ${place.by}: a program an agent put there would run outside the sandbox`,
        fix: `remove ${dir} from PATH in the environment Angelia starts from, or stop granting ${place.path}`,
      });
  });
  const mcpCwdPlace = insidePlace(formsOf(exec.mcpCwd, fs), writable, true);
  for (const cap of allowedCapabilities(table, profile)) {
    if (cap.kind !== 'mcp' || cap.command === null) continue;
    const key = ['capabilities', cap.name];
    if (mcpCwdPlace) {
      out.push({
        profile: profile.name,
        key,
        path: exec.mcpCwd,
        message: `MCP servers start in ${exec.mcpCwd}, which lies in ${mcpCwdPlace.path}, writable by ${mcpCwdPlace.by}: a program or module an agent put there could be run by ${cap.name} outside the sandbox`,
        fix: `stop granting ${mcpCwdPlace.path}`,
      });
      continue;
    }
    const fix = `install the MCP server where no agent can write, and name it in ${keyPath([...key, 'command'])}`;
    let file: string | null = null;
    if (cap.command.includes('/')) file = resolve(exec.mcpCwd, cap.command);
    else {
      for (const dir of exec.searchPath) {
        if (!isAbsolute(dir)) continue;
        const candidate = join(dir, cap.command);
        const kind = fs.kind(candidate);
        if (kind !== null && kind !== 'dir') {
          file = candidate;
          break;
        }
      }
    }
    if (file !== null) {
      const p = execProblem(file, [...key, 'command'], profile.name, `the command of MCP capability ${cap.name}`, fs, writable, fix);
      if (p) out.push(p);
    }
    cap.args.forEach((arg, i) => {
      if (!arg.startsWith('/')) return;
      const p = execProblem(
        arg,
        [...key, 'args', i],
        profile.name,
        `an argument of MCP capability ${cap.name}`,
        fs,
        writable,
        `move ${arg} where no agent can write, and name it in ${keyPath([...key, 'args', i])}`,
      );
      if (p) out.push(p);
    });
  }
  return out;
}

/** Options of `checkGrants`. */
export interface CheckGrantsOptions {
  /** The profiles to check (default: every one). Every profile's write grants count as agent-writable whatever this says. */
  profiles?: readonly string[];
  /** What a start of each profile runs outside the sandbox; absent or null: executables are not checked. */
  exec?: (profile: ResolvedProfile) => LaunchExec | null;
}

/**
 * The grant check, pure over `fs` (see the file comment for the rule and the measurements behind it):
 * every problem of the profiles asked for, in table order: per grant the first of (links loop | is,
 * holds or lies in private state or a Codex home | goes through a symbolic link | lies strictly in an
 * agent-writable folder), then escapable restrictions, then executables. [] = nothing refused.
 */
export function checkGrants(
  table: Pick<LoadedTable, 'file' | 'capabilities' | 'profiles'>,
  facts: GrantFacts,
  fs: FsView,
  options: CheckGrantsOptions = {},
): GrantProblem[] {
  return inspect(table, facts, fs, options).filter((p) => !p.note);
}

/**
 * What compile says about `profile` without refusing it: another profile runs with `sandbox = false`
 * (`fullAccessNote`), a skill denied to it inside a folder it may edit with shared_write. Pure over `fs`.
 */
export function grantNotes(table: Pick<LoadedTable, 'file' | 'capabilities' | 'profiles'>, facts: GrantFacts, fs: FsView, profile: string): string[] {
  const full = fullAccessNote(table, profile);
  return [
    ...inspect(table, facts, fs, { profiles: [profile] })
      .filter((p) => p.note)
      .map((p) => `${p.message} (${keyPath(p.key)})`),
    ...(full ? [full] : []),
  ];
}

function inspect(table: Pick<LoadedTable, 'file' | 'capabilities' | 'profiles'>, facts: GrantFacts, fs: FsView, options: CheckGrantsOptions): GrantProblem[] {
  const writable = agentWritable(table, facts, fs);
  const privates = privatePlaces(facts, fs);
  const names = options.profiles ?? Object.keys(table.profiles);
  const out: GrantProblem[] = [];
  for (const name of names) {
    const profile = Object.hasOwn(table.profiles, name) ? table.profiles[name] : undefined;
    if (!profile) continue;
    const grants = grantsOf(table, profile, facts);
    for (const g of grants) {
      const p = grantProblem(g, fs, writable, privates);
      if (p) out.push(p);
    }
    // Restrictions count in the profile's own writable folders that are not refused themselves.
    const own = grants.filter((g) => g.access === 'write' && !out.some((p) => p.key === g.key)).map((g) => ({ g, forms: formsOf(g.path, fs) }));
    out.push(...restrictionProblems(table, profile, facts, fs, own));
    const exec = options.exec?.(profile) ?? null;
    if (exec) out.push(...execProblems(table, profile, exec, fs, writable));
  }
  return out;
}

/**
 * The note compile shows every other profile when profiles of `table` run with `sandbox = false`
 * (null when none does): such an agent can change any file, the folders granted to `profile` and
 * Angelia's own state included, so no grant check holds against it. Pure.
 */
export function fullAccessNote(table: Pick<LoadedTable, 'profiles'>, profile: string): string | null {
  const open = Object.values(table.profiles)
    .filter((p) => !p.sandbox && p.name !== profile)
    .map((p) => p.name);
  if (open.length === 0) return null;
  return `${open.length === 1 ? `profile ${open[0]} runs` : `profiles ${open.join(', ')} run`} with sandbox = false: such an agent can change any file, the folders granted to ${profile} and Angelia's own state included, so no grant check holds against it`;
}

/** `profiles.coder.add_dirs[0]: <message>` for one problem. */
export function problemText(p: GrantProblem): string {
  return `${keyPath(p.key)}: ${p.message}`;
}

/**
 * Throws AppFailure `code` for the first of `problems` (message `<key path>: <why>`, plus how many more
 * there are; `where` `<table>: <key path>`; fix the problem's); returns when there are none.
 */
export function refuseGrants(problems: readonly GrantProblem[], tableFile: string, code: string): void {
  const [first, ...rest] = problems;
  if (!first) return;
  throw new AppFailure({
    code,
    message: `${problemText(first)}${
      rest.length > 0
        ? `; and ${rest.length} more (${rest
            .slice(0, 3)
            .map((r) => keyPath(r.key))
            .join(', ')}${rest.length > 3 ? ', …' : ''})`
        : ''
    }`,
    where: `${tableFile}: ${keyPath(first.key)}`,
    fix: first.fix,
  });
}
