/**
 * Policy slice: per profile, the policy inspector's view (`profiles:policy`) and the last sandbox check
 * (`profiles:verify`). Pure transitions; each returns the same object when nothing changed.
 */
import type { PolicyView, VerifyView } from '../../../shared/contract';
import type { AppError, Result } from '../../../shared/result';

/** Something loaded from the core: in flight, there, or failed (with the error). */
export interface Loadable<T> {
  status: 'loading' | 'ready' | 'failed';
  value: T | null;
  error: AppError | null;
}

/** Policies and probe runs by profile name. */
export interface PolicySlice {
  byProfile: Record<string, Loadable<PolicyView>>;
  verify: Record<string, Loadable<VerifyView>>;
}

/** Nothing loaded. */
export const initialPolicy: PolicySlice = { byProfile: {}, verify: {} };

/** A load started: an earlier value stays shown until the new one arrives. */
export function loading<T>(old: Loadable<T> | undefined): Loadable<T> {
  if (old?.status === 'loading') return old;
  return { status: 'loading', value: old?.value ?? null, error: null };
}

/** A load answered. */
export function loaded<T>(r: Result<T>, old?: Loadable<T>): Loadable<T> {
  return r.ok ? { status: 'ready', value: r.value, error: null } : { status: 'failed', value: old?.value ?? null, error: r.error };
}

/** `profiles:policy` was asked for `profile`. */
export function policyLoading(state: PolicySlice, profile: string): PolicySlice {
  const next = loading(state.byProfile[profile]);
  return next === state.byProfile[profile] ? state : { ...state, byProfile: { ...state.byProfile, [profile]: next } };
}

/** `profiles:policy` answered for `profile`. */
export function policyLoaded(state: PolicySlice, profile: string, r: Result<PolicyView>): PolicySlice {
  return { ...state, byProfile: { ...state.byProfile, [profile]: loaded(r, state.byProfile[profile]) } };
}

/** "Run probes" was clicked for `profile`. */
export function verifyStarted(state: PolicySlice, profile: string): PolicySlice {
  const next = loading(state.verify[profile]);
  return next === state.verify[profile] ? state : { ...state, verify: { ...state.verify, [profile]: next } };
}

/** `profiles:verify` answered (a save's own verify lands here too). */
export function verifyDone(state: PolicySlice, profile: string, r: Result<VerifyView>): PolicySlice {
  return { ...state, verify: { ...state.verify, [profile]: loaded(r, state.verify[profile]) } };
}
