import { parseArgs } from 'node:util';
import type { CliCommand } from '../command';
import { AppFailure, toAppError } from '../../../shared/result';
import { resolveInstance } from '../../core/instance/paths';
import { acceptTable, compareWithAccepted, type TableComparison } from '../../core/table/accepted';
import { diffText, type TableChange } from '../../core/table/diff';
import { formatFailure, keyPath } from '../../core/table/errors';
import { loadTable, type LoadedTable } from '../../core/table/load';
import { refuseUncompilable } from '../../core/compile/configCheck';
import { gatherFacts } from '../../core/compile/gather';
import { compileCheck } from '../../core/compile/write';

const USAGE = 'usage: angelia accept [--check] [--json]\n';

/** A change as `--json` carries it: key path as text, kind, old and new values, and its text line(s). */
export function changeJson(c: TableChange): Record<string, unknown> {
  return {
    path: keyPath(c.path),
    change: c.kind,
    ...(c.before !== undefined ? { before: c.before } : {}),
    ...(c.after !== undefined ? { after: c.after } : {}),
    text: diffText([c]).join('\n'),
  };
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function checkText(cmp: TableComparison): string {
  const lines = [
    `table: ${cmp.tableFile}`,
    `accepted copy: ${cmp.acceptedFile}${cmp.firstRun ? ' (none yet: the first run takes the table as it stands)' : ''}`,
  ];
  if (cmp.changes.length > 0) lines.push(`${plural(cmp.changes.length, 'change')} not accepted yet:`, ...diffText(cmp.changes).map((l) => `  ${l}`));
  if (!cmp.differs) lines.push('no changes: agents run on this table');
  else if (!cmp.error) lines.push('run angelia accept to take it');
  return `${lines.join('\n')}\n`;
}

/**
 * What to compile after an accept: the compiled profiles whose files a compile would change now
 * (compile/write.ts `compileCheck`) and the profiles this change added, or that none needs it (a change
 * of `[defaults]` such as `warm_agents` changes no profile's files).
 */
async function compileAdvice(table: LoadedTable, paths: ReturnType<typeof resolveInstance>, changes: readonly TableChange[]): Promise<string> {
  const added = new Set(changes.filter((c) => c.kind === 'added' && c.path.length === 2 && c.path[0] === 'profiles').map((c) => String(c.path[1])));
  try {
    const differs = (await compileCheck(table, [], await gatherFacts(paths)))
      .filter((c) => c.status === 'differs' || (c.status === 'skipped' && added.has(c.profile)))
      .map((c) => c.profile);
    if (differs.length === 0) return 'no compiled profile needs compiling for this change';
    return `compile what this changes: angelia compile --write ${differs.join(' ')}`;
  } catch (e) {
    return `compile changed profiles with angelia compile --write <profile> (which ones could not be checked: ${toAppError(e).message})`;
  }
}

/**
 * `angelia accept [--check] [--json]` (docs/architecture.md flow (a) step 2): the field-by-field diff between
 * the table on disk and the accepted copy agents run on (`<state>/compiled/angelia.accepted.toml`).
 * - `--check`: writes nothing; exit 1 when they differ or the table does not load, 0 when equal.
 * - without `--check`: loads the table in full (a table that does not load is never accepted; the error
 *   names file, field and fix; exit 1), refuses it when compile would (a profile whose Codex launch
 *   cannot be built, e.g. an add_dir holding the state folder or CODEX_HOME: `table-compile-refused`,
 *   naming `<table>: profiles.<name>.<field>` and the fix; nothing accepted; exit 1), then takes it
 *   (atomic copy, mode 600, previous copy kept as `angelia.accepted.toml.bak`); exit 0. A running
 *   Angelia (the app, `angelia serve`) picks the new accepted copy up by itself.
 * - `--check` names compile's refusal too (`accept error: …`, `error` with `--json`).
 * `--json` prints one object `{"table","accepted","differs","changes":[{"path","change","before"?,
 * "after"?,"text"}],"taken","error"?}`. Exit 2 on bad usage.
 */
export const accept: CliCommand = {
  summary: 'show how the table differs from the accepted one, then accept it: accept [--check] [--json]',
  exits: {
    0: 'accepted, or nothing to accept (--check: no changes)',
    1: 'not accepted: the table does not load or compile refuses it (--check: the table differs, or does not load)',
    2: 'usage error',
  },
  async run(argv) {
    let check: boolean;
    let json: boolean;
    try {
      const { values } = parseArgs({ args: argv, options: { check: { type: 'boolean' }, json: { type: 'boolean' } }, strict: true, allowPositionals: false });
      check = values.check ?? false;
      json = values.json ?? false;
    } catch (e) {
      process.stderr.write(`accept: ${e instanceof Error ? e.message : String(e)}\n${USAGE}`);
      return 2;
    }
    const paths = resolveInstance(process.env);
    const out = (o: Record<string, unknown>): void =>
      void process.stdout.write(`${JSON.stringify({ table: paths.tableFile, accepted: paths.acceptedTable, ...o })}\n`);
    let cmp: TableComparison;
    try {
      cmp = await compareWithAccepted(paths, { home: paths.home });
    } catch (e) {
      if (json) out({ differs: true, changes: [], taken: false, error: toAppError(e) });
      else process.stderr.write(`accept error: ${formatFailure(e)}\n`);
      return 1;
    }
    // A table compile refuses is never accepted (compile/configCheck.ts `refuseUncompilable`).
    const vet = async (table: LoadedTable): Promise<void> => refuseUncompilable(table, await gatherFacts(paths));
    if (check) {
      let error = cmp.error;
      if (cmp.differs && !error) {
        error = await loadTable(paths.tableFile, { home: paths.home })
          .then(vet)
          .then(
            () => null,
            (e: unknown) => toAppError(e),
          );
      }
      if (json) out({ differs: cmp.differs, changes: cmp.changes.map(changeJson), taken: false, ...(error ? { error } : {}) });
      else {
        process.stdout.write(checkText({ ...cmp, error }));
        if (cmp.error) process.stderr.write(`the table does not load, so it cannot be accepted: ${formatFailure(new AppFailure(cmp.error))}\n`);
        else if (error) process.stderr.write(`accept error: ${formatFailure(new AppFailure(error))}\n`);
      }
      return cmp.differs ? 1 : 0;
    }
    try {
      const result = await acceptTable(paths, { home: paths.home }, { vet });
      if (json) out({ differs: cmp.differs, changes: result.changes.map(changeJson), taken: result.written });
      else if (!result.written) process.stdout.write(`no changes: ${paths.tableFile} is the accepted table\n`);
      else {
        const lines = [`accepted ${paths.tableFile}`];
        if (result.changes.length > 0) lines.push(`${plural(result.changes.length, 'change')}:`, ...diffText(result.changes).map((l) => `  ${l}`));
        for (const w of result.table.warnings) lines.push(`warning: ${w.message}${w.fix ? ` (fix: ${w.fix})` : ''}`);
        lines.push(`the previous copy is kept as ${paths.acceptedTable}.bak`, await compileAdvice(result.table, paths, result.changes));
        process.stdout.write(`${lines.join('\n')}\n`);
      }
      return 0;
    } catch (e) {
      if (json) out({ differs: cmp.differs, changes: cmp.changes.map(changeJson), taken: false, error: toAppError(e) });
      else {
        if (cmp.changes.length > 0) process.stdout.write(checkText({ ...cmp, error: toAppError(e) }));
        process.stderr.write(`accept error: the table was not accepted: ${formatFailure(e)}\n`);
      }
      return 1;
    }
  },
};
