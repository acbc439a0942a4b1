/**
 * Allowed MCP capabilities reach Codex without a hand step (real codex 0.169.0): the compiled `-c
 * mcp_servers.<name>={…}` starts `codex app-server`, `config/read` lists the server as defined by the
 * session flags, a user-level server the profile is not given is switched off, and the start check
 * (attest.ts `checkMcpServers`) passes with the compiled list and refuses without it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileCodexLaunch } from '../../src/main/core/compile/codexProfile';
import { checkMcpServers } from '../../src/main/core/codex/attest';
import { BareCodex } from '../fixtures/bareCodexClient';
import { removeTestDir } from '../core/instance/testDir';
import { makeFullInstance, type FullInstance } from '../core/compile/fullInstance';

interface ConfigRead {
  config: { mcp_servers?: Record<string, Record<string, unknown>> };
  origins: Record<string, { name: { type: string; file?: string } }>;
}

let inst: FullInstance;
beforeAll(async () => {
  inst = await makeFullInstance('mcpcfg', { realRuntime: true });
});
afterAll(async () => removeTestDir(inst.root));

/** Starts app-server with the profile's compiled flags, reads the merged config, stops it. */
async function readConfig(profile: string): Promise<{ read: ConfigRead; allowed: string[] }> {
  const launch = compileCodexLaunch(inst.table, profile, inst.facts);
  const codex = BareCodex.spawn({
    codexHome: inst.paths.codexHome,
    cwd: inst.profileDir(profile),
    env: { HOME: inst.home, GITHUB_TOKEN: 'never-read-here' },
    args: launch.codexArgs.slice(0, -1),
  });
  try {
    await codex.initialize();
    const read = await codex.request<ConfigRead>('config/read', { includeLayers: true, cwd: inst.profileDir(profile) });
    return { read, allowed: launch.mcpServers };
  } finally {
    await codex.close();
  }
}

describe('allowed MCP capabilities in the merged Codex config', () => {
  it('a command server is defined from the session flags, with env variable names only; the user server is off', async () => {
    const { read, allowed } = await readConfig('coder');
    expect(allowed).toEqual(['github']);
    const servers = read.config.mcp_servers ?? {};
    expect(servers.github).toMatchObject({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env_vars: ['GITHUB_TOKEN'], enabled: true });
    expect(JSON.stringify(servers.github)).not.toContain('never-read-here');
    expect(servers.userdocs).toMatchObject({ command: 'docs-server', enabled: false });
    expect(read.origins['mcp_servers.github.command']?.name.type).toBe('sessionFlags');
    expect(checkMcpServers(read, allowed)).toEqual([]);
    expect(checkMcpServers(read, [])).toEqual([expect.stringContaining('MCP servers this profile was not given would load: github')]);
  });

  it('a url server is defined for the profile given it, and a server given to another profile is absent', async () => {
    const { read, allowed } = await readConfig('writer');
    expect(allowed).toEqual(['search']);
    const servers = read.config.mcp_servers ?? {};
    expect(servers.search).toMatchObject({ url: 'https://mcp.example.com/mcp', enabled: true });
    expect(servers.github).toBeUndefined();
    expect(servers.userdocs).toMatchObject({ enabled: false });
    expect(checkMcpServers(read, allowed)).toEqual([]);
  });

  it('a profile given no MCP server loads none', async () => {
    const { read, allowed } = await readConfig('vault');
    expect(allowed).toEqual([]);
    expect(Object.entries(read.config.mcp_servers ?? {}).filter(([, s]) => s.enabled !== false)).toEqual([]);
    expect(checkMcpServers(read, allowed)).toEqual([]);
  });
});
