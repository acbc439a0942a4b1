/**
 * The accepted table (docs/architecture.md flow (a) step 2 "Accept"): agents, compile
 * and the app run on the copy of the table the user accepted, `<state>/compiled/angelia.accepted.toml`
 * (mode 600, inside the state folder every profile is denied). The first run takes the table as it
 * stands; afterwards an edit made on disk (by hand, or by an agent that can write the workspace) waits
 * until `angelia accept` takes it, after a field-by-field diff. A table that does not load is never
 * accepted.
 *
 * The accepted copy keeps the table's text byte for byte; its relative paths resolve against the
 * table's own folder (as the table's would), not against `compiled/`.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { parse } from 'smol-toml';
import { AppFailure, toAppError, type AppError } from '../../../shared/result';
import { atomicWrite } from '../instance/atomic';
import type { InstancePaths } from '../instance/paths';
import { diffTables, type TableChange } from './diff';
import { parseTableText, resolveTable, type LoadedTable, type LoadOptions } from './load';

/** The paths this module reads and writes. */
export type AcceptPaths = Pick<InstancePaths, 'tableFile' | 'acceptedTable' | 'compiledDir'>;

/** The accepted table, loaded. */
export interface AcceptedTable {
  /** Resolved as if read from `paths.tableFile` (so `table.file` names the table the user edits). */
  table: LoadedTable;
  /** Absolute path of the accepted copy. */
  acceptedFile: string;
  /** True when this call created the accepted copy (first run: the table was taken as it stood). */
  created: boolean;
}

/** The table on disk compared with the accepted copy. */
export interface TableComparison {
  tableFile: string;
  acceptedFile: string;
  /** True when there is no accepted copy yet (everything in the table shows as added). */
  firstRun: boolean;
  /** True when the table on disk differs from the accepted copy, or does not load. */
  differs: boolean;
  /** Field-by-field changes (parsed values, not text). */
  changes: TableChange[];
  /** Why the table on disk cannot be accepted as it stands (file, field, fix), or null when it loads. */
  error: AppError | null;
}

/** Result of `acceptTable`. */
export interface AcceptResult {
  /** The table now accepted, resolved. */
  table: LoadedTable;
  /** What changed compared with the copy accepted before (everything, on the first run). */
  changes: TableChange[];
  /** False when the accepted copy already held exactly this text (nothing written). */
  written: boolean;
}

async function readText(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

async function readTable(file: string): Promise<string> {
  let text: string | null;
  try {
    text = await readText(file);
  } catch (e) {
    throw new AppFailure({
      code: 'table-unreadable',
      message: `the table cannot be read (${(e as NodeJS.ErrnoException).code ?? String(e)})`,
      where: file,
      fix: 'make the file readable by you',
    });
  }
  if (text === null)
    throw new AppFailure({
      code: 'table-missing',
      message: 'there is no table here',
      where: file,
      fix: 'run angelia init, or set ANGELIA_CONFIG to your table',
    });
  return text;
}

async function readAcceptedText(file: string): Promise<string | null> {
  try {
    return await readText(file);
  } catch (e) {
    throw new AppFailure({
      code: 'accepted-unreadable',
      message: `the accepted copy of the table cannot be read (${(e as NodeJS.ErrnoException).code ?? String(e)})`,
      where: file,
      fix: 'make it readable by you, or run angelia accept to take the table again',
    });
  }
}

/** Validates and resolves `text` as the table at `tableFile` (the full load: schema, paths, folders). */
async function resolveText(text: string, tableFile: string, options: LoadOptions): Promise<LoadedTable> {
  return resolveTable(parseTableText(text, tableFile), tableFile, options);
}

/** The accepted copy's text resolved as the table; AppFailure `accepted-invalid` (file, field, fix) when it no longer loads. */
async function resolveAccepted(accepted: string, paths: AcceptPaths, options: LoadOptions): Promise<LoadedTable> {
  try {
    return await resolveText(accepted, paths.tableFile, options);
  } catch (e) {
    const app = toAppError(e);
    throw new AppFailure({
      code: 'accepted-invalid',
      message: `the accepted copy of the table (${paths.acceptedTable}) no longer loads: ${app.message}`,
      where: app.where ?? paths.acceptedTable,
      fix: `${app.fix ?? 'correct the table'}; then run angelia accept`,
    });
  }
}

/** The data a diff compares: schema output when valid (defaults applied), raw TOML otherwise, or null. */
function diffData(text: string | null, file: string): { data: unknown; valid: boolean } {
  if (text === null) return { data: {}, valid: true };
  try {
    return { data: parseTableText(text, file), valid: true };
  } catch {
    try {
      return { data: parse(text), valid: false };
    } catch {
      return { data: null, valid: false };
    }
  }
}

/** Field-by-field changes from the accepted text to the table text (schema form when both validate). */
export function textChanges(acceptedText: string | null, tableText: string, tableFile: string): TableChange[] {
  const before = diffData(acceptedText, tableFile);
  const after = diffData(tableText, tableFile);
  if (after.data === null) return [];
  if (before.valid && after.valid) return diffTables(before.data, after.data);
  const rawBefore =
    acceptedText === null
      ? {}
      : (() => {
          try {
            return parse(acceptedText);
          } catch {
            return {};
          }
        })();
  return diffTables(rawBefore, after.data);
}

async function ensureCompiledDir(paths: AcceptPaths): Promise<void> {
  await mkdir(paths.compiledDir, { recursive: true, mode: 0o700 });
}

/**
 * Loads the accepted table. On the first run (no accepted copy) the table on disk is loaded in full and,
 * when it loads, copied to the accepted copy (atomic, mode 600). Throws AppFailure: the table's load
 * errors on the first run (`table-missing`, `table-syntax`, `table-invalid`, …, naming file and field);
 * `accepted-unreadable`; `accepted-invalid` when the accepted copy no longer loads (e.g. a profile
 * folder was removed), naming the field and the fix.
 */
export async function loadAccepted(paths: AcceptPaths, options: LoadOptions = {}): Promise<AcceptedTable> {
  const accepted = await readAcceptedText(paths.acceptedTable);
  if (accepted === null) {
    const text = await readTable(paths.tableFile);
    const table = await resolveText(text, paths.tableFile, options);
    await ensureCompiledDir(paths);
    await atomicWrite(paths.acceptedTable, text, { mode: 0o600 });
    return { table, acceptedFile: paths.acceptedTable, created: true };
  }
  return { table: await resolveAccepted(accepted, paths, options), acceptedFile: paths.acceptedTable, created: false };
}

/**
 * The accepted copy as it is on disk now, loaded, WITHOUT taking the table on the first run: null when
 * there is no accepted copy. For a running Angelia that follows `angelia accept` run elsewhere (the
 * orchestrator's watch of the copy). Throws AppFailure `accepted-unreadable`, or `accepted-invalid`
 * (as `loadAccepted`) when the copy no longer loads.
 */
export async function readAccepted(paths: AcceptPaths, options: LoadOptions = {}): Promise<LoadedTable | null> {
  const accepted = await readAcceptedText(paths.acceptedTable);
  if (accepted === null) return null;
  return resolveAccepted(accepted, paths, options);
}

/**
 * Compares the table on disk with the accepted copy. Writes nothing. `differs` is true when a parsed
 * field differs, when there is no accepted copy yet, or when the table on disk does not load (its
 * error is in `error`). A change to comments or layout alone does not count. Throws AppFailure only
 * when the accepted copy cannot be read (`accepted-unreadable`).
 */
export async function compareWithAccepted(paths: AcceptPaths, options: LoadOptions = {}): Promise<TableComparison> {
  const accepted = await readAcceptedText(paths.acceptedTable);
  const base = { tableFile: paths.tableFile, acceptedFile: paths.acceptedTable, firstRun: accepted === null };
  let text: string;
  try {
    text = await readTable(paths.tableFile);
  } catch (e) {
    return { ...base, differs: true, changes: [], error: toAppError(e) };
  }
  let error: AppError | null = null;
  try {
    await resolveText(text, paths.tableFile, options);
  } catch (e) {
    error = toAppError(e);
  }
  if (accepted !== null && accepted === text && error === null) return { ...base, differs: false, changes: [], error: null };
  const changes = textChanges(accepted, text, paths.tableFile);
  return { ...base, differs: accepted === null || error !== null || changes.length > 0, changes, error };
}

/** What `acceptTable` checks beyond the load. */
export interface AcceptChecks {
  /**
   * Runs on the loaded table before anything is written; a throw refuses it (nothing is accepted) and
   * is rethrown as is. `angelia accept` and the window pass compile's refusal here
   * (compile/configCheck.ts `refuseUncompilable`): a table compile refuses is never accepted.
   */
  vet?: (table: LoadedTable) => Promise<void> | void;
}

/**
 * Takes the table on disk as the accepted one: loads it in full (a table that does not load is never
 * accepted: the AppFailure names the file, the field and the fix), runs `checks.vet` on it, then copies
 * its exact text to the accepted copy atomically (mode 600), keeping the previous copy as
 * `angelia.accepted.toml.bak`.
 */
export async function acceptTable(paths: AcceptPaths, options: LoadOptions = {}, checks: AcceptChecks = {}): Promise<AcceptResult> {
  const text = await readTable(paths.tableFile);
  const table = await resolveText(text, paths.tableFile, options);
  await checks.vet?.(table);
  const accepted = await readAcceptedText(paths.acceptedTable);
  const changes = textChanges(accepted, text, paths.tableFile);
  if (accepted === text) return { table, changes: [], written: false };
  await ensureCompiledDir(paths);
  await atomicWrite(paths.acceptedTable, text, { mode: 0o600, backup: true });
  return { table, changes, written: true };
}

/**
 * The accepted table, refusing when the table on disk differs from it (the hook for
 * `angelia compile --write`, which must not go live with changes the user has not accepted). On the
 * first run the table is taken as it stands. Throws AppFailure `table-not-accepted` with the fix
 * `angelia accept`, or the errors of `loadAccepted`.
 */
export async function requireAccepted(paths: AcceptPaths, options: LoadOptions = {}): Promise<LoadedTable> {
  const loaded = await loadAccepted(paths, options);
  if (loaded.created) return loaded.table;
  const cmp = await compareWithAccepted(paths, options);
  if (!cmp.differs) return loaded.table;
  const n = cmp.changes.length;
  throw new AppFailure({
    code: 'table-not-accepted',
    message: cmp.error
      ? `the table on disk does not load (${cmp.error.message}), so it cannot be accepted`
      : `the table has ${n} change${n === 1 ? '' : 's'} not yet accepted`,
    where: paths.tableFile,
    fix: cmp.error ? `${cmp.error.fix ?? 'correct the table'}; then run angelia accept` : 'review them with angelia accept --check, then run angelia accept',
  });
}
