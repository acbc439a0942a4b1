/**
 * Gathers the CompileFacts of this machine and instance (the effectful half of compile: reads the
 * user's Codex config for MCP server names; writes nothing).
 */
import type { InstancePaths } from '../instance/paths';
import type { CompileFacts } from './facts';
import { readUserMcpServers } from './userConfig';

/**
 * Facts for `paths` on this machine: home, state, workspace, CODEX_HOME, the API socket path (used
 * only where Codex can allow one socket), `process.platform` and the user's MCP server names.
 * Throws AppFailure `codex-config` when the user's Codex config exists but cannot be read or parsed.
 */
export async function gatherFacts(paths: InstancePaths, platform: NodeJS.Platform = process.platform): Promise<CompileFacts> {
  return {
    home: paths.home,
    stateDir: paths.stateDir,
    workspace: paths.workspace,
    codexHome: paths.codexHome,
    apiSocket: paths.apiSock,
    platform,
    userMcpServers: await readUserMcpServers(paths.codexHome),
  };
}
