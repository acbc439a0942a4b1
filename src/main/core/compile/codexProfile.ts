/**
 * A profile compiled to a Codex launch (docs/security-model.md "Filesystem: private by default"): the
 * `codex` argv with one named permission profile `angelia` in `-c` flags, the added environment, and
 * the thread parameters. Pure: no file is read or written here.
 * Protocol facts: codex 0.169.0 (`codex app-server -c key=value` overrides; network flags measured with
 * `codex sandbox` on Linux, see test/integration/sandbox-compile.test.ts).
 */
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { AppFailure } from '../../../shared/result';
import { isWithin } from '../instance/paths';
import { formatProblem } from '../table/errors';
import type { LoadedTable, ResolvedProfile } from '../table/load';
import { cacheDirFor, cacheEnv, cacheTmpDir } from './cache';
import { bwrapSafeEntries, foldRules } from './entries';
import type { Access, CompileFacts, FsRule } from './facts';
import { codexHomeScanRules, STATE_BIN, stateScanRules } from './floor';
import { mcpFlags } from './mcpFlags';
import { profilePolicy } from './policy';
import { needsProjectTrust, projectTrustFlag } from './projectTrust';
import { projectRootFlag } from './projectRoot';
import { configFlag, inlineTable, tomlValue } from './toml';

/**
 * The plain variables every agent's commands get from Codex's environment (`LC_*` is a glob of Codex's
 * `include_only`): where things are, who and what the user is, language and terminal, the temp folder.
 * Nothing here holds a secret; everything not named by commandEnvNames is kept from the commands.
 */
export const PLAIN_ENV = ['PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'LANG', 'LANGUAGE', 'LC_*', 'TERM', 'TZ', 'TMPDIR', 'TMP', 'TEMP'] as const;

/**
 * Angelia's own variables the in-sandbox `angelia` command reads (api/client.ts `locateApi`;
 * launch/plan.ts sets them). Not `ANGELIA_API_TOKEN`: the command reads the chat token from the
 * mailbox's identity file, so the token is never in the commands' environment.
 */
export const AGENT_CHANNEL_ENV = ['ANGELIA_MAILBOX', 'ANGELIA_SESSION_KEY', 'ANGELIA_API_SOCK', 'ANGELIA_ASK'] as const;

/**
 * The variable names (and the `LC_*` glob) an agent's commands get, and nothing else
 * (docs/security-model.md "Environment of the agent's commands"): PLAIN_ENV, the package-cache and temp
 * variables Angelia sets (cache.ts `cacheEnv`), AGENT_CHANNEL_ENV, then the names `profile` passes on
 * purpose (its `env`), de-duplicated in that order. Pure.
 */
export function commandEnvNames(profile: Pick<ResolvedProfile, 'env'>): string[] {
  return [...new Set([...PLAIN_ENV, ...Object.keys(cacheEnv('/')), ...AGENT_CHANNEL_ENV, ...profile.env])];
}

/** The name of the permission profile Angelia defines on the command line. */
export const PERMISSION_PROFILE_ID = 'angelia';

/** Everything needed to start `codex app-server` for one profile. */
export interface CodexLaunch {
  profile: string;
  /** False only for `sandbox = false` (full access, no permission profile). */
  sandboxed: boolean;
  /** The whole argv after the executable, ending with `"app-server"`. */
  codexArgs: string[];
  /** Variables added to (or overriding) the child's environment. */
  env: Record<string, string>;
  /** The permission profile's filesystem entries, sorted by path ({} when not sandboxed). */
  filesystem: Record<string, Access>;
  /**
   * Special-path entries of the permission profile (`:minimal` → `read`: the system folders commands
   * need, codex 0.169.0 `FileSystemSpecialPath::Minimal`), kept apart from `filesystem`, whose keys are
   * all absolute paths. {} when not sandboxed.
   */
  specials: Record<string, Access>;
  /** Where each filesystem entry came from (same keys as `filesystem`). */
  sources: Record<string, string>;
  warnings: string[];
  approvalPolicy: 'on-request' | 'never';
  /**
   * The built-in profile `angelia` extends: always null. A base profile (`:workspace`, `:read-only`)
   * would bring `":root" = "read"` (the whole disk) with it; the profile is built from grants alone
   * (docs/security-model.md "Filesystem: private by default"). Codex reports it on every thread start
   * (`activePermissionProfile.extends`), which the attestation compares (codex/attest.ts).
   */
  permissionsExtends: null;
  /** True in plan mode and for the /ask variant: every grant is a read grant, nothing is writable. */
  readOnly: boolean;
  /**
   * Read grants the profile names that were not given because nothing is at their path now (a
   * `read_dirs` entry, e.g. a toolchain of the starter set that is not installed), with their source.
   * Given at the first start after they appear. [] when not sandboxed.
   */
  missingReads: Array<{ path: string; source: string }>;
  /** The profile's own package cache folder (create it with `ensureCacheDirs` before spawning), or null. */
  cacheDir: string | null;
  /** Folders the agent can write: cwd, add_dirs and its cache; [] in plan mode; ["/"] without sandbox. */
  writableRoots: string[];
  /** Names of the MCP servers the profile is given (defined on the command line); no other may load. */
  mcpServers: string[];
  /**
   * The chat's mailbox (launch/mailbox.ts) when the agent can write it: the write entry given on it,
   * or, without sandbox, the folder as given. Null when none was given and in plan mode (nothing is
   * written there, so the agent's commands have no mailbox; see docs/sandbox-sockets.md).
   */
  mailbox: string | null;
}

/** What one launch adds to the profile's compile: the chat's own mailbox folder, or the read-only variant. */
export interface LaunchExtras {
  /** Absolute path of the chat's mailbox (launch/mailbox.ts `mailboxDirFor`), created before the spawn. */
  mailbox?: string | null;
  /**
   * The read-only variant (`POST /ask`, chats/ask.ts; docs/api-ask.md): the profile's own permission
   * profile with every `write` entry turned into `read` (deny and read entries unchanged), based on
   * `:read-only` instead of `:workspace`, approvals `never` (nothing to ask: nothing is writable), no
   * mailbox and no API socket (a copy answers, it does not message anyone), and none of the profile's MCP
   * capabilities (Codex starts MCP servers OUTSIDE the sandbox, so a tool call could write). The network
   * stays as the profile has it (web only, through Codex's proxy). A `sandbox = false` profile gets this
   * sandbox too: a read-only copy never runs with full access. `mailbox` is ignored.
   */
  readOnly?: boolean;
}

/** The network part of a sandboxed launch, verified against codex 0.169.0 on Linux. */
export const NETWORK_FLAG_VALUES: ReadonlyArray<readonly [string, string]> = [
  [`permissions.${PERMISSION_PROFILE_ID}.network.enabled`, tomlValue(true)],
  ['features.network_proxy', tomlValue(true)],
  [`permissions.${PERMISSION_PROFILE_ID}.network.mode`, tomlValue('full')],
  [`permissions.${PERMISSION_PROFILE_ID}.network.domains`, inlineTable([['*', 'allow']])],
];

/**
 * The Codex approval policy a permission mode compiles to: `on-request` for default and acceptEdits
 * (Codex asks), `never` for bypassPermissions and plan. The one rule, also used to show a chat's mode
 * (chats/mode.ts).
 */
export function approvalPolicyFor(mode: ResolvedProfile['permissionMode']): 'on-request' | 'never' {
  return mode === 'default' || mode === 'acceptEdits' ? 'on-request' : 'never';
}

/** The profile `profileName` of `table`, or AppFailure `profile-unknown` naming the table and the known profiles. */
export function profileOf(table: Pick<LoadedTable, 'file' | 'profiles'>, profileName: string): ResolvedProfile {
  const profile = Object.hasOwn(table.profiles, profileName) ? table.profiles[profileName] : undefined;
  if (profile) return profile;
  throw new AppFailure({
    code: 'profile-unknown',
    message: `there is no profile ${JSON.stringify(profileName)}`,
    where: `${table.file}: profiles.${profileName}`,
    fix: `use one of: ${Object.keys(table.profiles).join(', ') || '(none yet: add a [profiles.<name>] table)'}`,
  });
}

/**
 * The names of the MCP servers profile `profileName` is given (its allowed mcp capabilities), sorted:
 * the only servers Codex may load for it (the start check refuses any other that would load). Throws
 * AppFailure `profile-unknown`.
 */
export function allowedMcpServers(table: Pick<LoadedTable, 'file' | 'profiles' | 'capabilities'>, profileName: string): string[] {
  const profile = profileOf(table, profileName);
  return profile.allowed.filter((n) => table.capabilities[n]?.kind === 'mcp').sort();
}

/**
 * Throws AppFailure `unsafe-reach` (key path `profiles.<name>.add_dirs[i]`, `.read_dirs[i]` or `.cwd`)
 * when the profile's folder, an add_dir or a read_dir is, or holds, Angelia's state folder or a Codex
 * home (`~/.codex`, `CODEX_HOME`), or when a read_dir lies inside a Codex home or inside the state
 * folder but outside its `workspace/`, named as it is or through a symlink (both sides compared by
 * their real paths as well). Denies inside it hold only for names that exist at launch; a writable
 * parent would let the agent create new ones there (a global `AGENTS.md` or `rules/` that every other
 * profile's Codex loads, a file Angelia reads), and a readable one would show the files Codex and
 * Angelia create after the launch (every profile's threads), so no deny floor can make such a folder safe.
 */
export function refuseReachOverPrivate(profile: ResolvedProfile, facts: CompileFacts): void {
  const privateRoots = [...new Set([facts.stateDir, join(facts.home, '.codex'), facts.codexHome])];
  const dirs: [string, PropertyKey[]][] = [[profile.cwd, ['cwd']], ...profile.addDirs.map((d, i): [string, PropertyKey[]] => [d, ['add_dirs', i]])];
  // Through a symlink too: a folder named by a link is compared by where it really is.
  const real = (p: string): string => {
    try {
      return realpathSync(p);
    } catch {
      return p;
    }
  };
  const whereOf = (key: PropertyKey[]): string =>
    ['profiles', profile.name, ...key]
      .map((k) => (typeof k === 'number' ? `[${k}]` : `.${String(k)}`))
      .join('')
      .slice(1)
      .replace('.[', '[');
  const what = (root: string): string =>
    root === facts.stateDir ? "Angelia's private state" : "Codex's home (every profile's threads, global AGENTS.md and rules)";
  const reads: [string, PropertyKey[]][] = profile.readDirs.map((d, i): [string, PropertyKey[]] => [d, ['read_dirs', i]]);
  for (const [dir, key] of [...dirs, ...reads]) {
    const held = privateRoots.find((root) => isWithin(root, dir) || isWithin(real(root), real(dir)));
    if (!held) continue;
    throw new AppFailure({
      code: 'unsafe-reach',
      message: `${dir} holds ${what(held)} (${held}); an agent that ${key[0] === 'read_dirs' ? 'reads' : 'writes'} there can reach other profiles`,
      where: whereOf(key),
      fix: `name the folders the agent needs inside ${dir} instead, outside ${held}`,
    });
  }
  const inWorkspace = (dir: string): boolean => isWithin(dir, facts.workspace) || isWithin(real(dir), real(facts.workspace));
  for (const [dir, key] of reads) {
    const inside = privateRoots.find((root) => (isWithin(dir, root) || isWithin(real(dir), real(root))) && !(root === facts.stateDir && inWorkspace(dir)));
    if (!inside) continue;
    throw new AppFailure({
      code: 'unsafe-reach',
      message: `${dir} lies in ${what(inside)} (${inside}); Codex and Angelia keep every profile's threads and secrets there, present and future files alike`,
      where: whereOf(key),
      fix: 'remove it from read_dirs',
    });
  }
}

/**
 * The read grants of a sandboxed launch beyond its folders, with their sources, split into those given
 * (something is at the path now, `facts.exists`) and the profile's own that are not: what the profile
 * names (`reads`: policy.ts `reads`, i.e. read_dirs and given skills), skills installed for every
 * profile, Codex's own program (`facts.codexReads`), and with `withAngelia` the `angelia` command: its
 * launcher folder `<state>/bin` and Angelia's CLI (`facts.angeliaReads`). Pure (given `facts.exists`).
 */
export function readGrants(
  profile: Pick<ResolvedProfile, 'bin'>,
  reads: readonly FsRule[],
  facts: CompileFacts,
  withAngelia: boolean,
): { given: FsRule[]; missing: FsRule[] } {
  const exists = facts.exists ?? ((): boolean => true);
  const read = (path: string, source: string): FsRule => ({ path, access: 'read', source, folder: true });
  const all: FsRule[] = [
    ...reads,
    ...[join(facts.codexHome, 'skills'), join(facts.home, '.agents', 'skills')].map((p) =>
      read(p, 'skills installed for every profile (Codex loads them for every project)'),
    ),
    ...(facts.codexReads?.(profile.bin) ?? []).map((p) => read(p, "Codex's own program (every command starts through it)")),
    ...(withAngelia
      ? [
          read(join(facts.stateDir, STATE_BIN), 'the angelia command (<state>/bin)'),
          ...(facts.angeliaReads ?? []).map((p) => read(p, "Angelia's CLI and the Node that runs it (the angelia command)")),
        ]
      : []),
  ];
  return { given: all.filter((r) => exists(r.path)), missing: reads.filter((r) => !exists(r.path)) };
}

/**
 * Compiles `profileName` of `table` for Codex on the machine described by `facts`: the policy of
 * policy.ts as one permission profile, plus the profile's own package cache, whatever else lies in the
 * state folder (`facts.stateEntries`, floor.ts `stateScanRules`; no `<state>/*` glob), reshaped on
 * Linux for bubblewrap (entries.ts `bwrapSafeEntries`, which reads `facts.exists`), and its MCP servers.
 * `extras.mailbox` (a launch's own chat mailbox) becomes one `write` entry nested in the denied
 * `<state>/mailbox` (not in plan mode); on macOS `facts.apiSocket` is the one Unix socket allowed
 * (`network.unix_sockets`, with the proxy on). `extras.readOnly` compiles the read-only variant `/ask`
 * runs under (see LaunchExtras). Throws AppFailure `profile-unknown` (no such profile), `mcp-name` (a user MCP server `-c` cannot
 * address), `mcp-collision` (an allowed MCP capability named like a user-level server) or
 * `compile-unencodable` (a path TOML cannot hold), `unsafe-reach` (refuseReachOverPrivate).
 */
export function compileCodexLaunch(
  table: Pick<LoadedTable, 'file' | 'profiles' | 'capabilities'>,
  profileName: string,
  facts: CompileFacts,
  extras: LaunchExtras = {},
): CodexLaunch {
  const profile = profileOf(table, profileName);
  const readOnly = extras.readOnly === true;
  const approvalPolicy = readOnly ? 'never' : approvalPolicyFor(profile.permissionMode);
  const docFlag = [
    ...configFlag('project_doc_fallback_filenames', tomlValue(['CLAUDE.md'])),
    // The agent's commands get the variables named by commandEnvNames and no other: Codex 0.169.0 passes
    // its whole environment to commands unless told, and a secret is not recognisable by its name
    // (DATABASE_URL, SENTRY_DSN, GH_PAT reached `env` under the old name patterns). `include_only` is
    // applied last (after `set`); Codex's default excludes (*KEY*, *TOKEN*, *SECRET*) are off so a name
    // the profile passes on purpose reaches them. Measured with `codex sandbox` and in app-server turns
    // (test/integration/agent-env.test.ts; docs/security-model.md "Environment of the agent's commands").
    ...configFlag('shell_environment_policy.inherit', tomlValue('all')),
    ...configFlag('shell_environment_policy.ignore_default_excludes', tomlValue(true)),
    ...configFlag('shell_environment_policy.include_only', tomlValue(commandEnvNames(profile))),
    // Codex records a project's trust in the user's config at a writable thread start unless the launch
    // decides it (projectTrust.ts; docs/security-model.md "The user's Codex config is never written").
    ...(needsProjectTrust({ sandbox: profile.sandbox, plan: profile.permissionMode === 'plan', readOnly }) ? projectTrustFlag(profile.cwd) : []),
  ];
  const policy = profilePolicy(table, profile, facts);
  const mcp = mcpFlags(table, profile, readOnly ? { ...policy, mcpAllowed: [] } : policy, facts);
  const mcpServers = readOnly ? [] : policy.mcpAllowed;
  if (!profile.sandbox && !readOnly) {
    return {
      profile: profile.name,
      sandboxed: false,
      codexArgs: [...docFlag, ...mcp, 'app-server'],
      env: {},
      filesystem: {},
      sources: {},
      specials: {},
      warnings: [
        `sandbox = false: profile ${profile.name} runs with FULL ACCESS to this computer (no permission profile, no deny rule holds)${approvalPolicy === 'never' ? ' and never asks' : ''}`,
      ],
      approvalPolicy,
      permissionsExtends: null,
      readOnly: false,
      missingReads: [],
      cacheDir: null,
      writableRoots: ['/'],
      mcpServers,
      mailbox: extras.mailbox ?? null,
    };
  }

  refuseReachOverPrivate(profile, facts);
  const plan = profile.permissionMode === 'plan';
  const cacheDir = plan ? null : cacheDirFor(facts.stateDir, profile.name);
  // Beyond the policy: what else lies in the state folder now (no `<state>/*` glob: floor.ts `isTransient`).
  const reach = [profile.cwd, ...policy.rules.filter((r) => r.access === 'write').map((r) => r.path)];
  const scan = stateScanRules(profile, facts, reach);
  // Plan mode writes nothing, so it has no mailbox (the folder holds the chat's token, never given for reading).
  const mailbox = readOnly || plan ? null : (extras.mailbox ?? null);
  // Grants only (docs/security-model.md "Filesystem: private by default"): the system folders commands
  // need (`:minimal`), the profile's folders and what it names to read; nothing else exists in the
  // sandbox (measured on codex 0.169.0, Linux: without a base profile, HOME, /tmp, /opt and every other
  // folder hold only the components leading to a grant). The deny entries stay for what runs outside
  // the sandbox once approved (an escalated command keeps them) and read-only entries inside grants.
  // The /ask copy keeps the angelia command readable too: there it says it is a read-only copy (api/client.ts).
  const grants = readGrants(profile, policy.reads, facts, true);
  const compiled: FsRule[] = [
    { path: profile.cwd, access: 'write', source: "this profile's folder", folder: true },
    ...(cacheDir ? [{ path: cacheDir, access: 'write', source: "this profile's package cache", folder: true } as FsRule] : []),
    // TMPDIR as an entry of its own, so it is a mount point the agent cannot rename and replace by a link:
    // Codex, outside the sandbox, follows it for its own temporary files (measured: docs/security-model.md
    // "Grants are checked by real path, at compile and at every start").
    ...(cacheDir
      ? [{ path: cacheTmpDir(cacheDir), access: 'write', source: "this profile's package cache: its temporary folder (TMPDIR)", folder: true } as FsRule]
      : []),
    ...(mailbox ? [{ path: mailbox, access: 'write', source: "this chat's mailbox (how its commands reach Angelia)", folder: true } as FsRule] : []),
    ...policy.rules,
    ...grants.given,
    ...scan.rules,
    ...codexHomeScanRules(facts, reach),
  ];
  // Plan mode and the read-only variant: the same grants with each write entry a read entry on the same
  // path (so a folder written inside a denied one, like the package cache, stays readable); deny and read
  // entries are unchanged.
  const why = readOnly ? 'read-only for /ask' : 'read-only in plan mode';
  const rules = readOnly || plan ? compiled.map((r): FsRule => (r.access === 'write' ? { ...r, access: 'read', source: `${r.source}; ${why}` } : r)) : compiled;
  const folded = foldRules(rules, false);
  const entries =
    facts.platform === 'linux'
      ? bwrapSafeEntries(folded, facts.exists ?? (() => true), [facts.codexHome, ...reach, ...(cacheDir ? [cacheDir] : []), ...(mailbox ? [mailbox] : [])])
      : folded;
  const key = (rest: string): string => `permissions.${PERMISSION_PROFILE_ID}.${rest}`;
  // No walk up for a project root the sandbox would not show anyway (projectRoot.ts: the same files read, a cheaper start).
  const rootFlag = projectRootFlag(profile.cwd, entries.filesystem, facts.exists ?? (() => true), facts.codexSetsRootMarkers === true);
  const args: string[] = [...docFlag, ...rootFlag, ...configFlag('default_permissions', tomlValue(PERMISSION_PROFILE_ID))];
  // No `/tmp` (no `:slash_tmp`): each profile's TMPDIR is its own `tmp/` in its cache (cache.ts
  // `cacheEnv`), and the shared `/tmp` holds other programs' files. Measured on codex 0.169.0 (Linux):
  // without a base profile `/tmp` does not exist in the sandbox; mktemp, Python's tempfile, Node's
  // os.tmpdir(), git, sort and shell here-documents use TMPDIR and work.
  const specials: Record<string, Access> = { ':minimal': 'read' };
  const fsPairs = [...Object.entries(specials), ...Object.entries(entries.filesystem)];
  args.push(...configFlag(key('filesystem'), inlineTable(fsPairs)));
  for (const [k, v] of NETWORK_FLAG_VALUES) args.push(...configFlag(k, v));
  // No shell snapshot: codex 0.169.0 writes one per thread into CODEX_HOME/shell_snapshots from the
  // user's login shell (its functions, aliases and exported variables: what a shell rc file holds), and
  // did not source it into exec_command's commands (measured: a function and an alias from ~/.bashrc
  // were missing with and without a login shell). Off, nothing there needs to be readable.
  args.push(...configFlag('features.shell_snapshot', tomlValue(false)));
  // Linux (0.169.0) has no per-socket allowlist: with the proxy on every socket is blocked, and the one
  // switch that opens sockets opens all of them. So a socket is granted only where Codex can hold it:
  // macOS Seatbelt, the exact socket file (a `subpath` rule: a folder would open every socket below it),
  // and only with the proxy on (NETWORK_FLAG_VALUES; without it Seatbelt allows all outbound network).
  // Read from openai/codex sandboxing/src/seatbelt.rs, not measured (docs/sandbox-sockets.md).
  if (facts.platform === 'darwin' && facts.apiSocket && !readOnly) {
    args.push(...configFlag(key('network.unix_sockets'), inlineTable([[facts.apiSocket, 'allow']])));
  }
  if (approvalPolicy === 'on-request') {
    args.push(...configFlag('features.exec_permission_approvals', tomlValue(true)));
    args.push(...configFlag('features.request_permissions_tool', tomlValue(true)));
    // The agent may ask the person questions (request_user_input) where someone answers approvals: codex
    // 0.169.0 refuses the tool outside its plan collaboration mode unless this feature is on, and then
    // sends the questions as optional (`isBlocking: false`; docs/architecture.md "Questions and elicitations").
    args.push(...configFlag('features.default_mode_request_user_input', tomlValue(true)));
  }
  args.push(...mcp, 'app-server');

  const writes = policy.rules.filter((r) => r.access === 'write').map((r) => r.path);
  const writableRoots =
    plan || readOnly ? [] : [...new Set([profile.cwd, ...writes.filter((d) => entries.filesystem[d] === 'write'), ...(cacheDir ? [cacheDir] : [])])];
  return {
    profile: profile.name,
    sandboxed: true,
    codexArgs: args,
    env: cacheDir ? cacheEnv(cacheDir) : {},
    filesystem: entries.filesystem,
    sources: entries.sources,
    specials,
    warnings: [...policy.warnings.map(formatProblem), ...scan.warnings.map(formatProblem), ...entries.warnings],
    approvalPolicy,
    permissionsExtends: null,
    readOnly: plan || readOnly,
    missingReads: grants.missing.map((r) => ({ path: r.path, source: r.source })),
    cacheDir,
    writableRoots,
    mcpServers,
    mailbox: mailbox && entries.filesystem[mailbox] === 'write' ? mailbox : null,
  };
}

/** Parameters of `thread/start` and `thread/resume` derived from a launch (codex 0.169.0 `ThreadStartParams`). */
export interface ThreadParams {
  approvalPolicy: 'on-request' | 'never';
  /** Pinned: a Codex config can route approvals to a model reviewer. */
  approvalsReviewer: 'user';
  cwd: string;
  /** Only when the profile sets one; otherwise the caller picks `model/list`'s default. */
  model?: string;
  /** Only without sandbox. Never sent while a permission profile is active (Codex would drop it). */
  sandbox?: 'danger-full-access';
}

/**
 * Thread parameters for `profile` launched as `launch` (developerInstructions are added by the
 * caller). Sends `sandbox: "danger-full-access"` only when not sandboxed, and no sandbox key otherwise.
 */
export function threadParams(launch: CodexLaunch, profile: ResolvedProfile): ThreadParams {
  const params: ThreadParams = { approvalPolicy: launch.approvalPolicy, approvalsReviewer: 'user', cwd: profile.cwd };
  if (profile.model) params.model = profile.model;
  if (!launch.sandboxed) params.sandbox = 'danger-full-access';
  return params;
}
