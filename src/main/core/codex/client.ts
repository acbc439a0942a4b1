/**
 * `CodexClient`: one `codex app-server` child and one vscode-jsonrpc connection over NDJSON stdio.
 *
 * Protocol facts (codex-cli 0.169.0 `codex app-server`, `initialize` and the stdio transport, verified):
 * handshake `initialize {clientInfo, capabilities:{experimentalApi:true}}` → result `{userAgent,
 * codexHome, platformFamily, platformOs}` → notification `initialized`; server→client requests carry
 * `id` and `method`, their ids are a separate counter from 0 (they may equal ours), so messages are routed
 * by the presence of `method` (vscode-jsonrpc does exactly that); a fatal config error makes the process
 * print `Error: …` on stderr and exit before answering `initialize`. "Stop a turn" is `turn/interrupt`,
 * never `$/cancelRequest`: requests are sent without a cancellation token.
 */
import { createMessageConnection, Message, ResponseError, type MessageConnection } from 'vscode-jsonrpc/node';
import { APP_VERSION } from '../instance/version';
import { CodexExitedError, CodexStartError, CodexTimeoutError, methodNotFound, type CodexExit } from './clientErrors';
import { NdjsonMessageReader, NdjsonMessageWriter, type ReaderIssue } from './jsonl';
import { launch, type ChildTracker, type LaunchedProcess } from './launcher';
import {
  INITIALIZED_NOTIFICATION,
  isServerRequestMethod,
  type ClientRequestMethod,
  type RequestParams,
  type ResponseOf,
  type ServerRequestMethod,
} from './protocol';
import { codexVersionFromUserAgent } from './resolve';
import { EventDecoder, type CodexEvent, type EventCounts } from './events';
import { DEFAULT_RETRY, isOverloaded, retryDelayMs, sleep, type RetryPolicy } from './retry';
import type { InitializeResponse } from './generated';

export type { CodexExit } from './clientErrors';
export { METHOD_NOT_FOUND, methodNotFound } from './clientErrors';

/**
 * Answers a server→client request of a known method: resolves with the JSON-RPC `result`, or throws a
 * vscode-jsonrpc `ResponseError` to answer with that error (any other exception answers -32603).
 */
export type ServerRequestHandler = (method: ServerRequestMethod, params: unknown, id: string | number) => Promise<unknown>;

/** Options of `CodexClient.start`. */
export interface CodexClientOptions {
  /** Executable (see `resolveCodexBin`). */
  bin: string;
  /** The whole argv after the executable, ending with `"app-server"` (e.g. `["-c", "k=v", "app-server"]`). */
  args: string[];
  cwd: string;
  /** The complete environment of the child (CODEX_HOME, RUST_LOG, …). */
  env: NodeJS.ProcessEnv;
  /** `clientInfo.name` (default "angelia"); Codex uses it as originator and user-agent prefix. */
  clientName?: string;
  /** `clientInfo.version` (default Angelia's version). */
  clientVersion?: string;
  /** Deadline for `initialize`, ms (default 60 000). */
  initializeTimeoutMs?: number;
  /** Default per-request deadline, ms (default 30 000); `request(..., {timeoutMs})` overrides it. */
  requestTimeoutMs?: number;
  /** Grace after stdin close and after SIGTERM in `stop()`, ms (default 5000). */
  stopGraceMs?: number;
  /** Retries of -32001 "Server overloaded" (default 5 tries, 100 ms doubling, jitter). */
  retry?: RetryPolicy;
  /** Told when the child was spawned (before `initialize`) and when it exited; see children.ts. */
  track?: ChildTracker;
  /**
   * Told about protocol oddities: dropped stdout lines, library log messages, and (`notification`) the
   * first notification of a routed method whose params Angelia cannot read (events.ts). Never fatal.
   */
  onProtocolIssue?: (issue: ReaderIssue | { kind: 'log' | 'notification'; message: string }) => void;
}

/** Options of one request. */
export interface RequestOptions {
  /** Deadline for this call including overload retries, ms (default: the client's `requestTimeoutMs`). */
  timeoutMs?: number;
}

interface Pending {
  method: string;
  reject: (e: Error) => void;
}

/**
 * Whether `e` is a failed write to the child's stdin: vscode-jsonrpc rejects the request with its
 * `MessageWriteError` (-32099) carrying the stream's error (EPIPE when the process is gone).
 */
function writeFailed(e: unknown): boolean {
  const code = e !== null && typeof e === 'object' ? (e as { code?: unknown }).code : undefined;
  return code === -32099 || code === 'EPIPE';
}

function remove<T>(list: T[], item: T): void {
  const i = list.indexOf(item);
  if (i !== -1) list.splice(i, 1);
}

/** One `codex app-server` process and its JSON-RPC connection. Create with `CodexClient.start`. */
export class CodexClient {
  private init: InitializeResponse | null = null;
  /** Settles (never rejects) when the child has exited. */
  readonly exited: Promise<CodexExit>;
  private readonly conn: MessageConnection;
  private readonly pending = new Set<Pending>();
  private readonly notificationHandlers: ((method: string, params: unknown) => void)[] = [];
  private readonly eventHandlers: ((event: CodexEvent) => void)[] = [];
  private readonly decoder: EventDecoder;
  private readonly unknownRequestListeners: ((method: string, params: unknown, id: string | number) => void)[] = [];
  private serverRequestHandler: ServerRequestHandler | null = null;
  private currentServerRequestId: string | number = -1;
  private exit: CodexExit | null = null;

  private constructor(
    private readonly proc: LaunchedProcess,
    private readonly opts: CodexClientOptions,
  ) {
    const onIssue = opts.onProtocolIssue ?? (() => undefined);
    const log = (message: string): void => onIssue({ kind: 'log', message });
    this.decoder = new EventDecoder((message) => onIssue({ kind: 'notification', message }));
    const reader = new NdjsonMessageReader(proc.stdout, { onIssue });
    const writer = new NdjsonMessageWriter(proc.stdin);
    this.conn = createMessageConnection(
      reader,
      writer,
      { error: log, warn: log, info: () => undefined, log: () => undefined },
      {
        // vscode-jsonrpc's star handler does not receive the request id; it is captured here, synchronously
        // before the handler runs (one message is dispatched per tick).
        messageStrategy: {
          handleMessage: (message, next) => {
            if (Message.isRequest(message)) this.currentServerRequestId = message.id ?? -1;
            return next(message);
          },
        },
      },
    );
    this.conn.onRequest((method, params) => this.dispatchServerRequest(method, params, this.currentServerRequestId));
    this.conn.onNotification((method, params) => {
      for (const h of [...this.notificationHandlers]) {
        try {
          h(method, params);
        } catch (e) {
          log(`notification handler for ${method} threw: ${e instanceof Error ? e.message : String(e)}`);
        }
      }
      // Decoded once for every event handler (and counted when not routed).
      const event = this.decoder.decode(method, params);
      for (const h of [...this.eventHandlers]) {
        try {
          h(event);
        } catch (e) {
          log(`event handler for ${method} threw: ${e instanceof Error ? e.message : String(e)}`);
        }
      }
    });
    this.conn.onError(([error]) => log(`connection error: ${error.message}`));
    this.conn.listen();
    this.exited = proc.exited.then((exit) => {
      this.exit = exit;
      for (const p of this.pending) p.reject(new CodexExitedError(p.method, proc.pid, exit));
      this.pending.clear();
      this.conn.dispose();
      reader.dispose();
      writer.dispose();
      return exit;
    });
  }

  /**
   * Spawns `opts.bin ...opts.args` (own process group), sends `initialize` and then `initialized`.
   * Throws `CodexStartError` when the process cannot start, exits before answering (its exit code and
   * stderr tail are in the error — a bad `-c` flag ends here), does not answer within
   * `initializeTimeoutMs`, or answers with an error. The process is gone when it throws.
   */
  static async start(opts: CodexClientOptions): Promise<CodexClient> {
    let proc: LaunchedProcess;
    try {
      proc = await launch({ bin: opts.bin, args: opts.args, cwd: opts.cwd, env: opts.env, track: opts.track });
    } catch (e) {
      throw new CodexStartError((e as Error).message, null, { cause: e });
    }
    const client = new CodexClient(proc, opts);
    const timeoutMs = opts.initializeTimeoutMs ?? 60_000;
    try {
      const result = await client.request(
        'initialize',
        {
          clientInfo: { name: opts.clientName ?? 'angelia', title: 'Angelia', version: opts.clientVersion ?? APP_VERSION },
          // requestAttestation is required by the generated type; false = do not send attestation/generate.
          capabilities: { experimentalApi: true, requestAttestation: false },
        },
        { timeoutMs },
      );
      client.init = result;
      await client.conn.sendNotification(INITIALIZED_NOTIFICATION);
      return client;
    } catch (e) {
      // The early child (prespawn.ts) may have died just before it was adopted (Node had not reaped it
      // yet): writing `initialize` then fails (EPIPE) or it exits. One fresh spawn, as if there had been
      // none; nothing is held any more, so that one is new, and its failure is reported as usual.
      const died = e instanceof CodexExitedError || writeFailed(e);
      if (proc.adopted && died) {
        proc.kill();
        await client.exited;
        return CodexClient.start(opts);
      }
      if (e instanceof CodexExitedError) throw CodexStartError.exitedEarly(opts.bin, e.exit).withPid(proc.pid);
      proc.kill();
      const exit = await client.exited;
      // A pipe that broke because the process died is an early exit, not a refusal.
      if (died) throw CodexStartError.exitedEarly(opts.bin, exit).withPid(proc.pid);
      if (e instanceof CodexTimeoutError) throw CodexStartError.timedOut(opts.bin, timeoutMs, exit).withPid(proc.pid);
      throw CodexStartError.rejected(opts.bin, e as Error, exit).withPid(proc.pid);
    }
  }

  /** The `initialize` result (userAgent, codexHome, platformFamily, platformOs; codex 0.169.0). */
  get initializeResult(): InitializeResponse {
    if (!this.init) throw new Error('CodexClient.initializeResult read before initialize answered');
    return this.init;
  }

  /** Codex's version from the userAgent ("0.169.0"), null when it has none. */
  get version(): string | null {
    return this.init ? codexVersionFromUserAgent(this.init.userAgent) : null;
  }

  /** Process id of the app-server (also its process group id). */
  get pid(): number {
    return this.proc.pid;
  }

  /** The last lines of the app-server's stderr so far. */
  stderrTail(lines?: number): string {
    return this.proc.stderrTail(lines);
  }

  /**
   * Sends request `method` and resolves with its result. Rejects with: vscode-jsonrpc `ResponseError`
   * (Codex answered an error; `code`, `message`), `CodexTimeoutError` (no answer within the deadline,
   * naming the method), `CodexExitedError` (the process exited; exit code and stderr tail). Codex's
   * overload error -32001 is retried with jittered exponential back-off (5 tries by default).
   */
  async request<M extends ClientRequestMethod>(method: M, params: RequestParams<M>, opts: RequestOptions = {}): Promise<ResponseOf<M>> {
    const timeoutMs = opts.timeoutMs ?? this.opts.requestTimeoutMs ?? 30_000;
    const deadline = Date.now() + timeoutMs;
    const policy = this.opts.retry ?? DEFAULT_RETRY;
    for (let attempt = 1; ; attempt++) {
      try {
        return (await this.once(method, params, deadline, timeoutMs)) as ResponseOf<M>;
      } catch (e) {
        if (!isOverloaded(e) || attempt >= policy.tries) throw e;
        const wait = retryDelayMs(attempt, policy);
        if (Date.now() + wait >= deadline) throw new CodexTimeoutError(method, this.pid, timeoutMs);
        await sleep(wait);
      }
    }
  }

  /**
   * Sets the one handler for server→client requests of the generated `ServerRequest` methods (replacing
   * any earlier one). Requests of any other method, and all requests while no handler is set, are
   * answered with error -32601 at once and reported to `onUnknownServerRequest` listeners.
   */
  onServerRequest(handler: ServerRequestHandler): void {
    this.serverRequestHandler = handler;
  }

  /** Subscribes to server requests that were refused with -32601 without reaching a handler. */
  onUnknownServerRequest(listener: (method: string, params: unknown, id: string | number) => void): () => void {
    this.unknownRequestListeners.push(listener);
    return () => remove(this.unknownRequestListeners, listener);
  }

  /** Subscribes to every notification as sent (`method`, `params`, not decoded); returns an unsubscribe function. */
  onNotification(handler: (method: string, params: unknown) => void): () => void {
    this.notificationHandlers.push(handler);
    return () => remove(this.notificationHandlers, handler);
  }

  /** Subscribes to every notification decoded into an event (events.ts `CodexEvent`); returns an unsubscribe function. */
  onEvent(handler: (event: CodexEvent) => void): () => void {
    this.eventHandlers.push(handler);
    return () => remove(this.eventHandlers, handler);
  }

  /** Notifications not routed, and routed ones with unreadable params, counted per method (for diagnostics). */
  eventCounts(): EventCounts {
    return this.decoder.counts();
  }

  /**
   * Closes stdin, waits, SIGTERMs then SIGKILLs the process group (see `LaunchedProcess.stop`); resolves
   * once the process is gone and pending requests have been rejected. The exit is in `exited`.
   */
  async stop(): Promise<void> {
    await this.proc.stop({ graceMs: this.opts.stopGraceMs });
    await this.exited;
  }

  /** Immediate SIGKILL of the process group; pending requests reject with `CodexExitedError`. */
  kill(): void {
    this.proc.kill();
  }

  private stdinUsable(): boolean {
    return !this.exit && !this.proc.stdin.destroyed && !this.proc.stdin.writableEnded;
  }

  private dispatchServerRequest(method: string, params: unknown, id: string | number): Promise<unknown> | ResponseError<void> {
    const handler = this.serverRequestHandler;
    if (!handler || !isServerRequestMethod(method)) {
      for (const l of [...this.unknownRequestListeners]) {
        try {
          l(method, params, id);
        } catch {
          // A listener must not delay the answer.
        }
      }
      return methodNotFound(method);
    }
    return handler(method, params, id);
  }

  private once(method: string, params: unknown, deadline: number, timeoutMs: number): Promise<unknown> {
    if (this.exit) return Promise.reject(new CodexExitedError(method, this.pid, this.exit));
    return new Promise((resolve, reject) => {
      const entry: Pending = { method, reject: (e) => settle(() => reject(e)) };
      const timer = setTimeout(
        () => entry.reject(new CodexTimeoutError(method, this.pid, timeoutMs)),
        Math.min(2 ** 31 - 1, Math.max(0, deadline - Date.now())),
      );
      let settled = false;
      const settle = (f: () => void): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        this.pending.delete(entry);
        f();
      };
      this.pending.add(entry);
      let sent: Promise<unknown>;
      try {
        sent = params === undefined ? this.conn.sendRequest(method) : this.conn.sendRequest(method, params);
      } catch (e) {
        // Connection closed (stdout ended): the exit handler rejects with the exit code shortly.
        if (this.stdinUsable()) entry.reject(new Error(`cannot send ${method} to codex app-server (pid ${this.pid}): ${(e as Error).message}`));
        return;
      }
      sent.then(
        (result) => settle(() => resolve(result)),
        (e: Error) => {
          // Codex's own error answer. After the exit, the library's "connection disposed" rejection
          // arrives too late: the exit handler already rejected with the exit code and stderr tail.
          if (e instanceof ResponseError) {
            if (!this.exit) entry.reject(e);
            return;
          }
          // A write into a closed pipe means the process is ending: the exit handler (or the deadline)
          // settles this request with the exit details. Anything else (unserialisable params) fails now.
          if (!this.stdinUsable()) return;
          entry.reject(new Error(`cannot send ${method} to codex app-server (pid ${this.pid}): ${e.message}`));
        },
      );
    });
  }
}
