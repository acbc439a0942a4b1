/**
 * The launch guard FILE (docs/codebase-map.md; the shape is a contract with launch/guard.ts, which
 * alone reads it, and launch/check.ts, which checks it before every start): `<state>/compiled/<encodeURIComponent(profile)>.json`, mode 600 in a
 * folder of mode 700, written by `angelia compile --write` at the same time as the profile's record.
 * It lives in the state folder, which every profile is denied, so an agent that edits or deletes its
 * own settings or record cannot disable the check.
 */
import { join } from 'node:path';
import { z } from 'zod';
import type { LoadedTable, ResolvedProfile } from '../table/types';

/** Mode of a guard file and of its folder. */
export const GUARD_FILE_MODE = 0o600;
/** Mode of `<state>/compiled`. */
export const GUARD_DIR_MODE = 0o700;

/** `<stateDir>/compiled/<encodeURIComponent(profile)>.json`. Pure. */
export function guardPath(stateDir: string, profile: string): string {
  return join(stateDir, 'compiled', `${encodeURIComponent(profile)}.json`);
}

/**
 * The guard file: `version` 1; the `profile` name; its absolute `cwd` at compile time; `backend`
 * "codex"; `deny`: every deny rule compile wanted, in settings.json syntax (`Read(/abs/**)`,
 * `Edit(/abs/file)`, `mcp__name`); `codexSandbox`: false only for `sandbox = false`; `compiledAt`: ISO
 * time. Extra keys are ignored when read.
 */
export const guardFileSchema = z.object({
  version: z.literal(1),
  profile: z.string().min(1),
  cwd: z
    .string()
    .min(1)
    .refine((p) => p.startsWith('/'), { error: 'must be an absolute path' }),
  /** Written as "codex"; read as any name, so a check can say "compiled for another backend". */
  backend: z.string().min(1),
  deny: z.array(z.string()),
  codexSandbox: z.boolean(),
  /**
   * The folders the profile may write, as compiled (its write rules: add_dirs, directory capabilities,
   * `_common/`). A start that would write anywhere else is refused until the next compile
   * (launch/check.ts `loosenings`). Absent in guards written before it existed: such a
   * guard allows no write beyond the profile's folder until compiled again (fail closed).
   */
  write: z.array(z.string()).optional(),
  /**
   * True when compiled sandboxed with `permission_mode = "plan"` (a read-only sandbox: Codex's `:read-only`; a
   * profile with `sandbox = false` has full access in every mode, so false for it). A
   * start in any other mode is refused until the next compile (launch/check.ts), as accepting a table
   * must not make a profile writable by itself. Absent in guards written before it existed: read as
   * true (fail closed), so a profile not in plan mode needs one compile.
   */
  readOnly: z.boolean().optional(),
  /**
   * The MCP servers the profile may start, as compiled (`outsideSandbox`): one `<name> <definition>`
   * per allowed mcp capability. Codex starts them OUTSIDE the sandbox (compile/mcpFlags.ts), so a server
   * given (or redefined) since is a loosening: a start is refused until the next compile
   * (launch/check.ts `loosenings`). Absent in guards written before it existed: read as
   * none (fail closed), so a profile with an MCP server needs one compile.
   */
  mcp: z.array(z.string()).optional(),
  /**
   * The profile's `bin` as compiled (null: the bundled Codex). Codex runs outside the sandbox and is
   * what enforces it, so another executable waits for the next compile. Absent in guards written before
   * it existed: read as null (fail closed), so a profile with a `bin` needs one compile.
   */
  bin: z.string().nullable().optional(),
  /**
   * What the profile names for its agent to read, as compiled (rules.ts `wantRead`: its `read_dirs` or
   * the starter set, the skills it is given and their secrets). A start whose profile names one more
   * waits for the next compile (launch/check.ts `loosenings`). Absent in guards written
   * before HOME became private by default (docs/security-model.md): read as none (fail closed), so each
   * profile needs one compile, whose plan says what the agent may read now.
   */
  read: z.array(z.string()).optional(),
  /**
   * The variable names the profile passes to its agent's commands on purpose (`env`), as compiled. A name
   * the last compile did not record waits for the next one (launch/check.ts `loosenings`):
   * its value may be a secret. Absent in guards written before it existed: read as none.
   */
  env: z.array(z.string()).optional(),
  compiledAt: z.iso.datetime(),
});

/** A guard file as written and validated. */
export type GuardFile = z.output<typeof guardFileSchema>;

/** The guard's text as written: pretty JSON with a final newline, keys in the contract's order. */
export function guardText(guard: GuardFile): string {
  const { version, profile, cwd, backend, deny, codexSandbox, write, readOnly, mcp, bin, read, env, compiledAt } = guard;
  return `${JSON.stringify({ version, profile, cwd, backend, deny, codexSandbox, write, readOnly, mcp, bin, read, env, compiledAt }, null, 2)}\n`;
}

/** What a profile runs outside its sandbox, in the guard's terms (`mcp`, `bin`). */
export interface OutsideSandbox {
  /** `<name> <JSON of command, args, url, env names>` per MCP server given, sorted by name. */
  mcp: string[];
  bin: string | null;
}

/**
 * What `profile` of `table` runs outside the sandbox: its allowed mcp capabilities (`names`: default
 * every allowed one; a launch passes the servers it defines) with their definitions, and its `bin`. Pure.
 */
export function outsideSandbox(
  table: Pick<LoadedTable, 'capabilities'>,
  profile: Pick<ResolvedProfile, 'allowed' | 'bin'>,
  names: readonly string[] = profile.allowed,
): OutsideSandbox {
  const mcp: string[] = [];
  for (const name of [...names].sort()) {
    const cap = table.capabilities[name];
    if (cap?.kind === 'mcp') mcp.push(`${name} ${JSON.stringify({ command: cap.command, args: cap.args, url: cap.url, env: cap.env })}`);
  }
  return { mcp, bin: profile.bin };
}
