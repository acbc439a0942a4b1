/**
 * How one probe is run inside `codex sandbox` (the argv after `--`) and how its outcome is read. Pure.
 * Fail closed: an outcome is "denied" only when the command failed with an access error (or, for a
 * socket, an error from connect itself); a command that did not run at all is an error, never a pass.
 * Nothing a probe reads is ever shown: only byte and entry counts.
 */
import { join } from 'node:path';
import { isWithin } from '../instance/paths';
import type { Expectation, Probe, ScanSpec } from './matrix';

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
const ACCESS_ERROR = /^(?:cat|ls|sh): .*?(Permission denied|Operation not permitted|Read-only file system|No such file or directory|Directory nonexistent)/m;

/** Printed by the `scan` probe after its last line, so a scan cut short is an error, never a pass. */
export const SCAN_DONE = 'angelia-verify-scan-done';

/**
 * The `scan` probe's script (POSIX sh; argv: the folder, then `find` operands naming the grants to
 * leave out): one line per path a command sees below the folder, `<kind> <path>`, where the kind is
 * `F` a file it can read bytes of, `f` an empty or unreadable file, `D` a folder it can list, `d` one it
 * cannot, `L` a symbolic link, `o` anything else; then SCAN_DONE. Nothing read is printed.
 */
const SCAN_SCRIPT = [
  'root=$1; shift',
  'find "$root" -mindepth 1 \\( "$@" \\) -prune -o -print 2>/dev/null | while IFS= read -r p; do',
  '  if [ -L "$p" ]; then echo "L $p"',
  '  elif [ -d "$p" ]; then if ls -A "$p" >/dev/null 2>&1; then echo "D $p"; else echo "d $p"; fi',
  '  elif [ -f "$p" ]; then if [ -s "$p" ] && head -c1 "$p" >/dev/null 2>&1; then echo "F $p"; else echo "f $p"; fi',
  '  else echo "o $p"; fi',
  'done',
  `echo ${SCAN_DONE}`,
].join('\n');

/** One path a scan saw, and what it is with respect to the launch's entries. */
export interface ScanSeen {
  path: string;
  /** The kind letter of SCAN_SCRIPT. */
  kind: string;
  /**
   * `grant` (in a read or write entry), `carve-out` (Codex's own helper links), `way` (a folder on the
   * way to a grant or to a deny mount point), `denied` (a deny entry's empty mount point, or what lies
   * in it), `not granted` (none of those: what the scan must never find).
   */
  as: 'grant' | 'carve-out' | 'way' | 'denied' | 'not granted';
}

/** What a scan of HOME found: every path seen with its class, and the ones not granted (readable or listable). */
export interface ScanVerdict {
  seen: ScanSeen[];
  notGranted: string[];
}

/**
 * Judges a scan's output against `spec` (pure): a path below a grant or a carve-out is fine; a folder
 * on the way to a grant or a deny entry is fine; a deny entry's mount point is fine when it holds
 * nothing readable (an `F` or `D`-with-content inside it is not); anything else the command could
 * read or list is `not granted`. An empty, unreadable name that is none of those counts too: the
 * sandbox should not have shown it.
 */
export function scanVerdict(stdout: string, spec: ScanSpec): ScanVerdict {
  const within = (p: string, roots: readonly string[]): boolean => roots.some((r) => isWithin(p, r));
  const above = (p: string, roots: readonly string[]): boolean => roots.some((r) => r !== p && isWithin(r, p));
  const seen: ScanSeen[] = [];
  for (const line of stdout.split('\n')) {
    const m = /^([FfDdLo]) (.+)$/.exec(line);
    if (!m) continue;
    const [, kind, path] = m as unknown as [string, string, string];
    let as: ScanSeen['as'];
    if (within(path, spec.grants)) as = 'grant';
    else if (within(path, spec.carveOuts)) as = 'carve-out';
    else if (within(path, spec.denies)) as = kind === 'F' ? 'not granted' : 'denied';
    else if (above(path, [...spec.grants, ...spec.denies, ...spec.carveOuts]) && (kind === 'D' || kind === 'd')) as = 'way';
    else as = 'not granted';
    seen.push({ path, kind, as });
  }
  // A listable folder inside a deny mount point that holds something readable is caught by its file;
  // a folder on the way shows only the components leading on (checked through its entries above).
  return { seen, notGranted: seen.filter((s) => s.as === 'not granted').map((s) => s.path) };
}

/** The `find` operands that leave out each grant below `root` (`-false` when there is none). */
function pruneOperands(root: string, grants: readonly string[]): string[] {
  const inside = grants.filter((g) => g !== root && isWithin(g, root) && !grants.some((o) => o !== g && isWithin(g, o)));
  if (inside.length === 0) return ['-false'];
  return inside.flatMap((g, i) => [...(i > 0 ? ['-o'] : []), '-path', g]);
}

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
    case 'scan':
      return ['sh', '-c', SCAN_SCRIPT, 'sh', probe.path, ...pruneOperands(probe.path, probe.scan?.grants ?? [])];
    case 'check':
      throw new Error('a check probe does not run in the sandbox');
  }
}

function firstLine(s: string): string {
  const line =
    s
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l.length > 0) ?? '';
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
        const what =
          probe.op === 'list' || (probe.op === 'read' && kind === 'dir')
            ? `${run.stdout.split('\n').filter(Boolean).length} entries listed`
            : `${Buffer.byteLength(run.stdout)} bytes read`;
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
    case 'scan': {
      if (!run.stdout.includes(SCAN_DONE)) return { outcome: 'error', observed: `${failed(run)} (the scan did not finish)` };
      const verdict = scanVerdict(run.stdout, probe.scan ?? { grants: [], denies: [], carveOuts: [] });
      if (verdict.notGranted.length > 0) {
        const first = verdict.notGranted.slice(0, 3).join(', ');
        return { outcome: 'allowed', observed: `allowed: ${verdict.notGranted.length} not granted: ${first}${verdict.notGranted.length > 3 ? ', …' : ''}` };
      }
      const n = (as: ScanSeen['as']): number => verdict.seen.filter((s) => s.as === as).length;
      return {
        outcome: 'denied',
        observed: `denied: nothing but the grants (${n('grant')} granted, ${n('way')} folders on the way, ${n('denied')} empty deny mount points, ${n('carve-out')} Codex helper links)`,
      };
    }
    case 'check':
      return { outcome: 'error', observed: 'error: not a sandbox probe' };
  }
}
