/**
 * MCP servers on the Codex command line (docs/security-model.md "What runs outside the sandbox"): each
 * allowed mcp capability is defined with one `-c mcp_servers.<name>={…}` inline table, and each
 * user-level server the profile is not given is switched off with `mcp_servers.<name>.enabled=false`.
 *
 * Facts measured on codex 0.169.0 (`codex mcp list --json`, `config/read` of `codex app-server`):
 * - a stdio server is `{command = "…", args = […], env_vars = ["NAME", …]}`; `env_vars` passes those
 *   variables (names only; values come from Codex's own environment) and no other secret reaches it;
 *   an HTTP server is `{url = "…"}`; unknown keys are ignored silently;
 * - a `-c mcp_servers.<name>={…}` table is MERGED key by key with a user-level `[mcp_servers.<name>]`
 *   of the same name (its `env`, `cwd` … stay), so an allowed capability named like a user-level
 *   server is refused (`mcp-collision`) rather than launched half-defined;
 * - MCP servers are started by Codex itself, OUTSIDE the agent's sandbox: with a deny entry on a folder,
 *   a server read a file in it. An allowed MCP server therefore runs with the user's full access;
 * - a stdio server starts in the profile's folder unless its table gives `cwd` (measured: `pwd` of the
 *   server). That folder is the agent's: `npx -y <server>` there runs `node_modules/.bin/<server>` the
 *   agent put in it (measured with npm 11), outside the sandbox. So each server is given `cwd` = the
 *   user's home, which no profile may write (compile/grants.ts checks it, and the server's command, at
 *   compile and at every start; docs/security-model.md "What runs outside the sandbox").
 */
import { join } from 'node:path';
import { AppFailure } from '../../../shared/result';
import type { LoadedTable, McpCapability, ResolvedProfile } from '../table/types';
import type { CompileFacts } from './facts';
import type { ProfilePolicy } from './policy';
import { configFlag, inlineTable, tomlValue, type FlagValue } from './toml';

/** A name `-c` can address as a bare key. */
export const MCP_NAME = /^[A-Za-z0-9_-]+$/;

/** The inline table that defines one allowed MCP capability for Codex (its `-c` value); a command server starts in `cwd`. */
export function mcpServerValue(cap: McpCapability, cwd: string): string {
  const entries: Array<[string, FlagValue]> =
    cap.url !== null
      ? [['url', cap.url]]
      : [['command', cap.command ?? ''], ['args', cap.args], ...(cap.env.length > 0 ? [['env_vars', cap.env] as [string, FlagValue]] : []), ['cwd', cwd]];
  return inlineTable(entries);
}

/**
 * The `-c` pairs for MCP servers of `profile`: definitions of its allowed mcp capabilities (name
 * order; each command server starts in `facts.home`), then `enabled=false` for each user-level server it is not given. Throws AppFailure
 * `mcp-name` (a user-level name `-c` cannot address) or `mcp-collision` (an allowed capability named
 * like a user-level server).
 */
export function mcpFlags(
  table: Pick<LoadedTable, 'file' | 'capabilities'>,
  profile: ResolvedProfile,
  policy: Pick<ProfilePolicy, 'mcpAllowed' | 'userMcpOff'>,
  facts: CompileFacts,
): string[] {
  const out: string[] = [];
  const userConfig = join(facts.codexHome, 'config.toml');
  for (const name of policy.mcpAllowed) {
    const cap = table.capabilities[name];
    if (cap?.kind !== 'mcp') continue;
    if ((facts.userMcpServers ?? []).includes(name)) {
      throw new AppFailure({
        code: 'mcp-collision',
        message: `the MCP capability "${name}" given to profile ${profile.name} has the name of an MCP server in your Codex config; Codex would merge the two definitions`,
        where: `${userConfig}: mcp_servers.${name}`,
        fix: `rename [capabilities.${name}] in ${table.file}, or remove [mcp_servers.${name}] from ${userConfig}`,
      });
    }
    out.push(...configFlag(`mcp_servers.${name}`, mcpServerValue(cap, facts.home)));
  }
  for (const name of policy.userMcpOff) {
    if (!MCP_NAME.test(name)) {
      throw new AppFailure({
        code: 'mcp-name',
        message: `the MCP server ${JSON.stringify(name)} in your Codex config cannot be switched off from Angelia (its name is not one word)`,
        where: userConfig,
        fix: 'rename it there to letters, digits, "_" and "-" only',
      });
    }
    out.push(...configFlag(`mcp_servers.${name}.enabled`, tomlValue(false)));
  }
  return out;
}

/**
 * Environment variable NAMES for Codex's own environment (not its commands'): `all` = every name any mcp
 * capability of the table lists (remove them all from the child's environment), `given` = the names of
 * the profile's allowed mcp capabilities (add those back, so Codex can pass them to the servers through
 * `env_vars`). Both sorted. Values are never in the table.
 */
export function mcpEnvNames(table: Pick<LoadedTable, 'capabilities'>, profile: Pick<ResolvedProfile, 'allowed'>): { all: string[]; given: string[] } {
  const names = (caps: Array<LoadedTable['capabilities'][string] | undefined>): string[] =>
    [...new Set(caps.flatMap((c) => (c?.kind === 'mcp' ? c.env : [])))].sort();
  return { all: names(Object.values(table.capabilities)), given: names(profile.allowed.map((n) => table.capabilities[n])) };
}
