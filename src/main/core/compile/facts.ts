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
  /** `<state>/workspace`: holds `_shared/`, `_capabilities/` and `_common/` (instance/paths.ts). */
  workspace: string;
  /**
   * Whether the workspace folder exists (default true). Without it there is no `_common/` to give or
   * deny (policy.ts: written to by every profile not isolated, denied to an isolated one).
   */
  workspaceExists?: boolean;
  /** `CODEX_HOME` (default `~/.codex`); its stores are denied like `~/.codex`'s. */
  codexHome: string;
  /** Angelia's API socket, or null. Opened to agents only where Codex can allow one socket (macOS). */
  apiSocket: string | null;
  /** `process.platform` of the machine the agent runs on. */
  platform: NodeJS.Platform;
  /**
   * Names of the MCP servers in the user's Codex `config.toml` (see userConfig.ts). Each one a profile
   * is not given is denied (`mcp__<name>`) and switched off with `mcp_servers.<name>.enabled=false`.
   */
  userMcpServers?: string[];
  /**
   * Skills installed user-wide, as absolute folder paths: `$CODEX_HOME/skills/<name>` and
   * `~/.agents/skills/<name>` (Codex loads both for every project). A denied skill there is a conflict.
   */
  userSkills?: string[];
  /**
   * Names of the entries of the state folder when the facts were gathered (`readdir`, sorted by
   * gather.ts). Each one but `workspace` is denied (floor.ts `stateScanRules`). Absent:
   * only the names of STATE_PRIVATE are denied.
   */
  stateEntries?: string[];
  /**
   * Names of the entries of each Codex home (`~/.codex` and `CODEX_HOME`, keyed by absolute path) when
   * the facts were gathered. Each one but CODEX_READABLE is denied (floor.ts `codexHomeScanRules`): codex
   * 0.169.0 keeps every thread of every profile in `state_5.sqlite`, `thread_history_1.sqlite` and
   * `logs_2.sqlite` there (measured), names that change with Codex versions. Absent: only CODEX_STORES.
   */
  codexHomeEntries?: Record<string, string[]>;
  /**
   * What a command needs to read of the Codex executable a profile runs (`bin`, null for the bundled
   * one), by real path: its package folder `vendor/<target triple>` (the binary, `codex-path/rg` Codex
   * puts on PATH, its bubblewrap), or the executable alone. Codex 0.169.0 starts every command through
   * that binary inside the sandbox: without a read entry on it no command runs ("bwrap: execvp
   * …/codex: No such file or directory", measured). gather.ts `codexReadsOf`. Absent: none.
   */
  codexReads?: (bin: string | null) => string[];
  /**
   * What the `angelia` command needs to read inside the sandbox (launch/agentCommand.ts), by real
   * path: the Node executable (or the Electron app's folder) and Angelia's built CLI (`out/`,
   * `package.json`). gather.ts `angeliaReadsOf`. Absent: none.
   */
  angeliaReads?: string[];
  /**
   * Whether a path exists now (lstat: a dangling symbolic link exists). Read grants are given only for
   * what exists (codexProfile.ts); on Linux it also keeps several entries under one missing folder from
   * breaking bubblewrap (entries.ts `bwrapSafeEntries`). Absent: every path is taken to exist (a pure
   * compile, as in the golden tests).
   */
  exists?: (path: string) => boolean;
  /**
   * Whether the user's Codex config names `project_root_markers` (userConfig.ts
   * `readUserSetsRootMarkers`); then compile leaves Codex's project root search as it is (projectRoot.ts).
   * Absent: false.
   */
  codexSetsRootMarkers?: boolean;
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
  /**
   * True for a folder: its settings.json rule is `Read(<path>/**)`; false for an exact path
   * (`Read(<path>)`). Codex entries do not distinguish (a folder entry covers what is below it).
   */
  folder: boolean;
  /**
   * True for a Codex glob pattern, passed as is, where any other path holding `*`, `?` or `[` is left
   * out. Never in settings.json. Compile itself makes none (floor.ts `isTransient` says why).
   */
  glob?: boolean;
}
