/**
 * A two-profile table for compile tests, built directly (no disk): `coder` (with an add_dir) and
 * `writer`, both in the given mode, under a fake home `/h`.
 */
import type { CompileFacts } from '../../../src/main/core/compile/facts';
import { copiedFields, type LoadedTable, type ResolvedProfile } from '../../../src/main/core/table/load';
import { profileSchema, type PermissionMode } from '../../../src/main/core/table/schema';

/** Facts of a Linux machine with home `/h`, the default instance and Codex home, Codex in `/opt/codex` and Angelia in `/opt/angelia`. */
export const FACTS: CompileFacts = {
  home: '/h',
  stateDir: '/h/.angelia',
  workspace: '/h/.angelia/workspace',
  codexHome: '/h/.codex',
  apiSocket: '/h/.angelia/api.sock',
  platform: 'linux',
  codexReads: () => ['/opt/codex/vendor/x86_64-unknown-linux-musl'],
  angeliaReads: ['/usr/bin/node', '/opt/angelia/out', '/opt/angelia/package.json'],
};

/**
 * A profile with defaults for everything not given: the table's defaults for the fields copied as
 * validated (backend codex, mode acceptEdits, sandbox on, no model or effort, every flag off).
 */
export function profile(name: string, over: Partial<ResolvedProfile> = {}): ResolvedProfile {
  return {
    ...copiedFields(profileSchema.parse({ cwd: '/' })),
    name,
    cwd: `/h/.angelia/workspace/profiles/${name}`,
    bin: null,
    addDirs: [],
    readDirs: [],
    readDirsStarter: false,
    allowed: [],
    denied: [],
    acceptFrom: [],
    answerFrom: [],
    env: [],
    ...over,
  };
}

/** A table of the given profiles. */
export function tableOf(...profiles: ResolvedProfile[]): LoadedTable {
  return {
    file: '/h/.angelia/workspace/angelia.toml',
    defaults: { permissionTimeoutMinutes: 10, turnStallMinutes: 60, idleExitMinutes: 30, warmAgents: 3, warmMemoryMb: 1024, capabilities: [], deny: [] },
    capabilities: {},
    profiles: Object.fromEntries(profiles.map((p) => [p.name, p])),
    warnings: [],
  };
}

/** The two-profile fixture in `mode`, sandboxed unless `sandbox` is false. */
export function fixtureTable(mode: PermissionMode, sandbox = true): LoadedTable {
  return tableOf(profile('coder', { permissionMode: mode, sandbox, addDirs: ['/h/src/site'] }), profile('writer', { permissionMode: mode, sandbox }));
}

/** The variants the golden file holds: every mode, and sandbox = false. */
export const VARIANTS: ReadonlyArray<{ key: string; mode: PermissionMode; sandbox: boolean }> = [
  { key: 'default', mode: 'default', sandbox: true },
  { key: 'acceptEdits', mode: 'acceptEdits', sandbox: true },
  { key: 'bypassPermissions', mode: 'bypassPermissions', sandbox: true },
  { key: 'plan', mode: 'plan', sandbox: true },
  { key: 'nosandbox', mode: 'acceptEdits', sandbox: false },
];
