/**
 * The editor's field widgets: a labelled field with its problems underneath (errors red, warnings
 * amber, a "Use …" button where the editor can guess the fix), a folder field (typed; with a
 * "Choose…" button where the host has a folder picker), a folder list, name chips and a checkbox with
 * one line of help.
 */
import { useId, useState, type KeyboardEvent, type ReactElement, type ReactNode } from 'react';
import type { TableIssue } from '../../../../shared/contract';

/** A problem shown under a field: an error or a warning, and an optional one-click fix. */
export interface ShownIssue extends TableIssue {
  level: 'error' | 'warning';
  /** The value "Use …" puts in the field (or list row), or null. */
  fixValue?: string | null;
  /** The list row it names, or null for the whole field. */
  index?: number | null;
}

/** The problems of one field (or one row), each with its fix. */
export function IssueLines({ issues, onFix }: { issues: readonly ShownIssue[]; onFix?: (value: string, issue: ShownIssue) => void }): ReactElement | null {
  if (issues.length === 0) return null;
  return (
    <ul className="issues">
      {issues.map((i, n) => (
        <li key={`${i.path.join('.')}:${n}`} className={`issue issue-${i.level}`} data-testid={`field-${i.level}`} data-path={i.path.join('.')}>
          <span>{i.message}</span>
          {i.fix && <span className="issue-fix"> — {i.fix}</span>}
          {onFix && i.fixValue && (
            <button type="button" className="btn small fix-it" data-testid="fix-it" onClick={() => onFix(i.fixValue as string, i)}>
              Use {i.fixValue}
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}

/** A labelled field: the control, one line of help, and its problems. */
export function Field({
  label,
  help,
  issues = [],
  onFix,
  children,
  testid,
  htmlFor,
}: {
  label: ReactNode;
  help?: ReactNode;
  issues?: readonly ShownIssue[];
  onFix?: (value: string, issue: ShownIssue) => void;
  children: ReactNode;
  testid: string;
  htmlFor?: string;
}): ReactElement {
  const bad = issues.some((i) => i.level === 'error');
  return (
    <div className={`field${bad ? ' has-error' : ''}`} data-testid={testid}>
      <label className="field-label" htmlFor={htmlFor}>
        {label}
      </label>
      <div className="field-control">{children}</div>
      {help && <div className="field-help meta">{help}</div>}
      <IssueLines issues={issues} onFix={onFix} />
    </div>
  );
}

/** Where a relative folder really is (the table loader resolves it against the table's folder). */
export function FolderNote({ note }: { note: string | null }): ReactElement | null {
  if (!note) return null;
  return (
    <div className="meta folder-note" data-testid="folder-note">
      {note}
    </div>
  );
}

/** A folder typed as text (absolute, `~/…`, or relative to the table's folder), with "Choose…" when the host offers a folder picker. */
export function FolderInput({
  value,
  onChange,
  pick,
  id,
  testid,
  placeholder,
  bad,
}: {
  value: string;
  onChange: (v: string) => void;
  pick?: () => Promise<string | null>;
  id?: string;
  testid: string;
  placeholder?: string;
  bad?: boolean;
}): ReactElement {
  return (
    <div className="folder-input">
      <input
        id={id}
        type="text"
        className={`text${bad ? ' bad' : ''}`}
        data-testid={testid}
        value={value}
        spellCheck={false}
        autoComplete="off"
        placeholder={placeholder ?? '/absolute/path or ~/folder'}
        aria-invalid={bad || undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      {pick && (
        <button type="button" className="btn small" data-testid={`${testid}-pick`} onClick={() => void pick().then((p) => p && onChange(p))}>
          Choose…
        </button>
      )}
    </div>
  );
}

/**
 * A list of folders: each row editable and removable (with `noteOf` its note, e.g. where a relative
 * path really is), and a row to add one more. `highlight` marks a row just added.
 */
export function FolderList({
  values,
  onChange,
  pick,
  issues,
  onFix,
  testid,
  highlight = null,
  noteOf,
}: {
  values: readonly string[];
  onChange: (v: string[]) => void;
  pick?: () => Promise<string | null>;
  issues: readonly ShownIssue[];
  onFix: (value: string, issue: ShownIssue) => void;
  testid: string;
  highlight?: string | null;
  noteOf?: (value: string) => string | null;
}): ReactElement {
  const [adding, setAdding] = useState('');
  const add = (v: string): void => {
    if (v.trim() === '') return;
    onChange([...values, v]);
    setAdding('');
  };
  const onKey = (e: KeyboardEvent<HTMLInputElement>): void => {
    if (e.key === 'Enter') {
      e.preventDefault();
      add(adding);
    }
  };
  return (
    <div className="folder-list" data-testid={testid}>
      {values.map((v, i) => {
        const rowIssues = issues.filter((x) => x.index === i);
        return (
          <div key={i} className={`folder-row${v === highlight ? ' just-added' : ''}`} data-testid={`${testid}-row`} data-value={v}>
            <div className="folder-row-line">
              <FolderInput
                value={v}
                testid={`${testid}-input`}
                bad={rowIssues.some((x) => x.level === 'error')}
                onChange={(next) => onChange(values.map((x, n) => (n === i ? next : x)))}
              />
              <button
                type="button"
                className="btn small"
                data-testid={`${testid}-remove`}
                aria-label={`Remove ${v}`}
                onClick={() => onChange(values.filter((_, n) => n !== i))}
              >
                ×
              </button>
            </div>
            <FolderNote note={noteOf ? noteOf(v) : null} />
            <IssueLines issues={rowIssues} onFix={onFix} />
          </div>
        );
      })}
      <div className="folder-row-line folder-add">
        <div className="folder-input" onKeyDown={onKey}>
          <input
            type="text"
            className="text"
            data-testid={`${testid}-new`}
            value={adding}
            spellCheck={false}
            autoComplete="off"
            placeholder="add a folder: /absolute/path or ~/folder"
            onChange={(e) => setAdding(e.target.value)}
          />
          {pick && (
            <button type="button" className="btn small" data-testid={`${testid}-pick`} onClick={() => void pick().then((p) => p && add(p))}>
              Choose…
            </button>
          )}
        </div>
        <button type="button" className="btn small" data-testid={`${testid}-add`} disabled={adding.trim() === ''} onClick={() => add(adding)}>
          Add
        </button>
      </div>
    </div>
  );
}

/** Names as removable chips, with a field (Enter or comma adds) offering `suggestions`. */
export function Chips({
  values,
  onChange,
  suggestions = [],
  testid,
  placeholder,
}: {
  values: readonly string[];
  onChange: (v: string[]) => void;
  suggestions?: readonly string[];
  testid: string;
  placeholder: string;
}): ReactElement {
  const [typed, setTyped] = useState('');
  const listId = useId();
  const add = (raw: string): void => {
    const names = raw
      .split(/[,\s]+/)
      .map((s) => s.trim())
      .filter((s) => s !== '' && !values.includes(s));
    if (names.length > 0) onChange([...values, ...new Set(names)]);
    setTyped('');
  };
  const onKey = (e: KeyboardEvent<HTMLInputElement>): void => {
    if (e.key === 'Enter' || e.key === ',') {
      e.preventDefault();
      add(typed);
    } else if (e.key === 'Backspace' && typed === '' && values.length > 0) {
      onChange(values.slice(0, -1));
    }
  };
  const offered = suggestions.filter((s) => !values.includes(s));
  return (
    <div className="chips" data-testid={testid}>
      {values.map((v) => (
        <span key={v} className="chip" data-testid={`${testid}-chip`}>
          {v}
          <button type="button" className="chip-x" aria-label={`Remove ${v}`} onClick={() => onChange(values.filter((x) => x !== v))}>
            ×
          </button>
        </span>
      ))}
      <input
        type="text"
        className="chip-input"
        data-testid={`${testid}-input`}
        value={typed}
        list={offered.length > 0 ? listId : undefined}
        placeholder={values.length === 0 ? placeholder : ''}
        spellCheck={false}
        onChange={(e) => setTyped(e.target.value)}
        onKeyDown={onKey}
        onBlur={() => add(typed)}
      />
      {offered.length > 0 && (
        <datalist id={listId}>
          {offered.map((s) => (
            <option key={s} value={s} />
          ))}
        </datalist>
      )}
    </div>
  );
}

/** Profile names for `accept_from` / `answer_from`: every profile ("*"), or the ones named. */
export function RefsInput({
  value,
  onChange,
  profiles,
  testid,
}: {
  value: '*' | string[];
  onChange: (v: '*' | string[]) => void;
  profiles: readonly string[];
  testid: string;
}): ReactElement {
  const all = value === '*';
  return (
    <div className="refs" data-testid={testid}>
      <label className="check-inline">
        <input type="checkbox" checked={all} data-testid={`${testid}-all`} onChange={(e) => onChange(e.target.checked ? '*' : [])} /> every profile
      </label>
      {!all && <Chips values={value} onChange={onChange} suggestions={profiles} testid={`${testid}-names`} placeholder="no profile (type a name)" />}
    </div>
  );
}

/** A checkbox with its label and one line of help. */
export function Check({
  checked,
  onChange,
  label,
  help,
  testid,
  children,
}: {
  checked: boolean;
  onChange: (v: boolean) => void;
  label: ReactNode;
  help: ReactNode;
  testid: string;
  children?: ReactNode;
}): ReactElement {
  return (
    <div className="field check-field">
      <label className="check-label">
        <input type="checkbox" data-testid={testid} checked={checked} onChange={(e) => onChange(e.target.checked)} />
        <span>
          <strong>{label}</strong>
          <span className="meta check-help"> — {help}</span>
        </span>
      </label>
      {children}
    </div>
  );
}
