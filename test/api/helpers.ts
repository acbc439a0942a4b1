/**
 * Helpers of the API tests: a test instance folder under `<repo>/.angelia-test/` (a fake home, a state
 * folder, an outside folder), the API started on a real Unix socket there, and a raw HTTP call over it.
 */
import { request } from 'node:http';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { freshDir } from '../../src/main/demo/codexHome';
import { chatToken } from '../../src/main/core/api/tokens';
import { startApi, type ApiOptions, type RunningApi } from '../../src/main/api/server';
import type { ApiCore } from '../../src/main/api/core';

export interface ApiDirs {
  root: string;
  home: string;
  state: string;
  outside: string;
  socket: string;
  tokenFile: string;
  cleanup(): Promise<void>;
}

/** A fresh folder with `home/`, `state/` (mode 700) and `outside/`. */
export async function apiDirs(): Promise<ApiDirs> {
  const root = await freshDir('api');
  const home = join(root, 'home');
  const state = join(root, 'state');
  const outside = join(root, 'outside');
  await mkdir(home, { recursive: true });
  await mkdir(state, { recursive: true, mode: 0o700 });
  await mkdir(outside, { recursive: true });
  return {
    root,
    home,
    state,
    outside,
    socket: join(state, 'api.sock'),
    tokenFile: join(state, 'api.token'),
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}

/** A running API for `core` in `dirs`, with its owner token and a chat-token maker. */
export interface TestApi {
  api: RunningApi;
  owner: string;
  tokenFor(chatId: string): string;
}

/** Starts the API on `dirs.socket` (CODEX_HOME = `<home>/.codex`, no ANGELIA_STATE_DIR). */
export async function startTestApi(core: ApiCore, dirs: ApiDirs, extra: Partial<ApiOptions> = {}): Promise<TestApi> {
  const api = await startApi({
    core,
    socketPath: dirs.socket,
    tokenFile: dirs.tokenFile,
    stateDir: dirs.state,
    home: dirs.home,
    codexHome: join(dirs.home, '.codex'),
    env: {},
    ...extra,
  });
  const owner = (await readFile(dirs.tokenFile, 'utf8')).trim();
  return { api, owner, tokenFor: (chatId) => chatToken(owner, chatId) };
}

export interface Answer {
  status: number;
  type: string;
  body: unknown;
  text: string;
}

/**
 * One HTTP request over the socket. `body`: JSON-encoded unless `raw` is given. For an event stream
 * (`sse`), resolves once the head and the first chunk arrived (or, with `until`, once the text read
 * matches it), then closes the connection; `onHead` is called when the head arrived.
 */
export function call(
  socket: string,
  method: string,
  path: string,
  opts: {
    token?: string | null;
    body?: unknown;
    raw?: string | Buffer;
    headers?: Record<string, string>;
    sse?: boolean;
    until?: RegExp;
    onHead?: () => void;
  } = {},
): Promise<Answer> {
  const payload = opts.raw !== undefined ? opts.raw : opts.body !== undefined ? JSON.stringify(opts.body) : null;
  return new Promise((resolve, reject) => {
    const req = request(
      {
        socketPath: socket,
        method,
        path,
        headers: {
          host: 'localhost',
          ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
          ...(payload !== null ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
          ...opts.headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        const type = String(res.headers['content-type'] ?? '');
        const finish = (): void => {
          let body: unknown;
          try {
            body = JSON.parse(text);
          } catch {
            body = null;
          }
          resolve({ status: res.statusCode ?? 0, type, body, text });
        };
        if (opts.sse && res.statusCode === 200 && type.startsWith('text/event-stream')) {
          opts.onHead?.();
          const onData = (c: string): void => {
            text += c;
            if (opts.until && !opts.until.test(text)) return;
            res.off('data', onData);
            req.destroy();
            finish();
          };
          res.on('data', onData);
          return;
        }
        res.on('data', (c: string) => (text += c));
        res.on('end', finish);
      },
    );
    req.on('error', reject);
    if (payload !== null) req.write(payload);
    req.end();
  });
}
