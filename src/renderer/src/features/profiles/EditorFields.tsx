/**
 * Every field of a profile draft, rendered from the one list of a profile's fields
 * (src/shared/profileFields.ts): its sections in order, each field's widget picked by its kind, with
 * its label and help. A few have their own widget: the mode (one plain sentence each), the sandbox (in
 * red when off), `read_dirs` (left out: the starter set) and the model and effort Codex offers
 * ("default" named by what is really used and where that comes from; only the efforts the model offers
 * and the table accepts). Each field shows its problems; a relative folder says where it really is.
 */
import type { ReactElement, ReactNode } from 'react';
import type { ModelsView, ProfileDraft } from '../../../../shared/contract';
import { EDITOR_SECTIONS, fieldDefault, fieldSpec, type FieldKey } from '../../../../shared/profileFields';
import {
  defaultEffortInForce,
  MODE_SENTENCE,
  modelInForce,
  MODES,
  NO_SANDBOX_WARNING,
  offeredEfforts,
  READ_DIRS_STARTER,
  relativeNote,
  type DraftField,
} from './draft';
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

function ModelFields({
  draft,
  set,
  catalog,
  issues,
  onFix,
}: Pick<Props, 'draft' | 'set' | 'catalog' | 'issues'> & { onFix: (value: string, issue: ShownIssue) => void }): ReactElement {
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
        help={
          models === null ? (
            'The list of models could not be read yet; type a model id, or leave it empty for the default.'
          ) : draft.model === null && byDefault ? (
            <InForce testid="model-in-force" value={byDefault.id} source={byDefault.source} error={configError} />
          ) : undefined
        }
      >
        {models === null ? (
          <input
            id="f-model"
            type="text"
            className="text"
            data-testid="model-input"
            value={draft.model ?? ''}
            placeholder="default"
            onChange={(e) => set('model', e.target.value.trim() === '' ? null : e.target.value.trim())}
          />
        ) : (
          <select
            id="f-model"
            data-testid="model-select"
            value={draft.model ?? ''}
            onChange={(e) => set('model', e.target.value === '' ? null : e.target.value)}
          >
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
        help={
          draft.effort === null && effortByDefault ? (
            <InForce testid="effort-in-force" value={effortByDefault.value} source={effortByDefault.source} error={configError} />
          ) : undefined
        }
      >
        <select
          id="f-effort"
          data-testid="effort-select"
          value={draft.effort ?? ''}
          onChange={(e) => set('effort', e.target.value === '' ? null : e.target.value)}
        >
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

/** What a field's widget needs besides its key: the editor's props, the other profiles and the fix-it of a field. */
type FieldContext = Omit<Props, 'isNew' | 'profileExtra'> & {
  others: readonly string[];
  fix: (field: DraftField) => (value: string, issue: ShownIssue) => void;
};

/** A field's test id stem: `add_dirs` → `add-dirs` (`add-dirs-row`, `unsafe-ok-check`, `bin-input` …). */
const stem = (field: DraftField): string => field.replaceAll('_', '-');

/**
 * The widget of one table field, picked by its kind (src/shared/profileFields.ts): `path` a folder
 * field, `paths` a folder list, `names` chips, `refs` profile names or every profile, `enum` a choice,
 * `boolean` a checkbox, `text` and `number` an input. Label, help and placeholder come from the field.
 * The mode, the sandbox, `read_dirs` (its starter set) and the model with its effort have their own.
 */
function TableField({ field, ctx }: { field: FieldKey; ctx: FieldContext }): ReactElement | null {
  const { draft, issues, set, pick, tableDir } = ctx;
  const spec = fieldSpec(field);
  const setAny = (v: unknown): void => set(field, v as never);
  const own = issues.byField[field] ?? [];
  const level = fieldLevel(own);
  const id = `f-${stem(field)}`;
  const value = draft[field] as unknown;
  switch (field) {
    case 'permission_mode':
      return <ModeField draft={draft} set={set} issues={level} />;
    case 'sandbox':
      return (
        <Check checked={draft.sandbox} onChange={(v) => set('sandbox', v)} testid="sandbox-check" label={spec.label} help={spec.help}>
          {!draft.sandbox && (
            <div className="no-sandbox" data-testid="sandbox-warning" role="alert">
              <strong>No sandbox.</strong> This profile {NO_SANDBOX_WARNING} — your files, your keys, every project — with nothing to stop it.
            </div>
          )}
          <IssueLines issues={level} />
        </Check>
      );
    case 'read_dirs':
      return (
        <Field label={spec.label} testid="field-read_dirs" issues={level} help={spec.help}>
          {draft.read_dirs === null ? (
            <div data-testid="read-dirs-starter">
              <span className="meta">Left out: the toolchains in your home that exist ({READ_DIRS_STARTER.join(', ')}).</span>{' '}
              <button type="button" className="btn small" data-testid="read-dirs-name" onClick={() => set('read_dirs', [...READ_DIRS_STARTER])}>
                Name the folders
              </button>
            </div>
          ) : (
            <>
              <FolderList
                values={draft.read_dirs}
                onChange={(v) => set('read_dirs', v)}
                pick={pick}
                issues={own}
                onFix={ctx.fix('read_dirs')}
                testid="read-dirs"
                noteOf={(v) => relativeNote(v, tableDir)}
              />
              <button type="button" className="btn small" data-testid="read-dirs-starter-back" onClick={() => set('read_dirs', null)}>
                Leave it out (the toolchain starter set)
              </button>
            </>
          )}
        </Field>
      );
    case 'model':
      return <ModelFields draft={draft} set={set} catalog={ctx.catalog} issues={issues} onFix={ctx.fix('effort')} />;
    case 'effort':
      return null;
  }
  const field_ = (children: ReactNode, htmlFor?: string): ReactElement => (
    <Field label={spec.label} testid={`field-${field}`} htmlFor={htmlFor} issues={level} onFix={ctx.fix(field)} help={spec.help || undefined}>
      {children}
    </Field>
  );
  switch (spec.kind) {
    case 'boolean':
      return (
        <Check checked={value === true} onChange={setAny} testid={`${stem(field)}-check`} label={spec.label} help={spec.help}>
          <IssueLines issues={level} />
        </Check>
      );
    case 'path':
      return field_(
        <>
          <FolderInput
            id={id}
            value={String(value ?? '')}
            onChange={setAny}
            pick={pick}
            testid={`${stem(field)}-input`}
            bad={level.some((i) => i.level === 'error')}
          />
          <FolderNote note={relativeNote(String(value ?? ''), tableDir)} />
        </>,
        id,
      );
    case 'paths':
      return field_(
        <FolderList
          values={(value as string[] | null) ?? []}
          onChange={setAny}
          pick={pick}
          issues={own}
          onFix={ctx.fix(field)}
          testid={stem(field)}
          highlight={field === 'add_dirs' ? (ctx.justAdded ?? null) : null}
          noteOf={(v) => relativeNote(v, tableDir)}
        />,
      );
    case 'names':
      return field_(
        <Chips
          values={value as string[]}
          onChange={setAny}
          suggestions={spec.suggest === 'capabilities' ? ctx.capabilityNames : []}
          testid={stem(field)}
          placeholder={spec.placeholder ?? 'none'}
        />,
      );
    case 'refs':
      return field_(<RefsInput value={value as '*' | string[]} onChange={setAny} profiles={ctx.others} testid={stem(field)} />);
    case 'enum':
      return field_(
        <select
          id={id}
          data-testid={`${stem(field)}-select`}
          value={String(value ?? '')}
          onChange={(e) => setAny(e.target.value === '' ? null : e.target.value)}
        >
          {spec.optional && <option value="">default</option>}
          {(spec.options ?? []).map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>,
        id,
      );
    case 'number':
      return field_(
        <input
          id={id}
          type="number"
          className="text"
          data-testid={`${stem(field)}-input`}
          value={value === null ? '' : String(value)}
          placeholder={spec.placeholder}
          onChange={(e) => setAny(e.target.value === '' ? fieldDefault(field) : Number(e.target.value))}
        />,
        id,
      );
    case 'text':
      return field_(
        <input
          id={id}
          type="text"
          className="text"
          data-testid={`${stem(field)}-input`}
          value={String(value ?? '')}
          placeholder={spec.placeholder}
          spellCheck={false}
          onChange={(e) => setAny(e.target.value === '' && spec.optional ? null : e.target.value)}
        />,
        id,
      );
  }
}

/** The fields of the editor: its sections and their fields (src/shared/profileFields.ts EDITOR_SECTIONS), the name first. */
export function EditorFields({
  draft,
  issues,
  set,
  profiles,
  catalog,
  tableDir,
  capabilityNames,
  pick,
  isNew,
  profileExtra,
  justAdded = null,
}: Props): ReactElement {
  const fix = (field: DraftField) => (value: string, issue: ShownIssue) => {
    const current = draft[field] as unknown;
    if (!Array.isArray(current)) set(field, value as never);
    else if (typeof issue.index === 'number') set(field, current.map((d, i) => (i === issue.index ? value : d)) as never);
  };
  const ctx: FieldContext = {
    draft,
    issues,
    set,
    profiles,
    catalog,
    tableDir,
    capabilityNames,
    pick,
    justAdded,
    others: profiles.filter((p) => p !== draft.name),
    fix,
  };
  return (
    <div className="editor-fields">
      {EDITOR_SECTIONS.map((section, n) => (
        <Section key={section.id} title={section.title} testid={`section-${section.id}`} folded={isNew && section.foldedWhenNew}>
          {n === 0 && (
            <Field
              label="Name"
              testid="field-name"
              htmlFor="f-name"
              issues={fieldLevel(issues.byField.name)}
              help={isNew ? 'One word: letters, digits, _ and -.' : 'Renaming keeps its chats.'}
            >
              <input
                id="f-name"
                type="text"
                className="text"
                data-testid="name-input"
                value={draft.name}
                spellCheck={false}
                onChange={(e) => set('name', e.target.value)}
              />
            </Field>
          )}
          {section.fields.map((field) => (
            <TableField key={field} field={field} ctx={ctx} />
          ))}
          {n === 0 && profileExtra}
        </Section>
      ))}
    </div>
  );
}
