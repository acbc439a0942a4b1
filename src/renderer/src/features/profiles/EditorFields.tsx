/**
 * Every field of a profile draft, in sections: the profile (name, folder), what it may do (mode, with
 * one plain sentence each; sandbox, in red when off), its folders (add_dirs; a relative one says where
 * it really is), the model and effort Codex offers ("default" named by what is really used and where
 * that comes from; only the efforts the model offers and the table accepts), capabilities, other
 * profiles, and the advanced fields. Each field shows its problems.
 */
import type { ReactElement, ReactNode } from 'react';
import type { ModelsView, ProfileDraft } from '../../../../shared/contract';
import { defaultEffortInForce, MODE_SENTENCE, modelInForce, MODES, NO_SANDBOX_WARNING, offeredEfforts, READ_DIRS_STARTER, relativeNote, type DraftField } from './draft';
import { Check, Chips, Field, FolderInput, FolderList, FolderNote, IssueLines, RefsInput, type ShownIssue } from './fields';
import { fieldLevel, type PlacedIssues } from './issues';

/** Sets one field of the draft. */
export type SetField = <K extends DraftField>(key: K, value: ProfileDraft[K]) => void;

interface Props {
  draft: ProfileDraft;
  issues: PlacedIssues;
  set: SetField;
  /** Other profiles' names (for accept_from / answer_from). */
  profiles: readonly string[];
  /** What `models:list` answered (models, Codex's config in force, the efforts the table accepts), or null. */
  catalog: ModelsView | null;
  /** The table's folder (relative paths resolve against it), or null while unknown. */
  tableDir: string | null;
  capabilityNames: readonly string[];
  pick?: () => Promise<string | null>;
  /** New profile: the fields past the first sections fold away. */
  isNew: boolean;
  /** Shown at the end of the first section (the new profile's starter CLAUDE.md choice). */
  profileExtra?: ReactNode;
  /** The add_dirs row to highlight (just added from an approval or a refused command). */
  justAdded?: string | null;
}

function Section({ title, children, folded = false, testid }: { title: string; children: ReactNode; folded?: boolean; testid: string }): ReactElement {
  if (folded) {
    return (
      <details className="editor-section" data-testid={testid}>
        <summary>
          <h3>{title}</h3> <span className="meta">(the defaults are safe)</span>
        </summary>
        {children}
      </details>
    );
  }
  return (
    <section className="editor-section" data-testid={testid}>
      <h3>{title}</h3>
      {children}
    </section>
  );
}

function ModeField({ draft, set, issues }: Pick<Props, 'draft' | 'set'> & { issues: ShownIssue[] }): ReactElement {
  return (
    <Field label="Permission mode" testid="field-permission_mode" issues={issues}>
      <div className="mode-options" role="radiogroup" aria-label="Permission mode">
        {MODES.map((m) => (
          <label key={m} className={`mode-option${draft.permission_mode === m ? ' chosen' : ''}`} data-testid="mode-option" data-mode={m}>
            <input type="radio" name="permission_mode" value={m} checked={draft.permission_mode === m} onChange={() => set('permission_mode', m)} />
            <span>
              <code>{m}</code> <span className="mode-sentence">{MODE_SENTENCE[m]}</span>
            </span>
          </label>
        ))}
      </div>
    </Field>
  );
}

function ModelFields({ draft, set, catalog, issues, onFix }: Pick<Props, 'draft' | 'set' | 'catalog' | 'issues'> & { onFix: (value: string, issue: ShownIssue) => void }): ReactElement {
  const models = catalog?.models ?? null;
  const byDefault = modelInForce({ model: null }, catalog);
  const current = modelInForce(draft, catalog);
  const efforts = catalog ? offeredEfforts(current?.info ?? null, catalog.tableEfforts) : [];
  const effortByDefault = defaultEffortInForce(draft, catalog);
  const configError = catalog?.codexConfig.error ?? null;
  return (
    <div className="field-pair">
      <Field
        label="Model"
        testid="field-model"
        htmlFor="f-model"
        issues={fieldLevel(issues.byField.model)}
        help={models === null ? 'The list of models could not be read yet; type a model id, or leave it empty for the default.' : draft.model === null && byDefault ? <InForce testid="model-in-force" value={byDefault.id} source={byDefault.source} error={configError} /> : undefined}
      >
        {models === null ? (
          <input id="f-model" type="text" className="text" data-testid="model-input" value={draft.model ?? ''} placeholder="default" onChange={(e) => set('model', e.target.value.trim() === '' ? null : e.target.value.trim())} />
        ) : (
          <select id="f-model" data-testid="model-select" value={draft.model ?? ''} onChange={(e) => set('model', e.target.value === '' ? null : e.target.value)}>
            <option value="">default{byDefault ? ` (${byDefault.id})` : ''}</option>
            {models.map((m) => (
              <option key={m.id} value={m.id}>
                {m.name}
              </option>
            ))}
            {draft.model !== null && !models.some((m) => m.id === draft.model) && <option value={draft.model}>{draft.model} (not offered)</option>}
          </select>
        )}
      </Field>
      <Field
        label="Effort"
        testid="field-effort"
        htmlFor="f-effort"
        issues={fieldLevel(issues.byField.effort)}
        onFix={onFix}
        help={draft.effort === null && effortByDefault ? <InForce testid="effort-in-force" value={effortByDefault.value} source={effortByDefault.source} error={configError} /> : undefined}
      >
        <select id="f-effort" data-testid="effort-select" value={draft.effort ?? ''} onChange={(e) => set('effort', e.target.value === '' ? null : e.target.value)}>
          <option value="">default{effortByDefault ? ` (${effortByDefault.value})` : ''}</option>
          {efforts.map((x) => (
            <option key={x} value={x}>
              {x}
            </option>
          ))}
          {draft.effort !== null && !efforts.includes(draft.effort) && <option value={draft.effort}>{draft.effort} (not offered)</option>}
        </select>
      </Field>
    </div>
  );
}

/** "Left at default, it uses X: <where that comes from>." (and why Codex's config is not in it, when it could not be read). */
function InForce({ value, source, error, testid }: { value: string; source: string; error: string | null; testid: string }): ReactElement {
  return (
    <span data-testid={testid}>
      Left at default, it uses <strong>{value}</strong>: {source}.{error ? ` (${error})` : ''}
    </span>
  );
}

/** The fields of the editor. */
export function EditorFields({ draft, issues, set, profiles, catalog, tableDir, capabilityNames, pick, isNew, profileExtra, justAdded = null }: Props): ReactElement {
  const fix = (field: DraftField) => (value: string, issue: ShownIssue) => {
    if (field === 'add_dirs' && typeof issue.index === 'number') set('add_dirs', draft.add_dirs.map((d, i) => (i === issue.index ? value : d)));
    else if (field === 'read_dirs' && typeof issue.index === 'number' && draft.read_dirs) set('read_dirs', draft.read_dirs.map((d, i) => (i === issue.index ? value : d)));
    else if (field === 'cwd') set('cwd', value);
    else if (field === 'bin') set('bin', value);
    else if (field === 'effort') set('effort', value);
  };
  const others = profiles.filter((p) => p !== draft.name);
  return (
    <div className="editor-fields">
      <Section title="Profile" testid="section-profile">
        <Field label="Name" testid="field-name" htmlFor="f-name" issues={fieldLevel(issues.byField.name)} help={isNew ? 'One word: letters, digits, _ and -.' : 'Renaming keeps its chats.'}>
          <input id="f-name" type="text" className="text" data-testid="name-input" value={draft.name} spellCheck={false} onChange={(e) => set('name', e.target.value)} />
        </Field>
        <Field label="Folder (cwd)" testid="field-cwd" htmlFor="f-cwd" issues={fieldLevel(issues.byField.cwd)} onFix={fix('cwd')} help="Where the agent works; it may write here. Absolute, ~/… for your home, or relative to the table's folder.">
          <FolderInput id="f-cwd" value={draft.cwd} onChange={(v) => set('cwd', v)} pick={pick} testid="cwd-input" bad={fieldLevel(issues.byField.cwd).some((i) => i.level === 'error')} />
          <FolderNote note={relativeNote(draft.cwd, tableDir)} />
        </Field>
        {profileExtra}
      </Section>

      <Section title="What it may do" testid="section-access">
        <ModeField draft={draft} set={set} issues={fieldLevel(issues.byField.permission_mode)} />
        <Check checked={draft.sandbox} onChange={(v) => set('sandbox', v)} testid="sandbox-check" label="Sandbox" help="Codex's own OS sandbox holds the agent to the permission table below.">
          {!draft.sandbox && (
            <div className="no-sandbox" data-testid="sandbox-warning" role="alert">
              <strong>No sandbox.</strong> This profile {NO_SANDBOX_WARNING} — your files, your keys, every project — with nothing to stop it.
            </div>
          )}
          <IssueLines issues={fieldLevel(issues.byField.sandbox)} />
        </Check>
      </Section>

      <Section title="Folders it may write (add_dirs)" testid="section-folders">
        <Field label="Extra folders" testid="field-add_dirs" issues={fieldLevel(issues.byField.add_dirs)} help="On top of its own folder. Absolute, ~/…, or relative to the table's folder.">
          <FolderList values={draft.add_dirs} onChange={(v) => set('add_dirs', v)} pick={pick} issues={issues.byField.add_dirs ?? []} onFix={fix('add_dirs')} testid="add-dirs" highlight={justAdded} noteOf={(v) => relativeNote(v, tableDir)} />
        </Field>
      </Section>

      <Section title="Folders it may read (read_dirs)" testid="section-read-folders">
        <Field label="Read-only folders" testid="field-read_dirs" issues={fieldLevel(issues.byField.read_dirs)} help="Nothing else of your home is readable: not your keys, histories or other tools' data. Absolute, ~/…, or relative to the table's folder.">
          {draft.read_dirs === null ? (
            <div data-testid="read-dirs-starter">
              <span className="meta">Left out: the toolchains in your home that exist ({READ_DIRS_STARTER.join(', ')}).</span>{' '}
              <button type="button" className="btn small" data-testid="read-dirs-name" onClick={() => set('read_dirs', [...READ_DIRS_STARTER])}>Name the folders</button>
            </div>
          ) : (
            <>
              <FolderList values={draft.read_dirs} onChange={(v) => set('read_dirs', v)} pick={pick} issues={issues.byField.read_dirs ?? []} onFix={fix('read_dirs')} testid="read-dirs" noteOf={(v) => relativeNote(v, tableDir)} />
              <button type="button" className="btn small" data-testid="read-dirs-starter-back" onClick={() => set('read_dirs', null)}>Leave it out (the toolchain starter set)</button>
            </>
          )}
        </Field>
      </Section>

      <Section title="Model" testid="section-model" folded={isNew}>
        <ModelFields draft={draft} set={set} catalog={catalog} issues={issues} onFix={fix('effort')} />
      </Section>

      <Section title="Capabilities" testid="section-capabilities" folded={isNew}>
        <Field label="Give" testid="field-capabilities" issues={fieldLevel(issues.byField.capabilities)} help="Capabilities on top of the defaults (names from [capabilities.…] in the table).">
          <Chips values={draft.capabilities} onChange={(v) => set('capabilities', v)} suggestions={capabilityNames} testid="capabilities" placeholder="none beyond the defaults" />
        </Field>
        <Field label="Except" testid="field-except" issues={fieldLevel(issues.byField.except)} help="Default capabilities this profile does not get.">
          <Chips values={draft.except} onChange={(v) => set('except', v)} suggestions={capabilityNames} testid="except" placeholder="none" />
        </Field>
        <Field label="Deny" testid="field-deny" issues={fieldLevel(issues.byField.deny)} help="Denied outright; beats everything.">
          <Chips values={draft.deny} onChange={(v) => set('deny', v)} suggestions={capabilityNames} testid="deny" placeholder="none beyond the defaults" />
        </Field>
      </Section>

      <Section title="Other profiles" testid="section-others" folded={isNew}>
        <Check checked={draft.isolated} onChange={(v) => set('isolated', v)} testid="isolated-check" label="Isolated" help="cannot message or be messaged by other profiles, and gets no _common/ folder." />
        <Field label="Takes tasks from (accept_from)" testid="field-accept_from" issues={fieldLevel(issues.byField.accept_from)} help="Who may give it a task with angelia turn.">
          <RefsInput value={draft.accept_from} onChange={(v) => set('accept_from', v)} profiles={others} testid="accept-from" />
        </Field>
        <Field label="Answers questions from (answer_from)" testid="field-answer_from" issues={fieldLevel(issues.byField.answer_from)} help="Who may ask it with angelia ask (answered in a read-only copy).">
          <RefsInput value={draft.answer_from} onChange={(v) => set('answer_from', v)} profiles={others} testid="answer-from" />
        </Field>
        <Check checked={draft.shared_write} onChange={(v) => set('shared_write', v)} testid="shared-write-check" label="May edit shared doctrine (shared_write)" help="write to the workspace's _shared/ and _capabilities/ (read-only otherwise)." />
      </Section>

      <Section title="Advanced" testid="section-advanced" folded={isNew}>
        <Check checked={draft.unsafe_ok} onChange={(v) => set('unsafe_ok', v)} testid="unsafe-ok-check" label="unsafe_ok" help="allows bypassPermissions on a folder that holds .env or secrets." />
        <Field label="Codex executable (bin)" testid="field-bin" htmlFor="f-bin" issues={fieldLevel(issues.byField.bin)} onFix={fix('bin')} help="Leave empty for the Codex Angelia ships with.">
          <input id="f-bin" type="text" className="text" data-testid="bin-input" value={draft.bin ?? ''} placeholder="the pinned @openai/codex" spellCheck={false} onChange={(e) => set('bin', e.target.value === '' ? null : e.target.value)} />
        </Field>
      </Section>
    </div>
  );
}

