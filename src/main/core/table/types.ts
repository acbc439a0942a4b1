/**
 * The table as the core uses it after loading: every path absolute, every default applied, and each
 * profile's capabilities resolved into `allowed` and `denied` (capabilities.ts `resolveAccess`).
 */
import type { TableProblem } from './errors';
import type { RawProfile } from './schema';

/** `[defaults]` after validation. Minutes are numbers of minutes; lists are capability names. */
export interface TableDefaults {
  permissionTimeoutMinutes: number;
  /** 0 = never stop a stalled turn. */
  turnStallMinutes: number;
  idleExitMinutes: number;
  /** How many agents may be started before their first message and wait (`warm_agents`; 0 = none). */
  warmAgents: number;
  /** The memory those agents' Codex processes may hold together, in MB of RSS (`warm_memory_mb`). */
  warmMemoryMb: number;
  /** Capability names every profile gets (minus its `except`). */
  capabilities: string[];
  /** Capability names every profile is denied (unless it lists one in its own `capabilities`). */
  deny: string[];
}

/** `kind = "command"`. */
export interface CommandCapability {
  name: string;
  kind: 'command';
  run: string;
  when: string;
}

/** `kind = "skill"`: `path` and `secrets` absolute. */
export interface SkillCapability {
  name: string;
  kind: 'skill';
  path: string;
  when: string | null;
  secrets: string[];
}

/** `kind = "mcp"`: exactly one of `command` or `url` is set; `env` holds variable names only. */
export interface McpCapability {
  name: string;
  kind: 'mcp';
  command: string | null;
  args: string[];
  url: string | null;
  env: string[];
  when: string | null;
  secrets: string[];
}

/** `kind = "directory"`: `path` absolute. */
export interface DirectoryCapability {
  name: string;
  kind: 'directory';
  path: string;
  when: string | null;
}

/** One resolved capability. */
export type Capability = CommandCapability | SkillCapability | McpCapability | DirectoryCapability;

/**
 * The keys load.ts resolves by hand (`resolveProfile`): paths made absolute and checked, capabilities
 * resolved into `allowed` / `denied`, lists de-duplicated. Every other key of a profile
 * (src/shared/profileFields.ts) is copied as validated, under its camelCase name (`CopiedFields`).
 */
export const RESOLVED_BY_HAND = ['cwd', 'bin', 'add_dirs', 'read_dirs', 'capabilities', 'except', 'deny', 'accept_from', 'answer_from', 'env'] as const;

/** `snake_case` → `camelCase`, as a type (`permission_mode` → `permissionMode`). */
export type Camel<S extends string> = S extends `${infer A}_${infer B}` ? `${A}${Capitalize<Camel<B>>}` : S;

/** `permission_mode` → `permissionMode`: the name of a table key in a resolved profile. */
export function camelKey<S extends string>(key: S): Camel<S> {
  return key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()) as Camel<S>;
}

/** The keys copied as validated. */
export type CopiedKey = Exclude<keyof RawProfile, (typeof RESOLVED_BY_HAND)[number]>;

/**
 * The copied fields of a resolved profile: the validated value (its default applied), null for a key
 * without a default that the table leaves out (`backend`, `permissionMode`, `sandbox` (false only when
 * the table says `sandbox = false`), `model`, `effort`, `unsafeOk`, `isolated`, `sharedWrite`,
 * `mediaTags` …; meanings in src/shared/profileFields.ts).
 */
export type CopiedFields = { [K in CopiedKey as Camel<K>]: undefined extends RawProfile[K] ? Exclude<RawProfile[K], undefined> | null : RawProfile[K] };

/** One profile with every path absolute and every default applied. */
export interface ResolvedProfile extends CopiedFields {
  name: string;
  /** Absolute path of an existing folder. */
  cwd: string;
  /** Absolute path of the Codex executable, or null for the bundled one. */
  bin: string | null;
  /** Absolute, de-duplicated, in table order. */
  addDirs: string[];
  /**
   * What the agent may read besides its folders (`read_dirs`), absolute, de-duplicated, in table order;
   * READ_DIRS_STARTER when the table leaves the field out (`readDirsStarter`). Compile gives those that
   * exist (docs/security-model.md "Filesystem: private by default").
   */
  readDirs: string[];
  /** True when `readDirs` is the starter set because the table has no `read_dirs`. */
  readDirsStarter: boolean;
  /** Capability names the profile gets, sorted (defaults minus except, plus its own, minus denied). */
  allowed: string[];
  /** Capability names the profile is denied, sorted (defaults.deny minus its own capabilities, plus its deny). */
  denied: string[];
  /** Profiles that may give it a task (`"*"` = every profile). */
  acceptFrom: string[];
  /** Profiles that may ask it a question (`"*"` = every profile). */
  answerFrom: string[];
  /** Variable names passed to the agent's commands on purpose (`env`), de-duplicated, in table order. */
  env: string[];
}

/** A loaded table. */
export interface LoadedTable {
  /** Absolute path of the file read. */
  file: string;
  defaults: TableDefaults;
  /** Every capability the table defines, by name. */
  capabilities: Record<string, Capability>;
  profiles: Record<string, ResolvedProfile>;
  /** Problems that do not stop loading, each with its key path and fix (check-config prints them). */
  warnings: TableProblem[];
}

/** The capabilities of `profile` that are allowed, in name order. */
export function allowedCapabilities(table: Pick<LoadedTable, 'capabilities'>, profile: Pick<ResolvedProfile, 'allowed'>): Capability[] {
  return profile.allowed.map((n) => table.capabilities[n]).filter((c): c is Capability => c !== undefined);
}

/** The capabilities of `profile` that are denied, in name order. */
export function deniedCapabilities(table: Pick<LoadedTable, 'capabilities'>, profile: Pick<ResolvedProfile, 'denied'>): Capability[] {
  return profile.denied.map((n) => table.capabilities[n]).filter((c): c is Capability => c !== undefined);
}
