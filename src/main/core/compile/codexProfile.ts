/**
 * A profile compiled to a Codex launch (product.md §2 "Permission profile for Codex", seed-spec.md
 * §4.2, §4.5, §4.6): the `codex` argv with one named permission profile `angelia` in `-c` flags, the
 * added environment, and the thread parameters. Pure: no file is read or written here.
 * Protocol facts: codex 0.169.0 (shared/design/codex-app-server.md §5, §9; network flags measured with
 * `codex sandbox` on Linux, see test/integration/sandbox-compile.test.ts).
 */
import { join } from 'node:path';
import { AppFailure } from '../../../shared/result';
import type { LoadedTable, ResolvedProfile } from '../table/load';
import { cacheDirFor, cacheEnv } from './cache';
import { foldRules } from './entries';
import type { Access, CompileFacts, FsRule } from './facts';
import { floorRules } from './floor';
import { configFlag, inlineTable, tomlValue } from './toml';

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
  /** Where each filesystem entry came from (same keys as `filesystem`). */
  sources: Record<string, string>;
  warnings: string[];
  approvalPolicy: 'on-request' | 'never';
  permissionsExtends: ':workspace' | ':read-only' | null;
  /** The profile's own package cache folder (create it with `ensureCacheDirs` before spawning), or null. */
  cacheDir: string | null;
  /** Folders the agent can write: cwd, add_dirs and its cache; [] in plan mode; ["/"] without sandbox. */
  writableRoots: string[];
}

/** The network part of a sandboxed launch, verified against codex 0.169.0 on Linux. */
export const NETWORK_FLAG_VALUES: ReadonlyArray<readonly [string, string]> = [
  [`permissions.${PERMISSION_PROFILE_ID}.network.enabled`, tomlValue(true)],
  ['features.network_proxy', tomlValue(true)],
  [`permissions.${PERMISSION_PROFILE_ID}.network.mode`, tomlValue('full')],
  [`permissions.${PERMISSION_PROFILE_ID}.network.domains`, inlineTable([['*', 'allow']])],
];

const MCP_NAME = /^[A-Za-z0-9_-]+$/;

function approvalPolicyOf(profile: ResolvedProfile): 'on-request' | 'never' {
  return profile.permissionMode === 'default' || profile.permissionMode === 'acceptEdits' ? 'on-request' : 'never';
}

function mcpFlags(facts: CompileFacts): string[] {
  const out: string[] = [];
  for (const name of facts.userMcpServers ?? []) {
    if (!MCP_NAME.test(name)) {
      throw new AppFailure({
        code: 'mcp-name',
        message: `the MCP server ${JSON.stringify(name)} in your Codex config cannot be switched off from Angelia (its name is not one word)`,
        where: join(facts.codexHome, 'config.toml'),
        fix: 'rename it there to letters, digits, "_" and "-" only',
      });
    }
    out.push(...configFlag(`mcp_servers.${name}.enabled`, tomlValue(false)));
  }
  return out;
}

/**
 * Compiles `profileName` of `table` for Codex on the machine described by `facts`. Throws AppFailure
 * `profile-unknown` (no such profile), `mcp-name` (a user MCP server `-c` cannot address) or
 * `compile-unencodable` (a path TOML cannot hold).
 */
export function compileCodexLaunch(table: Pick<LoadedTable, 'file' | 'profiles'>, profileName: string, facts: CompileFacts): CodexLaunch {
  const profile = Object.hasOwn(table.profiles, profileName) ? table.profiles[profileName] : undefined;
  if (!profile) {
    throw new AppFailure({
      code: 'profile-unknown',
      message: `there is no profile ${JSON.stringify(profileName)}`,
      where: `${table.file}: profiles.${profileName}`,
      fix: `use one of: ${Object.keys(table.profiles).join(', ') || '(none yet: add a [profiles.<name>] table)'}`,
    });
  }
  const approvalPolicy = approvalPolicyOf(profile);
  const docFlag = configFlag('project_doc_fallback_filenames', tomlValue(['CLAUDE.md']));
  if (!profile.sandbox) {
    return {
      profile: profile.name, sandboxed: false,
      codexArgs: [...docFlag, ...mcpFlags(facts), 'app-server'],
      env: {}, filesystem: {}, sources: {},
      warnings: [`sandbox = false: profile ${profile.name} runs with FULL ACCESS to this computer (no permission profile, no deny rule holds)${approvalPolicy === 'never' ? ' and never asks' : ''}`],
      approvalPolicy, permissionsExtends: null, cacheDir: null, writableRoots: ['/'],
    };
  }

  const plan = profile.permissionMode === 'plan';
  const floor = floorRules(profile, table.profiles, facts);
  const cacheDir = plan ? null : cacheDirFor(facts.stateDir, profile.name);
  const rules: FsRule[] = [
    ...profile.addDirs.map((path): FsRule => ({ path, access: 'write', source: 'add_dirs' })),
    ...(cacheDir ? [{ path: cacheDir, access: 'write', source: "this profile's package cache" } as FsRule] : []),
    ...floor.rules,
    { path: join(profile.cwd, '.codex'), access: 'read', source: 'launch file (Codex project config)' },
    { path: join(profile.cwd, '.agents'), access: 'read', source: 'launch file (skills)' },
  ];
  const entries = foldRules(rules, plan);
  const permissionsExtends = plan ? ':read-only' : ':workspace';
  const key = (rest: string): string => `permissions.${PERMISSION_PROFILE_ID}.${rest}`;
  const args: string[] = [
    ...docFlag,
    ...configFlag('default_permissions', tomlValue(PERMISSION_PROFILE_ID)),
    ...configFlag(key('extends'), tomlValue(permissionsExtends)),
  ];
  const fsPairs = Object.entries(entries.filesystem);
  if (fsPairs.length > 0) args.push(...configFlag(key('filesystem'), inlineTable(fsPairs)));
  for (const [k, v] of NETWORK_FLAG_VALUES) args.push(...configFlag(k, v));
  // Linux (0.169.0) has no per-socket allowlist: with the proxy on every socket is blocked, and the one
  // switch that opens sockets opens all of them. So a socket is granted only where Codex can hold it.
  if (facts.platform === 'darwin' && facts.apiSocket) {
    args.push(...configFlag(key('network.unix_sockets'), inlineTable([[facts.apiSocket, 'allow']])));
  }
  if (approvalPolicy === 'on-request') {
    args.push(...configFlag('features.exec_permission_approvals', tomlValue(true)));
    args.push(...configFlag('features.request_permissions_tool', tomlValue(true)));
  }
  args.push(...mcpFlags(facts), 'app-server');

  const writableRoots = plan ? [] : [...new Set([profile.cwd, ...profile.addDirs.filter((d) => entries.filesystem[d] === 'write'), ...(cacheDir ? [cacheDir] : [])])];
  return {
    profile: profile.name, sandboxed: true, codexArgs: args,
    env: cacheDir ? cacheEnv(cacheDir) : {},
    filesystem: entries.filesystem, sources: entries.sources,
    warnings: [...floor.warnings, ...entries.warnings],
    approvalPolicy, permissionsExtends, cacheDir, writableRoots,
  };
}

/** Parameters of `thread/start` and `thread/resume` derived from a launch (seed-spec.md §4.5). */
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
