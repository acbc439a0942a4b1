/**
 * Runs one command in a profile's own sandbox, the way `angelia verify` runs its probes: `codex sandbox
 * <the profile's compiled -c flags> -- <command>` (compileCodexLaunch's argv minus the trailing
 * "app-server"), with the environment a launch gives Codex (launch/env.ts `childEnv`), a timeout and an
 * output bound. What Angelia runs here reads and writes only what the profile's agent could, whatever the
 * folder's files configure (docs/security-model.md "Angelia's own commands in a profile's folder").
 * Used by verify/run.ts (its probes) and chats/turnDiff (the folder against git's HEAD).
 *
 * Runs of one profile are serialized in this process. Measured on codex 0.169.0 (Linux): verify's probes
 * run at once raced on the mount points Codex creates and removes on the host for entries that do not
 * exist and for writable folders ("bwrap: Can't find source path …", spurious ENOENT). A profile's own
 * compiled launch did not (12 concurrent `git status` runs, read-only variant and not, fresh folders and
 * not, real and private HOME, with an add_dir and a missing read_dir: 0 of 12 failed in 16 rounds), but
 * one queue per profile costs little (a HEAD diff's runs are sequential anyway) and keeps verify's rows clean.
 * Protocol: codex 0.169.0 `codex sandbox [-c key=value]… -- cmd` (test/integration/verify.test.ts).
 */
import { spawn } from 'node:child_process';
import { AppFailure } from '../../../shared/result';
import { resolveCodexBin, type ResolvedCodex } from '../codex/resolve';
import { compileCodexLaunch, type CodexLaunch } from '../compile/codexProfile';
import type { CompileFacts } from '../compile/facts';
import { mcpEnvNames } from '../compile/mcpFlags';
import type { InstancePaths } from '../instance/paths';
import type { LoadedTable, ResolvedProfile } from '../table/load';
import { childEnv } from './env';
import { launchFacts } from './plan';
import { ensureCacheDirs, ensureCodexHome } from './prepare';

/** What one bounded run gave. `missing`: the executable was not found. `cut`: stopped at the output bound. */
export interface BoundedRun {
  /** Exit code; null when killed (timeout, bound) or not started. */
  code: number | null;
  stdout: string;
  /** The first 4 000 characters of stderr, or the spawn error's message. */
  stderr: string;
  missing: boolean;
  timedOut: boolean;
  cut: boolean;
}

/** Limits of one run: `timeoutMs` (then SIGKILL) and `maxBytes` of stdout (then SIGKILL, `cut`). */
export interface RunLimits {
  cwd: string;
  timeoutMs: number;
  maxBytes: number;
}

/** Runs `bin args` in `cwd` with `env`, stdout read up to `maxBytes`, killed after `timeoutMs`. Never throws. */
export function runBounded(bin: string, args: readonly string[], opts: RunLimits & { env: NodeJS.ProcessEnv }): Promise<BoundedRun> {
  return new Promise((resolve) => {
    const child = spawn(bin, [...args], { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let bytes = 0;
    let err = '';
    let cut = false;
    let timedOut = false;
    let settled = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, opts.timeoutMs);
    child.stdout.on('data', (b: Buffer) => {
      if (cut) return;
      const room = opts.maxBytes - bytes;
      out.push(b.length > room ? b.subarray(0, room) : b);
      bytes += Math.min(b.length, room);
      if (b.length >= room) {
        cut = true;
        child.kill('SIGKILL');
      }
    });
    child.stderr.on('data', (b: Buffer) => {
      if (err.length < 4000) err += b.toString('utf8');
    });
    const done = (code: number | null, missing: boolean, message = ''): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: err || message, missing, timedOut, cut });
    };
    child.on('error', (e: NodeJS.ErrnoException) => done(null, e.code === 'ENOENT', e.message));
    child.on('close', (code) => done(code, false));
  });
}

/** The tail of each profile's queue (key: state folder and profile). */
const queues = new Map<string, Promise<unknown>>();

/** Runs `work` after every earlier `serialized` work of `key` has settled; the queue forgets a key once idle. */
export function serialized<T>(key: string, work: () => Promise<T>): Promise<T> {
  const before = queues.get(key) ?? Promise.resolve();
  const mine = before.then(work, work);
  const tail = mine.then(
    () => undefined,
    () => undefined,
  );
  queues.set(key, tail);
  void tail.then(() => {
    if (queues.get(key) === tail) queues.delete(key);
  });
  return mine;
}

/** A profile's sandbox, ready to run commands in (see `profileSandbox`). */
export interface ProfileSandbox {
  profile: ResolvedProfile;
  codex: ResolvedCodex;
  facts: CompileFacts;
  /** The compiled launch the commands run under. */
  launch: CodexLaunch;
  /** The environment given to `codex sandbox` (Codex passes the commands only `commandEnvNames` of it). */
  env: NodeJS.ProcessEnv;
  /**
   * Runs `command` (argv) in the sandbox in `cwd`, after any earlier run of this profile (`serialized`).
   * Null when the launch is not sandboxed (`sandbox = false`): nothing is ever run outside.
   */
  run: ((command: readonly string[], limits: RunLimits) => Promise<BoundedRun>) | null;
}

/** Options of `profileSandbox`. */
export interface SandboxOptions {
  paths: InstancePaths;
  table: LoadedTable;
  profile: string;
  /** Angelia's environment (scrubbed as for a launch). */
  env: NodeJS.ProcessEnv;
  /** The read-only variant `/ask` runs under (compile/codexProfile.ts LaunchExtras `readOnly`): every write entry a read. */
  readOnly?: boolean;
  /** Changes the environment given to `codex sandbox` (after `childEnv`). */
  envFor?: (env: NodeJS.ProcessEnv) => NodeJS.ProcessEnv;
}

/**
 * Compiles `profile` of `table` as a start would (launch/plan.ts `launchFacts`, compileCodexLaunch, the
 * child's environment), with Codex's home and the profile's package cache made (prepare.ts; no mount
 * points are added to the profile's folder, so verify leaves nothing behind). Does NOT run the
 * launch check: callers decide (verify reports it as a row). Throws AppFailure `profile-unknown` (no such
 * profile), `codex-missing` (no Codex executable), `codex-config`, or compile's own codes.
 */
export async function profileSandbox(opts: SandboxOptions): Promise<ProfileSandbox> {
  const { paths, table } = opts;
  const profile = Object.hasOwn(table.profiles, opts.profile) ? table.profiles[opts.profile] : undefined;
  if (!profile) {
    throw new AppFailure({
      code: 'profile-unknown',
      message: `there is no profile ${JSON.stringify(opts.profile)} in the accepted table`,
      where: paths.acceptedTable,
      fix: `use one of: ${Object.keys(table.profiles).join(', ') || '(none)'}`,
    });
  }
  let codex: ResolvedCodex;
  try {
    codex = resolveCodexBin(profile.bin ?? undefined, { env: opts.env });
  } catch (e) {
    throw new AppFailure({
      code: 'codex-missing',
      message: (e as Error).message,
      where: `${table.file}: profiles.${profile.name}.bin`,
      fix: 'run angelia check-config',
    });
  }
  // Codex refuses to start on a CODEX_HOME that does not exist; a start would make it (launch/plan.ts).
  await ensureCodexHome(paths.codexHome);
  const facts = await launchFacts(paths);
  const launch = compileCodexLaunch(table, profile.name, facts, opts.readOnly ? { readOnly: true } : {});
  const base = childEnv(opts.env, {
    mcp: mcpEnvNames(table, profile),
    codex,
    add: { ...launch.env, CODEX_HOME: paths.codexHome, ...(process.versions.electron ? { ELECTRON_RUN_AS_NODE: '1' } : {}) },
  });
  const env = opts.envFor ? opts.envFor(base) : base;
  if (!launch.sandboxed) return { profile, codex, facts, launch, env, run: null };
  if (launch.cacheDir) await ensureCacheDirs(launch.cacheDir);
  const prefix = ['sandbox', ...launch.codexArgs.slice(0, -1), '--'];
  const key = `${paths.stateDir}\0${profile.name}`;
  const run = (command: readonly string[], limits: RunLimits): Promise<BoundedRun> =>
    serialized(key, () => runBounded(codex.path, [...prefix, ...command], { ...limits, env }));
  return { profile, codex, facts, launch, env, run };
}
