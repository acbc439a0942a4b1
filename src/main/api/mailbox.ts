/**
 * Angelia's side of the mailbox channel (mailboxProtocol.ts, docs/sandbox-sockets.md): it watches
 * `<state>/mailbox/<chat>/` for every chat (fs.watch on each folder and on the root, plus a rescan every
 * second so a missed event is picked up), and answers each request file through the API's one handler
 * (handler.ts) as a request of that chat's agent.
 *
 * A chat's folder is found by name (core/launch/mailbox.ts `mailboxName`); a folder that is no chat's is
 * never read. The agent can write its folder, so each entry is treated as hostile: only names
 * `<uuid>.req.json` are looked at (dot-names, Codex's per-command mounts and temporary files are
 * skipped); the entry must be a regular file (`lstat`), is opened with O_RDONLY|O_NOFOLLOW|O_NONBLOCK
 * (a FIFO never blocks, a symbolic link is never followed), must still be a regular file with one link
 * and at most MAX_REQUEST_BYTES (`fstat`), and is deleted once read. Symbolic links, FIFOs, sockets and
 * folders in its place are removed (a folder is left) and reported. Answers are written with
 * `writeNoFollow`. At most MAX_IN_FLIGHT requests of one chat run at once (429 beyond); answers nobody
 * collected are removed after an hour.
 */
import { watch, type FSWatcher } from 'node:fs';
import { lstat, readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { MAILBOX_ROOT, mailboxName, writeNoFollow } from '../core/launch/mailbox';
import { readNoFollow } from '../core/instance/noFollow';
import { ApiError } from './errors';
import { MAX_BODY_BYTES, type ApiHandler, type ApiRequest } from './handler';
import { MAILBOX_API, MAX_REQUEST_BYTES, MailboxRequest, REQUEST_NAME, RESPONSE_NAME, responseName, type MailboxResponse } from './mailboxProtocol';

/** The most requests of one chat answered at once. */
export const MAX_IN_FLIGHT = 8;
/** How often every mailbox is listed again (a missed watch event is picked up by then). */
export const RESCAN_MS = 1000;
/** Answers older than this are removed (the command that asked gave up). */
export const STALE_ANSWER_MS = 60 * 60_000;

/** Options of `startMailboxes`. */
export interface MailboxOptions {
  /** The state folder (`<stateDir>/mailbox` is watched). */
  stateDir: string;
  handler: ApiHandler;
  /** The ids of every chat (a mailbox folder is served only when it is one of theirs). */
  chatIds(): Promise<string[]>;
  /** Told of each entry refused (a symbolic link, a FIFO, a file too large…) and of watch failures. */
  report?: (message: string) => void;
  /** Rescan interval (tests). */
  rescanMs?: number;
}

/** Running mailboxes. */
export interface RunningMailboxes {
  /** Lists every mailbox now and answers what waits (also runs every `rescanMs`). */
  scan(): Promise<void>;
  /** Stops watching; requests still running are aborted and get no answer. */
  close(): Promise<void>;
}

const TOKEN = /^[A-Za-z0-9_~+/.=-]{16,512}$/;

function codeOf(e: unknown): string | undefined {
  return (e as NodeJS.ErrnoException | null)?.code;
}

/**
 * Reads a request entry safely and deletes it (see the module comment). Answers its bytes, null when it
 * is gone, `'folder'` for a folder of that name (left alone). Throws ApiError 400/413 for a bad entry
 * (removed).
 */
async function takeRequest(file: string): Promise<Buffer | null | 'folder'> {
  const st = await lstat(file).catch((e: unknown) => (codeOf(e) === 'ENOENT' ? null : Promise.reject(e)));
  if (!st) return null;
  if (st.isDirectory()) return 'folder';
  if (!st.isFile()) {
    await unlink(file).catch(() => undefined);
    throw new ApiError(
      400,
      'bad-request',
      `the request must be a regular file (found a ${st.isSymbolicLink() ? 'symbolic link' : st.isFIFO() ? 'FIFO' : st.isSocket() ? 'socket' : 'special file'})`,
    );
  }
  // Opened once (O_RDONLY|O_NOFOLLOW|O_NONBLOCK), checked and read on that descriptor (instance/noFollow.ts).
  const read = await readNoFollow(file, { oneLink: true, maxBytes: MAX_REQUEST_BYTES }).finally(() => unlink(file).catch(() => undefined));
  switch (read.kind) {
    case 'ok':
      return read.data;
    case 'missing':
      return null;
    case 'open-failed':
      throw new ApiError(400, 'bad-request', `the request file could not be opened (${read.code})`);
    case 'not-file':
    case 'links':
      throw new ApiError(400, 'bad-request', 'the request must be a regular file with one name');
    case 'too-large':
      throw new ApiError(413, 'too-large', `the request file is over ${MAX_REQUEST_BYTES / 1024} KB`);
    case 'grew':
      throw new ApiError(413, 'too-large', 'the request file grew while it was read');
  }
}

/** The handler's request for a parsed mailbox request. */
function apiRequestOf(m: MailboxRequest): ApiRequest {
  const query = m.query ? new URLSearchParams(m.query).toString() : '';
  const body = m.body === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(m.body), 'utf8');
  return {
    method: m.method,
    target: query ? `${m.path}?${query}` : m.path,
    token: m.token !== null && TOKEN.test(m.token) ? m.token : null,
    readBody: async () => {
      if (body.length > MAX_BODY_BYTES) throw new ApiError(413, 'too-large', `the body is over ${MAX_BODY_BYTES / 1024} KB`);
      return body;
    },
    discardBody: () => undefined,
  };
}

/**
 * Starts serving every chat's mailbox under `<opts.stateDir>/mailbox` (the root need not exist yet).
 * Resolves after the first scan.
 */
export async function startMailboxes(opts: MailboxOptions): Promise<RunningMailboxes> {
  const root = join(opts.stateDir, MAILBOX_ROOT);
  const report = opts.report ?? (() => undefined);
  const abort = new AbortController();
  const watchers = new Map<string, FSWatcher>();
  const inFlight = new Map<string, Promise<void>>();
  const perChat = new Map<string, number>();
  const reported = new Set<string>();
  let chatsByName = new Map<string, string>();
  let rootWatcher: FSWatcher | null = null;
  let closed = false;
  let scanning: Promise<void> | null = null;

  async function answer(dir: string, id: string, status: number, body: unknown): Promise<void> {
    if (closed) return;
    const out: MailboxResponse = { api: MAILBOX_API, id, status, body };
    await writeNoFollow(join(dir, responseName(id)), `${JSON.stringify(out)}\n`, 0o600);
  }

  async function serve(dir: string, chat: string, id: string, file: string): Promise<void> {
    let status: number;
    let body: unknown;
    try {
      const raw = await takeRequest(file);
      if (raw === null) return;
      if (raw === 'folder') {
        if (!reported.has(file)) report(`mailbox of chat ${chat}: ${file} is a folder, not a request; it is left alone`);
        reported.add(file);
        return;
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw.toString('utf8'));
      } catch {
        throw new ApiError(400, 'bad-json', 'the request file is not JSON');
      }
      const m = MailboxRequest.safeParse(parsed);
      if (!m.success)
        throw new ApiError(
          400,
          'bad-request',
          `the request file: ${m.error.issues
            .slice(0, 3)
            .map((i) => `${i.path.join('.') || '(top)'}: ${i.message}`)
            .join('; ')}`,
        );
      if (m.data.from !== undefined && m.data.from !== chat) throw new ApiError(403, 'forbidden', '`from` must be your own chat');
      const n = (perChat.get(chat) ?? 0) + 1;
      perChat.set(chat, n);
      try {
        if (n > MAX_IN_FLIGHT) throw new ApiError(429, 'busy', `this chat already has ${MAX_IN_FLIGHT} requests running; wait for their answers`);
        const out = await opts.handler.handle(apiRequestOf(m.data), { kind: 'mailbox', chat }, abort.signal);
        if (out.kind !== 'json') throw new ApiError(400, 'socket-only', 'an event stream is served on the socket only');
        ({ status, body } = out);
      } finally {
        perChat.set(chat, (perChat.get(chat) ?? 1) - 1);
      }
    } catch (e) {
      if (e instanceof ApiError) {
        if (e.status === 400 || e.status === 413) report(`mailbox of chat ${chat}: refused ${file}: ${e.message}`);
        status = e.status;
        body = { error: e.message, code: e.code };
      } else {
        report(`mailbox of chat ${chat}: ${file}: ${(e as Error).message}`);
        status = 500;
        body = { error: 'internal error', code: 'internal' };
      }
    }
    await answer(dir, id, status, body).catch((e: unknown) =>
      report(`mailbox of chat ${chat}: the answer to ${id} could not be written: ${(e as Error).message}`),
    );
  }

  /** Looks at one entry of `dir` (a chat's mailbox): starts serving a request file not yet taken. */
  function consider(dir: string, chat: string, name: string): void {
    if (closed) return;
    const m = REQUEST_NAME.exec(name);
    if (!m?.[1]) return;
    const file = join(dir, name);
    if (inFlight.has(file)) return;
    const p = serve(dir, chat, m[1], file).finally(() => inFlight.delete(file));
    inFlight.set(file, p);
  }

  /** Removes answers nobody collected for an hour. */
  async function sweep(dir: string, names: string[]): Promise<void> {
    const now = Date.now();
    for (const name of names) {
      if (!RESPONSE_NAME.test(name)) continue;
      const st = await lstat(join(dir, name)).catch(() => null);
      if (st && now - st.mtimeMs > STALE_ANSWER_MS) await unlink(join(dir, name)).catch(() => undefined);
    }
  }

  function watchDir(dir: string, chat: string): void {
    if (watchers.has(dir)) return;
    try {
      const w = watch(dir, { persistent: false }, (_event, name) => {
        if (typeof name === 'string') consider(dir, chat, name);
      });
      w.on('error', () => {
        w.close();
        watchers.delete(dir);
      });
      watchers.set(dir, w);
    } catch (e) {
      report(`mailbox ${dir} cannot be watched (${codeOf(e) ?? (e as Error).message}); it is read every ${opts.rescanMs ?? RESCAN_MS} ms`);
    }
  }

  async function scanOnce(): Promise<void> {
    if (closed) return;
    const rootSt = await lstat(root).catch(() => null);
    if (!rootSt) return;
    if (!rootSt.isDirectory()) {
      if (!reported.has(root)) report(`${root} is not a folder; no mailbox is served`);
      reported.add(root);
      return;
    }
    if (!rootWatcher) {
      try {
        rootWatcher = watch(root, { persistent: false }, () => void scan());
        rootWatcher.on('error', () => {
          rootWatcher?.close();
          rootWatcher = null;
        });
      } catch {
        rootWatcher = null;
      }
    }
    chatsByName = new Map((await opts.chatIds()).map((c) => [mailboxName(c), c]));
    const names = await readdir(root).catch(() => [] as string[]);
    for (const [dir, w] of watchers) {
      if (!chatsByName.has(dir.slice(root.length + 1))) {
        w.close();
        watchers.delete(dir);
      }
    }
    for (const name of names) {
      const chat = chatsByName.get(name);
      if (chat === undefined) continue;
      const dir = join(root, name);
      const st = await lstat(dir).catch(() => null);
      if (!st?.isDirectory()) {
        if (st && !reported.has(dir)) report(`mailbox of chat ${chat} at ${dir} is not a folder; it is not read`);
        reported.add(dir);
        continue;
      }
      watchDir(dir, chat);
      const entries = await readdir(dir).catch(() => [] as string[]);
      for (const entry of entries) consider(dir, chat, entry);
      await sweep(dir, entries);
    }
  }

  function scan(): Promise<void> {
    scanning ??= scanOnce()
      .catch((e: unknown) => report(`mailbox scan: ${(e as Error).message}`))
      .finally(() => {
        scanning = null;
      });
    return scanning;
  }

  const timer = setInterval(() => void scan(), opts.rescanMs ?? RESCAN_MS);
  timer.unref();
  await scan();

  return {
    scan,
    async close() {
      closed = true;
      clearInterval(timer);
      rootWatcher?.close();
      for (const w of watchers.values()) w.close();
      watchers.clear();
      abort.abort();
      await scanning;
      await Promise.allSettled([...inFlight.values()]);
    },
  };
}
