/**
 * A minimal in-process NDJSON client for `codex app-server`, the bare side of in-process benchmarks: it
 * spawns EXACTLY the given executable, argv, cwd and environment (no merging with this process's
 * environment), in its own process group like Angelia's launcher, and speaks one JSON object a line.
 * Server requests are answered by `onServerRequest` (default: decline). Wire facts, measured on codex-cli
 * 0.169.0: no `jsonrpc` member needed; server requests carry `id` and `method`.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { signalTree } from '../../src/main/core/codex/reap';

/** What to spawn: the executable, its whole argv (ending with "app-server"), cwd and complete environment. */
export interface SpawnSpec {
  bin: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
}

interface Pending {
  method: string;
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
}

/** One child and its connection. */
export class RpcChild {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private buffer = '';
  private stderr = '';
  private readonly notificationListeners = new Set<(method: string, params: Record<string, unknown>) => void>();
  /** Settles when the child exits. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Answers a server request; its return value is the `result`. */
  onServerRequest: (method: string, params: Record<string, unknown>) => unknown = () => ({ decision: 'decline' });

  private constructor(private readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.setEncoding('utf8').on('data', (c: string) => this.onData(c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => {
      this.stderr = (this.stderr + c).slice(-4000);
    });
    child.stdin.on('error', () => undefined);
    this.exited = new Promise((resolve) => {
      child.on('exit', (code, signal) => {
        const e = new Error(`codex exited (code ${code}, signal ${signal}): ${this.stderr.slice(-400)}`);
        for (const p of this.pending.values()) p.reject(e);
        this.pending.clear();
        resolve({ code, signal });
      });
    });
  }

  /** Spawns the child (own process group); nothing is sent yet. */
  static spawn(spec: SpawnSpec): RpcChild {
    return new RpcChild(spawn(spec.bin, spec.args, { cwd: spec.cwd, env: spec.env, stdio: ['pipe', 'pipe', 'pipe'], detached: true }));
  }

  /** Process id (= its process group id). */
  get pid(): number {
    return this.child.pid ?? -1;
  }

  /** Sends a request; resolves with its result, rejects with Codex's error or the child's exit. */
  request(method: string, params: unknown): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { method, resolve: (v) => resolve((v ?? {}) as Record<string, unknown>), reject });
      this.child.stdin.write(`${JSON.stringify({ id, method, params })}\n`);
    });
  }

  /** Sends a notification. */
  notify(method: string, params?: unknown): void {
    this.child.stdin.write(`${JSON.stringify(params === undefined ? { method } : { method, params })}\n`);
  }

  /** `initialize` with the capabilities Angelia sends, then `initialized`. */
  async initialize(): Promise<Record<string, unknown>> {
    const r = await this.request('initialize', {
      clientInfo: { name: 'bench-bare', title: 'bench', version: '0' },
      capabilities: { experimentalApi: true, requestAttestation: false },
    });
    this.notify('initialized');
    return r;
  }

  /** Subscribes to notifications; returns the unsubscribe function. */
  onNotification(l: (method: string, params: Record<string, unknown>) => void): () => void {
    this.notificationListeners.add(l);
    return () => this.notificationListeners.delete(l);
  }

  /**
   * Closes stdin and waits for the exit (SIGKILL to its tree after `graceMs`, default 5 s); then SIGKILLs
   * whatever is left of its session: codex's sandboxed fs helpers (bwrap) run in process groups of their
   * own inside it, and one could outlive codex (found by a fresh-clone run of the bench).
   */
  async close(graceMs = 5000): Promise<void> {
    this.child.stdin.end();
    const timer = setTimeout(() => this.kill(), graceMs);
    await this.exited;
    clearTimeout(timer);
    this.kill();
  }

  /** SIGKILL to the process group and the whole session (`signalTree`, as Angelia ends its own children). */
  kill(): void {
    signalTree(this.pid, 'SIGKILL');
  }

  private onData(chunk: string): void {
    this.buffer += chunk;
    let nl = this.buffer.indexOf('\n');
    while (nl >= 0) {
      const line = this.buffer.slice(0, nl).trim();
      this.buffer = this.buffer.slice(nl + 1);
      if (line) this.onLine(line);
      nl = this.buffer.indexOf('\n');
    }
  }

  private onLine(line: string): void {
    let m: { id?: number | string; method?: string; params?: Record<string, unknown>; result?: unknown; error?: { message: string } };
    try {
      m = JSON.parse(line) as typeof m;
    } catch {
      return;
    }
    if (m.method !== undefined && m.id !== undefined) {
      const result = this.onServerRequest(m.method, m.params ?? {});
      this.child.stdin.write(`${JSON.stringify({ id: m.id, result })}\n`);
    } else if (m.method !== undefined) {
      for (const l of [...this.notificationListeners]) l(m.method, m.params ?? {});
    } else if (typeof m.id === 'number' && this.pending.has(m.id)) {
      const p = this.pending.get(m.id) as Pending;
      this.pending.delete(m.id);
      if (m.error) p.reject(new Error(`${p.method}: ${m.error.message}`));
      else p.resolve(m.result);
    }
  }
}
