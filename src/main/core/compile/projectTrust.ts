/**
 * The project trust a launch gives Codex on its command line, so that Codex never records one in the
 * user's Codex config (docs/security-model.md "The user's Codex config is never written").
 *
 * Measured on codex 0.169.0 (Linux; test/integration/codex-config-untouched.test.ts): at a thread start
 * with a writable sandbox (or none), when the project's trust is undecided, Codex appends
 * `[projects."<root>"] trust_level = "trusted"` to `CODEX_HOME/config.toml` — the git root when the
 * profile's folder is inside a repository (even with no `.codex` anywhere), else the folder itself when it
 * holds a `.codex` folder. A read-only thread (plan mode, the `/ask` copy) writes nothing. Decided on the
 * command line, Codex writes nothing:
 * - `trusted` (this module): AGENTS.md / CLAUDE.md and the profile's skills load as before; the
 *   folder's own `.codex/` project layer would load, which the start attestation refuses when it sets
 *   anything (codex/attest.ts), and a new profile folder gets a `.codex` FILE, not a folder, so no
 *   project layer can exist there (launch/prepare.ts `ensureSandboxPlaceholders`);
 * - `untrusted` was measured and rejected: Codex then loads no AGENTS.md (nor CLAUDE.md) at all.
 */
import { realpathSync } from 'node:fs';
import { configFlag, inlineTable, tomlValue } from './toml';

/**
 * Whether Codex would record a trust for a launch of this shape (codex 0.169.0, measured): every launch
 * that can write (a sandbox that is not read-only, or none), i.e. all but a sandboxed plan-mode profile
 * and the read-only `/ask` copy. Pure.
 */
export function needsProjectTrust(launch: { sandbox: boolean; plan: boolean; readOnly: boolean }): boolean {
  if (launch.readOnly) return false;
  return !(launch.sandbox && launch.plan);
}

/**
 * `-c projects={"<cwd>" = {trust_level = "trusted"}}` for the profile's folder as written and as its real
 * path (Codex looks a project up by both spellings), for this Codex process only. Throws AppFailure
 * `compile-unencodable` for a path TOML cannot hold.
 */
export function projectTrustFlag(cwd: string): string[] {
  let real = cwd;
  try {
    real = realpathSync(cwd);
  } catch {
    // A folder that does not exist yet is looked up as written.
  }
  const keys = [...new Set([cwd, real])];
  inlineTable(keys.map((k) => [k, 'trusted'])); // throws compile-unencodable for a key TOML cannot hold
  return configFlag('projects', `{${keys.map((k) => `${tomlValue(k)} = {trust_level = ${tomlValue('trusted')}}`).join(', ')}}`);
}
