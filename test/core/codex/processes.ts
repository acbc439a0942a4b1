/**
 * Process checks for tests: whether a pid still runs (a zombie counts as gone — in containers nothing may
 * reap re-parented children), and waiting until it is gone.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** True while `pid` exists and is not a zombie (Linux /proc; falls back to signal 0 elsewhere). */
export function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    if (process.platform === 'linux') return false;
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  }
}

/** Resolves true once `pid` is gone, false if it still runs after `limitMs` (default 5000). */
export async function waitGone(pid: number, limitMs = 5_000): Promise<boolean> {
  const end = Date.now() + limitMs;
  while (Date.now() < end) {
    if (!isRunning(pid)) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return !isRunning(pid);
}

/** Pids of live (non-zombie) processes whose process group (field 2) or session (field 3) is `id`. */
export function treeMembers(id: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const inTree = Number(fields[2]) === id || Number(fields[3]) === id;
      if (inTree && fields[0] !== 'Z' && fields[0] !== 'X') out.push(Number(name));
    } catch {
      // The process ended while scanning.
    }
  }
  return out;
}

/** Resolves with the live members of group/session `id` once there are none, or after `limitMs` (default 5000). */
export async function waitTreeEmpty(id: number, limitMs = 5_000): Promise<number[]> {
  const end = Date.now() + limitMs;
  let members = treeMembers(id);
  while (members.length > 0 && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 25));
    members = treeMembers(id);
  }
  return members;
}

/** The process group id of `pid` (Linux /proc). */
export function pgidOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
}

/** Polls `cond` every 10 ms until it holds; resolves false if it still fails after `limitMs` (default 5000). */
export async function waitFor(cond: () => boolean, limitMs = 5_000): Promise<boolean> {
  const end = Date.now() + limitMs;
  while (!cond()) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 10));
  }
  return true;
}
