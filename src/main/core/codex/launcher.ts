/**
 * Spawning and reaping a child (the `codex app-server`) in its own session and process group, so
 * everything it starts can be found and stopped: stdio pipes, a bounded stderr ring, stop escalation
 * stdin-close → SIGTERM → SIGKILL to the whole tree (group, and on Linux every process of the session,
 * see reap.ts), and a SIGKILL to the tree as soon as the leader has exited so no grandchild outlives it.
 * POSIX only (Linux, macOS): the session and group are created with `detached: true` (setsid).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { adoptPrespawned } from './prespawn';
import { signalTree } from './reap';
import { stderrCause } from './stderrClass';
import { StderrRing } from './stderrRing';

/**
 * How a launched process ended. `stderrTail` = the last lines of its stderr (see `StderrRing.tail`);
 * `cause` = the line(s) that explain the exit, picked from all the stderr kept (see `stderrCause`), or null.
 */
export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderrTail: string;
  cause: string | null;
}

/**
 * Told about a child's life, e.g. to record it on disk (children.ts). `spawned` runs synchronously right
 * after the spawn, before anything is written to the child; if it throws, the child's tree is killed and
 * `launch` rejects with that error. `exited` runs once the child has exited and its tree was sent SIGKILL;
 * its errors are ignored.
 */
export interface ChildTracker {
  spawned(pid: number): void;
  exited(pid: number): void;
}

/** What to run: executable, argv after it, working folder and the complete environment. */
export interface LaunchSpec {
  bin: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Bytes of stderr kept (default 64 KiB). */
  stderrBytes?: number;
  /** Lines of stderr in `ProcessExit.stderrTail` (default 40). */
  stderrTailLines?: number;
  /** Told when the child was spawned and when it has exited. */
  track?: ChildTracker;
}

/** Options of `LaunchedProcess.stop`. */
export interface StopOptions {
  /** Milliseconds to wait after closing stdin, and again after SIGTERM (default 5000). */
  graceMs?: number;
}

const DEFAULT_GRACE_MS = 5_000;
/** After the leader exits: how long to wait for stderr to drain before settling `exited` (ms). */
const STDERR_DRAIN_MS = 500;

function delay(ms: number): { promise: Promise<void>; cancel: () => void } {
  let timer: NodeJS.Timeout | undefined;
  const promise = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  return { promise, cancel: () => clearTimeout(timer) };
}

/**
 * One running child, leader of its own session and process group (sid = pgid = pid). `exited` settles
 * once, after the leader exits and its stderr drained (≤ 0.5 s); by then the rest of the tree has been
 * sent SIGKILL.
 */
export class LaunchedProcess {
  /** Process id, also the process group id. */
  readonly pid: number;
  readonly stdin: Writable;
  readonly stdout: Readable;
  /** Settles (never rejects) when the child has exited. */
  readonly exited: Promise<ProcessExit>;
  private readonly ring: StderrRing;
  private readonly tailLines: number;
  private exit: ProcessExit | null = null;
  private stopping: Promise<ProcessExit> | null = null;
  /** True when this is the child `angelia run` started early (prespawn.ts), not one spawned by this launch. */
  readonly adopted: boolean;

  /** @internal Use `launch()`. */
  constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    spec: LaunchSpec,
    adopted = false,
  ) {
    this.adopted = adopted;
    if (child.pid === undefined) throw new Error(`launch: ${spec.bin} has no pid (spawn failed)`);
    this.pid = child.pid;
    this.stdin = child.stdin;
    this.stdout = child.stdout;
    this.ring = new StderrRing(spec.stderrBytes ?? 64 * 1024);
    this.tailLines = spec.stderrTailLines ?? 40;
    // EPIPE on a write after the child died is reported to the writer's callback; without a listener
    // the stream's 'error' event would crash the process.
    child.stdin.on('error', () => undefined);
    child.stderr.on('data', (chunk: Buffer) => this.ring.push(chunk));
    const stderrEnded = new Promise<void>((resolve) => {
      child.stderr.once('close', resolve);
      child.stderr.once('end', resolve);
    });
    this.exited = new Promise<ProcessExit>((resolve) => {
      child.once('exit', (code, signal) => {
        // The leader is gone: take any grandchild that stayed in its group or session with it.
        signalTree(this.pid, 'SIGKILL');
        const drain = delay(STDERR_DRAIN_MS);
        void Promise.race([stderrEnded, drain.promise]).then(() => {
          drain.cancel();
          this.ring.end();
          this.exit = { code, signal, stderrTail: this.ring.tail(this.tailLines), cause: stderrCause(this.ring.tail(Number.MAX_SAFE_INTEGER)) };
          try {
            spec.track?.exited(this.pid);
          } catch {
            // Bookkeeping only: the process is gone either way.
          }
          resolve(this.exit);
        });
      });
    });
  }

  /** True once `exited` has settled. */
  get hasExited(): boolean {
    return this.exit !== null;
  }

  /** The last `lines` lines of stderr received so far (default: the spec's `stderrTailLines`). */
  stderrTail(lines: number = this.tailLines): string {
    return this.ring.tail(lines);
  }

  /** Subscribes to stderr text as it arrives (decoded, complete characters only). */
  onStderr(listener: (text: string) => void): void {
    this.ring.onText(listener);
  }

  /**
   * Stops the child and its tree: close stdin → wait up to `graceMs` → SIGTERM to the tree → wait up
   * to `graceMs` → SIGKILL to the tree → wait for the exit. Idempotent; resolves with the exit.
   */
  stop(opts: StopOptions = {}): Promise<ProcessExit> {
    if (this.stopping) return this.stopping;
    const graceMs = opts.graceMs ?? DEFAULT_GRACE_MS;
    this.stopping = (async () => {
      if (this.exit) return this.exit;
      if (!this.stdin.writableEnded) this.stdin.end();
      if (await this.exitsWithin(graceMs)) return this.exited;
      signalTree(this.pid, 'SIGTERM');
      if (await this.exitsWithin(graceMs)) return this.exited;
      signalTree(this.pid, 'SIGKILL');
      return this.exited;
    })();
    return this.stopping;
  }

  /** Immediate SIGKILL to the whole tree (group and session); `exited` settles shortly after. */
  kill(): void {
    if (this.exit) return;
    signalTree(this.pid, 'SIGKILL');
  }

  private async exitsWithin(ms: number): Promise<boolean> {
    const d = delay(ms);
    const done = await Promise.race([this.exited.then(() => true), d.promise.then(() => false)]);
    d.cancel();
    return done;
  }
}

/**
 * Spawns `spec.bin ...spec.args` in a new process group with piped stdio. Resolves once the process
 * runs. Throws an Error naming the executable and the OS reason when it cannot start (ENOENT: not found;
 * EACCES: not executable) — fix the path (profile `bin`) or reinstall `@openai/codex` — or the error of
 * `spec.track.spawned` (the child is killed then).
 */
export function launch(spec: LaunchSpec): Promise<LaunchedProcess> {
  return new Promise((resolve, reject) => {
    // `angelia run` may have started this very spec already (prespawn.ts): used only when identical.
    const held = adoptPrespawned(spec);
    const child =
      held ??
      spawn(spec.bin, spec.args, {
        cwd: spec.cwd,
        env: spec.env,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: true,
      });
    child.once('error', (e: NodeJS.ErrnoException) => {
      reject(
        new Error(
          `cannot start ${spec.bin} (cwd ${spec.cwd}): ${e.code ?? ''} ${e.message}. Check that the file exists and is executable, and that the working folder exists.`,
        ),
      );
    });
    const spawned = (): void => {
      if (spec.track && child.pid !== undefined) {
        try {
          spec.track.spawned(child.pid);
        } catch (e) {
          signalTree(child.pid, 'SIGKILL');
          reject(e);
          return;
        }
      }
      try {
        resolve(new LaunchedProcess(child, spec, held !== null));
      } catch (e) {
        reject(e);
      }
    };
    if (held) spawned();
    else child.once('spawn', spawned);
  });
}
