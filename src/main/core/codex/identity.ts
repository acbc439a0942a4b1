/**
 * Who a process is, so a recorded pid is never confused with another process that got the same pid later
 * (verify identity, never kill by name or by a bare pid). A process is identified by its pid AND its start
 * time: on Linux field 22 of /proc/<pid>/stat (clock ticks after boot) plus the boot id, on macOS the
 * `ps -o lstart=` text (local time, one-second resolution). Elsewhere identity is unknown (null) and
 * callers must refuse to signal.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** A live process as seen now: pid, start time, process group and session. */
export interface ProcessInfo {
  pid: number;
  /** Linux: /proc/<pid>/stat field 22 as decimal text (clock ticks after boot); macOS: `ps -o lstart=` text. */
  startTime: string;
  pgid: number;
  /** Session id (Linux); on macOS the pid itself for a session leader we started, else the pgid. */
  sid: number;
}

/**
 * Reads `pid`'s start time, group and session. Null when the process does not exist, is a zombie (it can
 * no longer be signalled into exiting), or its identity cannot be read on this platform.
 */
export function processInfo(pid: number, platform: NodeJS.Platform = process.platform): ProcessInfo | null {
  if (!Number.isInteger(pid) || pid <= 0) return null;
  if (platform === 'linux') return linuxInfo(pid);
  if (platform === 'darwin') return darwinInfo(pid);
  return null;
}

function linuxInfo(pid: number): ProcessInfo | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // Fields after "(comm) " start at field 3 (state): field n is at index n - 3.
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  if (f[0] === 'Z' || f[0] === 'X' || f[19] === undefined) return null;
  return { pid, startTime: f[19], pgid: Number(f[2]), sid: Number(f[3]) };
}

function darwinInfo(pid: number): ProcessInfo | null {
  let out: string;
  try {
    out = execFileSync('ps', ['-o', 'stat=,pgid=,lstart=', '-p', String(pid)], {
      encoding: 'utf8',
      env: { ...process.env, LC_ALL: 'C' },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  } catch {
    return null; // ps exits 1 when there is no such process.
  }
  const m = /^\s*(\S+)\s+(\d+)\s+(.+?)\s*$/.exec(out);
  if (!m || m[1]!.startsWith('Z')) return null;
  const pgid = Number(m[2]);
  return { pid, startTime: m[3]!, pgid, sid: pgid === pid ? pid : pgid };
}

/** The current boot's id (Linux `/proc/sys/kernel/random/boot_id`), null elsewhere. */
export function bootId(platform: NodeJS.Platform = process.platform): string | null {
  if (platform !== 'linux') return null;
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || null;
  } catch {
    return null;
  }
}

/** True when `pid` runs now and started at `startTime` (same process, not a reused pid). */
export function isSameProcess(pid: number, startTime: string): boolean {
  return processInfo(pid)?.startTime === startTime;
}
