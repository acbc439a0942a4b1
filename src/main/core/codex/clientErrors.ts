/**
 * Errors of `CodexClient` that are not JSON-RPC errors from Codex (those stay vscode-jsonrpc
 * `ResponseError`s carrying Codex's `code` and `message`, e.g. -32600 "no rollout found for thread id …").
 */
import { ResponseError } from 'vscode-jsonrpc/node';
import type { ProcessExit } from './launcher';

/** JSON-RPC "method not found", the answer to any server request the client does not handle. */
export const METHOD_NOT_FOUND = -32601;

/** A `ResponseError` -32601 for `method`; throw it from a server-request handler to refuse a request. */
export function methodNotFound(method: string): ResponseError<void> {
  return new ResponseError(METHOD_NOT_FOUND, `Angelia does not handle the server request ${method}`);
}

/** How a Codex app-server process ended (exit code or signal, last stderr lines). */
export type CodexExit = ProcessExit;

function describeExit(exit: CodexExit): string {
  return exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
}

function stderrSuffix(exit: CodexExit): string {
  return exit.stderrTail.trim().length > 0 ? `\nLast stderr lines:\n${exit.stderrTail}` : ' (nothing on stderr)';
}

/**
 * The last `Error: …` line of a stderr tail (how codex 0.169.0 reports a fatal startup error, followed
 * by a "Stack backtrace:" block), or null when there is none.
 */
export function codexErrorLine(stderrTail: string): string | null {
  const lines = stderrTail.split('\n').filter((l) => l.startsWith('Error: '));
  return lines.at(-1) ?? null;
}

/** The app-server exited while `method` was waiting for its answer (or before it was sent). */
export class CodexExitedError extends Error {
  override readonly name = 'CodexExitedError';
  constructor(
    readonly method: string,
    readonly pid: number,
    readonly exit: CodexExit,
  ) {
    super(`codex app-server (pid ${pid}) ${describeExit(exit)} before answering ${method}.${stderrSuffix(exit)}`);
  }
}

/** No answer to `method` within `timeoutMs` (the request may still run inside Codex). */
export class CodexTimeoutError extends Error {
  override readonly name = 'CodexTimeoutError';
  constructor(
    readonly method: string,
    readonly pid: number,
    readonly timeoutMs: number,
  ) {
    super(
      `codex app-server (pid ${pid}) did not answer ${method} within ${timeoutMs} ms. Codex may be busy (MCP server start-up, ` +
        `overload) or the answer was dropped; retry, or pass a longer { timeoutMs } for this call.`,
    );
  }
}

/**
 * `CodexClient.start` failed: the process could not be spawned, exited before answering `initialize`
 * (typically a fatal configuration error: Codex prints `Error: …` on stderr and exits — codex 0.169.0
 * `codex app-server`), did not answer in time, or answered with an error. `exit` is set when the
 * process is known to have ended; the message carries the last stderr lines.
 */
export class CodexStartError extends Error {
  override readonly name = 'CodexStartError';
  /** Process id of the app-server when it was spawned (also its process group id), else null. */
  pid: number | null = null;

  constructor(
    message: string,
    readonly exit: CodexExit | null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  /** Sets `pid` and returns this error. */
  withPid(pid: number): this {
    this.pid = pid;
    return this;
  }

  /** The process exited before answering `initialize`. */
  static exitedEarly(bin: string, exit: CodexExit): CodexStartError {
    const said = codexErrorLine(exit.stderrTail);
    return new CodexStartError(
      `codex app-server (${bin}) ${describeExit(exit)} before answering initialize${said ? `: ${said}` : ''}. This is usually a ` +
        `configuration error (a bad -c flag or config.toml in CODEX_HOME); fix the setting Codex names.${stderrSuffix(exit)}`,
      exit,
    );
  }

  /** No answer to `initialize` in time; the process was killed. */
  static timedOut(bin: string, timeoutMs: number, exit: CodexExit): CodexStartError {
    return new CodexStartError(
      `codex app-server (${bin}) did not answer initialize within ${timeoutMs} ms and was stopped. Check that ${bin} is a ` +
        `Codex CLI that supports \`app-server\` (0.171.0 is pinned).${stderrSuffix(exit)}`,
      exit,
    );
  }

  /** `initialize` answered with a JSON-RPC error; the process was stopped. */
  static rejected(bin: string, cause: Error, exit: CodexExit): CodexStartError {
    return new CodexStartError(`codex app-server (${bin}) refused initialize: ${cause.message}${stderrSuffix(exit)}`, exit, { cause });
  }
}
