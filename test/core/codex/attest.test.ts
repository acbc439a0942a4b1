import { describe, expect, it } from 'vitest';
import { attestThread, checkConfigLayers, checkMcpServers, checkRequirements, checkVersion, managedLayersSetting } from '../../../src/main/core/codex/attest';

const managed = {
  approvalsReviewer: 'user',
  sandbox: { type: 'workspaceWrite', writableRoots: [], networkAccess: true },
  activePermissionProfile: { id: 'angelia', extends: ':workspace' },
};

describe('attestation', () => {
  it('gates on the Codex version', () => {
    expect(checkVersion('0.169.0')).toEqual([]);
    expect(checkVersion('0.157.0')).toEqual([]);
    expect(checkVersion('0.156.9')[0]).toMatch(/older than 0.157.0/);
    expect(checkVersion(null)[0]).toMatch(/did not report its version/);
  });

  it('passes a managed thread with our profile and refuses everything else', () => {
    expect(attestThread(managed, { sandboxed: true, permissionsExtends: ':workspace' })).toEqual({ refusals: [], enforcement: 'managed' });
    expect(
      attestThread({ ...managed, activePermissionProfile: { id: ':workspace', extends: null } }, { sandboxed: true, permissionsExtends: ':workspace' })
        .refusals[0],
    ).toMatch(/":workspace", not "angelia"/);
    expect(attestThread({ ...managed, approvalsReviewer: 'auto_review' }, { sandboxed: true, permissionsExtends: ':workspace' }).refusals[0]).toMatch(
      /approvals/,
    );
    expect(attestThread({ ...managed, sandbox: { type: 'dangerFullAccess' } }, { sandboxed: true, permissionsExtends: ':workspace' })).toMatchObject({
      enforcement: 'disabled',
      refusals: [expect.stringMatching(/disabled sandbox/)],
    });
    expect(
      attestThread({ ...managed, sandbox: { type: 'externalSandbox', networkAccess: 'enabled' } }, { sandboxed: true, permissionsExtends: ':workspace' })
        .enforcement,
    ).toBe('external');
    expect(
      attestThread({ ...managed, sandbox: { type: 'externalSandbox', networkAccess: 'enabled' } }, { sandboxed: true, permissionsExtends: ':workspace' })
        .refusals,
    ).toContain("refused: Codex reports an external sandbox; Angelia runs sandboxed profiles only under Codex's own managed sandbox.");
    expect(attestThread(managed, { sandboxed: true, permissionsExtends: ':read-only' }).refusals[0]).toMatch(/extends ":workspace"/);
  });

  it('a profile built from grants alone: extends nothing, and Codex writes nowhere beyond the compiled write entries, /tmp included', () => {
    // codex 0.169.0's answer to a profile with no base (measured): the project folder is not among the roots.
    const grants = {
      approvalsReviewer: 'user',
      activePermissionProfile: { id: 'angelia', extends: null },
      sandbox: {
        type: 'workspaceWrite',
        writableRoots: ['/s/cache/h1', '/s/mailbox/m1', '/s/ws/_common'],
        networkAccess: true,
        excludeTmpdirEnvVar: true,
        excludeSlashTmp: true,
      },
    };
    const writable = ['/w/coder', '/s/cache/h1', '/s/cache/h1/tmp', '/s/mailbox/m1', '/s/ws/_common'];
    expect(attestThread(grants, { sandboxed: true, permissionsExtends: null, writable })).toEqual({ refusals: [], enforcement: 'managed' });
    // A base brought in by another layer would read the whole disk: refused.
    expect(
      attestThread({ ...grants, activePermissionProfile: { id: 'angelia', extends: ':workspace' } }, { sandboxed: true, permissionsExtends: null, writable })
        .refusals[0],
    ).toMatch(/extends ":workspace" in Codex, not null/);
    expect(
      attestThread(
        { ...grants, sandbox: { ...grants.sandbox, writableRoots: [...grants.sandbox.writableRoots, '/h'] } },
        { sandboxed: true, permissionsExtends: null, writable },
      ).refusals,
    ).toEqual(['refused: Codex would let the agent write "/h", which the compiled profile does not grant.']);
    expect(
      attestThread({ ...grants, sandbox: { ...grants.sandbox, excludeSlashTmp: false } }, { sandboxed: true, permissionsExtends: null, writable }).refusals,
    ).toEqual(['refused: Codex would let the agent write /tmp, which the compiled profile does not grant.']);
    // Read-only (plan mode, /ask): nothing to write.
    expect(
      attestThread({ ...grants, sandbox: { type: 'readOnly', networkAccess: true } }, { sandboxed: true, permissionsExtends: null, writable: [] }).refusals,
    ).toEqual([]);
  });

  it('expects full access, shown as disabled, for a sandbox = false profile', () => {
    expect(
      attestThread(
        { approvalsReviewer: 'user', sandbox: { type: 'dangerFullAccess' }, activePermissionProfile: null },
        { sandboxed: false, permissionsExtends: null },
      ),
    ).toEqual({ refusals: [], enforcement: 'disabled' });
  });

  it('refuses a layer other than our flags that sets permissions.angelia or sandbox_mode, naming its file', () => {
    const read = {
      layers: [
        { name: { type: 'sessionFlags' }, config: { permissions: { angelia: { extends: ':workspace' } } }, disabledReason: null },
        { name: { type: 'user', file: '/h/.codex/config.toml' }, config: { permissions: { angelia: { network: { enabled: true } } } }, disabledReason: null },
        { name: { type: 'project', dotCodexFolder: '/w/.codex' }, config: { sandbox_mode: 'danger-full-access' }, disabledReason: null },
        { name: { type: 'project', dotCodexFolder: '/u/.codex' }, config: { sandbox_mode: 'danger-full-access' }, disabledReason: 'untrusted' },
      ],
    };
    const out = checkConfigLayers(read);
    expect(out).toHaveLength(2);
    expect(out[0]).toMatch(/user layer \/h\/.codex\/config.toml sets permissions.angelia/);
    expect(out[1]).toMatch(/project layer \/w\/.codex\/config.toml sets sandbox_mode/);
    expect(checkConfigLayers({})[0]).toMatch(/did not report/);
  });

  it('refuses a project layer Codex applies that sets anything; an empty or disabled one passes', () => {
    const layer = (config: Record<string, unknown>, disabledReason: string | null = null) => ({
      name: { type: 'project', dotCodexFolder: '/w/p/.codex' },
      config,
      disabledReason,
    });
    expect(checkConfigLayers({ layers: [layer({ model_reasoning_summary: 'detailed', shell_environment_policy: { set: { PATH: '/x' } } })] })).toEqual([
      expect.stringMatching(
        /project layer \/w\/p\/.codex\/config.toml would apply to this profile \(it sets model_reasoning_summary, shell_environment_policy\)/,
      ),
    ]);
    expect(checkConfigLayers({ layers: [layer({})] })).toEqual([]);
    expect(checkConfigLayers({ layers: [layer({ model: 'x' }, 'untrusted')] })).toEqual([]);
    expect(checkConfigLayers({ layers: [{ name: { type: 'user', file: '/h/.codex/config.toml' }, config: { model: 'x' }, disabledReason: null }] })).toEqual(
      [],
    );
  });

  it('refuses managed requirements that would force another profile or forbid ours', () => {
    const expected = { sandboxed: true, approvalPolicy: 'on-request' as const, features: { network_proxy: true } };
    expect(checkRequirements({ requirements: null }, expected)).toEqual([]);
    expect(checkRequirements({ requirements: { allowedPermissionProfiles: { ':workspace': true } } }, expected)[0]).toMatch(
      /do not allow the permission profile "angelia"/,
    );
    expect(checkRequirements({ requirements: { allowedPermissionProfiles: { angelia: true } } }, expected)).toEqual([]);
    expect(checkRequirements({ requirements: { defaultPermissions: ':read-only' } }, expected)[0]).toMatch(/force the permission profile ":read-only"/);
    expect(checkRequirements({ requirements: { allowedApprovalPolicies: ['never'] } }, expected)[0]).toMatch(/approval policy "on-request"/);
    expect(checkRequirements({ requirements: { allowedApprovalsReviewers: ['auto_review'] } }, expected)[0]).toMatch(/approvals reviewer "user"/);
    expect(checkRequirements({ requirements: { featureRequirements: { network_proxy: false } } }, expected)[0]).toMatch(/network_proxy to false/);
    expect(checkRequirements({ requirements: { allowedSandboxModes: ['read-only'] } }, { ...expected, sandboxed: false })[0]).toMatch(/full access/);
    expect(checkRequirements(undefined, expected)[0]).toMatch(/did not report/);
  });

  it('refuses managed sandbox modes that leave out the mode the profile needs, saying what is allowed, what is needed and the fix', () => {
    const writes = { sandboxed: true, approvalPolicy: 'on-request' as const, features: {}, sandboxMode: 'workspace-write' as const };
    expect(checkRequirements({ requirements: { allowedSandboxModes: ['read-only'] } }, writes)).toEqual([
      'refused: the managed requirements (requirements.toml or MDM) allow only the sandbox mode "read-only", and this profile needs "workspace-write" (the agent writes in its folder); Codex would not apply it. Fix: ask your administrator to add "workspace-write" to allowed_sandbox_modes, or use the profile in plan mode (read-only).',
    ]);
    expect(checkRequirements({ requirements: { allowedSandboxModes: ['read-only', 'workspace-write'] } }, writes)).toEqual([]);
    expect(checkRequirements({ requirements: { allowedSandboxModes: ['read-only'] } }, { ...writes, sandboxMode: 'read-only' })).toEqual([]);
    // No mode known (an older plan): not checked here; the thread attestation still refuses.
    expect(checkRequirements({ requirements: { allowedSandboxModes: ['read-only'] } }, { ...writes, sandboxMode: undefined })).toEqual([]);
    expect(
      attestThread({ approvalsReviewer: 'user', activePermissionProfile: null, sandbox: { type: 'readOnly' } }, { sandboxed: true, permissionsExtends: null })
        .refusals[0],
    ).toMatch(/^refused: Codex applied no permission profile, not "angelia": a managed layer .* Fix: /);
  });

  it('names the managed layer Codex reports behind a requirement (config/read layers, codex 0.171.0 ConfigLayerSource)', () => {
    const expected = { sandboxed: true, approvalPolicy: 'on-request' as const, features: {}, sandboxMode: 'workspace-write' as const };
    const managed = (name: Record<string, unknown>, config: Record<string, unknown>) => ({ layers: [{ name, version: '1', config, disabledReason: null }] });
    const file = managed(
      { type: 'legacyManagedConfigTomlFromFile', file: '/etc/codex/managed_config.toml' },
      { approval_policy: 'never', sandbox_mode: 'read-only' },
    );
    const [modes, policy] = checkRequirements({ requirements: { allowedSandboxModes: ['read-only'], allowedApprovalPolicies: ['never'] } }, expected, file);
    expect(modes).toMatch(/^refused: the managed requirements \(sandbox_mode in the managed config \/etc\/codex\/managed_config\.toml\) allow only/);
    expect(policy).toBe(
      'refused: the managed requirements (approval_policy in the managed config /etc/codex/managed_config.toml) do not allow the approval policy "on-request" this profile\'s mode needs.',
    );
    expect(managedLayersSetting(managed({ type: 'legacyManagedConfigTomlFromMdm' }, { approval_policy: 'never' }), 'approval_policy')).toEqual([
      'the managed config (managed_config.toml) delivered by MDM',
    ]);
    expect(
      managedLayersSetting(managed({ type: 'mdm', domain: 'com.openai.codex', key: 'config_toml_base64' }, { sandbox_mode: 'read-only' }), 'sandbox_mode'),
    ).toEqual(['the MDM layer com.openai.codex config_toml_base64']);
    expect(managedLayersSetting(managed({ type: 'enterpriseManaged', id: 'x', name: 'Acme policy' }, { sandbox_mode: 'read-only' }), 'sandbox_mode')).toEqual([
      'the enterprise-managed layer "Acme policy"',
    ]);
    // A user layer is not managed; a managed layer that does not set the key is not named.
    expect(
      managedLayersSetting(managed({ type: 'user', file: '/h/.codex/config.toml', profile: null }, { sandbox_mode: 'read-only' }), 'sandbox_mode'),
    ).toEqual([]);
    expect(
      checkRequirements(
        { requirements: { allowedApprovalPolicies: ['never'] } },
        expected,
        managed({ type: 'legacyManagedConfigTomlFromFile', file: '/m.toml' }, {}),
      )[0],
    ).toMatch(/requirements\.toml or MDM/);
  });

  it('refuses an MCP server that would load without being given, naming its layer', () => {
    const read = {
      config: { mcp_servers: { off: { command: 'x', enabled: false }, given: { command: 'y' }, sneaky: { url: 'https://x' } } },
      origins: { 'mcp_servers.sneaky.url': { name: { type: 'project', dotCodexFolder: '/w/.codex' } } },
    };
    expect(checkMcpServers(read, ['given'])).toEqual([expect.stringContaining('would load: sneaky (from /w/.codex/config.toml)')]);
    expect(checkMcpServers({ config: {} }, [])).toEqual([]);
  });
});
