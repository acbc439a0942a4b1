/**
 * The agents' side of the mailbox channel (mailboxProtocol.ts): one request written atomically into the
 * chat's mailbox (`ANGELIA_MAILBOX`), then its answer awaited with fs.watch (inotify works inside Codex's
 * Linux sandbox, measured) and a poll every POLL_MS, read through O_NOFOLLOW and deleted.
 */
import { randomUUID } from 'node:crypto';
import { watch, type FSWatcher } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { readNoFollow, writeNoFollow } from '../core/instance/noFollow';
import { MAILBOX_API, MAX_RESPONSE_BYTES, MailboxResponse, requestName, responseName, type MailboxRequest } from './mailboxProtocol';

/** How often the answer is looked for besides the watch events. */
export const POLL_MS = 200;
/** How long Angelia may take to pick a request up before it is taken back and Angelia told not running. */
export const PICKUP_MS = 10_000;

/** Why a mailbox call failed: `not-picked-up` (nothing took the request), `timeout`, `io`, `bad-answer`. */
export class MailboxError extends Error {
  constructor(
    readonly code: 'not-picked-up' | 'timeout' | 'io' | 'bad-answer',
    message: string,
  ) {
    super(message);
    this.name = 'MailboxError';
  }
}

/** One call through a mailbox: the folder, the request (without `api`), and how long to wait. */
export interface MailboxCall {
  mailbox: string;
  request: Omit<MailboxRequest, 'api'>;
  /** The whole wait for the answer. */
  timeoutMs: number;
  /** The wait for Angelia to take the request (default PICKUP_MS). */
  pickupMs?: number;
}

/** `ms` as seconds for a message: one decimal under a second. */
function seconds(ms: number): string {
  return ms < 1000 ? (ms / 1000).toFixed(1) : String(Math.round(ms / 1000));
}

function codeOf(e: unknown): string {
  return (e as NodeJS.ErrnoException | null)?.code ?? 'error';
}

/** Writes `data` as `file` through a fresh dot-name (O_EXCL|O_NOFOLLOW, mode 600, not synced) renamed into place. */
async function writeAtomically(dir: string, name: string, data: string): Promise<void> {
  await writeNoFollow(join(dir, name), data, { tmp: join(dir, `.${randomUUID()}.tmp`), sync: false });
}

/** Reads an answer file (regular file, O_NOFOLLOW, size-capped) and deletes it; null while it is not there. */
async function readAnswer(file: string): Promise<Buffer | null> {
  const read = await readNoFollow(file, { maxBytes: MAX_RESPONSE_BYTES });
  if (read.kind === 'missing') return null;
  if (read.kind === 'open-failed') throw new MailboxError('io', `the answer ${file} could not be opened (${read.code})`);
  await unlink(file).catch(() => undefined);
  if (read.kind !== 'ok') throw new MailboxError('bad-answer', `the answer ${file} is not a regular file of at most ${MAX_RESPONSE_BYTES} bytes`);
  return read.data;
}

/**
 * Sends `call.request` through the mailbox and answers Angelia's `{status, body}`. Throws MailboxError:
 * `io` when the request cannot be written (e.g. the sandbox does not let this command write the
 * mailbox), `not-picked-up` when nothing took it within `pickupMs` (it is taken back), `timeout`,
 * `bad-answer`.
 */
export async function callMailbox(call: MailboxCall): Promise<{ status: number; body: unknown }> {
  const id = randomUUID();
  const reqFile = join(call.mailbox, requestName(id));
  const resFile = join(call.mailbox, responseName(id));
  const request: MailboxRequest = { api: MAILBOX_API, ...call.request };
  try {
    await writeAtomically(call.mailbox, requestName(id), JSON.stringify(request));
  } catch (e) {
    throw new MailboxError('io', `the request could not be written into the mailbox ${call.mailbox} (${codeOf(e)})`);
  }
  const started = Date.now();
  const pickupMs = call.pickupMs ?? PICKUP_MS;
  let watcher: FSWatcher | null = null;
  let wake: () => void = () => undefined;
  try {
    try {
      watcher = watch(call.mailbox, { persistent: false }, () => wake());
      watcher.on('error', () => undefined);
    } catch {
      watcher = null; // polling alone still finds the answer
    }
    let pickedUp = false;
    for (;;) {
      const raw = await readAnswer(resFile);
      if (raw !== null) {
        let parsed: unknown;
        try {
          parsed = JSON.parse(raw.toString('utf8'));
        } catch {
          throw new MailboxError('bad-answer', 'the answer in the mailbox is not JSON');
        }
        const r = MailboxResponse.safeParse(parsed);
        if (!r.success || r.data.id !== id) throw new MailboxError('bad-answer', 'the answer in the mailbox is not one Angelia wrote for this request');
        return { status: r.data.status, body: r.data.body };
      }
      const waited = Date.now() - started;
      if (!pickedUp && waited >= pickupMs) {
        try {
          await unlink(reqFile);
          throw new MailboxError('not-picked-up', `nothing took the request from the mailbox ${call.mailbox} within ${seconds(pickupMs)} s`);
        } catch (e) {
          if (e instanceof MailboxError) throw e;
          pickedUp = true; // gone: Angelia took it just now
        }
      }
      if (waited >= call.timeoutMs) {
        await unlink(reqFile).catch(() => undefined);
        throw new MailboxError('timeout', `no answer from Angelia through the mailbox within ${seconds(call.timeoutMs)} s`);
      }
      await new Promise<void>((resolve) => {
        const t = setTimeout(done, POLL_MS);
        function done(): void {
          clearTimeout(t);
          wake = () => undefined;
          resolve();
        }
        wake = done;
      });
    }
  } finally {
    watcher?.close();
  }
}
