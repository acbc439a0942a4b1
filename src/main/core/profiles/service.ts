/**
 * The core behind the profile editor, the policy inspector and "the table changed" (README "The desktop
 * app"; docs/architecture.md flow (a) step 2). One instance per orchestrator; every method reads the disk
 * afresh (the table file, the accepted copy), so nothing here goes stale.
 *
 * A save by the owner in Angelia's editor IS the acceptance (README "The desktop app"): the table is
 * edited in place (tableEdit.ts), written atomically with `<table>.bak`, accepted (table/accepted.ts
 * `acceptTable`), compiled for that profile exactly as `angelia compile --write <profile>` does
 * (`requireAccepted` + `gatherFacts` + `compileWrite`), then verified (`verifyProfile`, the probes of
 * `angelia verify`). A save is refused, with nothing written, while the table on disk holds changes made
 * elsewhere that are not accepted yet: saving would accept them unseen.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { PolicyView, ProfileDraft, ProfilePreview, SaveResult, TableChangesView, VerifyView } from '../../../shared/contract';
import { AppFailure, toAppError } from '../../../shared/result';
import { launchFacts } from '../launch/plan';
import { CLAUDE_MD } from '../compile/claudeMd';
import { compileCodexLaunch } from '../compile/codexProfile';
import { refuseUncompilable } from '../compile/configCheck';
import { gatherFacts } from '../compile/gather';
import { compileWrite } from '../compile/write';
import { expandPath } from '../instance/paths';
import { acceptTable, compareWithAccepted, loadAccepted, requireAccepted, type TableComparison } from '../table/accepted';
import { keyPath } from '../table/errors';
import type { LoadedTable } from '../table/load';
import { verifyProfile, type VerifyReport } from '../verify/run';
import { draftFromRaw, rawProfile } from './draft';
import { describeProfile, type LaunchPolicy } from './policyView';
import { previewDraft, type DraftPreview, type PreviewContext } from './preview';

/** The attestation of a profile's newest thread start (Chat.attestation()), or null before any. */
export interface Attestation {
  codexVersion: string | null;
  enforcement: PolicyView['enforcement'];
  at: string;
}

/** Called once the new table is accepted and compiled, before the (slow) verify of a save. */
export type OnAccepted = (table: LoadedTable) => void;

/** An issue's key path as the table spells it (`profiles.coder.add_dirs[0]`): list indexes sit below a name and a field. */
export function issuePath(path: readonly string[]): string {
  return keyPath(path.map((seg, i) => (i >= 2 && /^\d+$/.test(seg) ? Number(seg) : seg)));
}

/** The comparison as the contract's TableChangesView. */
export function changesView(cmp: TableComparison): TableChangesView {
  return {
    tableFile: cmp.tableFile,
    differs: cmp.differs,
    changes: cmp.changes.map((c) => ({
      path: c.path,
      kind: c.kind,
      ...(c.before !== undefined ? { before: c.before } : {}),
      ...(c.after !== undefined ? { after: c.after } : {}),
    })),
    error: cmp.error ? { message: cmp.error.message, where: cmp.error.where ?? null, fix: cmp.error.fix ?? null } : null,
  };
}

/** A verify report as the contract's VerifyView. */
export function verifyView(r: VerifyReport): VerifyView {
  return { profile: r.profile, codexVersion: r.codexVersion, probes: r.probes.map((p) => ({ ...p })), pass: r.pass };
}

/**
 * The short CLAUDE.md a new profile may start with: its name and what its sandbox allows (compile adds
 * the managed block below it).
 */
export function starterClaudeMd(draft: ProfileDraft): string {
  const dirs = draft.add_dirs.length > 0 ? `, and ${draft.add_dirs.join(', ')}` : '';
  const allows = !draft.sandbox
    ? 'This profile runs WITHOUT a sandbox (sandbox = false): commands reach everything your user can.'
    : draft.permission_mode === 'plan'
      ? "Codex's sandbox lets you read (plan mode: you write nowhere); Angelia's state, credentials and other profiles' folders are denied."
      : `Codex's sandbox lets you write this folder${dirs}; Angelia's state, credentials and other profiles' folders are denied. Ask for one exact folder when you need more.`;
  return `# ${draft.name}\n\nYou are the agent of the Angelia profile "${draft.name}"; this folder is your home.\n${allows}\n`;
}

/**
 * The editor's and inspector's operations over one instance (`ctx.paths`, agents' environment `ctx.env`).
 * Stateless: each call reads the table file and the accepted copy again. Errors are AppFailures that name
 * the file, the field and the fix.
 */
export class ProfileService {
  constructor(private readonly ctx: PreviewContext) {}

  private get file(): string {
    return this.ctx.paths.tableFile;
  }

  private get loadOptions(): { home: string; env: NodeJS.ProcessEnv } {
    return { home: this.ctx.paths.home, env: this.ctx.env };
  }

  /** The table file's text. Throws AppFailure `table-missing` / `table-unreadable`. */
  private async tableText(): Promise<string> {
    try {
      return await readFile(this.file, 'utf8');
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT')
        throw new AppFailure({
          code: 'table-missing',
          message: 'there is no table here',
          where: this.file,
          fix: 'run angelia init, or set ANGELIA_CONFIG to your table',
        });
      throw new AppFailure({
        code: 'table-unreadable',
        message: `the table cannot be read (${code ?? String(e)})`,
        where: this.file,
        fix: 'make the file readable by you',
      });
    }
  }

  /** Profile `name` as written in the table file (`profiles:get`). Throws AppFailure `table-syntax`, `profile-unknown`, `table-missing`. */
  async getDraft(name: string): Promise<ProfileDraft> {
    return draftFromRaw(name, rawProfile(await this.tableText(), name, this.file));
  }

  /** Changes on disk not accepted yet, as a warning (null when there are none). */
  private async pendingIssue(): Promise<ProfilePreview['warnings'][number] | null> {
    const cmp = await compareWithAccepted(this.ctx.paths, this.loadOptions);
    if (!cmp.differs || cmp.firstRun) return null;
    const what = cmp.error ? `does not load (${cmp.error.message})` : `has ${cmp.changes.length} change(s) made outside the editor that are not accepted yet`;
    return {
      path: [],
      message: `the table on disk ${what}; saving is refused until they are reviewed`,
      fix: 'open "the table changed": accept or discard them, then save',
    };
  }

  /**
   * What saving `draft` would do (`profiles:preview`; `original` = the profile's name before the edit,
   * null for a new one, whose folder may not exist yet). Writes nothing. Problems are values (`errors`,
   * `warnings`); throws only when the table file cannot be read or the user's Codex config is broken.
   */
  async preview(draft: ProfileDraft, original: string | null): Promise<ProfilePreview> {
    const r = await previewDraft(await this.tableText(), { draft, original }, this.ctx, {
      allowMissingCwd: original === null,
      previous: await this.acceptedLaunch(original),
    });
    const pending = await this.pendingIssue();
    return pending ? { ...r.preview, warnings: [pending, ...r.preview.warnings] } : r.preview;
  }

  /** The launch of profile `name` in the accepted table, or null (a new profile, or no accepted table that loads). */
  private async acceptedLaunch(name: string | null): Promise<LaunchPolicy | null> {
    if (name === null) return null;
    try {
      const { table } = await loadAccepted(this.ctx.paths, this.loadOptions);
      return Object.hasOwn(table.profiles, name) ? compileCodexLaunch(table, name, await launchFacts(this.ctx.paths)) : null;
    } catch {
      return null;
    }
  }

  /** The checks every write runs first; returns the preview and the text it was made from. Throws AppFailure; writes nothing. */
  private async checked(draft: ProfileDraft, original: string | null, allowMissingCwd: boolean): Promise<{ r: DraftPreview; text: string }> {
    const pending = await this.pendingIssue();
    if (pending) throw new AppFailure({ code: 'table-not-accepted', message: `nothing was saved: ${pending.message}`, where: this.file, fix: pending.fix });
    const text = await this.tableText();
    const r = await previewDraft(text, { draft, original }, this.ctx, { allowMissingCwd, previous: await this.acceptedLaunch(original) });
    const [first, ...rest] = r.preview.errors;
    if (first) {
      const others =
        rest.length > 0
          ? `; and ${rest.length} more (${rest
              .slice(0, 3)
              .map((i) => issuePath(i.path))
              .join(', ')})`
          : '';
      throw new AppFailure({
        code: 'profile-invalid',
        message: `nothing was saved: ${issuePath(first.path)}: ${first.message}${others}`,
        where: `${this.file}: ${issuePath(first.path)}`,
        fix: first.fix,
      });
    }
    if (r.conflicts.length > 0) {
      throw new AppFailure({
        code: 'compile-conflict',
        message: `nothing was saved: compile of ${draft.name} would refuse: ${r.conflicts.slice(0, 3).join('; ')}`,
        where: `${this.file}: profiles.${draft.name}`,
        fix: 'resolve each CONFLICT line of the plan (they are never fixed automatically), then save again',
      });
    }
    return { r, text };
  }

  /**
   * Saves `draft` (`profiles:save`): edit in place, write with a backup, accept, compile, verify (see the
   * module comment). `onAccepted` runs once the table is accepted and compiled. Throws AppFailure with
   * nothing written: `table-not-accepted` (changes elsewhere wait for review), `profile-invalid` (names
   * `profiles.<name>.<field>` and the fix), `compile-conflict`, `table-changed` (the file changed while
   * saving), `profile-unknown`, `profile-exists`, `table-edit`. After the write: compile's errors, with
   * the message saying the table was saved and accepted. A verify that cannot run gives `verify: null`.
   */
  async save(draft: ProfileDraft, original: string | null, onAccepted?: OnAccepted): Promise<SaveResult> {
    const { r, text } = await this.checked(draft, original, false);
    if ((await this.tableText()) !== text) {
      throw new AppFailure({
        code: 'table-changed',
        message: 'nothing was saved: the table changed on disk while saving',
        where: this.file,
        fix: 'look at the table again, then save',
      });
    }
    // tableEdit (and its TOML library) is loaded on first use, not at start (docs/benchmarks.md).
    const backupFile = r.newText !== null && r.newText !== text ? await (await import('./tableEdit')).writeTableText(this.file, r.newText) : null;
    const accepted = await acceptTable(this.ctx.paths, this.loadOptions);
    try {
      await compileWrite(await requireAccepted(this.ctx.paths, this.loadOptions), [draft.name], await gatherFacts(this.ctx.paths));
    } catch (e) {
      const app = toAppError(e);
      throw new AppFailure({ ...app, message: `the table was saved and accepted, but compile of ${draft.name} failed: ${app.message}` });
    } finally {
      onAccepted?.(accepted.table);
    }
    const verify: VerifyView | null = await verifyProfile({ paths: this.ctx.paths, env: this.ctx.env, profile: draft.name }).then(verifyView, () => null);
    return { profile: draft.name, tableFile: this.file, backupFile, preview: r.preview, verify };
  }

  /**
   * Creates a profile (`profiles:create`): checks the draft as a save would (nothing is made when it is
   * invalid), makes its folder when missing (mode 700, parents too), writes a starter CLAUDE.md when
   * asked and none exists (mode 644, `starterClaudeMd`), then saves it like `save(draft, null)`.
   * Throws as `save` does, or the fs error of mkdir.
   */
  async create(draft: ProfileDraft, starter: boolean, onAccepted?: OnAccepted): Promise<SaveResult> {
    const { r } = await this.checked(draft, null, true);
    const cwd = expandPath(draft.cwd, this.ctx.paths.home, dirname(this.file));
    if (r.missingCwd) await mkdir(cwd, { recursive: true, mode: 0o700 });
    if (starter) {
      await writeFile(join(cwd, CLAUDE_MD), starterClaudeMd(draft), { mode: 0o644, flag: 'wx' }).catch((e: NodeJS.ErrnoException) => {
        if (e.code !== 'EEXIST') throw e;
      });
    }
    return this.save(draft, null, onAccepted);
  }

  /**
   * The policy inspector (`profiles:policy`): the ACCEPTED table's description of profile `name` (plan
   * against the disk now, entries, network, argv, warnings) and the attestation of its newest thread
   * start. Throws AppFailure from `loadAccepted` or `profile-unknown`.
   */
  async policy(name: string, attestation: Attestation | null): Promise<PolicyView> {
    const { table } = await loadAccepted(this.ctx.paths, this.loadOptions);
    const d = await describeProfile(table, name, { plan: await gatherFacts(this.ctx.paths), launch: await launchFacts(this.ctx.paths) });
    return {
      profile: name,
      valid: true,
      errors: [],
      warnings: d.warnings,
      plan: d.plan,
      entries: d.entries,
      network: d.network,
      codexArgs: d.codexArgs,
      attestedCodexVersion: attestation?.codexVersion ?? null,
      attestedAt: attestation?.at ?? null,
      enforcement: attestation?.enforcement ?? null,
    };
  }

  /** `angelia verify <name>` on the accepted table (`profiles:verify`). Throws AppFailure as `verifyProfile`. */
  async verify(name: string): Promise<VerifyView> {
    return verifyView(await verifyProfile({ paths: this.ctx.paths, env: this.ctx.env, profile: name }));
  }

  /** The table on disk against the accepted copy (`table:changes`). Writes nothing. */
  async tableChanges(): Promise<TableChangesView> {
    return changesView(await compareWithAccepted(this.ctx.paths, this.loadOptions));
  }

  /**
   * Accepts the table on disk (`table:accept`, as `angelia accept`). Returns the new comparison and the
   * accepted table. Throws the table's load errors, or `table-compile-refused` when compile would refuse
   * it (compile/configCheck.ts `refuseUncompilable`); it is never accepted then.
   */
  async accept(): Promise<{ view: TableChangesView; table: LoadedTable }> {
    const { table } = await acceptTable(this.ctx.paths, this.loadOptions, { vet: async (t) => refuseUncompilable(t, await gatherFacts(this.ctx.paths)) });
    return { view: await this.tableChanges(), table };
  }

  /**
   * Puts the accepted text back in the table file (`table:discard`), atomically, keeping the discarded
   * text as `<table>.bak`. Returns the new comparison. Throws AppFailure `accepted-missing` when there is
   * no accepted copy, or the fs error.
   */
  async discard(): Promise<TableChangesView> {
    let accepted: string;
    try {
      accepted = await readFile(this.ctx.paths.acceptedTable, 'utf8');
    } catch (e) {
      throw new AppFailure({
        code: 'accepted-missing',
        message: `there is no accepted copy of the table to go back to (${(e as NodeJS.ErrnoException).code ?? String(e)})`,
        where: this.ctx.paths.acceptedTable,
        fix: 'accept the table as it is, or correct it by hand',
      });
    }
    const current = await readFile(this.file, 'utf8').catch(() => null);
    if (current !== accepted) await (await import('./tableEdit')).writeTableText(this.file, accepted);
    return this.tableChanges();
  }
}
