/**
 * The environment facts compile needs besides the table, and the filesystem rule type it produces.
 * Compile is a pure function of (table, facts); whoever calls it gathers the facts.
 */

/** Facts about the machine and the instance, all paths absolute. */
export interface CompileFacts {
  /** The user's home folder (`~` of every credential location). */
  home: string;
  /** The instance's state folder (`ANGELIA_STATE_DIR` or `~/.angelia`). */
  stateDir: string;
  /** `<state>/workspace` (reserved for the `_shared/` and `_common/` entries of a later issue). */
  workspace: string;
  /** `CODEX_HOME` (default `~/.codex`); its stores are denied like `~/.codex`'s. */
  codexHome: string;
  /** Angelia's API socket, or null. Opened to agents only where Codex can allow one socket (macOS). */
  apiSocket: string | null;
  /** `process.platform` of the machine the agent runs on. */
  platform: NodeJS.Platform;
  /**
   * Names of the MCP servers in the user's Codex `config.toml` (see userConfig.ts). No profile is
   * given MCP servers yet, so each is switched off with `mcp_servers.<name>.enabled=false`.
   */
  userMcpServers?: string[];
}

/** Access of one Codex filesystem entry (codex 0.169.0 `permissions.<id>.filesystem` values). */
export type Access = 'read' | 'write' | 'deny';

/** One filesystem rule with the reason it exists (shown by `angelia compile` and the inspector). */
export interface FsRule {
  /** Absolute path (as produced; entries.ts skips any that are not). */
  path: string;
  access: Access;
  /** Where it came from, e.g. "credential location", "add_dirs", "profile coder's folder". */
  source: string;
}
