/**
 * Table slice: whether the table on disk differs from the accepted one Angelia runs on (from the
 * `table:changed` event and `table:changes`), the field diff once loaded, and an Accept / Discard in
 * flight. Pure transitions; each returns the same object when nothing changed.
 */
import type { PayloadOf, TableChangesView } from '../../../shared/contract';
import type { AppError, Result } from '../../../shared/result';
import { equal } from './equal';

/** The table on disk against the accepted one. */
export interface TableSlice {
  /** A review waits (the banner shows). */
  differs: boolean;
  /** How many field changes wait. */
  count: number;
  /** The field diff as `table:changes` last answered (null before the first load). */
  view: TableChangesView | null;
  /** An Accept or Discard in flight. */
  busy: 'accept' | 'discard' | null;
  /** Why the last load, Accept or Discard failed; null when it did not. */
  error: AppError | null;
}

/** Nothing known yet. */
export const initialTable: TableSlice = { differs: false, count: 0, view: null, busy: null, error: null };

/** `table:changed`: the counts the banner shows. A stale diff is kept until it is reloaded. */
export function tableChanged(state: TableSlice, e: PayloadOf<'table:changed'>): TableSlice {
  if (state.differs === e.differs && state.count === e.changes) return state;
  return { ...state, differs: e.differs, count: e.changes };
}

/** `table:changes` answered (on connect, or when the review opens). */
export function tableLoaded(state: TableSlice, r: Result<TableChangesView>): TableSlice {
  if (!r.ok) return equal(state.error, r.error) ? state : { ...state, error: r.error };
  const next: TableSlice = { ...state, differs: r.value.differs, count: r.value.changes.length, view: r.value, error: null };
  return equal(next, state) ? state : next;
}

/** An Accept or Discard was clicked. */
export function tableActing(state: TableSlice, which: 'accept' | 'discard'): TableSlice {
  return state.busy === which ? state : { ...state, busy: which, error: null };
}

/** The answer to `table:accept` / `table:discard`: the new comparison, or why it failed. */
export function tableActed(state: TableSlice, r: Result<TableChangesView>): TableSlice {
  return tableLoaded({ ...state, busy: null }, r);
}
