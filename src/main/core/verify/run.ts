/**
 * Runs `angelia verify <profile>`: every probe of matrix.ts through `codex sandbox <the profile's
 * compiled -c flags> -- <command>` in the profile's folder, with the environment `angelia run` gives the
 * agent (compileCodexLaunch of the accepted table, the same facts as launch/plan.ts, the same environment
 * as launch/env.ts `childEnv` builds, minus the trailing "app-server"). Its first row is the launch check
 * a start runs (launch/check.ts), so it names every reason a start would be refused with. Probes whose
 * path does not exist are reported as skipped, never as passed. Each probe runs through
 * launch/sandboxRun.ts (one profile's runs one at a time, with a timeout and an output bound). The runner's own files (a probe file in `<state>/compiled/`, a symlink in the profile's folder, written
 * probe files, a Unix socket and a loopback port) are removed afterwards. Protocol: codex 0.169.0
 * (`codex sandbox [-c key=value]… -- cmd`, test/integration/verify.test.ts).
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, lstatSync, statSync } from 'node:fs';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ResolvedCodex } from '../codex/resolve';
import { guardPath } from '../compile/guardFile';
import { currentGrants, launchReasons, refusalText } from '../launch/check';
import { readGuard } from '../launch/guard';
import { profileSandbox } from '../launch/sandboxRun';
import type { InstancePaths } from '../instance/paths';
import { loadAccepted } from '../table/accepted';
import { probeMatrix, type Probe, type ProbeFixtures } from './matrix';
import { observe, probeCommand, scanVerdict, writeTarget, type HostKind, type RawRun, type ScanSeen } from './observe';

/** One row of the report. `pass` is null for a probe that did not run (skipped). */
export interface ProbeRow {
  name: string;
  path: string;
  op: string;
  expected: string;
  observed: string;
  pass: boolean | null;
}

/**
 * What a command of the profile sees in HOME (the `scan` probe; docs/security-model.md "Filesystem:
 * private by default"): the grants of the compiled launch below HOME (not descended into), every other
 * path the scan saw with its class (observe.ts `scanVerdict`), and those that are not granted (must be
 * none).
 */
export interface HomeScan {
  root: string;
  grants: string[];
  seen: ScanSeen[];
  notGranted: string[];
}

/** The whole report; `pass` is true only when no row failed and the control command ran. */
export interface VerifyReport {
  profile: string;
  /** From `codex --version` ("0.169.0"), null when it could not be read. */
  codexVersion: string | null;
  probes: ProbeRow[];
  pass: boolean;
  /** The HOME scan (absent when the profile runs unsandboxed or the scan did not run). */
  home?: HomeScan;
}

/** Options of `verifyProfile`. */
export interface VerifyOptions {
  paths: InstancePaths;
  /** The environment the agent would inherit (scrubbed exactly as for a launch). */
  env: NodeJS.ProcessEnv;
  profile: string;
  /** Per-command limit (ms, default 30 000); a probe that runs longer is an error row. */
  timeoutMs?: number;
}

function exec(bin: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<RawRun> {
  return new Promise((resolve) => {
    execFile(bin, args, { cwd, env, timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 4 << 20 }, (error, stdout, stderr) => {
      const e = error as (NodeJS.ErrnoException & { killed?: boolean; code?: number | string }) | null;
      const code = e ? (typeof e.code === 'number' ? e.code : null) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) || (e && typeof e.code === 'string' ? e.message : ''), timedOut: Boolean(e?.killed) });
    });
  });
}

function listen(server: Server, at: string | number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    if (typeof at === 'string') server.listen(at, () => resolve());
    else server.listen(at, '127.0.0.1', () => resolve());
  });
}

/** What `path` is on the host (a link is followed; a dangling link is "other"); null when absent. */
function hostKind(path: string): HostKind | null {
  try {
    const s = statSync(path);
    return s.isDirectory() ? 'dir' : s.isFile() ? 'file' : 'other';
  } catch {
    try {
      lstatSync(path);
      return 'other';
    } catch {
      return null;
    }
  }
}

/** Prepares the fixtures; `cleanup` removes every file made and closes the servers (never throws). */
async function prepare(paths: InstancePaths, cwd: string): Promise<{ fixtures: ProbeFixtures; cleanup: (extra: string[]) => Promise<void> }> {
  const id = randomBytes(4).toString('hex');
  const servers = [createServer((s) => s.end()), createServer((s) => s.end())];
  const made: string[] = [];
  const probeFile = join(paths.compiledDir, `.angelia-verify-${id}.txt`);
  let socketDir: string | null = null;
  const cleanup = async (extra: string[]): Promise<void> => {
    await Promise.all(servers.map((s) => new Promise((r) => (s.listening ? s.close(r) : r(undefined)))));
    for (const f of [...made, ...extra]) await rm(f, { force: true }).catch(() => undefined);
    if (socketDir) await rm(socketDir, { recursive: true, force: true }).catch(() => undefined);
  };
  try {
    await writeFile(probeFile, `angelia-verify-${id}-${randomBytes(8).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    made.push(probeFile);
    const linkPath = join(cwd, `.angelia-verify-${id}.link`);
    await symlink(probeFile, linkPath);
    made.push(linkPath);
    let socketPath = join(paths.stateDir, `v-${id}.sock`);
    if (Buffer.byteLength(socketPath) > 100) {
      socketDir = await mkdtemp(join(tmpdir(), 'angelia-verify-'));
      socketPath = join(socketDir, 's.sock');
    }
    await listen(servers[0]!, socketPath);
    made.push(socketPath);
    await listen(servers[1]!, 0);
    const address = servers[1]!.address();
    const tcpPort = typeof address === 'object' && address ? address.port : 0;
    return { fixtures: { probeFile, linkPath, writeName: `.angelia-verify-${id}.w`, socketPath, tcpPort }, cleanup };
  } catch (e) {
    await cleanup([]);
    throw e;
  }
}

async function codexVersion(codex: ResolvedCodex, env: NodeJS.ProcessEnv): Promise<string | null> {
  const r = await exec(codex.path, ['--version'], process.cwd(), env, 30_000);
  return /(\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?)/.exec(r.stdout)?.[1] ?? null;
}

/**
 * Verifies one profile of the accepted table on this machine. Throws AppFailure for a table problem,
 * an unknown profile, or a Codex executable that cannot be found; every probe problem is a row.
 */
export async function verifyProfile(opts: VerifyOptions): Promise<VerifyReport> {
  const { paths } = opts;
  const { table } = await loadAccepted(paths, { home: paths.home, env: opts.env });
  // The profile's launch as a start compiles it, and the one way Angelia runs a command in its sandbox.
  const { profile, codex, facts, launch, env, run: sandboxRun } = await profileSandbox({ paths, table, profile: opts.profile, env: opts.env });
  const cwd = profile.cwd;
  const version = await codexVersion(codex, env);
  // Every reason a start would be refused with (launch/check.ts), what the table loosens included.
  const reasons = await launchReasons(paths.stateDir, profile, launch.sandboxed ? currentGrants(table, profile, facts, launch.mcpServers) : undefined);
  const rows: ProbeRow[] = [
    {
      name: 'launch guard check',
      path: guardPath(paths.stateDir, profile.name),
      op: 'check',
      expected: 'allowed',
      observed: reasons.length === 0 ? 'allowed: guard and settings match' : `refused: ${refusalText(reasons)}`,
      pass: reasons.length === 0,
    },
  ];
  if (!sandboxRun) {
    rows.push({
      name: 'sandbox',
      path: profile.cwd,
      op: 'check',
      expected: 'denied',
      observed: 'allowed: sandbox = false gives the agent full access; nothing is denied',
      pass: false,
    });
    return { profile: profile.name, codexVersion: version, probes: rows, pass: false };
  }
  const runIn = sandboxRun;
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const { fixtures, cleanup } = await prepare(paths, cwd);
  const written: string[] = [];
  let home: HomeScan | undefined;
  try {
    const probes = probeMatrix({
      profile,
      table,
      facts,
      guardDeny: (await readGuard(paths.stateDir, profile.name))?.deny ?? null,
      fixtures,
      filesystem: launch.filesystem,
    });
    // One at a time (sandboxRun.ts serializes a profile's runs: concurrent ones race on Codex's mount points).
    for (const probe of probes) rows.push(await runProbe(probe));
  } finally {
    await cleanup(written);
  }
  const pass = rows.every((r) => r.pass !== false) && rows.some((r) => r.op === 'run' && r.pass === true);
  return { profile: profile.name, codexVersion: version, probes: rows, pass, ...(home ? { home } : {}) };

  async function runProbe(probe: Probe): Promise<ProbeRow> {
    const row = { name: probe.name, path: probe.path, op: probe.op, expected: probe.expected };
    const kind = hostKind(probe.path);
    if (probe.mustExist && kind === null) return { ...row, observed: 'skipped: does not exist', pass: null };
    const target = probe.op === 'write' ? writeTarget(probe, kind ?? 'other', fixtures.writeName) : null;
    if (target && kind === 'dir') written.push(target);
    const ran = await runIn(probeCommand(probe, kind ?? 'other', fixtures.writeName, process.execPath), { cwd, timeoutMs, maxBytes: 4 << 20 });
    const run: RawRun = { ...ran, stderr: ran.cut ? `${ran.stderr}\n(output over 4 MiB: stopped)` : ran.stderr };
    const wrote = target ? (kind === 'dir' ? existsSync(target) : run.code === 0) : undefined;
    const seen = observe(probe, kind ?? 'other', run, wrote);
    if (probe.op === 'scan' && probe.scan && seen.outcome !== 'error') {
      const verdict = scanVerdict(run.stdout, probe.scan);
      home = {
        root: probe.path,
        grants: probe.scan.grants.filter((g) => g.startsWith(`${probe.path}/`)).sort(),
        seen: verdict.seen.filter((s) => s.as !== 'grant'),
        notGranted: verdict.notGranted,
      };
    }
    return { ...row, observed: seen.observed, pass: seen.outcome === probe.expected };
  }
}
