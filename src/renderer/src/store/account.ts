/**
 * Account slice: who Codex is signed in as (`account:read`, the `account:updated` event), the sign-in in
 * flight (`account:login` answered, then its `account:login` events until completed, failed or
 * cancelled), an action in flight and its failure. An API key is never kept here: it goes once in the
 * `account:login` body (src/shared/account.ts `LoginRequest`) and only the method is recorded. Pure
 * transitions; each returns the same object when nothing changed.
 */
import type { AccountView, LoginProgress, LoginRequest } from '../../../shared/account';
import type { AppError, Result } from '../../../shared/result';
import { equal } from './equal';

/** What is being done: a sign-in asked for (by method), a cancel, a sign-out. */
export type AccountBusy = LoginRequest['method'] | 'cancel' | 'logout' | null;

/** The account as the window knows it. */
export interface AccountSlice {
  /** The account as Codex last said (null before the first `account:read` answered). */
  view: AccountView | null;
  /** The sign-in started from this window, as it stands; null when none was started (or it was put away). */
  login: LoginProgress | null;
  busy: AccountBusy;
  /** Why the last action failed ("Not signed in: …"), or null. */
  error: string | null;
}

/** Nothing known yet. */
export const initialAccount: AccountSlice = { view: null, login: null, busy: null, error: null };

const failure = (what: string, e: AppError): string => `${what}: ${e.message}${e.fix ? ` — ${e.fix}` : ''}`;

/** `account:read` answered, or `account:updated` arrived. A finished sign-in stays shown until put away. */
export function accountSeen(state: AccountSlice, view: AccountView): AccountSlice {
  return equal(state.view, view) ? state : { ...state, view };
}

/** A sign-in (or a sign-out, a cancel) was clicked; only the method is recorded, never a key. */
export function accountActing(state: AccountSlice, busy: Exclude<AccountBusy, null>): AccountSlice {
  return state.busy === busy && state.error === null ? state : { ...state, busy, error: null };
}

/** The answer to `account:login`: the sign-in as it stands (its URL or device code), or why it did not start. */
export function loginAnswered(state: AccountSlice, r: Result<LoginProgress>): AccountSlice {
  if (!r.ok) return { ...state, busy: null, error: failure('Not signed in', r.error) };
  const error = r.value.state === 'failed' ? `Not signed in: ${r.value.error ?? 'Codex gave no reason'}` : null;
  return { ...state, busy: null, error, login: r.value };
}

/**
 * An `account:login` event: taken when it is about the sign-in this window started (same `loginId`, or
 * the window's has none yet); another window's sign-in is left alone. A failed one says why.
 */
export function loginProgressed(state: AccountSlice, p: LoginProgress): AccountSlice {
  const mine = state.login;
  if (!mine || (mine.loginId !== null && p.loginId !== mine.loginId)) return state;
  if (equal(mine, p)) return state;
  const error = p.state === 'failed' ? `Not signed in: ${p.error ?? 'Codex gave no reason'}` : state.error;
  return { ...state, login: p, error };
}

/** The answer to `account:loginCancel`: the sign-in is marked cancelled (the screen offers the ways again). */
export function loginCancelled(state: AccountSlice, r: Result<{ cancelled: boolean }>): AccountSlice {
  if (!r.ok) return { ...state, busy: null, error: failure('Not cancelled', r.error) };
  return { ...state, busy: null, login: state.login ? { ...state.login, state: 'cancelled' } : null };
}

/** The answer to `account:logout`: the account as it is now. */
export function loggedOut(state: AccountSlice, r: Result<AccountView>): AccountSlice {
  if (!r.ok) return { ...state, busy: null, error: failure('Not signed out', r.error) };
  return { ...state, busy: null, error: null, login: null, view: r.value };
}

/** The answer to `usage:resume` ("Try now"): its failure is told; the lifted pause comes as `usage:updated`. */
export function resumeAnswered(state: AccountSlice, r: Result<unknown>): AccountSlice {
  return r.ok ? state : { ...state, error: failure('Not resumed', r.error) };
}

/** The finished (or failed, cancelled) sign-in is put away: the screen offers the ways again. */
export function loginCleared(state: AccountSlice): AccountSlice {
  return state.login === null && state.error === null ? state : { ...state, login: null, error: null };
}

/** True while a sign-in of this window waits for Codex (a URL opened or a code to type). */
export function loginPending(state: AccountSlice): boolean {
  return state.login?.state === 'pending';
}
