/**
 * Start attestation: pure checks of what Codex reports, before an agent is allowed to run
 * (docs/architecture.md flow (a) steps 9–10). Each check returns the refusals it found; an empty list passes.
 * Facts from codex 0.169.0: `initialize` result `userAgent` ("<client>/<version> (...)"); `config/read
 * {includeLayers:true, cwd}` result `{config, origins, layers:[{name:{type, file?}, config, disabledReason}]}`;
 * thread/start|resume result `{activePermissionProfile:{id, extends}|null, approvalsReviewer, sandbox:{type}}`.
 */
import type { Enforcement } from '../../../shared/contract';
import { isObj, type Obj } from './wire';

/** The lowest Codex version Angelia runs (`checkVersion` refuses an older one). */
export const MIN_CODEX_VERSION = '0.157.0';

/** Compares dotted versions numerically: negative when a < b. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map((n) => parseInt(n, 10) || 0);
  const pb = b.split('.').map((n) => parseInt(n, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** Version gate: a refusal when the version is known and below MIN_CODEX_VERSION; an unknown version refuses too (fail closed). */
export function checkVersion(version: string | null): string[] {
  if (!version) return [`version: Codex did not report its version in initialize; Angelia needs ${MIN_CODEX_VERSION} or newer. Update codex.`];
  if (compareVersions(version, MIN_CODEX_VERSION) < 0) return [`version: codex ${version} is older than ${MIN_CODEX_VERSION}; update codex.`];
  return [];
}

/** A layer's name for messages: its file when it has one, else its type. */
function layerName(layer: Obj): string {
  const name = isObj(layer.name) ? layer.name : {};
  const file = typeof name.file === 'string' ? name.file : typeof name.dotCodexFolder === 'string' ? `${name.dotCodexFolder}/config.toml` : null;
  const type = typeof name.type === 'string' ? name.type : 'unknown';
  return file ? `${type} layer ${file}` : `${type} layer`;
}

/**
 * Config-layer check on a `config/read` result: refuses when a layer other than our own session flags
 * (and not disabled by Codex, e.g. an untrusted project) sets `permissions.angelia` or `sandbox_mode`,
 * and when a project layer (a `.codex/config.toml` in the profile's folder or above it) that Codex
 * applies sets anything at all: a launch trusts the profile's folder on the command line
 * (compile/projectTrust.ts), and what a project folder holds is not part of the compiled sandbox
 * (docs/security-model.md "The user's Codex config is never written"). Because Codex reports parsed
 * layers, every TOML spelling (quoted, dotted, inline) is covered.
 */
export function checkConfigLayers(configRead: unknown, profileId = 'angelia'): string[] {
  if (!isObj(configRead) || !Array.isArray(configRead.layers)) {
    return ['refused: Codex did not report its config layers (config/read), so Angelia cannot prove nothing weakens the sandbox.'];
  }
  const out: string[] = [];
  for (const layer of configRead.layers) {
    if (!isObj(layer)) continue;
    const type = isObj(layer.name) ? layer.name.type : undefined;
    if (type === 'sessionFlags') continue;
    if (layer.disabledReason != null) continue;
    const config = isObj(layer.config) ? layer.config : {};
    const perms = isObj(config.permissions) ? config.permissions : {};
    if (perms[profileId] !== undefined) {
      out.push(`refused: the ${layerName(layer)} sets permissions.${profileId}, which would merge with Angelia's sandbox rules; remove it there.`);
    }
    if (config.sandbox_mode !== undefined) {
      out.push(`refused: the ${layerName(layer)} sets sandbox_mode, which makes Codex ignore permission profiles; remove it there.`);
    }
    const keys = Object.keys(config).filter((k) => k !== 'sandbox_mode' && k !== 'permissions');
    if (type === 'project' && keys.length > 0) {
      out.push(
        `refused: the ${layerName(layer)} would apply to this profile (it sets ${keys.slice(0, 3).join(', ')}${keys.length > 3 ? ', …' : ''}); Angelia runs an agent under your own Codex config and the profile's compiled flags only. Move those settings to your Codex config, or remove the file.`,
      );
    }
  }
  return out;
}

/** Classifies Codex's legacy sandbox projection in the model of PermissionProfile: managed, disabled, external. */
export function classifyEnforcement(sandbox: unknown): { enforcement: Enforcement; restricted: boolean } | null {
  if (!isObj(sandbox)) return null;
  switch (sandbox.type) {
    case 'dangerFullAccess':
      return { enforcement: 'disabled', restricted: false };
    case 'externalSandbox':
      return { enforcement: 'external', restricted: false };
    case 'readOnly':
    case 'workspaceWrite':
      return { enforcement: 'managed', restricted: true };
    default:
      return null;
  }
}

/** What the thread must report: our profile and its base, or none at all for a `sandbox = false` profile. */
export interface ExpectedThread {
  sandboxed: boolean;
  permissionsExtends: string | null;
  /**
   * The folders the compiled profile lets the agent write (its `write` entries), when known: Codex's
   * `sandbox.writableRoots` must name none beyond them, and `/tmp` must not be writable
   * (`excludeSlashTmp`). With no base profile (docs/security-model.md "Filesystem: private by
   * default") this, `extends` null and no other layer setting `permissions.angelia` (checkConfigLayers)
   * is what proves Codex applies exactly the compiled grants.
   */
  writable?: readonly string[];
}

/** The thread check's verdict: refusals (empty = pass) and the enforcement in force. */
export interface ThreadAttestation {
  refusals: string[];
  enforcement: Enforcement | null;
}

/**
 * Thread attestation on a thread/start or thread/resume answer. A sandboxed profile passes only with
 * `activePermissionProfile` = angelia with the compiled `extends`, approvals going to the user, a
 * managed, restricted sandbox, and (when `expected.writable` is given) no writable root and no `/tmp`
 * write beyond what was compiled (codex 0.169.0 reports `sandbox: {type, writableRoots,
 * excludeSlashTmp, …}`; the profile's own folder is not among the roots). A `sandbox = false` profile
 * must report full access (shown in red).
 */
export function attestThread(answer: unknown, expected: ExpectedThread): ThreadAttestation {
  const a = isObj(answer) ? answer : {};
  const refusals: string[] = [];
  const cls = classifyEnforcement(a.sandbox);
  if (a.approvalsReviewer !== 'user') {
    refusals.push(`refused: Codex routes approvals to ${JSON.stringify(a.approvalsReviewer ?? null)}, not to you; a config layer sets approvals_reviewer.`);
  }
  if (!expected.sandboxed) {
    if (cls?.enforcement !== 'disabled')
      refusals.push(
        'refused: this profile asks for full access (sandbox = false) but Codex reports a different sandbox; the mode shown would not be the mode in force.',
      );
    return { refusals, enforcement: cls?.enforcement ?? null };
  }
  const active = isObj(a.activePermissionProfile) ? a.activePermissionProfile : null;
  if (!active || active.id !== 'angelia') {
    refusals.push(
      active?.id
        ? `refused: Codex applied the permission profile ${JSON.stringify(active.id)}, not "angelia".`
        : 'refused: Codex applied no permission profile, not "angelia": a managed layer (requirements.toml, managed_config.toml or MDM) may forbid it or the sandbox mode it needs. Fix: have your administrator allow the permission profile "angelia" and the sandbox mode "workspace-write".',
    );
  } else if ((active.extends ?? null) !== expected.permissionsExtends) {
    refusals.push(
      `refused: the "angelia" profile extends ${JSON.stringify(active.extends ?? null)} in Codex, not ${JSON.stringify(expected.permissionsExtends)}.`,
    );
  }
  if (!cls) refusals.push('refused: Codex did not report its sandbox for this thread.');
  else if (cls.enforcement !== 'managed' || !cls.restricted) {
    refusals.push(
      `refused: Codex reports ${cls.enforcement === 'external' ? 'an' : 'a'} ${cls.enforcement} sandbox; Angelia runs sandboxed profiles only under Codex's own managed sandbox.`,
    );
  }
  const sandbox = isObj(a.sandbox) ? a.sandbox : {};
  if (expected.writable && cls?.enforcement === 'managed') {
    const roots = Array.isArray(sandbox.writableRoots) ? sandbox.writableRoots : [];
    const extra = roots.filter((r) => typeof r !== 'string' || !expected.writable!.includes(r));
    if (extra.length)
      refusals.push(`refused: Codex would let the agent write ${extra.map((r) => JSON.stringify(r)).join(', ')}, which the compiled profile does not grant.`);
    if (sandbox.type === 'workspaceWrite' && sandbox.excludeSlashTmp !== true)
      refusals.push('refused: Codex would let the agent write /tmp, which the compiled profile does not grant.');
  }
  return { refusals, enforcement: cls?.enforcement ?? null };
}

/**
 * Refusals of a read-only copy's thread answer beyond `attestThread` (`POST /ask`, docs/api-ask.md): it
 * must report a `readOnly` sandbox and the approval policy `never` (codex 0.169.0 `ThreadForkResponse`
 * / `ThreadStartResponse` `sandbox.type`, `approvalPolicy`).
 */
export function readOnlyRefusals(answer: unknown): string[] {
  const a = isObj(answer) ? answer : {};
  const out: string[] = [];
  const sandbox = isObj(a.sandbox) ? a.sandbox.type : null;
  if (sandbox !== 'readOnly') out.push(`refused: the read-only copy reports a ${JSON.stringify(sandbox)} sandbox, not readOnly.`);
  if (a.approvalPolicy !== 'never')
    out.push(`refused: the read-only copy reports the approval policy ${JSON.stringify(a.approvalPolicy ?? null)}, not "never".`);
  return out;
}

/** What Angelia is about to ask of Codex, for the managed-requirements check. */
export interface ExpectedLaunch {
  sandboxed: boolean;
  approvalPolicy: 'on-request' | 'never';
  /** Feature flags the launch sets (name → value), e.g. network_proxy → true. */
  features: Record<string, boolean>;
  /**
   * The sandbox mode a sandboxed profile amounts to, as managed requirements' `allowed_sandbox_modes`
   * count it: `workspace-write` when it writes anywhere (its folder at least), `read-only` in plan mode and
   * for `/ask`'s copy. Unknown (not checked) when left out.
   */
  sandboxMode?: 'read-only' | 'workspace-write';
}

/**
 * The managed layers of a `config/read {includeLayers}` answer that set `key` (codex 0.171.0
 * `ConfigLayerSource`: `legacyManagedConfigTomlFromFile {file}` (managed_config.toml),
 * `legacyManagedConfigTomlFromMdm`, `mdm {domain, key}`, `enterpriseManaged {id, name}`), named for a
 * person. Codex turns a managed config's `sandbox_mode` and `approval_policy` into requirements, so a
 * requirement with such a layer behind it is named by that layer rather than requirements.toml.
 */
export function managedLayersSetting(configRead: unknown, key: string): string[] {
  const layers = isObj(configRead) && Array.isArray(configRead.layers) ? configRead.layers : [];
  const out: string[] = [];
  for (const layer of layers) {
    if (!isObj(layer) || !isObj(layer.name) || !isObj(layer.config) || layer.config[key] === undefined) continue;
    const n = layer.name;
    const str = (v: unknown): string => (typeof v === 'string' ? v : '?');
    if (n.type === 'legacyManagedConfigTomlFromFile') out.push(`the managed config ${str(n.file)}`);
    else if (n.type === 'legacyManagedConfigTomlFromMdm') out.push('the managed config (managed_config.toml) delivered by MDM');
    else if (n.type === 'mdm') out.push(`the MDM layer ${str(n.domain)} ${str(n.key)}`);
    else if (n.type === 'enterpriseManaged') out.push(`the enterprise-managed layer "${str(n.name)}"`);
  }
  return out;
}

/**
 * Managed requirements check on a `configRequirements/read` result (`{requirements: ConfigRequirements |
 * null}`, codex 0.169.0; requirements.toml, MDM and managed config layers): refuses when they would force
 * another permission profile, forbid ours, forbid the sandbox mode the profile amounts to
 * (`expected.sandboxMode`; else Codex falls back to another profile and the start fails later with no
 * reason given), forbid the approval policy or the user as reviewer, turn off a feature the sandbox relies
 * on (the network proxy), or forbid full access for a `sandbox = false` profile. `configRead` (the
 * `config/read {includeLayers}` answer) names the managed layer behind a sandbox-mode or approval-policy
 * requirement (`managedLayersSetting`). No requirements → pass.
 */
export function checkRequirements(read: unknown, expected: ExpectedLaunch, configRead?: unknown, profileId = 'angelia'): string[] {
  if (!isObj(read)) return ['refused: Codex did not report its managed requirements (configRequirements/read).'];
  const req = isObj(read.requirements) ? read.requirements : null;
  if (!req) return [];
  const out: string[] = [];
  const where = 'managed requirements (requirements.toml or MDM)';
  const whereFor = (key: string): string => {
    const layers = managedLayersSetting(configRead, key);
    return layers.length ? `managed requirements (${key} in ${layers.join(', ')})` : where;
  };
  const modes = Array.isArray(req.allowedSandboxModes) ? req.allowedSandboxModes.filter((m): m is string => typeof m === 'string') : null;
  if (expected.sandboxed && modes && expected.sandboxMode && !modes.includes(expected.sandboxMode)) {
    const needs = expected.sandboxMode;
    out.push(
      `refused: the ${whereFor('sandbox_mode')} allow only the sandbox mode${modes.length === 1 ? '' : 's'} ${modes.map((m) => `"${m}"`).join(', ') || '(none)'}, ` +
        `and this profile needs "${needs}" (${needs === 'workspace-write' ? 'the agent writes in its folder' : 'the agent only reads'}); Codex would not apply it. ` +
        `Fix: ask your administrator to add "${needs}" to allowed_sandbox_modes${needs === 'workspace-write' ? ', or use the profile in plan mode (read-only)' : ''}.`,
    );
  }
  if (expected.sandboxed) {
    const allowed = isObj(req.allowedPermissionProfiles) ? req.allowedPermissionProfiles : null;
    if (allowed && allowed[profileId] !== true)
      out.push(`refused: the ${where} do not allow the permission profile "${profileId}"; ask your administrator to allow it.`);
    if (typeof req.defaultPermissions === 'string' && req.defaultPermissions !== profileId) {
      out.push(`refused: the ${where} force the permission profile "${req.defaultPermissions}"; Angelia cannot prove its own profile would apply.`);
    }
  } else if (Array.isArray(req.allowedSandboxModes) && !req.allowedSandboxModes.includes('danger-full-access')) {
    out.push(
      `refused: this profile asks for full access (sandbox = false) but the ${whereFor('sandbox_mode')} do not allow it; the mode shown would not be the mode in force.`,
    );
  }
  if (Array.isArray(req.allowedApprovalPolicies) && !req.allowedApprovalPolicies.includes(expected.approvalPolicy)) {
    out.push(`refused: the ${whereFor('approval_policy')} do not allow the approval policy "${expected.approvalPolicy}" this profile's mode needs.`);
  }
  if (Array.isArray(req.allowedApprovalsReviewers) && !req.allowedApprovalsReviewers.includes('user')) {
    out.push(`refused: the ${where} do not let approvals go to you (approvals reviewer "user").`);
  }
  const features = isObj(req.featureRequirements) ? req.featureRequirements : {};
  for (const [name, value] of Object.entries(expected.features)) {
    if (typeof features[name] === 'boolean' && features[name] !== value) {
      out.push(`refused: the ${where} set the feature ${name} to ${String(features[name])}; this profile needs ${String(value)}.`);
    }
  }
  return out;
}

/**
 * MCP check on a `config/read` result: every server in the merged `config.mcp_servers` that is not
 * switched off (`enabled = false`) must be one the profile was given. Codex reports the merged result,
 * so every TOML spelling and a trusted project's `.codex/config.toml` are covered. The layer that
 * defines a server is named from `origins` when Codex reports it.
 */
export function checkMcpServers(configRead: unknown, allowed: readonly string[]): string[] {
  if (!isObj(configRead) || !isObj(configRead.config)) return ['refused: Codex did not report its merged config (config/read).'];
  const servers = isObj(configRead.config.mcp_servers) ? configRead.config.mcp_servers : {};
  const origins = isObj(configRead.origins) ? configRead.origins : {};
  const loading = Object.entries(servers).filter(([name, s]) => !allowed.includes(name) && !(isObj(s) && s.enabled === false));
  if (!loading.length) return [];
  const named = loading.map(([name]) => {
    const origin = Object.entries(origins).find(([k]) => k === `mcp_servers.${name}` || k.startsWith(`mcp_servers.${name}.`))?.[1];
    const layer = isObj(origin) && isObj(origin.name) ? origin.name : null;
    const file =
      layer && typeof layer.file === 'string' ? layer.file : layer && typeof layer.dotCodexFolder === 'string' ? `${layer.dotCodexFolder}/config.toml` : null;
    return file ? `${name} (from ${file})` : name;
  });
  return [
    `refused: MCP servers this profile was not given would load: ${named.join(', ')}; switch them off in that Codex config (enabled = false) or give them to the profile.`,
  ];
}
