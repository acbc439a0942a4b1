/**
 * The read-only variant of a compiled launch, the one `POST /ask` answers under (compile/codexProfile.ts
 * LaunchExtras `readOnly`, docs/api-ask.md): the profile's own permission profile with every write entry
 * turned into read and nothing else loosened (deny entries unchanged), no base profile (grants alone),
 * approvals `never` with no approval features, no mailbox, no API socket, no `angelia` command, no MCP
 * capability defined, and a sandbox even for a `sandbox = false` profile.
 */
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { compileCodexLaunch, type CodexLaunch } from '../../../src/main/core/compile/codexProfile';
import { mailboxDirFor } from '../../../src/main/core/launch/mailbox';
import { FACTS, fixtureTable, profile, tableOf } from './fixture';

/** The parsed value of one `-c` flag (undefined when absent). */
function flag(launch: CodexLaunch, key: string): unknown {
  const args = launch.codexArgs;
  for (let i = 0; i + 1 < args.length; i++) {
    if (args[i] === '-c' && args[i + 1]!.startsWith(`${key}=`)) return (parse(`v = ${args[i + 1]!.slice(key.length + 1)}`) as { v: unknown }).v;
  }
  return undefined;
}

const box = mailboxDirFor(FACTS.stateDir, 'coder');

describe('the read-only launch variant', () => {
  for (const mode of ['default', 'acceptEdits', 'bypassPermissions', 'plan'] as const) {
    it(`${mode}: every write entry becomes read, deny and read entries stay, and there is no base profile`, () => {
      const normal = compileCodexLaunch(fixtureTable(mode), 'coder', FACTS, { mailbox: box });
      const ro = compileCodexLaunch(fixtureTable(mode), 'coder', FACTS, { mailbox: box, readOnly: true });
      expect(Object.values(ro.filesystem)).not.toContain('write');
      for (const [path, access] of Object.entries(normal.filesystem)) {
        if (path === box) continue;
        expect(ro.filesystem[path], path).toBe(access === 'write' ? 'read' : access);
      }
      // The angelia command stays readable: run in a copy, it says it cannot reach Angelia (api/client.ts).
      for (const path of ['/h/.angelia/bin', '/usr/bin/node', '/opt/angelia/out']) expect(ro.filesystem[path], path).toBe('read');
      // Nothing more is readable than in the profile's own launch.
      expect(Object.keys(ro.filesystem).filter((p) => !(p in normal.filesystem))).toEqual([]);
      expect(ro.filesystem['/h/src/site']).toBe('read');
      expect(ro.filesystem['/h/.angelia/workspace/profiles/coder']).toBe('read');
      expect(ro.filesystem['/h/.angelia/mailbox']).toBe('deny');
      expect(ro.filesystem[box]).toBeUndefined();
      expect(ro.mailbox).toBeNull();
      expect(flag(ro, 'permissions.angelia.extends')).toBeUndefined();
      expect(ro).toMatchObject({ permissionsExtends: null, readOnly: true, specials: { ':minimal': 'read' } });
      expect(ro.approvalPolicy).toBe('never');
      expect(flag(ro, 'features.exec_permission_approvals')).toBeUndefined();
      expect(flag(ro, 'features.request_permissions_tool')).toBeUndefined();
      expect(ro.writableRoots).toEqual([]);
      expect(flag(ro, 'default_permissions')).toBe('angelia');
      // The network is the profile's: web only, through Codex's proxy.
      expect(flag(ro, 'features.network_proxy')).toBe(true);
      expect(flag(ro, 'permissions.angelia.network.enabled')).toBe(true);
      expect(flag(ro, 'permissions.angelia.network.domains')).toEqual(flag(normal, 'permissions.angelia.network.domains'));
    });
  }

  it('the package cache stays readable (its write entry inside the denied cache root becomes read)', () => {
    const ro = compileCodexLaunch(fixtureTable('acceptEdits'), 'coder', FACTS, { readOnly: true });
    expect(ro.cacheDir).not.toBeNull();
    expect(ro.filesystem[ro.cacheDir!]).toBe('read');
    expect(ro.filesystem['/h/.angelia/cache/codex']).toBe('deny');
    expect(ro.sources[ro.cacheDir!]).toBe("this profile's package cache; read-only for /ask");
  });

  it("allows no Unix socket, even on macOS where the chat's own launch allows Angelia's", () => {
    const mac = { ...FACTS, platform: 'darwin' as const };
    expect(flag(compileCodexLaunch(fixtureTable('acceptEdits'), 'coder', mac), 'permissions.angelia.network.unix_sockets')).toEqual({
      '/h/.angelia/api.sock': 'allow',
    });
    const ro = compileCodexLaunch(fixtureTable('acceptEdits'), 'coder', mac, { readOnly: true });
    expect(flag(ro, 'permissions.angelia.network.unix_sockets')).toBeUndefined();
    expect(ro.codexArgs.join('\n')).not.toMatch(/unix_sockets/);
  });

  it("defines none of the profile's MCP capabilities (they run outside the sandbox) and keeps user-level servers off", () => {
    const t = tableOf(profile('a', { allowed: ['gh'] }));
    t.capabilities = { gh: { name: 'gh', kind: 'mcp', command: 'npx', args: ['gh'], url: null, env: [], when: null, secrets: [] } };
    const normal = compileCodexLaunch(t, 'a', { ...FACTS, userMcpServers: ['userdocs'] });
    expect(flag(normal, 'mcp_servers.gh')).toEqual({ command: 'npx', args: ['gh'], cwd: FACTS.home });
    const ro = compileCodexLaunch(t, 'a', { ...FACTS, userMcpServers: ['userdocs'] }, { readOnly: true });
    expect(flag(ro, 'mcp_servers.gh')).toBeUndefined();
    expect(flag(ro, 'mcp_servers.userdocs.enabled')).toBe(false);
    expect(ro.mcpServers).toEqual([]);
  });

  it('a sandbox = false profile is asked in a sandbox too: never with full access', () => {
    const open = compileCodexLaunch(fixtureTable('acceptEdits', false), 'coder', FACTS);
    expect(open.sandboxed).toBe(false);
    const ro = compileCodexLaunch(fixtureTable('acceptEdits', false), 'coder', FACTS, { readOnly: true });
    expect(ro.sandboxed).toBe(true);
    expect(flag(ro, 'permissions.angelia.extends')).toBeUndefined();
    expect(ro.readOnly).toBe(true);
    expect(ro.filesystem['/h/.angelia/mailbox']).toBe('deny');
    expect(ro.filesystem['/h/.ssh']).toBe('deny');
    expect(Object.values(ro.filesystem)).not.toContain('write');
  });
});
