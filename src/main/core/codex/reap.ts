/**
 * Signalling everything a child started, and nothing else. The child runs as leader of its own session and
 * process group (`detached: true` = setsid, so session id = group id = its pid). Signalling the group is
 * not enough for Codex: measured with codex-cli 0.169.0 on Linux, its sandboxed helpers (`bwrap …
 * codex --codex-run-as-fs-helper`) are moved into process groups of their own but stay in the app-server's
 * session, and outlived the app-server (re-parented to init) when only the group was killed. On Linux
 * the session's members are therefore also found through /proc and signalled one by one.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Pids of the live processes in session `sid` (Linux /proc; empty elsewhere). Excludes this process. */
export function sessionMembers(sid: number): number[] {
  if (process.platform !== 'linux') return [];
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const out: number[] = [];
  for (const name of names) {
    if (name.charCodeAt(0) < 48 || name.charCodeAt(0) > 57) continue;
    const pid = Number(name);
    if (pid === process.pid) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // Fields after "(comm) ": state ppid pgrp session …
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[3]) === sid && fields[0] !== 'Z' && fields[0] !== 'X') out.push(pid);
    } catch {
      // Ended while scanning.
    }
  }
  return out;
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch (e) {
    // ESRCH: already gone.
    if ((e as NodeJS.ErrnoException).code !== 'ESRCH') throw e;
  }
}

/**
 * Sends `sig` to process group `leaderPid` and, on Linux, to every process of session `leaderPid`
 * (rescanning up to 3 times for processes forked meanwhile when `sig` is SIGKILL). Never throws for
 * processes that are already gone.
 */
export function signalTree(leaderPid: number, sig: NodeJS.Signals): void {
  signal(-leaderPid, sig);
  for (let pass = 0; pass < (sig === 'SIGKILL' ? 3 : 1); pass++) {
    const members = sessionMembers(leaderPid);
    if (members.length === 0) return;
    for (const pid of members) signal(pid, sig);
  }
}
