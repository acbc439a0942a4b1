/**
 * The client side of the loopback API, for the CLI (seed-spec §6.4). It finds the socket and the token
 * itself: inside an agent, `ANGELIA_API_TOKEN` (the chat token) with `ANGELIA_SESSION_KEY` (its chat, sent
 * as `from` when it writes into another chat) and the socket at `ANGELIA_API_SOCK` when set; otherwise
 * the owner token in `<state>/api.token` and the socket `<state>/api.sock` (`ANGELIA_STATE_DIR` places
 * the instance).
 */
import { request } from 'node:http';
import { readFileSync } from 'node:fs';
import { resolveInstance, type InstanceEnv } from '../core/instance/paths';

/** Where and as whom to call. `from`: the agent's own chat, or null for the owner. */
export interface ApiEndpoint {
  socketPath: string;
  token: string;
  from: string | null;
}

/** Why a call failed: `status` 0 when nothing answered (then `code` is `not-running`) or no token was found. */
export class ApiClientError extends Error {
  constructor(readonly status: number, readonly code: string, message: string) {
    super(message);
    this.name = 'ApiClientError';
  }
}

/**
 * The endpoint for `env`. Throws ApiClientError `no-token` when there is neither an agent token nor a
 * readable owner token file.
 */
export function locateApi(env: InstanceEnv): ApiEndpoint {
  const paths = resolveInstance(env);
  const socketPath = env.ANGELIA_API_SOCK || paths.apiSock;
  const agentToken = env.ANGELIA_API_TOKEN?.trim();
  if (agentToken) return { socketPath, token: agentToken, from: env.ANGELIA_SESSION_KEY?.trim() || null };
  let token: string;
  try {
    token = readFileSync(paths.apiToken, 'utf8').trim();
  } catch {
    throw new ApiClientError(0, 'no-token', `no owner token at ${paths.apiToken}: start Angelia first (the app, or angelia serve)`);
  }
  if (!token) throw new ApiClientError(0, 'no-token', `the owner token file ${paths.apiToken} is empty: restart Angelia`);
  return { socketPath, token, from: null };
}

/** Options of one call. `timeoutMs`: no answer by then → ApiClientError `timeout` (default 30 s). */
export interface CallOptions {
  timeoutMs?: number;
}

/**
 * Calls `method path` with a JSON `body` and answers the parsed 2xx JSON. Throws ApiClientError: with
 * the API's `{error, code}` and HTTP status; `not-running` (status 0) when nothing answers on the
 * socket; `timeout`; `bad-answer` when the answer is not JSON.
 */
export function callApi<T = unknown>(ep: ApiEndpoint, method: 'GET' | 'POST', path: string, body?: unknown, opts: CallOptions = {}): Promise<T> {
  const text = body === undefined ? null : JSON.stringify(body);
  return new Promise<T>((resolve, reject) => {
    const req = request({
      socketPath: ep.socketPath, method, path,
      headers: {
        host: 'localhost', authorization: `Bearer ${ep.token}`, accept: 'application/json',
        ...(text !== null ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) } : {}),
      },
    }, (res) => {
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
        const status = res.statusCode ?? 0;
        if (status >= 200 && status < 300) resolve(parsed as T);
        else {
          const e = parsed as { error?: unknown; code?: unknown; fix?: unknown };
          const msg = typeof e.error === 'string' ? e.error : `HTTP ${status}`;
          reject(new ApiClientError(status, typeof e.code === 'string' ? e.code : 'error', typeof e.fix === 'string' ? `${msg} (fix: ${e.fix})` : msg));
        }
      });
      res.on('error', (e) => reject(new ApiClientError(0, 'io', e.message)));
    });
    req.setTimeout(opts.timeoutMs ?? 30_000, () => {
      req.destroy(new ApiClientError(0, 'timeout', `no answer from Angelia within ${Math.round((opts.timeoutMs ?? 30_000) / 1000)} s`));
    });
    req.on('error', (e: NodeJS.ErrnoException) => {
      if (e instanceof ApiClientError) reject(e);
      else if (e.code === 'ENOENT' || e.code === 'ECONNREFUSED') reject(new ApiClientError(0, 'not-running', `Angelia is not running (no answer on ${ep.socketPath})`));
      else reject(new ApiClientError(0, 'io', `the API socket ${ep.socketPath} could not be reached (${e.code ?? e.message})`));
    });
    if (text !== null) req.write(text);
    req.end();
  });
}
