/**
 * MCP elicitations (codex 0.169.0 `mcpServer/elicitation/request`, `McpServerElicitationRequestParams`)
 * as requests of the one approval broker: a form's `requestedSchema` (`McpElicitationSchema`, MCP
 * 2025-11-25) flattened into `ElicitField`s, a URL shown with its full host name and offered only when
 * it is http(s), other modes shown but only declined or cancelled. Allow = `accept` (form `content`
 * checked against the fields), Deny = `decline`, cancel = `cancel`, always `_meta: null`
 * (`McpServerElicitationRequestResponse`). Nothing of the schema is ever rendered as HTML. A request
 * beyond the bounds of askLimits.ts, or with a field named `__proto__`, `constructor` or `prototype`,
 * is declined at once; Codex's own MCP tool gate is told apart in mcpToolGate.ts.
 * docs/architecture.md, "Questions and elicitations".
 */
import type { ApprovalAnswer, ElicitationView, ElicitContent, ElicitField } from '../../../shared/contract';
import { ASK_LIMITS, overCount, overLong, reservedName } from './askLimits';
import { assertOffered, badAnswer, type AskRequest, type ImmediateRequest } from './askRequest';
import type * as v2 from './generated/v2';
import { gatedCall, toolGate, type McpCall } from './mcpToolGate';
import { oneLine } from './questions';
import { isObj, str, strList, type Obj } from './wire';

/** A field as checked: the shown `ElicitField` plus the item bounds of a multi-select (not shown). */
export interface FormField extends ElicitField {
  minItems: number | null;
  maxItems: number | null;
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'bigint' ? Number(v) : null);
const FORMATS = ['email', 'uri', 'date', 'date-time'];

/** `[{const, title}]` (titled enums) or `enum` (+ legacy `enumNames`) as choices; null when neither is there. */
function choicesOf(s: Obj): ElicitField['choices'] {
  const titled = Array.isArray(s.oneOf) ? s.oneOf : Array.isArray(s.anyOf) ? s.anyOf : null;
  if (titled)
    return titled.filter(isObj).flatMap((o) => (str(o.const) === null ? [] : [{ value: str(o.const) ?? '', label: str(o.title) ?? str(o.const) ?? '' }]));
  if (!Array.isArray(s.enum)) return null;
  const names = strList(s.enumNames);
  return strList(s.enum).map((value, i) => ({ value, label: names[i] ?? value }));
}

/**
 * One property of `requestedSchema.properties` as a field (`McpElicitationPrimitiveSchema`): string
 * (with format, lengths), number / integer (with bounds), boolean, single-select enum (`enum` with
 * legacy `enumNames`, or titled `oneOf`) and multi-select (`type: "array"` with `items.enum` or
 * `items.anyOf`). null for anything else (the form then is not offered). Never throws.
 */
export function readField(name: string, s: unknown, required: boolean): FormField | null {
  if (!isObj(s)) return null;
  const base = {
    name,
    title: str(s.title),
    description: str(s.description),
    required,
    choices: null,
    multiple: false,
    format: null,
    minLength: null,
    maxLength: null,
    minimum: null,
    maximum: null,
    minItems: null,
    maxItems: null,
  };
  const def = s.default;
  switch (s.type) {
    case 'string': {
      const choices = choicesOf(s);
      if (choices) return { ...base, type: 'enum', choices, default: typeof def === 'string' ? def : null };
      const format = str(s.format);
      return {
        ...base,
        type: 'string',
        format: format && FORMATS.includes(format) ? format : null,
        minLength: num(s.minLength),
        maxLength: num(s.maxLength),
        default: typeof def === 'string' ? def : null,
      };
    }
    case 'number':
    case 'integer':
      return { ...base, type: s.type, minimum: num(s.minimum), maximum: num(s.maximum), default: typeof def === 'number' ? def : null };
    case 'boolean':
      return { ...base, type: 'boolean', default: typeof def === 'boolean' ? def : null };
    case 'array': {
      const choices = isObj(s.items) ? choicesOf(s.items) : null;
      if (!choices) return null;
      const d = Array.isArray(def) ? strList(def) : null;
      return { ...base, type: 'enum', choices, multiple: true, minItems: num(s.minItems), maxItems: num(s.maxItems), default: d };
    }
    default:
      return null;
  }
}

/** The fields of an `McpElicitationSchema` in property order; null when the schema or any property cannot be read. */
export function readForm(schema: unknown): FormField[] | null {
  if (!isObj(schema) || !isObj(schema.properties)) return null;
  const required = strList(schema.required);
  const out: FormField[] = [];
  for (const [name, s] of Object.entries(schema.properties)) {
    const f = readField(name, s, required.includes(name));
    if (!f) return null;
    out.push(f);
  }
  return out;
}

/** The full host name of an http(s) URL (`URL.hostname`: punycode, no user info); null for any other URL or none. */
export function webHost(url: string | null): { url: string; domain: string } | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? { url: u.href, domain: u.hostname } : null;
  } catch {
    return null;
  }
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** Why `value` does not fit `f`, or null when it does. */
function misfit(f: FormField, value: ElicitContent[string]): string | null {
  switch (f.type) {
    case 'string': {
      if (typeof value !== 'string') return 'takes text';
      const n = [...value].length;
      if (f.minLength !== null && n < f.minLength) return `takes at least ${f.minLength} characters (got ${n})`;
      if (f.maxLength !== null && n > f.maxLength) return `takes at most ${f.maxLength} characters (got ${n})`;
      if (f.format === 'email' && !/^[^\s@]+@[^\s@]+$/.test(value)) return 'takes an email address';
      if (f.format === 'uri' && !URL.canParse(value)) return 'takes a URI';
      if (f.format === 'date' && !(DATE.test(value) && !Number.isNaN(Date.parse(value)))) return 'takes a date (YYYY-MM-DD)';
      if (f.format === 'date-time' && !(DATE_TIME.test(value) && !Number.isNaN(Date.parse(value)))) return 'takes a date and time (RFC 3339)';
      return null;
    }
    case 'number':
    case 'integer':
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'takes a number';
      if (f.type === 'integer' && !Number.isInteger(value)) return 'takes a whole number';
      if (f.minimum !== null && value < f.minimum) return `takes at least ${f.minimum}`;
      if (f.maximum !== null && value > f.maximum) return `takes at most ${f.maximum}`;
      return null;
    case 'boolean':
      return typeof value === 'boolean' ? null : 'takes true or false';
    case 'enum': {
      const values = (f.choices ?? []).map((c) => c.value);
      const list = `one of ${values.map((v) => `"${v}"`).join(', ')}`;
      if (!f.multiple) return typeof value === 'string' && values.includes(value) ? null : `takes ${list}`;
      if (!Array.isArray(value)) return `takes a list of ${list}`;
      const wrong = value.find((v) => !values.includes(v));
      if (wrong !== undefined) return `takes only ${list} ("${wrong}" is not)`;
      if (new Set(value).size !== value.length) return 'takes each choice once';
      if (f.minItems !== null && value.length < f.minItems) return `takes at least ${f.minItems} choices`;
      if (f.maxItems !== null && value.length > f.maxItems) return `takes at most ${f.maxItems} choices`;
      return null;
    }
  }
}

/**
 * Checks the `content` of an accepted form against its fields and returns it: no unknown key, every
 * required field present, each value of its field's type and within its bounds (lengths in
 * characters, numbers, enum values, choice counts, string formats). Throws AppFailure `bad-answer`
 * naming the field and what it takes.
 */
export function checkContent(fields: readonly FormField[], content: ElicitContent): ElicitContent {
  const names = fields.map((f) => f.name);
  for (const key of Object.keys(content)) {
    if (!names.includes(key)) throw badAnswer(`"${key}" is not a field of this form (its fields: ${names.join(', ') || 'none'})`);
  }
  for (const f of fields) {
    // Own properties only: a field named like an Object.prototype member must not read it.
    const value = Object.hasOwn(content, f.name) ? content[f.name] : undefined;
    if (value === undefined) {
      if (f.required) throw badAnswer(`the field "${f.name}" is required: give content["${f.name}"], or Deny`);
      continue;
    }
    const why = misfit(f, value);
    if (why) throw badAnswer(`the field "${f.name}" ${why}`);
  }
  return Object.assign(Object.create(null) as ElicitContent, content);
}

/** The reply writer of an elicitation; `fields` null: no form (url or unsupported mode), content is refused. */
function elicitationWire(offered: readonly ApprovalAnswer[], fields: readonly FormField[] | null): AskRequest['toWire'] {
  return (a, extras = {}) => {
    assertOffered(offered, a);
    if (extras.grant) throw badAnswer('a grant only goes with a permissions request; an MCP request takes content');
    if (extras.answers) throw badAnswer('answers only go with an agent question; an MCP request takes content');
    if (a !== 'allow') {
      if (extras.content) throw badAnswer(`content only goes with Allow (accept); "${a}" sends none`);
      return { action: a === 'cancel' ? 'cancel' : 'decline', content: null, _meta: null } satisfies v2.McpServerElicitationRequestResponse;
    }
    if (!fields) {
      if (extras.content) throw badAnswer('this request has no form: accept it without content');
      return { action: 'accept', content: null, _meta: null } satisfies v2.McpServerElicitationRequestResponse;
    }
    return { action: 'accept', content: checkContent(fields, extras.content ?? {}), _meta: null } satisfies v2.McpServerElicitationRequestResponse;
  };
}

/** The view's fields: `FormField` without the bounds the contract does not show. */
function shown(f: FormField): ElicitField {
  const { minItems: _min, maxItems: _max, ...field } = f;
  return field;
}

/**
 * Why an elicitation is not shown (askLimits.ts): its message or URL longer than `ASK_LIMITS.message`;
 * a form with more than `ASK_LIMITS.fields` fields, a field named `__proto__`, `constructor` or
 * `prototype`, an enum of more than `ASK_LIMITS.choices` choices, or a name, title, description,
 * default, choice value or label longer than `ASK_LIMITS.fieldText`. null when it may be shown.
 */
export function elicitationRefusal(p: Obj, message: string): string | null {
  const long = overLong(
    [
      ['a message', message],
      ['a link', str(p.url)],
    ],
    ASK_LIMITS.message,
  );
  if (long) return long;
  const props = p.mode === 'form' && isObj(p.requestedSchema) && isObj(p.requestedSchema.properties) ? p.requestedSchema.properties : null;
  if (!props) return null;
  const names = Object.keys(props);
  const many = overCount(names.length, ASK_LIMITS.fields, 'fields');
  if (many) return many;
  const reserved = reservedName(names);
  if (reserved !== null) return `a field named "${reserved}", a name Angelia does not take for a field`;
  for (const f of readForm(p.requestedSchema) ?? []) {
    const what = `field "${oneLine(f.name, 40)}"`;
    const why =
      overCount(f.choices?.length ?? 0, ASK_LIMITS.choices, `choices in ${what}`) ??
      overLong(
        [
          [`the name of ${what}`, f.name],
          [`the title of ${what}`, f.title],
          [`the description of ${what}`, f.description],
          [`the default of ${what}`, typeof f.default === 'string' ? f.default : Array.isArray(f.default) ? f.default.join(',') : null],
          ...(f.choices ?? []).flatMap((c): [string, string][] => [
            [`a choice of ${what}`, c.value],
            [`a choice of ${what}`, c.label],
          ]),
        ],
        ASK_LIMITS.fieldText,
      );
    if (why) return why;
  }
  return null;
}

/**
 * Classifies `mcpServer/elicitation/request` (codex 0.169.0 `McpServerElicitationRequestParams`): an ask
 * of kind `elicitation`. `form` with a readable schema: Allow (accept with content), Deny (decline),
 * cancel; `url` with an http(s) URL: the same, accept carrying no content; an unreadable form, any
 * other URL and other modes (`openai/form`, `openai/userVerification`, …): `unsupported`, only Deny and
 * cancel. Times out as Deny (decline). `turnId` may be null (Codex correlates it when it can); the
 * request is still withdrawn when the chat's turn ends or its Codex stops. A request without a mode,
 * or one `elicitationRefusal` names a reason for, is declined at once. `_meta.codex_approval_kind:
 * "mcp_tool_call"` makes it Codex's tool gate (mcpToolGate.ts) only when it matches one of `calls` (the
 * chat's announced MCP tool calls not gated yet, by item id); else it is the server's own form. Never throws.
 */
export function classifyElicitation(
  p: Obj,
  threadId: string | null,
  turnId: string | null,
  calls: ReadonlyMap<string, McpCall> = new Map(),
): AskRequest | ImmediateRequest {
  const serverName = str(p.serverName) ?? 'an MCP server';
  const mode = str(p.mode);
  if (mode === null) {
    return {
      type: 'immediate',
      kind: 'elicitation',
      result: { action: 'decline', content: null, _meta: null } satisfies v2.McpServerElicitationRequestResponse,
      notice: `An MCP server asked for input (${serverName}) in a form Angelia cannot read; it was declined.`,
    };
  }
  const message = str(p.message) ?? [str(p.title), str(p.description)].filter(Boolean).join(': ');
  const refusal = elicitationRefusal(p, message);
  if (refusal) {
    return {
      type: 'immediate',
      kind: 'elicitation',
      result: { action: 'decline', content: null, _meta: null } satisfies v2.McpServerElicitationRequestResponse,
      notice: `${serverName} asked for input with ${refusal}; Angelia does not show such a request, so it was declined.`,
    };
  }
  const meta = isObj(p._meta) ? p._meta : null;
  const gated = mode === 'form' ? gatedCall(serverName, meta, calls) : null;
  if (meta && gated !== null) return toolGate(serverName, message, meta, { threadId, turnId, itemId: gated });
  const fields = mode === 'form' ? readForm(p.requestedSchema) : null;
  const link = mode === 'url' ? webHost(str(p.url)) : null;
  const view: ElicitationView =
    fields !== null
      ? { serverName, mode: 'form', message, fields: fields.map(shown), url: null, domain: null }
      : mode === 'url'
        ? { serverName, mode: 'url', message, fields: [], url: link?.url ?? null, domain: link?.domain ?? null }
        : { serverName, mode: 'unsupported', message, fields: [], url: null, domain: null };
  const answers: ApprovalAnswer[] = fields !== null || link ? ['allow', 'deny', 'cancel'] : ['deny', 'cancel'];
  const where = link ? ` (opens ${link.domain})` : mode === 'url' ? ' (a link Angelia does not open)' : '';
  return {
    type: 'ask',
    kind: 'elicitation',
    threadId,
    turnId,
    itemId: null,
    outsideSandbox: null,
    title: `${serverName} asks: ${oneLine(message) || 'for input'}${where}`,
    command: null,
    cwd: null,
    reason: null,
    changes: [],
    requested: null,
    refused: [],
    answers,
    toWire: elicitationWire(answers, fields),
    timeoutAnswer: 'deny',
    elicitation: view,
  };
}
