import { describe, expect, it } from 'vitest';
import { attestThread, checkConfigLayers, checkVersion } from '../../../src/main/core/codex/attest';

const managed = { approvalsReviewer: 'user', sandbox: { type: 'workspaceWrite', writableRoots: [], networkAccess: true }, activePermissionProfile: { id: 'angelia', extends: ':workspace' } };

describe('attestation', () => {
  it('gates on the Codex version', () => {
    expect(checkVersion('0.169.0')).toEqual([]);
    expect(checkVersion('0.157.0')).toEqual([]);
    expect(checkVersion('0.156.9')[0]).toMatch(/older than 0.157.0/);
    expect(checkVersion(null)[0]).toMatch(/did not report its version/);
  });

  it('passes a managed thread with our profile and refuses everything else', () => {
    expect(attestThread(managed, { sandboxed: true, permissionsExtends: ':workspace' })).toEqual({ refusals: [], enforcement: 'managed' });
    expect(attestThread({ ...managed, activePermissionProfile: { id: ':workspace', extends: null } }, { sandboxed: true, permissionsExtends: ':workspace' }).refusals[0]).toMatch(/":workspace", not "angelia"/);
    expect(attestThread({ ...managed, approvalsReviewer: 'auto_review' }, { sandboxed: true, permissionsExtends: ':workspace' }).refusals[0]).toMatch(/approvals/);
    expect(attestThread({ ...managed, sandbox: { type: 'dangerFullAccess' } }, { sandboxed: true, permissionsExtends: ':workspace' })).toMatchObject({ enforcement: 'disabled', refusals: [expect.stringMatching(/disabled sandbox/)] });
    expect(attestThread({ ...managed, sandbox: { type: 'externalSandbox', networkAccess: 'enabled' } }, { sandboxed: true, permissionsExtends: ':workspace' }).enforcement).toBe('external');
    expect(attestThread(managed, { sandboxed: true, permissionsExtends: ':read-only' }).refusals[0]).toMatch(/extends ":workspace"/);
  });

  it('expects full access, shown as disabled, for a sandbox = false profile', () => {
    expect(attestThread({ approvalsReviewer: 'user', sandbox: { type: 'dangerFullAccess' }, activePermissionProfile: null }, { sandboxed: false, permissionsExtends: null })).toEqual({ refusals: [], enforcement: 'disabled' });
  });

  it('refuses a layer other than our flags that sets permissions.angelia or sandbox_mode, naming its file', () => {
    const read = { layers: [
      { name: { type: 'sessionFlags' }, config: { permissions: { angelia: { extends: ':workspace' } } }, disabledReason: null },
      { name: { type: 'user', file: '/h/.codex/config.toml' }, config: { permissions: { angelia: { network: { enabled: true } } } }, disabledReason: null },
      { name: { type: 'project', dotCodexFolder: '/w/.codex' }, config: { sandbox_mode: 'danger-full-access' }, disabledReason: null },
      { name: { type: 'project', dotCodexFolder: '/u/.codex' }, config: { sandbox_mode: 'danger-full-access' }, disabledReason: 'untrusted' },
    ] };
    const out = checkConfigLayers(read);
    expect(out).toHaveLength(2);
    expect(out[0]).toMatch(/user layer \/h\/.codex\/config.toml sets permissions.angelia/);
    expect(out[1]).toMatch(/project layer \/w\/.codex\/config.toml sets sandbox_mode/);
    expect(checkConfigLayers({})[0]).toMatch(/did not report/);
  });
});
