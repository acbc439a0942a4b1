/**
 * Dropped files to the headless host over HTTP (`POST /attach`, the contract's `ATTACH_ROUTE`), not over
 * the WebSocket: a 25 MB file would be a 35 MB base64 message there, above the host's message cap, and
 * would hold up every other message while it travelled. The host answers a JSON `Result` (refusals
 * too), passed on as is.
 */
import { ATTACH_ROUTE, type OutputOf } from '../../../shared/contract';
import { err, type Result } from '../../../shared/result';

/** Sends one file's bytes to a chat; resolves to the `chats:attach` answer. Never rejects. */
export type Uploader = (chatId: string, name: string, body: Blob) => Promise<Result<OutputOf<'chats:attach'>>>;

/** The part of `fetch` used here (tests pass their own). */
export type FetchLike = (
  url: string,
  init: { method: 'POST'; headers: Record<string, string>; body: Blob; credentials: 'omit'; cache: 'no-store' },
) => Promise<{ status: number; json(): Promise<unknown> }>;

function isResult(v: unknown): v is Result<OutputOf<'chats:attach'>> {
  if (typeof v !== 'object' || v === null || !('ok' in v)) return false;
  const r = v as { ok: unknown; value?: { path?: unknown }; error?: { code?: unknown; message?: unknown } };
  return r.ok === true ? typeof r.value?.path === 'string' : r.ok === false && typeof r.error?.code === 'string' && typeof r.error.message === 'string';
}

/**
 * An uploader for the host at `origin` (the page's own, e.g. `http://127.0.0.1:4321`) with its token
 * (sent as `Authorization: Bearer …`, never in the URL).
 */
export function httpUploader(origin: string, token: string, doFetch: FetchLike = (url, init) => fetch(url, init)): Uploader {
  return async (chatId, name, body) => {
    const url = `${origin}${ATTACH_ROUTE}?chatId=${encodeURIComponent(chatId)}&name=${encodeURIComponent(name)}`;
    let res: { status: number; json(): Promise<unknown> };
    try {
      res = await doFetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
        body,
        credentials: 'omit',
        cache: 'no-store',
      });
    } catch (e) {
      return err('disconnected', `${name} could not be sent to Angelia (${e instanceof Error ? e.message : String(e)})`, {
        fix: 'check that `angelia serve` still runs, then drop the file again',
      });
    }
    let answer: unknown = null;
    try {
      answer = await res.json();
    } catch {
      // Not JSON: said below with the status.
    }
    return isResult(answer) ? answer : err('upload-failed', `Angelia answered the upload of ${name} with HTTP ${res.status}`);
  };
}
