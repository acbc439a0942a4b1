/**
 * The probe matrix of `angelia verify <profile>` (README "Security"; docs/security-model.md "Filesystem:
 * private by default"): which paths and sockets an agent of one profile must reach or must not, and how
 * each is tried. Pure: (profile, table, facts, last compile's deny rules, fixtures) → probes. Running
 * them through `codex sandbox` is run.ts's job, which also skips probes whose path does not exist.
 *
 * Expectations come from Angelia's policy (compile/policy.ts `profilePolicy`, the source both the
 * settings.json rules and the Codex flags derive from), not from the flags under test: every deny rule
 * (private state, credentials, Codex's login and transcripts, other profiles' folders, the cache root,
 * denied capabilities) is denied, every read rule (launch files, `.codex`, `.agents`, `_shared`) is
 * read-only, every write rule (add_dirs, directory capabilities, `_common`) and the profile's folder and
 * own cache and temp folder are writable (except in plan mode), the shared `/tmp` is not; other profiles' caches are denied; every `Read(…)` rule
 * the LAST compile wrote into the launch guard is denied and every `Edit(…)`-only one read-only (so a
 * table changed since the last compile shows); no Unix socket and no loopback port answers. HOME is
 * private by default (docs/security-model.md): what the profile names to read (read_dirs, given skills)
 * is readable and not writable, and a scan of HOME in the sandbox finds nothing readable but the grants
 * of the compiled launch (`scan`, judged by observe.ts `scanVerdict`).
 */
import { join } from 'node:path';
import { cacheDirFor } from '../compile/cache';
import type { Access, CompileFacts } from '../compile/facts';
import { profilePolicy } from '../compile/policy';
import { parseRule } from '../compile/rules';
import type { LoadedTable, ResolvedProfile } from '../table/load';

/**
 * How a probe touches its path: `run` a trivial command (control); `read` a file (cat) or a folder
 * (ls); `read-sh` the same through `sh -c`; `read-link` through a symlink (`via`); `list` a folder;
 * `write` a new file in a folder, or append nothing to a file; `connect` to a Unix socket path or
 * `127.0.0.1:<port>`; `scan` everything a command sees below a folder (HOME); `check` the launch guard
 * (no sandbox run).
 */
export type ProbeOp = 'run' | 'read' | 'read-sh' | 'read-link' | 'list' | 'write' | 'connect' | 'scan' | 'check';

/**
 * What a `scan` probe judges against, from the compiled launch (codexProfile.ts `filesystem`): the
 * grants (read and write entries; the scan does not descend into them), the deny entries (empty mount
 * points a command may see by name), and Codex's own carve-outs it adds itself (floor.ts
 * CODEX_READABLE `tmp`: the helper links of each Codex process).
 */
export interface ScanSpec {
  grants: string[];
  denies: string[];
  carveOuts: string[];
}

/** What the policy wants. */
export type Expectation = 'allowed' | 'denied';

/** One probe. */
export interface Probe {
  /** Short label: what the path is and why it is probed. */
  name: string;
  /** Absolute path, or `127.0.0.1:<port>` for a TCP probe. */
  path: string;
  op: ProbeOp;
  expected: Expectation;
  /** When true, the probe is skipped ("does not exist") unless `path` exists on the host. */
  mustExist: boolean;
  /** `read-link`: the symlink (made by the runner, outside the sandbox) that points at `path`. */
  via?: string;
  /** `scan`: what the scan is judged against. */
  scan?: ScanSpec;
}

/** Files and servers the runner prepares before the probes run. */
export interface ProbeFixtures {
  /** A file the runner writes inside `<state>/compiled/` (denied to every profile). */
  probeFile: string;
  /** Where the runner makes a symlink to `probeFile` (in the profile's folder). */
  linkPath: string;
  /** Name of the file a `write` probe tries to create inside a folder. */
  writeName: string;
  /** A Unix socket the runner listens on, outside the profile's reach. */
  socketPath: string;
  /** A loopback TCP port the runner listens on. */
  tcpPort: number;
}

/** Inputs of `probeMatrix`. */
export interface MatrixInput {
  profile: ResolvedProfile;
  /** The accepted table (other profiles' folders and caches are probed; capabilities shape the policy). */
  table: Pick<LoadedTable, 'profiles' | 'capabilities'>;
  facts: CompileFacts;
  /** The deny rules of the last compile (the launch guard), or null when there is none. */
  guardDeny: readonly string[] | null;
  fixtures: ProbeFixtures;
  /** The compiled launch's filesystem entries (codexProfile.ts `filesystem`): the HOME scan judges against them. Absent: no scan. */
  filesystem?: Readonly<Record<string, Access>>;
}

/** The probes for one sandboxed profile, in display order, one per (op, path) (`list` counts as `read`). */
export function probeMatrix(input: MatrixInput): Probe[] {
  const { profile, facts, fixtures, table } = input;
  const plan = profile.permissionMode === 'plan';
  const out: Probe[] = [];
  const seen = new Set<string>();
  const add = (p: Omit<Probe, 'mustExist'> & { mustExist?: boolean }): void => {
    const key = `${p.op === 'list' ? 'read' : p.op}\0${p.path}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ mustExist: true, ...p });
  };
  const writable = plan ? 'denied' : 'allowed';
  const compiled = join(facts.stateDir, 'compiled');
  const policy = profilePolicy(table, profile, facts).rules;

  add({ name: 'control: a command runs', path: profile.cwd, op: 'run', expected: 'allowed', mustExist: false });
  add({ name: 'own folder', path: profile.cwd, op: 'write', expected: writable });
  for (const rule of policy) if (rule.access === 'write') add({ name: rule.source, path: rule.path, op: 'write', expected: writable });
  if (!plan) add({ name: 'own package cache', path: cacheDirFor(facts.stateDir, profile.name), op: 'write', expected: 'allowed' });
  if (!plan) add({ name: 'own temp folder (TMPDIR)', path: join(cacheDirFor(facts.stateDir, profile.name), 'tmp'), op: 'write', expected: 'allowed' });
  add({ name: 'shared temp folder /tmp (not granted: each profile writes its own TMPDIR)', path: '/tmp', op: 'write', expected: 'denied' });

  const state = "Angelia's private state";
  add({ name: `${state}: probe file`, path: fixtures.probeFile, op: 'read', expected: 'denied' });
  add({ name: `${state}: probe file`, path: fixtures.probeFile, op: 'read-sh', expected: 'denied' });
  add({ name: `${state}: probe file`, path: fixtures.probeFile, op: 'read-link', expected: 'denied', via: fixtures.linkPath });
  add({ name: `${state}: compiled/`, path: compiled, op: 'list', expected: 'denied' });
  add({ name: `${state}: compiled/`, path: compiled, op: 'write', expected: 'denied' });

  for (const rule of policy) if (rule.access === 'deny') add({ name: `denied: ${rule.source}`, path: rule.path, op: 'read', expected: 'denied' });
  for (const other of Object.values(table.profiles)) {
    if (other.name !== profile.name)
      add({ name: `profile ${other.name}'s package cache`, path: cacheDirFor(facts.stateDir, other.name), op: 'read', expected: 'denied' });
  }
  for (const rule of policy) {
    if (rule.access !== 'read') continue;
    add({ name: `read-only: ${rule.source}`, path: rule.path, op: 'read', expected: 'allowed' });
    add({ name: `read-only: ${rule.source}`, path: rule.path, op: 'write', expected: 'denied' });
  }

  // HOME is private by default: what the profile names to read, and nothing else (the scan).
  for (const rule of profilePolicy(table, profile, facts).reads) {
    add({ name: `readable: ${rule.source}`, path: rule.path, op: 'read', expected: 'allowed' });
    add({ name: `readable, not writable: ${rule.source}`, path: rule.path, op: 'write', expected: 'denied' });
  }
  if (input.filesystem) {
    const fs = input.filesystem;
    add({
      name: 'HOME: nothing readable but the grants (a scan of it in the sandbox)',
      path: facts.home,
      op: 'scan',
      expected: 'denied',
      scan: {
        grants: Object.keys(fs).filter((p) => fs[p] !== 'deny'),
        denies: Object.keys(fs).filter((p) => fs[p] === 'deny'),
        carveOuts: [...new Set([join(facts.codexHome, 'tmp'), join(facts.home, '.codex', 'tmp')])],
      },
    });
  }

  const last = (input.guardDeny ?? []).map((r) => parseRule(r, facts.home)).filter((r) => r !== null);
  const lastDenied = new Set(last.filter((r) => r.tool === 'Read').map((r) => r.path));
  for (const path of lastDenied) add({ name: 'last compile: denied', path, op: 'read', expected: 'denied' });
  for (const r of last) {
    if (r.tool !== 'Edit' || lastDenied.has(r.path)) continue;
    add({ name: 'last compile: read-only', path: r.path, op: 'read', expected: 'allowed' });
    add({ name: 'last compile: read-only', path: r.path, op: 'write', expected: 'denied' });
  }

  add({ name: 'Unix socket elsewhere', path: fixtures.socketPath, op: 'connect', expected: 'denied' });
  add({ name: 'loopback TCP port', path: `127.0.0.1:${fixtures.tcpPort}`, op: 'connect', expected: 'denied', mustExist: false });
  return out;
}
