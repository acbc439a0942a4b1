/**
 * The table's schema (`angelia.toml`; field meanings in README and docs/security-model.md).
 * Every object is strict: an unknown key is an error naming its full path, because a misspelt
 * `sanbox` silently defaulting to the less safe value was a real failure. Sections: `defaults`,
 * `capabilities.<name>` (capabilitySchema.ts), `profiles.<name>`. Chat-platform fields of other tools
 * (routes, owners, mentions, pacing, shell) do not exist here: writing one is an error.
 */
import { z } from 'zod';
import { CAPABILITY_FIXES, CAPABILITY_KEYS, CAPABILITY_KINDS, capabilitySchema, ENV_NAME, type CapabilityKind } from './capabilitySchema';
import { STRIPPED_ENV } from '../launch/env';

/** Permission modes (as Claude Code names them). Any other value is a load error, never a fallback. */
export const PERMISSION_MODES = ['default', 'acceptEdits', 'bypassPermissions', 'plan'] as const;
/** One of PERMISSION_MODES. */
export type PermissionMode = (typeof PERMISSION_MODES)[number];

/** Reasoning efforts a profile may name (passed on each `turn/start`). */
export const EFFORTS = ['low', 'medium', 'high', 'xhigh', 'max'] as const;
/** One of EFFORTS. */
export type Effort = (typeof EFFORTS)[number];

/** Backends. Only Codex for now; the seam stays open for others. */
export const BACKENDS = ['codex'] as const;
/** One of BACKENDS. */
export type Backend = (typeof BACKENDS)[number];

/** Profile names: one word of letters, digits, `_` and `-` (they appear in `-c` keys and file names). */
export const PROFILE_NAME = /^[A-Za-z0-9_-]+$/;

/** A model name: one word that does not start with `-` (so it can never read as a flag). */
export const MODEL_NAME = /^[^\s-]\S*$/;

const nameList = z.array(z.string().min(1)).default([]);
/** `accept_from` / `answer_from`: profile names, or `"*"` (alone or in the list) for every profile. */
const profileRefs = z.union([z.literal('*'), z.array(z.string().min(1))]).default([]);

/** `[defaults]`: capabilities every profile gets or is denied, and limits in minutes. */
export const defaultsSchema = z.strictObject({
  capabilities: nameList,
  deny: nameList,
  permission_timeout_minutes: z.number().positive().max(35_000).default(10),
  turn_stall_minutes: z.number().min(0).max(35_000).default(60),
  idle_exit_minutes: z.number().positive().max(35_000).default(30),
});

/** `[profiles.<name>]`: the fields this version reads. Paths are resolved by load.ts. */
export const profileSchema = z.strictObject({
  cwd: z.string().min(1),
  backend: z.enum(BACKENDS).default('codex'),
  bin: z.string().min(1).optional(),
  permission_mode: z.enum(PERMISSION_MODES).default('acceptEdits'),
  sandbox: z.boolean().default(true),
  add_dirs: z.array(z.string().min(1)).default([]),
  /**
   * Folders (or files) the agent may read besides its own folder and add_dirs: nothing else in HOME is
   * readable (docs/security-model.md "Filesystem: private by default"). Absent: READ_DIRS_STARTER.
   */
  read_dirs: z.array(z.string().min(1)).optional(),
  model: z.string().regex(MODEL_NAME, { error: 'must be one word that does not start with "-"' }).optional(),
  effort: z.enum(EFFORTS).optional(),
  capabilities: nameList,
  except: nameList,
  deny: nameList,
  unsafe_ok: z.boolean().default(false),
  isolated: z.boolean().default(false),
  shared_write: z.boolean().default(false),
  accept_from: profileRefs,
  answer_from: profileRefs,
  media_tags: z.boolean().default(false),
  /**
   * Variables of Angelia's environment passed to the agent's commands on purpose (names only; the value
   * is Angelia's): every other variable is kept from them (docs/security-model.md "Environment of the
   * agent's commands"). Not the ones Angelia never gives Codex (codex/strippedEnv.ts).
   */
  env: z.array(z.string()
    .regex(ENV_NAME, { error: 'must be a variable NAME (letters, digits, "_"; not starting with a digit), never a value' })
    .refine((n) => !(STRIPPED_ENV as readonly string[]).includes(n), { error: 'is a variable Angelia never gives to Codex (a model key or its own channel)' })).default([]),
});

/**
 * What `read_dirs` is when a profile leaves it out: toolchains that live in HOME (docs/security-model.md
 * "Filesystem: private by default"). Only those that exist are given (compile's plan names the rest).
 * Not `~/.cargo` itself (its credentials.toml) nor `~/.local` (keyrings, other tools' data).
 */
export const READ_DIRS_STARTER: readonly string[] = ['~/.local/bin', '~/.cargo/bin', '~/.nvm', '~/.pyenv', '~/.rustup'];

/** The whole table. */
export const tableSchema = z.strictObject({
  defaults: defaultsSchema.prefault({}),
  capabilities: z.record(z.string(), capabilitySchema).default({}),
  profiles: z.record(z.string(), profileSchema),
});

/** The table as validated, before paths are resolved. */
export type RawTable = z.output<typeof tableSchema>;
/** One profile as validated, before paths are resolved. */
export type RawProfile = z.output<typeof profileSchema>;

/** A one-line hint per field, used as the `fix` of an error about that field. */
export const FIELD_FIXES: Record<string, string> = {
  cwd: "set cwd to the profile's folder, e.g. cwd = \"~/assistants/coder\"",
  backend: 'use backend = "codex" or leave it out',
  bin: 'give the full path of the codex executable, or leave bin out to use the bundled one',
  permission_mode: `use one of ${PERMISSION_MODES.join(', ')}`,
  sandbox: 'use sandbox = true (recommended) or sandbox = false',
  add_dirs: 'use a list of folders, e.g. add_dirs = ["~/projects/site"]',
  read_dirs: 'use a list of folders the agent may read, e.g. read_dirs = ["~/.local/bin", "~/notes"] (leave it out for the toolchain starter set)',
  model: 'use one model name, e.g. model = "gpt-5.5", or leave it out',
  effort: `use one of ${EFFORTS.join(', ')}, or leave it out`,
  permission_timeout_minutes: 'use a number of minutes greater than 0',
  turn_stall_minutes: 'use a number of minutes (0 = never stop a stalled turn)',
  idle_exit_minutes: 'use a number of minutes greater than 0',
  profiles: 'add at least a [profiles.<name>] table with a cwd',
  capabilities: 'list capability names defined under [capabilities.<name>], e.g. capabilities = ["github"]',
  except: 'list default capability names this profile does not get, e.g. except = ["github"]',
  deny: 'list capability names to deny, e.g. deny = ["github"]',
  unsafe_ok: 'use unsafe_ok = true or false',
  isolated: 'use isolated = true or false',
  shared_write: 'use shared_write = true or false',
  accept_from: 'list profile names, e.g. accept_from = ["coder"], or "*" for every profile',
  answer_from: 'list profile names, e.g. answer_from = ["coder"], or "*" for every profile',
  media_tags: 'use media_tags = true or false',
  ...CAPABILITY_FIXES,
  // One key for both: a profile's env goes to its agent's commands, an mcp capability's to its server.
  env: 'list variable NAMES, e.g. env = ["GITHUB_TOKEN"] (a profile: passed to its agent\'s commands; an mcp capability: to its server), and put the values in <state>/env',
};

/**
 * Known keys of the object at a key path (e.g. `[]`, `['profiles','coder']`), for "did you mean".
 * `input` is the object found at that path (a capability's keys depend on its `kind`).
 */
export function knownKeys(path: readonly PropertyKey[], input?: unknown): string[] {
  if (path.length === 0) return Object.keys(tableSchema.shape);
  if (path.length === 1 && path[0] === 'defaults') return Object.keys(defaultsSchema.shape);
  if (path.length === 2 && path[0] === 'profiles') return Object.keys(profileSchema.shape);
  if (path.length === 2 && path[0] === 'capabilities') {
    const kind = input !== null && typeof input === 'object' ? (input as { kind?: unknown }).kind : undefined;
    if (typeof kind === 'string' && (CAPABILITY_KINDS as readonly string[]).includes(kind)) return CAPABILITY_KEYS[kind as CapabilityKind];
  }
  return [];
}
