/**
 * A profile's whole policy, the one source both outputs of compile derive from: the deny rules written
 * to `<cwd>/.claude/settings.json` (rules.ts) and the Codex permission profile passed at launch
 * (codexProfile.ts). Items in this order: state and credential floor, other
 * profiles, shared read-only, launch files, denied capabilities (and their secrets), user MCP servers
 * not given, `_common/` for an isolated profile; then the writable folders; and, apart, the
 * read grants the profile names (`reads`: read_dirs, given skills). Pure.
 */
import { join } from 'node:path';
import type { TableProblem } from '../table/errors';
import type { LoadedTable, ResolvedProfile } from '../table/load';
import { allowedCapabilities, deniedCapabilities } from '../table/types';
import type { CompileFacts, FsRule } from './facts';
import { floorRules } from './floor';

/**
 * Launch files of a Codex profile, relative to its cwd: read-only to the agent (it must not
 * rewrite its own deny rules). Not `.claude/settings.json`, `settings.local.json` and `angelia-compiled.json`
 * one by one: the whole `.claude/` folder is one entry, because on codex 0.169.0 (Linux, bwrap) two
 * entries for missing files below one missing folder inside a writable root stop the sandbox from
 * starting ("Can't bind mount … on …/.claude: No such file or directory", measured), and the folder
 * holds nothing else the agent needs to write. A missing folder is masked by Codex (the agent cannot
 * create it); an existing one cannot be written, renamed or removed (measured).
 */
export const LAUNCH_FILES: ReadonlyArray<{ rel: string; folder: boolean; what: string }> = [
  { rel: '.claude', folder: true, what: 'deny rules and compiled record' },
  { rel: '.codex', folder: true, what: 'Codex project config, hooks and rules' },
  { rel: '.agents', folder: true, what: 'skills' },
];

/** A deny of an MCP server by name: settings.json rule `mcp__<name>`. */
export interface McpDeny {
  name: string;
  source: string;
}

/** The policy of one profile. */
export interface ProfilePolicy {
  /** Filesystem rules: deny and read rules in the order above, then write rules. */
  rules: FsRule[];
  /** MCP servers denied, in order: denied mcp capabilities, then user-level servers not given. */
  mcpDeny: McpDeny[];
  /** Names of user-level Codex MCP servers (CODEX_HOME/config.toml) not given: switched off at launch. */
  userMcpOff: string[];
  /** Allowed mcp capability names, sorted (the only servers that may load). */
  mcpAllowed: string[];
  /** `permissions.additionalDirectories`: allowed directory capabilities, then `_common/`. */
  dirs: string[];
  /** `<workspace>/_common`, when the profile is given it (create it on apply), else null. */
  common: string | null;
  /**
   * What the profile names for its agent to read beyond its folders (docs/security-model.md
   * "Filesystem: private by default"): its `read_dirs` (or the starter set), and each skill it is given
   * with that skill's secrets. Read grants, not deny rules: kept out of settings.json (`rules`), given
   * at launch only where they exist (codexProfile.ts), recorded in the launch guard (rules.ts `wantRead`).
   */
  reads: FsRule[];
  warnings: TableProblem[];
}

/**
 * The policy of `profile` in `table` on the machine of `facts`. The item order is the order of the
 * deny rules in settings.json (de-duplicated by rules.ts).
 */
export function profilePolicy(table: Pick<LoadedTable, 'profiles' | 'capabilities'>, profile: ResolvedProfile, facts: CompileFacts): ProfilePolicy {
  const allowed = allowedCapabilities(table, profile);
  const denied = deniedCapabilities(table, profile);
  const allowedDirs = allowed.flatMap((c) => (c.kind === 'directory' ? [c.path] : []));
  const floor = floorRules(profile, table.profiles, facts, allowedDirs);
  const rules: FsRule[] = [...floor.rules];
  const workspaceExists = facts.workspaceExists ?? true;

  for (const sub of ['_shared', '_capabilities']) {
    const path = join(facts.workspace, sub);
    rules.push(
      profile.sharedWrite
        ? { path, access: 'write', source: 'shared_write', folder: true }
        : { path, access: 'read', source: 'shared doctrine and capabilities (read-only without shared_write)', folder: true },
    );
  }
  for (const f of LAUNCH_FILES) rules.push({ path: join(profile.cwd, f.rel), access: 'read', source: `launch file (${f.what})`, folder: f.folder });

  const mcpDeny: McpDeny[] = [];
  for (const cap of denied) {
    if (cap.kind === 'mcp') mcpDeny.push({ name: cap.name, source: `denied capability ${cap.name}` });
    if (cap.kind === 'skill' || cap.kind === 'directory') rules.push({ path: cap.path, access: 'deny', source: `denied capability ${cap.name}`, folder: true });
    if (cap.kind === 'skill' || cap.kind === 'mcp') {
      for (const secret of cap.secrets) rules.push({ path: secret, access: 'deny', source: `secret of denied capability ${cap.name}`, folder: false });
    }
  }
  const mcpAllowed = allowed
    .filter((c) => c.kind === 'mcp')
    .map((c) => c.name)
    .sort();
  const userMcpOff = (facts.userMcpServers ?? []).filter((n) => !mcpAllowed.includes(n));
  for (const name of userMcpOff) {
    if (!mcpDeny.some((d) => d.name === name)) mcpDeny.push({ name, source: 'user-level Codex MCP server not given' });
  }

  const commonPath = join(facts.workspace, '_common');
  if (profile.isolated && workspaceExists) rules.push({ path: commonPath, access: 'deny', source: 'isolated: no _common/', folder: true });

  for (const dir of profile.addDirs) rules.push({ path: dir, access: 'write', source: 'add_dirs', folder: true });
  for (const cap of allowed)
    if (cap.kind === 'directory') rules.push({ path: cap.path, access: 'write', source: `directory capability ${cap.name}`, folder: true });
  const common = !profile.isolated && workspaceExists ? commonPath : null;
  if (common) rules.push({ path: common, access: 'write', source: '_common/ (shared by every non-isolated profile)', folder: true });

  const reads: FsRule[] = profile.readDirs.map((path) => ({
    path,
    access: 'read',
    source: profile.readDirsStarter ? 'read_dirs (starter set: a toolchain in your home)' : 'read_dirs',
    folder: true,
  }));
  for (const cap of allowed) {
    if (cap.kind !== 'skill') continue;
    reads.push({ path: cap.path, access: 'read', source: `skill capability ${cap.name}`, folder: true });
    for (const secret of cap.secrets) reads.push({ path: secret, access: 'read', source: `secret of skill capability ${cap.name}`, folder: false });
  }

  return { rules, mcpDeny, userMcpOff, mcpAllowed, dirs: [...new Set([...allowedDirs, ...(common ? [common] : [])])], common, reads, warnings: floor.warnings };
}
