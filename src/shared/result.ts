/**
 * A value or a user-facing error, as it crosses a boundary (IPC, WebSocket, CLI). Errors are values:
 * Electron strips fields from thrown errors, so main answers `Result<T>` instead of throwing.
 */
export type Result<T> = { ok: true; value: T } | { ok: false; error: AppError };

/**
 * An error a person can act on: what failed (`message`), where (`where`: a file, a field path, a
 * Codex config layer) and how to fix it (`fix`). `code` is stable for programs.
 */
export interface AppError {
  code: string;
  message: string;
  where?: string;
  fix?: string;
}

/** Wraps a value as a successful Result. */
export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

/** Wraps an AppError as a failed Result. */
export function err<T = never>(code: string, message: string, extra: Omit<AppError, 'code' | 'message'> = {}): Result<T> {
  return { ok: false, error: { code, message, ...extra } };
}

/** An Error that carries an AppError, for code paths that throw inside main. */
export class AppFailure extends Error {
  readonly app: AppError;
  constructor(app: AppError) {
    super(app.message + (app.where ? ` (${app.where})` : '') + (app.fix ? ` Fix: ${app.fix}` : ''));
    this.app = app;
    this.name = 'AppFailure';
  }
}

/** Turns any thrown value into an AppError (AppFailure keeps its fields). */
export function toAppError(e: unknown, code = 'internal'): AppError {
  if (e instanceof AppFailure) return e.app;
  if (e instanceof Error) return { code, message: e.message };
  return { code, message: String(e) };
}
