/**
 * The table's schema (`angelia.toml`; field meanings in README and docs/security-model.md).
 * Every object is strict: an unknown key is an error naming its full path, because a misspelt
 * `sanbox` silently defaulting to the less safe value was a real failure. Sections: `defaults`,
 * `capabilities.<name>` (capabilitySchema.ts), `profiles.<name>`. Chat-platform fields of other tools
 * (routes, owners, mentions, pacing, shell) do not exist here: writing one is an error.
 */
import { z } from 'zod';
import { envNameSchema, PROFILE_FIXES, profileTableShape } from '../../../shared/profileFields';
import { CAPABILITY_FIXES, CAPABILITY_KEYS, CAPABILITY_KINDS, capabilitySchema, type CapabilityKind } from './capabilitySchema';
import { STRIPPED_ENV } from '../launch/env';

// A profile's fields are declared once, in src/shared/profileFields.ts (the editor derives from them too).
export { BACKENDS, EFFORTS, MODEL_NAME, PERMISSION_MODES, PROFILE_NAME, READ_DIRS_STARTER } from '../../../shared/profileFields';
export type { Backend, Effort, PermissionMode } from '../../../shared/profileFields';

const nameList = z.array(z.string().min(1)).default([]);

/** `[defaults]`: capabilities every profile gets or is denied, and limits in minutes. */
export const defaultsSchema = z.strictObject({
  capabilities: nameList,
  deny: nameList,
  permission_timeout_minutes: z.number().positive().max(35_000).default(10),
  turn_stall_minutes: z.number().min(0).max(35_000).default(60),
  idle_exit_minutes: z.number().positive().max(35_000).default(30),
  // Agents started before the first message (chats/warm/planner.ts; README "The table"): how many may
  // wait warm at once, and the memory (MB, their Codex processes' RSS summed) they may hold. 0 = none.
  warm_agents: z.number().int().min(0).max(100).default(3),
  warm_memory_mb: z.number().int().min(0).max(1_000_000).default(1024),
});

/**
 * `[profiles.<name>]`: the fields this version reads (src/shared/profileFields.ts `PROFILE_FIELDS`),
 * strict. Paths are resolved by load.ts. `env` also refuses the variables Angelia never gives Codex
 * (launch/env.ts; docs/security-model.md "Environment of the agent's commands").
 */
export const profileSchema = z.strictObject({
  ...profileTableShape,
  env: z
    .array(
      envNameSchema.refine((n) => !(STRIPPED_ENV as readonly string[]).includes(n), {
        error: 'is a variable Angelia never gives to Codex (a model key or its own channel)',
      }),
    )
    .default([]),
});

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
  ...PROFILE_FIXES,
  permission_timeout_minutes: 'use a number of minutes greater than 0',
  turn_stall_minutes: 'use a number of minutes (0 = never stop a stalled turn)',
  idle_exit_minutes: 'use a number of minutes greater than 0',
  warm_agents: 'use a whole number from 0 (never start an agent before the first message) to 100',
  warm_memory_mb: 'use a whole number of megabytes from 0 (never start an agent before the first message) to 1000000',
  profiles: 'add at least a [profiles.<name>] table with a cwd',
  ...CAPABILITY_FIXES,
  // One key for both (the profile's words name both): a profile's env goes to its agent's commands, an mcp capability's to its server.
  env: PROFILE_FIXES.env,
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
