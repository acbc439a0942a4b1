/**
 * What a person has picked, typed or checked on an open question or elicitation card, before it is
 * sent (the answers' shapes: src/shared/questions.ts), as pure transitions: a question's chosen option
 * or free text (`QuestionDraft`), and an elicitation form's values, the fields changed and whether an
 * Accept was tried (`FormDraft`). The approvals slice (approvals.ts) keeps them by approval id, so a
 * half-filled card survives switching chats, and drops them once the request is settled. A secret
 * question's entry is never put in the store (`withoutSecrets`): its card holds it, as the sign-in
 * screen holds an API key. Each transition returns the same object when nothing changed.
 */
import type { ElicitField, QuestionView } from '../../../shared/contract';

/** The "Other" choice of a question with options and `isOther`: its answer is the typed text. */
export const OTHER = '\u0000other';

/** What is picked or typed for one question: the chosen option label (or `OTHER`), and the free text. */
export interface QuestionEntry {
  choice: string | null;
  text: string;
}

/** Every question's entry, by question id (absent: nothing picked or typed yet). */
export type QuestionDraft = Readonly<Record<string, QuestionEntry>>;

const EMPTY: QuestionEntry = { choice: null, text: '' };

/** The entry of question `id` (empty when nothing was picked or typed). */
export function entryOf(draft: QuestionDraft, id: string): QuestionEntry {
  return draft[id] ?? EMPTY;
}

/** `draft` with option `label` (or `OTHER`) chosen for question `id`; the typed text is kept. */
export function pickChoice(draft: QuestionDraft, id: string, label: string): QuestionDraft {
  const old = entryOf(draft, id);
  return old.choice === label ? draft : { ...draft, [id]: { ...old, choice: label } };
}

/**
 * `draft` with `text` typed as the free answer of question `q`. For a question with options, typing
 * chooses "Other" (the field is the Other choice's).
 */
export function typeText(draft: QuestionDraft, q: Pick<QuestionView, 'id' | 'options'>, text: string): QuestionDraft {
  const old = entryOf(draft, q.id);
  const choice = q.options && q.options.length > 0 ? OTHER : old.choice;
  if (old.text === text && old.choice === choice) return draft;
  return { ...draft, [q.id]: { choice, text } };
}

/** The drafts of the store hold no secret: `draft` without the entries of secret questions. */
export function withoutSecrets(questions: readonly QuestionView[], draft: QuestionDraft): QuestionDraft {
  const secret = new Set(questions.filter((q) => q.isSecret).map((q) => q.id));
  if (!Object.keys(draft).some((id) => secret.has(id))) return draft;
  return Object.fromEntries(Object.entries(draft).filter(([id]) => !secret.has(id)));
}

/** A field's value while it is edited: text (string, number, integer fields and a single choice), a checkbox, or the chosen values of a multi-select. */
export type FieldValue = string | boolean | readonly string[];

/**
 * A form being filled: the values changed so far (a field absent here shows its default), the fields
 * changed (their problems show at once), and whether an Accept was tried (then every problem shows).
 */
export interface FormDraft {
  values: Readonly<Record<string, FieldValue>>;
  touched: readonly string[];
  tried: boolean;
}

/** A form nobody has touched. */
export const EMPTY_FORM: FormDraft = { values: {}, touched: [], tried: false };

/** The value field `f` starts with: its `default` in the shape its input holds. */
export function initialValue(f: ElicitField): FieldValue {
  const d = f.default;
  if (f.type === 'boolean') return d === true;
  if (f.type === 'enum' && f.multiple) return Array.isArray(d) ? d : [];
  if (d === null || Array.isArray(d) || typeof d === 'boolean') return '';
  return String(d);
}

/** The value field `f` shows in `draft`. */
export function valueOf(draft: FormDraft, f: ElicitField): FieldValue {
  return draft.values[f.name] ?? initialValue(f);
}

/** `draft` with field `name` set to `value` (and marked changed). */
export function setValue(draft: FormDraft, name: string, value: FieldValue): FormDraft {
  const now = draft.values[name];
  const same = Array.isArray(now) && Array.isArray(value) ? now.length === value.length && now.every((v, i) => v === value[i]) : now === value;
  if (same && draft.touched.includes(name)) return draft;
  const touched = draft.touched.includes(name) ? draft.touched : [...draft.touched, name];
  return { ...draft, values: { ...draft.values, [name]: value }, touched };
}

/** `draft` with `choice` checked or unchecked in multi-select field `f` (the values keep the order of the choices). */
export function toggleChoice(draft: FormDraft, f: ElicitField, choice: string): FormDraft {
  const now = valueOf(draft, f);
  const set = new Set(Array.isArray(now) ? now : []);
  if (!set.delete(choice)) set.add(choice);
  return setValue(
    draft,
    f.name,
    (f.choices ?? []).map((c) => c.value).filter((v) => set.has(v)),
  );
}

/** `draft` after an Accept was tried: every problem shows from now on. */
export function tried(draft: FormDraft): FormDraft {
  return draft.tried ? draft : { ...draft, tried: true };
}

/** Only the entries of secret questions (what a card keeps in its own state, out of the store). */
export function onlySecrets(questions: readonly QuestionView[], draft: QuestionDraft): QuestionDraft {
  const secret = new Set(questions.filter((q) => q.isSecret).map((q) => q.id));
  return Object.fromEntries(Object.entries(draft).filter(([id]) => secret.has(id)));
}
