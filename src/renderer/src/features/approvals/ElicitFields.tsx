/**
 * The fields of an MCP elicitation form (src/shared/questions.ts `ElicitField`), one widget per kind: a
 * text input (email, address and date hints), a number input checked by elicitForm.ts (so a half-typed
 * number keeps its text and gets a message, not a silent blank), a checkbox, a single choice (radio
 * buttons, a list when there are many), several choices (checkboxes). Required fields are marked with
 * "*". Every text of the schema (title, description, choice labels) is rendered as text: nothing of it
 * is ever HTML.
 */
import type { ReactElement } from 'react';
import type { ElicitField } from '../../../../shared/contract';
import { setValue, toggleChoice, valueOf, type FormDraft } from '../../store/answerDrafts';
import { fieldHint, fieldLabel, inputType } from './elicitForm';
import { Untrusted } from './Untrusted';

/** More choices than this show as a list instead of radio buttons. */
const MAX_RADIOS = 5;

/** The form's fields; `problems` are shown under their field, `onDraft` gets each change. */
export function ElicitFields({
  cardId,
  fields,
  draft,
  problems,
  disabled,
  onDraft,
}: {
  cardId: string;
  fields: readonly ElicitField[];
  draft: FormDraft;
  problems: Record<string, string>;
  disabled: boolean;
  onDraft: (next: FormDraft) => void;
}): ReactElement {
  return (
    <div className="elicit-fields" data-testid="elicit-fields">
      {fields.some((f) => f.required) && <div className="meta">* required</div>}
      {fields.map((f) => (
        <Field key={f.name} id={`${cardId}:${f.name}`} f={f} draft={draft} problem={problems[f.name] ?? null} disabled={disabled} onDraft={onDraft} />
      ))}
    </div>
  );
}

function Field({
  id,
  f,
  draft,
  problem,
  disabled,
  onDraft,
}: {
  id: string;
  f: ElicitField;
  draft: FormDraft;
  problem: string | null;
  disabled: boolean;
  onDraft: (next: FormDraft) => void;
}): ReactElement {
  const value = valueOf(draft, f);
  const hint = fieldHint(f);
  const problemId = `${id}:problem`;
  const aria = { 'aria-invalid': problem ? true : undefined, 'aria-describedby': problem ? problemId : undefined, 'aria-required': f.required || undefined };
  const label = (
    <>
      {fieldLabel(f)}
      {f.required && (
        <span className="required" aria-hidden="true">
          {' '}
          *
        </span>
      )}
    </>
  );
  let widget: ReactElement;
  if (f.type === 'boolean') {
    widget = (
      <label className="elicit-check">
        <input
          type="checkbox"
          id={id}
          checked={value === true}
          disabled={disabled}
          onChange={(e) => onDraft(setValue(draft, f.name, e.target.checked))}
          {...aria}
        />
        <span>{label}</span>
      </label>
    );
  } else if (f.type === 'enum' && f.multiple) {
    const chosen = Array.isArray(value) ? value : [];
    widget = (
      <div className="elicit-choices" role="group" aria-labelledby={`${id}:label`} {...aria}>
        {(f.choices ?? []).map((c) => (
          <label key={c.value} className="elicit-check">
            <input type="checkbox" checked={chosen.includes(c.value)} disabled={disabled} onChange={() => onDraft(toggleChoice(draft, f, c.value))} />
            <span>{c.label}</span>
          </label>
        ))}
      </div>
    );
  } else if (f.type === 'enum' && (f.choices ?? []).length <= MAX_RADIOS) {
    widget = (
      <div className="elicit-choices" role="radiogroup" aria-labelledby={`${id}:label`} {...aria}>
        {(f.choices ?? []).map((c) => (
          <label key={c.value} className="elicit-check">
            <input type="radio" name={id} checked={value === c.value} disabled={disabled} onChange={() => onDraft(setValue(draft, f.name, c.value))} />
            <span>{c.label}</span>
          </label>
        ))}
      </div>
    );
  } else if (f.type === 'enum') {
    widget = (
      <select
        id={id}
        value={typeof value === 'string' ? value : ''}
        disabled={disabled}
        onChange={(e) => onDraft(setValue(draft, f.name, e.target.value))}
        {...aria}
      >
        <option value="">Choose…</option>
        {(f.choices ?? []).map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </select>
    );
  } else {
    const numeric = f.type === 'number' || f.type === 'integer';
    widget = (
      <input
        id={id}
        type={inputType(f)}
        inputMode={f.type === 'integer' ? 'numeric' : f.type === 'number' ? 'decimal' : undefined}
        className="elicit-input"
        data-testid="elicit-input"
        data-field={f.name}
        value={typeof value === 'string' ? value : ''}
        disabled={disabled}
        autoComplete="off"
        placeholder={f.format === 'date-time' ? '2025-01-31T09:00:00Z' : numeric ? '0' : undefined}
        onChange={(e) => onDraft(setValue(draft, f.name, e.target.value))}
        {...aria}
      />
    );
  }
  return (
    <div className="elicit-field" data-testid="elicit-field" data-field={f.name} data-invalid={problem ? true : undefined}>
      {f.type !== 'boolean' && (
        <label
          className="elicit-label"
          id={`${id}:label`}
          htmlFor={f.type === 'enum' && (f.multiple || (f.choices ?? []).length <= MAX_RADIOS) ? undefined : id}
        >
          {label}
        </label>
      )}
      {widget}
      {f.description && (
        <div className="elicit-description">
          <Untrusted text={f.description} />
        </div>
      )}
      {hint && <div className="meta elicit-hint">{hint}</div>}
      {problem && (
        <div className="elicit-problem" id={problemId} data-testid="elicit-problem" data-field={f.name} role="alert">
          {problem}
        </div>
      )}
    </div>
  );
}
