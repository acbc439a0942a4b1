/**
 * The preview of a draft (contract `profiles:preview`): the table as it WOULD be after the edit, loaded
 * with the real loader (schema, paths, folders, warnings) and described by the compiler
 * (policyView.ts), plus the editor's own checks (absolute or `~` paths, tableEdit.ts). Nothing is written.
 *
 * A new profile's folder may not exist yet (`profiles:create` makes it). With `allowMissingCwd`, such a
 * profile is loaded as if its folder were `/` — a folder with no `.env` or `secrets`, as a new empty
 * one — and then given its real path back; the warnings that depend on the folder are computed again
 * with the real path, and the plan shows `+ folder <cwd>`.
 */
import { stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { ProfilePreview, TableIssue } from '../../../shared/contract';
import { AppFailure, toAppError } from '../../../shared/result';
import { launchFacts } from '../launch/plan';
import { gatherFacts } from '../compile/gather';
import { expandPath, type InstancePaths } from '../instance/paths';
import { globProblem } from '../table/capabilities';
import { formatProblem, TableFailure, type TableProblem } from '../table/errors';
import { parseTableText, resolveTable, type LoadedTable } from '../table/load';
import type { RawTable } from '../table/schema';
import { tableWarnings } from '../table/warnings';
import { parseToml, type TomlObject } from './draft';
import { describeProfile, toIssue, type LaunchPolicy } from './policyView';
import type { DraftEdit } from './tableEdit';

/** Where a preview runs: the instance and the environment agents inherit. */
export interface PreviewContext {
  paths: InstancePaths;
  env: NodeJS.ProcessEnv;
}

/** A preview and what a save needs from it. */
export interface DraftPreview {
  preview: ProfilePreview;
  /** The table text after the edit (null when the edit itself could not be made). */
  newText: string | null;
  /** Compile conflicts of the profile (a save refuses while there is one). */
  conflicts: string[];
  /** True when the profile's folder does not exist yet (only with `allowMissingCwd`). */
  missingCwd: boolean;
}

/** One AppFailure as issues: a table failure's problems, else one issue at `at`. */
function failureIssues(e: unknown, at: string[]): TableIssue[] {
  if (e instanceof TableFailure) return e.problems.map(toIssue);
  const app = toAppError(e);
  return [{ path: at, message: app.message, fix: app.fix ?? 'correct the table' }];
}

async function missing(path: string): Promise<boolean> {
  return stat(path).then(
    () => false,
    (e: NodeJS.ErrnoException) => e.code === 'ENOENT',
  );
}

/** Loads `raw` as the table `file`, with profile `name`'s missing folder handled as the module comment says. */
async function loadWithFolder(raw: RawTable, file: string, ctx: PreviewContext, name: string, cwd: string | null): Promise<LoadedTable> {
  const options = { home: ctx.paths.home, env: ctx.env };
  if (cwd === null) return resolveTable(raw, file, options);
  const stand = { ...raw, profiles: { ...raw.profiles, [name]: { ...raw.profiles[name]!, cwd: '/' } } };
  const table = await resolveTable(stand, file, options);
  const standIn = new Set((await tableWarnings(table)).map(formatProblem));
  table.profiles[name] = { ...table.profiles[name]!, cwd };
  table.warnings = [...table.warnings.filter((w) => !standIn.has(formatProblem(w))), ...(await tableWarnings(table))];
  return table;
}

/** The description fields of a preview whose table does not load. */
function empty(): Pick<ProfilePreview, 'plan' | 'entries' | 'network' | 'codexArgs'> {
  return { plan: [], entries: [], network: { enabled: false, note: 'the table with this draft does not load' }, codexArgs: [] };
}

/**
 * Previews `edit` applied to the table `text` (the table file's current text). `previous` is the
 * profile's launch as accepted (its sandbox changes head the plan), null for a new profile. Never throws for a
 * problem of the draft or the table: those are `errors` (key path, message, fix) and `valid: false`.
 * Throws only on an unexpected failure (e.g. the user's Codex config cannot be read: `codex-config`).
 */
export async function previewDraft(
  text: string,
  edit: DraftEdit,
  ctx: PreviewContext,
  opts: { allowMissingCwd: boolean; previous?: LaunchPolicy | null },
): Promise<DraftPreview> {
  const file = ctx.paths.tableFile;
  const name = edit.draft.name;
  const base = { profile: name, warnings: [] as TableIssue[] };
  let newText: string;
  let before: TomlObject | null;
  // Loaded on first use: the table editor (and its TOML-preserving library, ~220 kB) is not needed to
  // run agents, so `angelia run` and `serve` do not load it at start (docs/benchmarks.md).
  const { draftPathProblems, editTableText, profileBefore } = await import('./tableEdit');
  try {
    before = profileBefore(parseToml(text, file), edit, file);
    newText = editTableText(text, edit, file);
  } catch (e) {
    const at =
      e instanceof AppFailure && e.app.code === 'profile-unknown'
        ? ['profiles', edit.original ?? name]
        : e instanceof AppFailure && e.app.code === 'table-syntax'
          ? []
          : ['profiles', name];
    return { preview: { ...base, ...empty(), valid: false, errors: failureIssues(e, at) }, newText: null, conflicts: [], missingCwd: false };
  }
  const errors: TableIssue[] = draftPathProblems(edit.draft, before).map(toIssue);
  const cwd = expandPath(edit.draft.cwd, ctx.paths.home, dirname(file));
  const cwdGlob: TableProblem | null = globProblem(cwd, ['profiles', name, 'cwd']);
  const missingCwd = opts.allowMissingCwd && edit.original === null && cwdGlob === null && (await missing(cwd));
  let table: LoadedTable;
  try {
    table = await loadWithFolder(parseTableText(newText, file), file, ctx, name, missingCwd ? cwd : null);
  } catch (e) {
    errors.push(...failureIssues(e, []));
    return { preview: { ...base, ...empty(), valid: false, errors }, newText, conflicts: [], missingCwd };
  }
  try {
    const d = await describeProfile(
      table,
      name,
      { plan: await gatherFacts(ctx.paths), launch: await launchFacts(ctx.paths) },
      { missingCwd, previous: opts.previous ?? null },
    );
    const warnings = missingCwd
      ? [{ path: ['profiles', name, 'cwd'], message: `${cwd} does not exist yet`, fix: 'creating the profile makes it (mode 700)' }, ...d.warnings]
      : d.warnings;
    return {
      preview: { profile: name, valid: errors.length === 0, errors, warnings, plan: d.plan, entries: d.entries, network: d.network, codexArgs: d.codexArgs },
      newText,
      conflicts: d.conflicts,
      missingCwd,
    };
  } catch (e) {
    if (!(e instanceof AppFailure) || e.app.code === 'codex-config') throw e;
    errors.push(...failureIssues(e, ['profiles', name]));
    return { preview: { ...base, ...empty(), warnings: table.warnings.map(toIssue), valid: false, errors }, newText, conflicts: [], missingCwd };
  }
}
