/**
 * How one probe is run inside `codex sandbox` (the argv after `--`) and how its outcome is read. Pure.
 * Fail closed: an outcome is "denied" only when the command failed with an access error (or, for a
 * socket, an error from connect itself); a command that did not run at all is an error, never a pass.
 * Nothing a probe reads is ever shown: only byte and entry counts.
 */
import { join } from 'node:path';
import type { Expectation, Probe } from './matrix';

/** What the runner found on the host before a probe: the kind of the path. */
export type HostKind = 'file' | 'dir' | 'other';

/** One finished sandbox command. */
export interface RawRun {
  /** Exit code; null when killed. */
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** The verdict on one probe. */
export interface Outcome {
  outcome: Expectation | 'error';
  /** Shown in the table's "observed" column. */
  observed: string;
}

/** Printed by the `run` probe. */
export const CONTROL_MARK = 'angelia-verify-ok';

/**
 * An access refused by the sandbox, as the probe's own command reports it (`cat:`, `ls:`, `sh:` lines;
 * Linux bubblewrap/seccomp and macOS Seatbelt). "No such file or directory" counts: every probed path
 * exists on the host, and Codex hides what lies in a denied folder below which it grants a deeper one
 * (measured: another profile's cache inside the denied cache root). A line from `bwrap:` or Codex
 * itself (the sandbox did not start, e.g. racing a concurrent run) is never a denial.
 */
const ACCESS_ERROR = /^(?:cat|ls|sh): .*?(Permission denied|Operation not permitted|Read-only file system|No such file or directory)/m;

/** A Node script: connects to a Unix socket path (argv[1]) or to host argv[1], port argv[2]. */
const CONNECT_SCRIPT = [
  "const net = require('net');",
  'const [target, port] = process.argv.slice(1);',
  'const done = (m, c) => { console.log(m); process.exit(c); };',
  'const s = port ? net.connect(Number(port), target) : net.connect({ path: target });',
  "s.on('connect', () => done('CONNECTED', 0));",
  "s.on('error', (e) => done('ERR ' + (e.code || e.message), 3));",
  "setTimeout(() => done('ERR TIMEOUT', 3), 5000);",
].join(' ');

/** The target a `write` probe creates or touches: a new file inside a folder, or the file itself. */
export function writeTarget(probe: Probe, kind: HostKind, writeName: string): string {
  return kind === 'dir' ? join(probe.path, writeName) : probe.path;
}

/**
 * The command run inside the sandbox for `probe` (`kind` is the path's kind on the host, `node` the
 * Node executable used for socket probes). Writes never destroy: a folder gets a new file, a file gets
 * nothing appended.
 */
export function probeCommand(probe: Probe, kind: HostKind, writeName: string, node: string): string[] {
  switch (probe.op) {
    case 'run':
      return ['sh', '-c', `echo ${CONTROL_MARK}`];
    case 'read':
      return kind === 'dir' ? ['ls', '-A', probe.path] : ['cat', probe.path];
    case 'read-sh':
      return ['sh', '-c', 'cat "$1"', 'sh', probe.path];
    case 'read-link':
      return ['cat', probe.via ?? probe.path];
    case 'list':
      return ['ls', '-A', probe.path];
    case 'write':
      return kind === 'dir'
        ? ['sh', '-c', 'printf angelia-verify > "$1"', 'sh', writeTarget(probe, kind, writeName)]
        : ['sh', '-c', ': >> "$1"', 'sh', probe.path];
    case 'connect': {
      const tcp = /^(127\.0\.0\.1):(\d+)$/.exec(probe.path);
      return [node, '-e', CONNECT_SCRIPT, ...(tcp ? [tcp[1]!, tcp[2]!] : [probe.path])];
    }
    case 'check':
      throw new Error('a check probe does not run in the sandbox');
  }
}

function firstLine(s: string): string {
  const line = s.split('\n').map((l) => l.trim()).find((l) => l.length > 0) ?? '';
  return line.length > 160 ? `${line.slice(0, 157)}...` : line;
}

function failed(run: RawRun): string {
  return `error: exit ${run.code ?? 'killed'}${run.stderr.trim() ? `: ${firstLine(run.stderr)}` : ''}`;
}

/**
 * Reads the outcome of `probe` from its run. `kind` is the path's kind on the host (a folder is read
 * by listing it). `written` (write probes only) says whether the write took effect; an allowed write
 * that left nothing is an error.
 */
export function observe(probe: Probe, kind: HostKind, run: RawRun, written?: boolean): Outcome {
  if (run.timedOut) return { outcome: 'error', observed: 'error: timed out' };
  const denial = ACCESS_ERROR.exec(run.stderr)?.[1];
  switch (probe.op) {
    case 'run':
      return run.code === 0 && run.stdout.includes(CONTROL_MARK)
        ? { outcome: 'allowed', observed: 'allowed: ran' }
        : { outcome: 'error', observed: `${failed(run)} (the sandbox did not run a command)` };
    case 'read':
    case 'read-sh':
    case 'read-link':
    case 'list':
      if (run.code === 0) {
        const what = probe.op === 'list' || (probe.op === 'read' && kind === 'dir') ? `${run.stdout.split('\n').filter(Boolean).length} entries listed` : `${Buffer.byteLength(run.stdout)} bytes read`;
        return { outcome: 'allowed', observed: `allowed: ${what}` };
      }
      return denial ? { outcome: 'denied', observed: `denied: ${denial}` } : { outcome: 'error', observed: failed(run) };
    case 'write':
      if (written) return { outcome: 'allowed', observed: run.code === 0 ? 'allowed: written' : `allowed: written (then exit ${run.code})` };
      if (run.code === 0) return { outcome: 'error', observed: 'error: exit 0 but nothing was written' };
      return denial ? { outcome: 'denied', observed: `denied: ${denial}` } : { outcome: 'error', observed: failed(run) };
    case 'connect': {
      if (/^CONNECTED$/m.test(run.stdout)) return { outcome: 'allowed', observed: 'allowed: connected' };
      const err = /^ERR (.+)$/m.exec(run.stdout)?.[1];
      return err ? { outcome: 'denied', observed: `denied: not reached (${err})` } : { outcome: 'error', observed: `${failed(run)} (the probe did not run)` };
    }
    case 'check':
      return { outcome: 'error', observed: 'error: not a sandbox probe' };
  }
}
