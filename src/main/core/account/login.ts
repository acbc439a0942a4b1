/**
 * One sign-in as a small state machine (pure): `LoginProgress` (src/shared/account.ts) stepped by what
 * Codex answers and sends. Protocol, codex 0.169.0 (measured with a private CODEX_HOME):
 * - `account/login/start {type:"apiKey", apiKey}` answers `{type:"apiKey"}`, then Codex writes
 *   `CODEX_HOME/auth.json` (mode 600) and sends `account/login/completed {loginId:null, success:true}` and
 *   `account/updated {authMode:"apikey"}`.
 * - `{type:"chatgpt"}` answers `{type:"chatgpt", loginId, authUrl}` (`https://auth.openai.com/oauth/authorize?…`,
 *   callback on 127.0.0.1:1455 while that app-server lives); `account/login/cancel {loginId}` answers
 *   `{status:"canceled"}` (then `"notFound"`), and Codex sends `account/login/completed {loginId,
 *   success:false, error:"Login server error: Login was not completed"}`.
 * - `{type:"chatgptDeviceCode"}` answers `{type:"chatgptDeviceCode", loginId, verificationUrl, userCode}`;
 *   offline the request itself fails (JSON-RPC -32603 "failed to request device code: …").
 * A settled progress (`completed`, `failed`, `cancelled`) never changes again.
 */
import type { LoginProgress, LoginRequest } from '../../../shared/account';

/** What happens to a sign-in. `completed` is Codex's `account/login/completed` (`AccountLoginCompletedNotification`). */
export type LoginInput =
  | { kind: 'answered'; response: { type?: unknown; loginId?: unknown; authUrl?: unknown; verificationUrl?: unknown; userCode?: unknown } }
  | { kind: 'refused'; error: string }
  | { kind: 'completed'; loginId: string | null; success: boolean; error: string | null }
  | { kind: 'cancelled' }
  | { kind: 'exited'; detail: string }
  | { kind: 'timedOut'; minutes: number };

/** The Codex `LoginAccountParams.type` of a request. */
export const codexLoginType = (method: LoginRequest['method']): 'apiKey' | 'chatgpt' | 'chatgptDeviceCode' =>
  method === 'deviceCode' ? 'chatgptDeviceCode' : method;

/** A sign-in just asked for: pending, nothing known yet. */
export function loginBegins(method: LoginRequest['method']): LoginProgress {
  return { loginId: null, method, state: 'pending', authUrl: null, verificationUrl: null, userCode: null, error: null };
}

/** True once the sign-in has ended (completed, failed or cancelled). */
export const isSettled = (p: LoginProgress): boolean => p.state !== 'pending';

const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);

/** The next progress of sign-in `p` after `input` (pure; a settled progress is returned as is). */
export function loginStep(p: LoginProgress, input: LoginInput): LoginProgress {
  if (isSettled(p)) return p;
  switch (input.kind) {
    case 'answered': {
      const r = input.response;
      const next = { ...p, loginId: str(r.loginId) ?? p.loginId, authUrl: str(r.authUrl), verificationUrl: str(r.verificationUrl), userCode: str(r.userCode) };
      if (p.method === 'chatgpt' && !next.authUrl) return { ...next, state: 'failed', error: 'Codex gave no sign-in address' };
      if (p.method === 'deviceCode' && (!next.verificationUrl || !next.userCode)) return { ...next, state: 'failed', error: 'Codex gave no device code' };
      return next;
    }
    case 'refused':
      return { ...p, state: 'failed', error: input.error };
    case 'completed':
      // Another sign-in's end (a loginId of its own) leaves this one pending.
      if (p.loginId !== null && input.loginId !== null && input.loginId !== p.loginId) return p;
      return input.success ? { ...p, state: 'completed', error: null } : { ...p, state: 'failed', error: input.error ?? 'Codex did not complete the sign-in' };
    case 'cancelled':
      return { ...p, state: 'cancelled', error: null };
    case 'exited':
      return { ...p, state: 'failed', error: `Codex stopped before the sign-in completed${input.detail ? `: ${input.detail}` : ''}` };
    case 'timedOut':
      return { ...p, state: 'failed', error: `the sign-in was not completed within ${input.minutes} minutes` };
  }
}

/** `text` with every occurrence of `secret` replaced by `…` (an error message never carries the API key). */
export function redact(text: string, secret: string | null): string {
  return secret ? text.split(secret).join('…') : text;
}
