/**
 * An MCP elicitation form as pure functions (codex 0.169.0 `mcpServer/elicitation/request`, flattened
 * into `ElicitField`s by the core; src/shared/questions.ts) over the values being typed (store/answerDrafts.ts
 * `FormDraft`, starting from each field's `default`): the check of each field with a message a person
 * can act on ("Required.", "Enter an email address (name@example.com).", "Enter a whole number from 1
 * to 10."), the `content` an Accept sends (numbers as numbers, a multi-select as an array, an empty
 * optional field left out), and whether a URL-mode address may be opened (http or https only).
 */
import type { ApprovalView, ElicitContent, ElicitField } from '../../../../shared/contract';
import { valueOf, type FieldValue, type FormDraft } from '../../store/answerDrafts';

/** The label of field `f`: its title, else its name. */
export function fieldLabel(f: ElicitField): string {
  return f.title ?? f.name;
}

/** The HTML input type of a text field (a hint for the keyboard and the date picker; the check is `fieldProblem`). */
export function inputType(f: ElicitField): 'email' | 'url' | 'date' | 'text' {
  if (f.type !== 'string') return 'text';
  return f.format === 'email' ? 'email' : f.format === 'uri' ? 'url' : f.format === 'date' ? 'date' : 'text';
}

/**
 * A hint shown under a field, or null: the format expected ("An email address", "A full address
 * (https://…)", "A date and time (2025-01-31T09:00:00Z)"), a number's kind and range ("A whole number
 * from 1 to 50") or a text's length. A date has none: its picker gives YYYY-MM-DD by itself.
 */
export function fieldHint(f: ElicitField): string | null {
  if (f.format === 'email') return 'An email address';
  if (f.format === 'uri') return 'A full address (https://…)';
  if (f.format === 'date-time') return 'A date and time (2025-01-31T09:00:00Z)';
  if (f.type === 'number' || f.type === 'integer') {
    const range = rangeText(f.minimum, f.maximum);
    if (f.type === 'number' && !range) return null;
    return `${f.type === 'integer' ? 'A whole number' : 'A number'}${range ? ` ${range}` : ''}`;
  }
  if (f.type === 'string' && (f.minLength !== null || f.maxLength !== null)) {
    const text = lengthText(f.minLength, f.maxLength);
    return text.charAt(0).toUpperCase() + text.slice(1);
  }
  return null;
}

function rangeText(min: number | null, max: number | null): string | null {
  if (min !== null && max !== null) return `from ${min} to ${max}`;
  if (min !== null) return `${min} or more`;
  if (max !== null) return `${max} or less`;
  return null;
}

function lengthText(min: number | null, max: number | null): string {
  if (min !== null && max !== null) return `${min} to ${max} characters`;
  return min !== null ? `at least ${min} characters` : `at most ${max ?? 0} characters`;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i;
const NUMBER = /^-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;

function validDate(s: string): boolean {
  const m = DATE.exec(s);
  if (!m) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return Number.isFinite(d.getTime()) && d.getUTCDate() === Number(m[3]) && d.getUTCMonth() + 1 === Number(m[2]);
}

function validUri(s: string): boolean {
  try {
    return /^[a-z][a-z0-9+.-]*:/i.test(s) && new URL(s).protocol.length > 1;
  } catch {
    return false;
  }
}

function textProblem(f: ElicitField, raw: string): string | null {
  const s = f.format ? raw.trim() : raw;
  if (f.format === 'email' && !EMAIL.test(s)) return 'Enter an email address (name@example.com).';
  if (f.format === 'uri' && !validUri(s)) return 'Enter a full address with its scheme (https://…).';
  if (f.format === 'date' && !validDate(s)) return 'Enter a date as YYYY-MM-DD.';
  if (f.format === 'date-time' && !(DATE_TIME.test(s) && Number.isFinite(Date.parse(s)))) return 'Enter a date and time as 2025-01-31T09:00:00Z.';
  const length = [...s].length;
  if ((f.minLength !== null && length < f.minLength) || (f.maxLength !== null && length > f.maxLength)) {
    return `Enter ${lengthText(f.minLength, f.maxLength)} (now ${length}).`;
  }
  return null;
}

function numberProblem(f: ElicitField, raw: string): string | null {
  const s = raw.trim();
  const what = f.type === 'integer' ? 'a whole number' : 'a number';
  const range = rangeText(f.minimum, f.maximum);
  const ask = `Enter ${what}${range ? ` ${range}` : ''}.`;
  if (!NUMBER.test(s)) return ask;
  const n = Number(s);
  if (!Number.isFinite(n) || (f.type === 'integer' && !Number.isInteger(n))) return ask;
  if ((f.minimum !== null && n < f.minimum) || (f.maximum !== null && n > f.maximum)) return ask;
  return null;
}

/** What is wrong with `value` for field `f`, in words a person can act on, or null when it is fine. */
export function fieldProblem(f: ElicitField, value: FieldValue): string | null {
  if (f.type === 'boolean') return null;
  if (f.type === 'enum') {
    const offered = new Set((f.choices ?? []).map((c) => c.value));
    const chosen = Array.isArray(value) ? value : typeof value === 'string' && value !== '' ? [value] : [];
    if (chosen.length === 0) return f.required ? (f.multiple ? 'Choose at least one.' : 'Choose one.') : null;
    return chosen.every((v) => offered.has(v)) ? null : 'Choose among the values offered.';
  }
  const raw = typeof value === 'string' ? value : '';
  if (raw.trim() === '') return f.required ? 'Required.' : null;
  return f.type === 'string' ? textProblem(f, raw) : numberProblem(f, raw);
}

/** Every field's problem, by field name (fields without one are left out). */
export function formProblems(fields: readonly ElicitField[], draft: FormDraft): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of fields) {
    const p = fieldProblem(f, valueOf(draft, f));
    if (p) out[f.name] = p;
  }
  return out;
}

/** The problems to show now: those of the fields changed so far, or all of them once an Accept was tried. */
export function shownProblems(fields: readonly ElicitField[], draft: FormDraft): Record<string, string> {
  const all = formProblems(fields, draft);
  if (draft.tried) return all;
  return Object.fromEntries(Object.entries(all).filter(([name]) => draft.touched.includes(name)));
}

/**
 * What an Accept sends (`McpServerElicitationRequestResponse.content`): each field's value in its JSON
 * type (number and integer as numbers, a checkbox as a boolean, a multi-select as the chosen values, a
 * formatted string trimmed); an empty optional field is left out. `{ problems }` when a field is wrong.
 */
export function formContent(fields: readonly ElicitField[], draft: FormDraft): { content: ElicitContent } | { problems: Record<string, string> } {
  const problems = formProblems(fields, draft);
  if (Object.keys(problems).length > 0) return { problems };
  const content: ElicitContent = {};
  for (const f of fields) {
    const v = valueOf(draft, f);
    if (typeof v === 'boolean') content[f.name] = v;
    else if (Array.isArray(v)) {
      if (v.length > 0 || f.required) content[f.name] = [...v];
    } else if (typeof v === 'string' && v.trim() !== '') {
      content[f.name] = f.type === 'number' || f.type === 'integer' ? Number(v.trim()) : f.format ? v.trim() : v;
    }
  }
  return { content };
}

/** The summary above Accept while fields are wrong ("Fix the 2 fields marked below"), or null. */
export function problemsSummary(problems: Record<string, string>): string | null {
  const n = Object.keys(problems).length;
  if (n === 0) return null;
  return n === 1 ? 'Fix the field marked below.' : `Fix the ${n} fields marked below.`;
}

/** Whether `url` may be opened in a browser: an http or https address (anything else is only shown). */
export function openableUrl(url: string | null): url is string {
  if (!url) return false;
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    return false;
  }
}

/**
 * Whether an elicitation is Codex's own gate before an MCP tool runs (`_meta.codex_approval_kind`
 * "mcp_tool_call", docs/architecture.md "MCP elicitations, measured"): the core shows it as a form
 * without fields, with the tool's parameters as `command` and its description as `reason`, and offers
 * Allow for the session when Codex lets it persist. A server's own empty form has none of these (it
 * reads as an Accept without content).
 */
export function isToolGate(view: Pick<ApprovalView, 'kind' | 'elicitation' | 'command' | 'reason' | 'answers'>): boolean {
  const el = view.elicitation;
  if (view.kind !== 'elicitation' || !el || el.mode !== 'form' || el.fields.length > 0) return false;
  return view.command !== null || view.reason !== null || view.answers.includes('allowForSession');
}
