/**
 * The client side of the loopback API, for the CLI (docs/sandbox-sockets.md). It finds the socket, the token and
 * the channel itself:
 *
 * - inside an agent: the chat token and chat from `ANGELIA_API_TOKEN` / `ANGELIA_SESSION_KEY` when they
 *   are in the environment, else from the identity file of the chat's mailbox (`ANGELIA_MAILBOX`: the
 *   agent's commands never get `ANGELIA_API_TOKEN`, compile/codexProfile.ts `commandEnvNames`); the socket at
 *   `ANGELIA_API_SOCK` when set;
 * - inside a read-only copy answering `/ask` (`ANGELIA_ASK=1`): none at all, by design; every call
 *   fails `read-only-copy` (READ_ONLY_COPY), rather than looking for an owner token it cannot read;
 * - otherwise the owner token in `<state>/private/api.token` and the socket `<state>/api.sock`
 *   (`ANGELIA_STATE_DIR` places the instance).
 *
 * The channel: the socket when it connects; when the connect fails with EPERM, EACCES, ENOENT or
 * ECONNREFUSED (Codex's Linux sandbox refuses every Unix socket with EPERM) and a mailbox is known, the
 * same request goes through the mailbox (mailboxClient.ts). Nothing was sent on the socket then, so a
 * request is never delivered twice.
 */
import { request } from 'node:http';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { IDENTITY_FILE } from '../core/launch/mailbox';
import { resolveInstance, type InstanceEnv } from '../core/instance/paths';
import { callMailbox, MailboxError } from './mailboxClient';

/** Where and as whom to call. `from`: the agent's own chat, or null for the owner. */
export interface ApiEndpoint {
  socketPath: string;
  token: string;
  from: string | null;
  /** The chat's mailbox folder (agents only), used when the socket cannot be reached; null for the owner. */
  mailbox: string | null;
}

/** Connect errors after which a call goes through the mailbox. */
export const MAILBOX_FALLBACK_CODES: readonly string[] = ['EPERM', 'EACCES', 'ENOENT', 'ECONNREFUSED'];

/**
 * What a command run outside the sandbox after an approval (an escalated command) is told: it cannot reach
 * Angelia from there, and what to do instead. Measured on codex 0.169.0, Linux (docs/sandbox-sockets.md):
 * such a command keeps the profile's deny entries (Angelia's mailboxes are denied) and Codex's seccomp
 * filter still refuses every Unix socket, and `ANGELIA_API_TOKEN` is kept from it.
 */
export const ESCALATED = (mailbox: string, code: string): string =>
  `this command cannot reach Angelia: your chat's mailbox ${mailbox} is closed to it (${code}), which happens when a command runs outside ` +
  "the sandbox after an approval; there Codex still denies Angelia's private folders and every Unix socket. Run angelia as an ordinary " +
  'command, inside the sandbox (do not ask to run it outside).';

/**
 * What a command run inside a read-only copy answering `POST /ask` is told (its environment has
 * `ANGELIA_ASK=1`, launch/env.ts ASK_ENV): such a copy has no channel to Angelia by design (no
 * mailbox, no token, no socket; docs/api-ask.md), whether or not Angelia runs.
 */
export const READ_ONLY_COPY =
  'this is a read-only copy answering a question: it cannot reach Angelia (no channel is given to it, by design). ' +
  'Put what you would send into your answer instead.';

/**
 * Why a call failed: `status` 0 when nothing answered (then `code` is `not-running`), no token was found
 * (`no-token`), the command runs where it cannot reach Angelia at all (`escalated`, see ESCALATED), or
 * it runs in a read-only copy answering a question (`read-only-copy`, see READ_ONLY_COPY).
 */
export class ApiClientError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiClientError';
  }
}

/**
 * The endpoint for `env`: an agent's (token and chat from the environment, else from the identity file
 * of `ANGELIA_MAILBOX`), or the owner's. Throws ApiClientError `read-only-copy` inside a read-only copy
 * answering `/ask` (`ANGELIA_ASK=1`); `no-token` when the identity file cannot be read or lacks a chat
 * and token, or when there is no agent token and no readable owner token file.
 */
export function locateApi(env: InstanceEnv): ApiEndpoint {
  if (env.ANGELIA_ASK === '1') throw new ApiClientError(0, 'read-only-copy', READ_ONLY_COPY);
  const paths = resolveInstance(env);
  const socketPath = env.ANGELIA_API_SOCK || paths.apiSock;
  const mailbox = env.ANGELIA_MAILBOX?.trim() || null;
  const agentToken = env.ANGELIA_API_TOKEN?.trim();
  if (agentToken) return { socketPath, token: agentToken, from: env.ANGELIA_SESSION_KEY?.trim() || null, mailbox };
  if (mailbox) {
    const file = join(mailbox, IDENTITY_FILE);
    let identity: unknown;
    try {
      identity = JSON.parse(readFileSync(file, 'utf8'));
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      // Denied, not missing: the command runs where the mailbox is hidden, i.e. outside the sandbox after an
      // approval (codex 0.169.0 keeps the deny entries and drops the mailbox's write entry there, and on
      // Linux still blocks every Unix socket: docs/sandbox-sockets.md "Approved escalation").
      if (code === 'EACCES' || code === 'EPERM') throw new ApiClientError(0, 'escalated', ESCALATED(mailbox, code));
      throw new ApiClientError(0, 'no-token', `your identity file ${file} cannot be read (${code ?? 'not JSON'}): Angelia writes it when your agent starts`);
    }
    const { chat, token } = (typeof identity === 'object' && identity !== null ? identity : {}) as { chat?: unknown; token?: unknown };
    if (typeof chat !== 'string' || typeof token !== 'string' || !token)
      throw new ApiClientError(0, 'no-token', `your identity file ${file} does not hold a chat and a token: restart your chat`);
    return { socketPath, token, from: chat, mailbox };
  }
  let token: string;
  try {
    token = readFileSync(paths.apiToken, 'utf8').trim();
  } catch {
    // An Angelia from before `<state>/private/` keeps it at `<state>/api.token` until it restarts (instance/migrate.ts).
    const legacy = join(paths.stateDir, 'api.token');
    // An empty file there is the deny floor's mount point (launch/denyMountPoints.ts), not a token.
    const why =
      existsSync(legacy) && statSync(legacy).size > 0
        ? ` (an older Angelia keeps it at ${legacy}): restart Angelia (the app, or angelia serve); it moves the token into ${paths.privateDir}`
        : ': start Angelia first (the app, or angelia serve)';
    throw new ApiClientError(0, 'no-token', `no owner token at ${paths.apiToken}${why}`);
  }
  if (!token) throw new ApiClientError(0, 'no-token', `the owner token file ${paths.apiToken} is empty: restart Angelia`);
  return { socketPath, token, from: null, mailbox: null };
}

/** Options of one call. `timeoutMs`: no answer by then → ApiClientError `timeout` (default 30 s). */
export interface CallOptions {
  timeoutMs?: number;
  /** Through a mailbox: how long Angelia may take to pick the request up (default mailboxClient.ts PICKUP_MS). */
  pickupMs?: number;
}

/** The value of an answer: the body of a 2xx, else ApiClientError with the API's `{error, code, fix?}`. */
function answerValue<T>(status: number, parsed: unknown): T {
  if (status >= 200 && status < 300) return parsed as T;
  const e = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as { error?: unknown; code?: unknown; fix?: unknown };
  const msg = typeof e.error === 'string' ? e.error : `HTTP ${status}`;
  throw new ApiClientError(status, typeof e.code === 'string' ? e.code : 'error', typeof e.fix === 'string' ? `${msg} (fix: ${e.fix})` : msg);
}

/** A socket connect that failed with `code` (nothing was sent). */
class ConnectError extends Error {
  constructor(
    readonly code: string,
    readonly socketPath: string,
  ) {
    super(`connect ${code} ${socketPath}`);
  }
}

/**
 * Calls `method path` with a JSON `body` and answers the parsed 2xx JSON, over the socket or, when the
 * socket cannot be reached and `ep.mailbox` is set, through the mailbox (see the module comment).
 * Throws ApiClientError: with the API's `{error, code}` and HTTP status; `not-running` (status 0) when
 * nothing answers on the socket (and nothing takes the request from the mailbox); `timeout`; `io`;
 * `bad-answer` when the answer is not JSON.
 */
export async function callApi<T = unknown>(ep: ApiEndpoint, method: 'GET' | 'POST', path: string, body?: unknown, opts: CallOptions = {}): Promise<T> {
  try {
    return await callSocket<T>(ep, method, path, body, opts);
  } catch (e) {
    if (!(e instanceof ConnectError)) throw e;
    if (ep.mailbox && MAILBOX_FALLBACK_CODES.includes(e.code)) return callThroughMailbox<T>(ep, ep.mailbox, method, path, body, opts, e.code);
    if (e.code === 'ENOENT' || e.code === 'ECONNREFUSED') throw new ApiClientError(0, 'not-running', `Angelia is not running (no answer on ${ep.socketPath})`);
    throw new ApiClientError(0, 'io', `the API socket ${ep.socketPath} could not be reached (${e.code})`);
  }
}

async function callThroughMailbox<T>(
  ep: ApiEndpoint,
  mailbox: string,
  method: 'GET' | 'POST',
  path: string,
  body: unknown,
  opts: CallOptions,
  socketCode: string,
): Promise<T> {
  const [bare = path, search = ''] = path.split('?', 2);
  const query = search ? Object.fromEntries(new URLSearchParams(search)) : undefined;
  if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body)))
    throw new ApiClientError(0, 'io', 'a mailbox request body must be a JSON object');
  let out: { status: number; body: unknown };
  try {
    out = await callMailbox({
      mailbox,
      timeoutMs: opts.timeoutMs ?? 30_000,
      ...(opts.pickupMs !== undefined ? { pickupMs: opts.pickupMs } : {}),
      request: {
        token: ep.token,
        method,
        path: bare,
        ...(ep.from ? { from: ep.from } : {}),
        ...(query ? { query } : {}),
        ...(body !== undefined ? { body: body as Record<string, unknown> } : {}),
      },
    });
  } catch (e) {
    if (!(e instanceof MailboxError)) throw e;
    if (e.code === 'not-picked-up')
      throw new ApiClientError(0, 'not-running', `Angelia is not running (the socket ${ep.socketPath} gave ${socketCode}, and ${e.message})`);
    throw new ApiClientError(0, e.code === 'timeout' ? 'timeout' : e.code === 'io' ? 'io' : 'bad-answer', e.message);
  }
  return answerValue<T>(out.status, out.body);
}

/** One call over the socket. Throws ConnectError when the connect fails; ApiClientError otherwise. */
function callSocket<T>(ep: ApiEndpoint, method: 'GET' | 'POST', path: string, body: unknown, opts: CallOptions): Promise<T> {
  const text = body === undefined ? null : JSON.stringify(body);
  return new Promise<T>((resolve, reject) => {
    const req = request(
      {
        socketPath: ep.socketPath,
        method,
        path,
        // A connection per call, never a kept-alive one: a pooled socket the server has just closed failed
        // the next call as a reset (`io`, exit 1) instead of "not running" (exit 3), and each reuse added a
        // `connect` listener to it (MaxListenersExceededWarning after 10 calls). A Unix socket connect is cheap.
        agent: false,
        headers: {
          host: 'localhost',
          authorization: `Bearer ${ep.token}`,
          accept: 'application/json',
          ...(text !== null ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown;
          try {
            parsed = JSON.parse(raw);
          } catch {
            reject(new ApiClientError(res.statusCode ?? 0, 'bad-answer', `Angelia answered ${res.statusCode ?? '?'} with something that is not JSON`));
            return;
          }
          try {
            resolve(answerValue<T>(res.statusCode ?? 0, parsed));
          } catch (e) {
            reject(e as Error);
          }
        });
        res.on('error', (e) => reject(new ApiClientError(0, 'io', e.message)));
      },
    );
    req.setTimeout(opts.timeoutMs ?? 30_000, () => {
      req.destroy(new ApiClientError(0, 'timeout', `no answer from Angelia within ${Math.round((opts.timeoutMs ?? 30_000) / 1000)} s`));
    });
    let connected = false;
    req.on('socket', (s) =>
      s.once('connect', () => {
        connected = true;
      }),
    );
    req.on('error', (e: NodeJS.ErrnoException) => {
      if (e instanceof ApiClientError) reject(e);
      else if (!connected && e.code && e.syscall === 'connect') reject(new ConnectError(e.code, ep.socketPath));
      else reject(new ApiClientError(0, 'io', `the API socket ${ep.socketPath} could not be reached (${e.code ?? e.message})`));
    });
    if (text !== null) req.write(text);
    req.end();
  });
}
