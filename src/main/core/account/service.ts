/**
 * The Codex account of one Codex home, read and changed over short-lived app-servers of Angelia's own
 * (server.ts): `read` (`account/read`), `login` (`account/login/start`), `cancel`
 * (`account/login/cancel`), `logout` (`account/logout`); codex 0.169.0, generated `GetAccountResponse`,
 * `LoginAccountParams`, `LoginAccountResponse`, `CancelLoginAccountResponse`,
 * `AccountLoginCompletedNotification`. One app-server per operation, stopped when it is done; a ChatGPT
 * or device-code sign-in keeps its app-server (Codex serves the browser's callback on 127.0.0.1:1455 from
 * it) until Codex says `account/login/completed`, the user cancels, or `loginTimeoutMs` passes.
 *
 * The API key travels only in the `account/login/start` request body over that app-server's stdin: it is
 * never in an argument, an environment variable, a log line, the audit or an error message (`redact`).
 * Used by the orchestrator (`account:*` channels, the API) and by `angelia account|login|logout` in the
 * CLI's own process. docs/architecture.md "Account"; docs/security-model.md "The Codex account".
 *
 * While a host runs (`watchHome`), changes made elsewhere — `angelia login|logout` or `codex login` in a
 * terminal, which create, rewrite or remove `CODEX_HOME/auth.json` — are followed too: the account is read
 * again after a burst of changes, and told when it differs from the one last told.
 */
import type { AccountView, LoginProgress, LoginRequest } from '../../../shared/account';
import { join } from 'node:path';
import { AppFailure } from '../../../shared/result';
import type { CodexConnection, CodexSpawnSpec } from '../codex/connection';
import type { LoginAccountParams } from '../codex/generated/v2/LoginAccountParams';
import { codexLoginType, isSettled, loginBegins, loginStep, redact, type LoginInput } from './login';
import { ensureCodexHome } from '../launch/prepare';
import { watchTable, type TableWatch } from '../profiles/watch';
import { accountSpawnSpec } from './server';
import { accountView } from './view';

/** What an `AccountService` needs. */
export interface AccountDeps {
  /** The Codex home whose account this is (absolute). */
  codexHome: string;
  /** Angelia's own environment (scrubbed for the child by server.ts). */
  env: NodeJS.ProcessEnv;
  /** Starts an app-server and completes `initialize` (codex/start.ts `startCodexClient`, or a tracked one). */
  start: (spec: CodexSpawnSpec) => Promise<CodexConnection>;
  /** Told the account after every change Angelia made or saw (a sign-in, a sign-out). */
  onUpdated?: (view: AccountView) => void;
  /** Told when a pending sign-in (ChatGPT, device code) completed, failed or was cancelled. */
  onLogin?: (progress: LoginProgress) => void;
  /** How long a pending sign-in may wait (default 15 minutes), then it is cancelled and fails. */
  loginTimeoutMs?: number;
  /** The quiet after a burst of changes to auth.json before `watchHome` reads the account (default 300 ms). */
  watchDebounceMs?: number;
}

/** A sign-in waiting on the user (in the browser, or typing the device code). */
interface Pending {
  progress: LoginProgress;
  conn: CodexConnection;
  timer: NodeJS.Timeout;
  settled: Promise<LoginProgress>;
  settle: (input: LoginInput) => void;
}

const DEFAULT_LOGIN_TIMEOUT_MS = 15 * 60_000;
/** An API-key sign-in: the wait for `account/login/completed` after the answer (measured: immediate). */
const API_KEY_COMPLETION_MS = 10_000;

/** The message of a failure, without the API key. */
const failureText = (e: unknown, secret: string | null): string => redact(e instanceof Error ? e.message : String(e), secret);

export class AccountService {
  private readonly pending = new Map<string, Pending>();
  private homeWatch: Promise<TableWatch | null> = Promise.resolve(null);
  /** The account last told to `onUpdated` (JSON), so a rewrite that changes nothing tells nothing. */
  private told: string | null = null;
  /** The re-reads of `watchHome`, one after the other. */
  private rereads: Promise<void> = Promise.resolve();

  constructor(private readonly deps: AccountDeps) {}

  /** The Codex home this service reads. */
  get codexHome(): string {
    return this.deps.codexHome;
  }

  /** The account now (`account/read`). Throws AppFailure `account-unreadable` when Codex cannot tell. */
  async read(): Promise<AccountView> {
    return this.withServer((conn) => this.readOn(conn));
  }

  /**
   * Starts a sign-in. API key: resolves settled (`completed` once Codex wrote auth.json, else `failed`),
   * then `onUpdated`. ChatGPT / device code: resolves `pending` with the address (and code) to open; the
   * end comes through `onLogin` (and `onUpdated`), or `waitFor(loginId)`. Never throws for Codex's
   * refusals (a `failed` progress carries them); throws AppFailure `codex-missing` without Codex.
   */
  async login(req: LoginRequest): Promise<LoginProgress> {
    const secret = req.method === 'apiKey' ? req.apiKey : null;
    let progress = loginBegins(req.method);
    let conn: CodexConnection;
    try {
      conn = await this.open();
    } catch (e) {
      if (e instanceof AppFailure && e.app.code === 'codex-missing') throw e;
      return loginStep(progress, { kind: 'refused', error: `Codex did not start: ${failureText(e, secret)}` });
    }
    const completions: LoginInput[] = [];
    let onCompletion: (() => void) | null = null;
    conn.onEvent((e) => {
      if (e.method !== 'account/login/completed') return;
      completions.push({ kind: 'completed', loginId: e.params.loginId, success: e.params.success, error: e.params.error });
      onCompletion?.();
    });
    try {
      const type = codexLoginType(req.method);
      const params: LoginAccountParams =
        req.method === 'apiKey' ? { type: 'apiKey', apiKey: req.apiKey } : type === 'chatgpt' ? { type } : { type: 'chatgptDeviceCode' };
      const response = await conn.request('account/login/start', params);
      progress = loginStep(progress, { kind: 'answered', response });
    } catch (e) {
      await conn.stop();
      return loginStep(progress, { kind: 'refused', error: failureText(e, secret) });
    }
    if (isSettled(progress)) {
      await conn.stop();
      return progress;
    }
    if (req.method === 'apiKey') {
      const done = new Promise<void>((resolve) => {
        onCompletion = resolve;
        if (completions.length > 0) resolve();
      });
      const timer = new Promise<void>((resolve) => setTimeout(resolve, API_KEY_COMPLETION_MS).unref());
      await Promise.race([done, timer, conn.exited]);
      const end = completions[0] ?? { kind: 'completed', loginId: null, success: false, error: 'Codex did not confirm the sign-in' };
      progress = loginStep(progress, end.kind === 'completed' ? { ...end, error: end.error && redact(end.error, secret) } : end);
      const view = await this.readOn(conn).catch(() => null);
      await conn.stop();
      if (view) this.tell(view);
      return progress;
    }
    return this.keepPending(progress, conn, completions, (f) => (onCompletion = f));
  }

  /** Resolves with the end of pending sign-in `loginId` (at once with null when none is pending). */
  async waitFor(loginId: string): Promise<LoginProgress | null> {
    const p = this.pending.get(loginId);
    return p ? p.settled : null;
  }

  /** Cancels pending sign-in `loginId` (`account/login/cancel`); false when none is pending. */
  async cancel(loginId: string): Promise<{ cancelled: boolean }> {
    const p = this.pending.get(loginId);
    if (!p) return { cancelled: false };
    await p.conn.request('account/login/cancel', { loginId }, { timeoutMs: 10_000 }).catch(() => undefined);
    p.settle({ kind: 'cancelled' });
    await p.settled;
    return { cancelled: true };
  }

  /** Signs out (`account/logout`: Codex removes CODEX_HOME/auth.json) and answers the account after it. */
  async logout(): Promise<AccountView> {
    const view = await this.withServer(async (conn) => {
      await conn.request('account/logout', undefined);
      return this.readOn(conn);
    });
    this.tell(view);
    return view;
  }

  /**
   * Follows `<codexHome>/auth.json` (created, rewritten, removed; profiles/watch.ts, chokidar) until
   * `dispose`: after each burst of changes the account is read again (`account/read`) and `onUpdated` told
   * when it differs from the account last told. Only hosts that keep a window watch (the orchestrator,
   * unless `watchTable` is false: `angelia run`). Creates the Codex home (mode 700) when missing; resolves
   * once the watch is ready. Never rejects: a watch that cannot start is left out.
   */
  async watchHome(): Promise<void> {
    const reread = (): void => {
      this.rereads = this.rereads.then(async () => {
        const view = await this.read().catch(() => null);
        if (view && JSON.stringify(view) !== this.told) this.tell(view);
      });
    };
    this.homeWatch = ensureCodexHome(this.deps.codexHome)
      .then(() => watchTable(join(this.deps.codexHome, 'auth.json'), reread, { debounceMs: this.deps.watchDebounceMs }))
      .catch(() => null);
    await this.homeWatch;
  }

  /** Stops the auth.json watch, cancels every pending sign-in and stops its app-server (Angelia's shutdown). */
  async dispose(): Promise<void> {
    const watch = this.homeWatch;
    this.homeWatch = Promise.resolve(null);
    await Promise.all([watch.then((w) => w?.close()), ...[...this.pending.keys()].map((id) => this.cancel(id))]);
    await this.rereads;
  }

  /** Tells `onUpdated` the account and remembers it. */
  private tell(view: AccountView): void {
    this.told = JSON.stringify(view);
    this.deps.onUpdated?.(view);
  }

  private async open(): Promise<CodexConnection> {
    return this.deps.start(await accountSpawnSpec(this.deps.codexHome, this.deps.env));
  }

  private async withServer<T>(run: (conn: CodexConnection) => Promise<T>): Promise<T> {
    const conn = await this.open();
    try {
      return await run(conn);
    } finally {
      await conn.stop();
    }
  }

  private async readOn(conn: CodexConnection): Promise<AccountView> {
    try {
      return accountView(this.deps.codexHome, await conn.request('account/read', {}));
    } catch (e) {
      throw new AppFailure({ code: 'account-unreadable', message: `Codex could not read its account: ${failureText(e, null)}`, where: this.deps.codexHome });
    }
  }

  /** Holds a pending ChatGPT or device-code sign-in until it ends; answers its progress now. */
  private keepPending(progress: LoginProgress, conn: CodexConnection, early: LoginInput[], listen: (f: () => void) => void): LoginProgress {
    const loginId = progress.loginId as string;
    let resolve!: (p: LoginProgress) => void;
    const settled = new Promise<LoginProgress>((r) => (resolve = r));
    const entry: Pending = {
      progress,
      conn,
      settled,
      timer: setTimeout(() => void this.expire(loginId), this.deps.loginTimeoutMs ?? DEFAULT_LOGIN_TIMEOUT_MS),
      settle: (input) => {
        if (this.pending.get(loginId) !== entry) return;
        const next = loginStep(entry.progress, input);
        if (!isSettled(next)) return;
        this.pending.delete(loginId);
        clearTimeout(entry.timer);
        void this.finish(next, conn).then(resolve);
      },
    };
    entry.timer.unref();
    this.pending.set(loginId, entry);
    const drain = (): void => {
      for (const input of early.splice(0)) entry.settle(input);
    };
    listen(drain);
    drain();
    void conn.exited.then((exit) =>
      entry.settle({ kind: 'exited', detail: exit.cause ?? (exit.code !== null ? `exit code ${exit.code}` : `signal ${exit.signal}`) }),
    );
    return progress;
  }

  private async expire(loginId: string): Promise<void> {
    const p = this.pending.get(loginId);
    if (!p) return;
    await p.conn.request('account/login/cancel', { loginId }, { timeoutMs: 10_000 }).catch(() => undefined);
    p.settle({ kind: 'timedOut', minutes: Math.round((this.deps.loginTimeoutMs ?? DEFAULT_LOGIN_TIMEOUT_MS) / 60_000) });
  }

  /** A pending sign-in ended: the account read on its app-server when it succeeded, the server stopped, both told. */
  private async finish(progress: LoginProgress, conn: CodexConnection): Promise<LoginProgress> {
    const view = progress.state === 'completed' ? await this.readOn(conn).catch(() => null) : null;
    await conn.stop().catch(() => undefined);
    this.deps.onLogin?.(progress);
    if (view) this.tell(view);
    return progress;
  }
}
