/**
 * The port to a running Codex app-server, and what it takes to start one: typed requests (method →
 * generated params and response types, protocol.ts) and decoded notification events (events.ts). The
 * real implementation is `CodexClient` (client.ts); tests may pass a scripted one.
 */
import type { CodexEvent } from './events';
import type { ClientRequestMethod, RequestParams, ResponseOf } from './protocol';

/**
 * How a Codex process ended: exit code or signal, the last lines of its stderr (this process's only,
 * oldest first), and, when the launcher computed it, the line(s) that explain the exit picked from all
 * the stderr it kept (core/codex/launcher.ts `ProcessExit.cause`; absent from scripted connections).
 */
export interface CodexExit {
  code: number | null;
  signal: NodeJS.Signals | string | null;
  stderrTail: string;
  cause?: string | null;
}

/** One live connection to one `codex app-server` child. */
export interface CodexConnection {
  /** Codex's version from the `initialize` user agent ("0.169.0"), or null when it did not say. */
  readonly version: string | null;
  /**
   * Sends client request `method` (codex 0.169.0 generated `ClientRequest`) and resolves with its result
   * (`ResponseOf<M>`: the generated `*Response` type for the methods Angelia uses, protocol.ts
   * `ResponseMap`; the value is Codex's, not validated). Rejects on a JSON-RPC error, a timeout or the
   * child's exit.
   */
  request<M extends ClientRequestMethod>(method: M, params: RequestParams<M>, opts?: { timeoutMs?: number }): Promise<ResponseOf<M>>;
  /** The one handler for server→client requests; its resolved value is the JSON-RPC result. Throwing a
   * vscode-jsonrpc ResponseError answers with that error. */
  onServerRequest(handler: (method: string, params: unknown, id: string | number) => Promise<unknown>): void;
  /** Server requests of a method the client does not know; the client has already answered -32601. */
  onUnknownServerRequest?(listener: (method: string, params: unknown, id: string | number) => void): unknown;
  /** Every notification, decoded once into an event (events.ts `CodexEvent`; unrouted methods included). */
  onEvent(handler: (event: CodexEvent) => void): void;
  /** Settles when the child exits (for any reason). */
  readonly exited: Promise<CodexExit>;
  /** Closes stdin, then TERM, then KILL to the process group. */
  stop(): Promise<void>;
  /** Immediate KILL of the process group. */
  kill(): void;
}

/** What to start: the executable, its whole argv (ending with "app-server"), cwd and environment. */
export interface CodexSpawnSpec {
  bin: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** Starts a Codex app-server and completes `initialize`; rejects with the exit code and stderr tail when it cannot. */
export type StartCodex = (spec: CodexSpawnSpec) => Promise<CodexConnection>;
