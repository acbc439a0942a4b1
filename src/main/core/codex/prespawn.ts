/**
 * Starting Codex ahead of the launch plan, for `angelia run` (docs/benchmarks.md, turn overhead).
 *
 * `angelia run` spends its first ~130 ms loading the code that builds and checks the sandbox before it can
 * spawn Codex, and Codex then spends ~90 ms starting before it answers `initialize`. This module (Node
 * built-ins only, so it loads in a millisecond) lets the two overlap: right after Node starts, `run`
 * spawns Codex with EXACTLY the spawn spec the chat's last launch used (executable, argv, cwd, environment;
 * remembered in `<state>/private/launch/<chatId>.json` by launchMemory.ts `rememberLaunch`; the environment holds only the
 * variables that launch had, so nothing the plan strips reaches it), and nothing is written to it.
 * When the real launch plan is ready, `launcher.launch` asks `adoptPrespawned(spec)`: the child is used
 * only if its spec is identical, field by field and variable by variable, to the one just computed; any
 * difference (a changed table, profile, environment or Codex version) kills it and Codex is spawned
 * afresh. So the sandbox Codex runs with is always the one the current plan compiles to, and the usual
 * checks (config layers, attestation) follow as for any start. A child that is never adopted is killed
 * when the process exits; one left by a killed `angelia` sees its stdin close and exits.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { signalTree } from './reap';
import { STRIPPED_ENV } from '../launch/env';

/**
 * What `<state>/private/launch/<chatId>.json` holds: a spawn spec, and its environment as the names of
 * all its variables plus the values that differed from the environment of the process that launched it.
 */
export interface RememberedLaunch {
  version: 3;
  bin: string;
  args: string[];
  cwd: string;
  /** Every variable name of the launch's environment: the early child gets no other. */
  names: string[];
  /** Variables set to a value different from the environment of the process that launched it. */
  set: Record<string, string>;
  /**
   * Files the launch was planned from (the accepted table, the profile's launch guard) and the executable
   * itself, as they were then; if one has changed since (an accept, a compile, a rewrite of the
   * executable), nothing is started early. The executable runs before the start's checks (compile/grants.ts
   * refuses one an agent can write), so a changed one waits for them.
   */
  stamps: FileStamp[];
}

/**
 * A file's identity and size at one moment; a rename over it (an atomic write) changes `ino`, and any
 * write changes `ctimeMs` (which, unlike `mtimeMs`, no user can set back).
 */
export interface FileStamp {
  path: string;
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

/** `path`'s stamp now, or null when it cannot be stat'ed. */
export function stampOf(path: string): FileStamp | null {
  try {
    const st = statSync(path);
    return { path, ino: st.ino, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs };
  } catch {
    return null;
  }
}

function unchanged(stamp: unknown): boolean {
  if (stamp === null || typeof stamp !== 'object') return false;
  const s = stamp as Partial<FileStamp>;
  if (typeof s.path !== 'string') return false;
  const now = stampOf(s.path);
  return now !== null && now.ino === s.ino && now.size === s.size && now.mtimeMs === s.mtimeMs && now.ctimeMs === s.ctimeMs;
}

/** The spec compared at adoption: the complete spawn inputs. */
export interface PrespawnSpec {
  bin: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
}

let pending: { spec: PrespawnSpec; child: ChildProcessWithoutNullStreams } | null = null;

/** `<state>/private/launch/<chatId>.json`. */
export function launchMemoryFile(stateDir: string, chatId: string): string {
  return join(stateDir, 'private', 'launch', `${encodeURIComponent(chatId)}.json`);
}

/**
 * Spawns Codex from chat `chatId`'s remembered launch, and holds it (stdio piped, nothing written) for
 * `adoptPrespawned`. Does nothing when there is no valid memory, when a file it was planned from has
 * changed, when a child is already held, or when the spawn fails. Never throws.
 */
export function prespawnCodex(stateDir: string, chatId: string, env: NodeJS.ProcessEnv): void {
  if (pending) return;
  let memo: RememberedLaunch;
  try {
    memo = JSON.parse(readFileSync(launchMemoryFile(stateDir, chatId), 'utf8')) as RememberedLaunch;
  } catch {
    return;
  }
  // A memory from before the executable was stamped (version 2) starts nothing early: one launch rewrites it.
  if (
    memo?.version !== 3 ||
    typeof memo.bin !== 'string' ||
    !Array.isArray(memo.args) ||
    typeof memo.cwd !== 'string' ||
    typeof memo.set !== 'object' ||
    memo.set === null ||
    !Array.isArray(memo.names)
  )
    return;
  // The table was accepted or the profile compiled since: the plan will differ, and what it strips now
  // (a capability's secret taken away) may not be what the memory knows. Nothing early.
  if (!Array.isArray(memo.stamps) || !memo.stamps.every(unchanged) || !memo.stamps.some((x: Partial<FileStamp>) => x?.path === memo.bin)) return;
  // Only the variables the last launch had: the remembered value where it differed, else this process's.
  // A variable the plan stripped then (an MCP secret the profile is not given) is not in that list; a
  // STRIPPED_ENV name gets only the value the launch itself set (the chat's API token, its mailbox…),
  // never this process's. So Codex gets nothing the plan strips, not even before adoption.
  const stripped = new Set<string>(STRIPPED_ENV);
  const childEnv: NodeJS.ProcessEnv = {};
  for (const k of memo.names) {
    if (typeof k !== 'string') continue;
    const v = Object.hasOwn(memo.set, k) ? memo.set[k] : stripped.has(k) ? undefined : env[k];
    if (typeof v === 'string') childEnv[k] = v;
  }
  try {
    const child = spawn(memo.bin, memo.args, { cwd: memo.cwd, env: childEnv, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    child.once('error', () => {
      if (pending?.child === child) pending = null;
    });
    child.stdin.on('error', () => undefined);
    // Held, it must not keep the process alive (a refused or mistyped `run` exits at once).
    setRef(child, false);
    pending = { spec: { bin: memo.bin, args: memo.args, cwd: memo.cwd, env: childEnv }, child };
    process.once('exit', () => {
      if (pending?.child === child) killGroup(child);
    });
  } catch {
    pending = null;
  }
}

/** Refs or unrefs the child and its three pipes (an unref'd handle does not keep Node's event loop alive). */
function setRef(child: ChildProcessWithoutNullStreams, on: boolean): void {
  for (const h of [child, child.stdin, child.stdout, child.stderr] as unknown as Array<{ ref?: () => void; unref?: () => void }>) {
    if (on) h.ref?.();
    else h.unref?.();
  }
}

/** SIGKILL to the child's group and session (reap.ts), as for any Codex child Angelia ends. */
function killGroup(child: ChildProcessWithoutNullStreams): void {
  if (child.pid === undefined) return;
  try {
    signalTree(child.pid, 'SIGKILL');
  } catch {
    // Already gone, or not ours to signal.
  }
}

function sameEnv(a: NodeJS.ProcessEnv, b: NodeJS.ProcessEnv): boolean {
  const ka = Object.keys(a).filter((k) => a[k] !== undefined);
  const kb = Object.keys(b).filter((k) => b[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => a[k] === b[k]);
}

/**
 * The held child when its spawn spec equals `spec` exactly (executable, every argument in order, cwd, and
 * the complete environment) and it is still running; null otherwise. A held child that does not match is
 * killed (its process group). Either way nothing is held afterwards.
 */
export function adoptPrespawned(spec: PrespawnSpec): ChildProcessWithoutNullStreams | null {
  const held = pending;
  pending = null;
  if (!held) return null;
  const { child } = held;
  const same =
    held.spec.bin === spec.bin &&
    held.spec.cwd === spec.cwd &&
    held.spec.args.length === spec.args.length &&
    held.spec.args.every((a, i) => a === spec.args[i]) &&
    sameEnv(held.spec.env, spec.env);
  const running = child.pid !== undefined && child.exitCode === null && child.signalCode === null;
  if (same && running) {
    setRef(child, true);
    return child;
  }
  killGroup(child);
  return null;
}

/** The pid of the prespawned child held, or null (tests, diagnostics). */
export function prespawnedPid(): number | null {
  return pending?.child.pid ?? null;
}
