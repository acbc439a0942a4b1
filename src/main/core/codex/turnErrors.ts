/**
 * A failed turn told plainly: its kind is read from `turn.error.codexErrorInfo` (and the `httpStatusCode` of
 * the object variants), never from the message text (which Codex may reword). The message keeps
 * Codex's own text (a usage limit's text carries the reset time when Codex knows it); the hint says what to
 * do, with the `/model` hint where switching model helps (usage limit, model unavailable, overloaded).
 *
 * Measured on codex 0.169.0 and again on 0.171.0, same table (`npx tsx scripts/measure/turn-errors.ts`): real
 * `codex app-server`, offline CODEX_HOME with request_max_retries=0 and stream_max_retries=0, one model request
 * per case answered by the scripted model. Every case ended with one `error` notification (`willRetry:false`)
 * and `turn/completed {status:"failed"}` whose `turn.error` carried the same `codexErrorInfo`;
 * `additionalDetails` was always null, no case produced an agentMessage item, none made a second request.
 *
 * | scripted reply | codexErrorInfo | Codex's message | kind |
 * |---|---|---|---|
 * | HTTP 429 `{error:{type:"usage_limit_reached",plan_type,resets_at}}` | `"usageLimitExceeded"` | "You’ve hit your usage limit. Upgrade to Pro (…), visit …/settings/usage to purchase more credits or try again at 11:23 PM." | usageLimit |
 * | same without `resets_at` | `"usageLimitExceeded"` | "… or try again later." | usageLimit |
 * | HTTP 429 `type:"usage_not_included"`; SSE failed `usage_not_included` | `"usageLimitExceeded"` | "To use Codex with your ChatGPT plan, upgrade to Plus: …" | usageLimit |
 * | HTTP 429 `code:"insufficient_quota"`; SSE failed `insufficient_quota` | `"usageLimitExceeded"` | "Quota exceeded. Check your plan and billing details." | usageLimit |
 * | HTTP 429 `rate_limit_exceeded` (with or without `retry-after`), HTTP 429 plain text | `{responseTooManyFailedAttempts:{httpStatusCode:429}}` | "exceeded retry limit, last status: 429 Too Many Requests" | rateLimit |
 * | SSE failed `rate_limit_exceeded`; SSE failed / HTTP 503 `slow_down` | `"rateLimitExceeded"` | "rate limit exceeded: <provider message>" | rateLimit |
 * | HTTP 503 `{error:{code:"server_is_overloaded"}}`; SSE failed `server_is_overloaded` | `"serverOverloaded"` | "Selected model is at capacity. Please try a different model." | overloaded |
 * | HTTP 503 plain text / HTTP 529 `overloaded_error` | `{httpConnectionFailed:{httpStatusCode:503 \| 529}}` | "unexpected status 503 Service Unavailable: …, url: …" | overloaded |
 * | HTTP 502, 504 | `{httpConnectionFailed:{httpStatusCode:502 \| 504}}` | "unexpected status 502 Bad Gateway: …" | serverError |
 * | HTTP 500 | `"internalServerError"` | "We’re currently experiencing high demand, which may cause temporary errors." | serverError |
 * | HTTP 404 or 400 `{error:{code:"model_not_found"}}`; SSE failed `model_not_found` | `"modelNotFound"` | the provider's message, e.g. "The model `gpt-x` does not exist or you do not have access to it." | modelUnavailable |
 * | HTTP 400 `{detail:"The 'gpt-5.4/medium' model is not supported when using Codex with a ChatGPT account."}` (also as `error.message`, or codes `model_not_supported` / `unsupported_model` / `invalid_model`) | `"other"` | the raw body, e.g. `{"detail":"The 'gpt-5.4/medium' model is not supported …"}` | other |
 * | HTTP 400 / SSE failed `context_length_exceeded` | `"contextWindowExceeded"` | "Codex ran out of room in the model's context window. Start a new thread …" | contextWindow |
 * | HTTP 400 other bodies (`invalid_request_error`, plain text) | `"other"` | the raw body | other |
 * | HTTP 401, 403 (any body) | `{httpConnectionFailed:{httpStatusCode:401 \| 403}}` | "unexpected status 401 Unauthorized: …" | unauthorized (401: "Codex is not signed in") |
 * | HTTP 404 plain, 408, 413, 422 | `{httpConnectionFailed:{httpStatusCode:…}}` | "unexpected status 404 Not Found: …" | other |
 * | SSE failed `cyber_policy` | `"cyberPolicy"` | the provider's message | policy |
 * | SSE failed or HTTP 400 `bio_policy` (new in 0.171.0; not retried, also with `--retries 1`) | `"bioPolicy"` | the provider's message; with none, Codex's "This content was flagged for possible biological risk." | policy |
 * | SSE failed `invalid_prompt` | `"other"` | the provider's message | other |
 * | SSE failed `server_error` / `usage_limit_reached` (SSE), connection dropped before a reply or mid-stream | `"other"` | "stream disconnected before completion: …" | other |
 *
 * The next two paragraphs were measured on codex 0.169.0 only. A 401 is retried by Codex itself (not by
 * Angelia): with the default `stream_max_retries` (5) and a provider with `requires_openai_auth = true`, not signed in, one turn made 6 requests (no `Authorization` header),
 * sent five `error` notifications `willRetry:true` ("Reconnecting... n/5", `{responseStreamDisconnected:
 * {httpStatusCode:401}}`) and ended `{httpConnectionFailed:{httpStatusCode:401}}` after ~6 s against the
 * scripted model; the back-off grows with each try, so a slow provider takes longer.
 *
 * With Codex's retries on (`--retries 1`), the retried attempts first send `error` notifications with
 * `willRetry:true` and `{responseStreamDisconnected:{httpStatusCode:429 | 503 | null}}`; the final
 * `turn.error` is the same as above. Consequences: (1) a model the account cannot use is only recognisable
 * when the provider answers `model_not_found` (HTTP 400 or 404, or SSE): the ChatGPT backend's 400 "model is
 * not supported" body arrives as `"other"` and is shown as Codex's text under kind `other` (never as an
 * assistant message, never retried here) — this module does not read text, so it does not guess; (2) a
 * dropped connection is `"other"` too with retries off, `network` only comes from the object variants with
 * no status. `"badRequest"` was not produced by any HTTP reply (Codex uses it for refused turn settings); it
 * maps to `other`. Variants not produced offline are mapped by their documented meaning (generated
 * `CodexErrorInfo.ts`): sessionBudgetExceeded → usageLimit, flexUnavailable and policyCapacityUnavailable →
 * overloaded, inferenceHookDenied / misalignmentPolicyViolation / tooManyDenials → policy.
 */
import type { TurnEnd } from './items';
import { isObj } from './wire';

/** What went wrong, decided from `codexErrorInfo` alone. */
export type TurnErrorKind =
  'usageLimit' | 'rateLimit' | 'overloaded' | 'modelUnavailable' | 'contextWindow' | 'unauthorized' | 'network' | 'serverError' | 'policy' | 'other';

/**
 * A failed turn as the chat shows it: `kind` (for styling and programs), `message` (plain: what happened,
 * with Codex's text), `hint` (what to do next; null when there is nothing useful to say).
 */
export interface TurnErrorView {
  kind: TurnErrorKind;
  message: string;
  hint: string | null;
}

/** The `/model` hint, given for the kinds where switching model helps (usageLimit, modelUnavailable, overloaded). */
export const MODEL_HINT = 'To keep going now, switch model for this chat: send /model <name> (/model lists them). /model default goes back later.';

/** How to sign Codex in, for a turn the model provider refused (HTTP 401, 403). */
export const SIGN_IN_HINT =
  'Sign in with `angelia login` (ChatGPT in the browser; `--device-code`, or `--api-key` with the key on standard input), or with Sign in in the window, then send the message again.';

/** `codexErrorInfo` object variants that carry `{httpStatusCode: number | null}` (codex 0.171.0, generated `CodexErrorInfo.ts`). */
const HTTP_VARIANTS = ['httpConnectionFailed', 'responseStreamConnectionFailed', 'responseStreamDisconnected', 'responseTooManyFailedAttempts'] as const;

const BY_NAME: Record<string, TurnErrorKind> = {
  usageLimitExceeded: 'usageLimit',
  sessionBudgetExceeded: 'usageLimit',
  rateLimitExceeded: 'rateLimit',
  serverOverloaded: 'overloaded',
  flexUnavailable: 'overloaded',
  policyCapacityUnavailable: 'overloaded',
  modelNotFound: 'modelUnavailable',
  contextWindowExceeded: 'contextWindow',
  unauthorized: 'unauthorized',
  internalServerError: 'serverError',
  cyberPolicy: 'policy',
  bioPolicy: 'policy',
  misalignmentPolicyViolation: 'policy',
  inferenceHookDenied: 'policy',
  tooManyDenials: 'policy',
};

/**
 * The HTTP status carried by an object variant of `codexErrorInfo`
 * (`{httpConnectionFailed|responseStreamConnectionFailed|responseStreamDisconnected|responseTooManyFailedAttempts: {httpStatusCode}}`):
 * `{variant, status}` (status null when Codex sent none), or null for any other value.
 */
export function httpVariantOf(info: unknown): { variant: (typeof HTTP_VARIANTS)[number]; status: number | null } | null {
  if (!isObj(info)) return null;
  for (const variant of HTTP_VARIANTS) {
    const body = info[variant];
    if (isObj(body)) return { variant, status: typeof body.httpStatusCode === 'number' ? body.httpStatusCode : null };
  }
  return null;
}

function kindOfStatus(status: number | null): TurnErrorKind {
  if (status === null) return 'network';
  if (status === 401 || status === 403) return 'unauthorized';
  if (status === 429) return 'rateLimit';
  if (status === 503 || status === 529) return 'overloaded';
  if (status >= 500 && status <= 599) return 'serverError';
  return 'other';
}

/**
 * The kind of a `codexErrorInfo` value as Codex sent it (a string, an object variant, null or anything
 * else). Never throws; unknown and absent values are `other`. Table: this module's docstring.
 */
export function turnErrorKind(info: unknown): TurnErrorKind {
  if (typeof info === 'string') return BY_NAME[info] ?? 'other';
  const http = httpVariantOf(info);
  return http ? kindOfStatus(http.status) : 'other';
}

/** The plain lead of a `policy` failure whose code says more than "usage policy" (cyberPolicy and misalignment use the default). */
const POLICY_LEADS: Record<string, string> = {
  tooManyDenials: 'Codex stopped this turn: too many of its actions were declined',
  inferenceHookDenied: 'A hook refused this model request',
  bioPolicy: 'The model provider stopped this turn: it flagged the request under its biological safety policy',
};

const joined = (lead: string, text: string | null): string => (text ? `${lead}: ${text}` : `${lead}.`);

/**
 * Describes a failed turn (`TurnEnd` from items.ts `readTurnEnd`, status `failed`; other statuses are
 * described the same way, from whatever error they carry). `ctx.model` is the model the turn ran with
 * (the session override or the profile's), named in the message when known. Never throws.
 */
export function describeTurnError(end: TurnEnd, ctx: { model?: string | null } = {}): TurnErrorView {
  const kind = turnErrorKind(end.errorInfo);
  const text = end.message?.trim() || null;
  const model = ctx.model?.trim() || null;
  const status = httpVariantOf(end.errorInfo)?.status ?? null;
  const code = status === null ? '' : ` (HTTP ${status})`;
  switch (kind) {
    case 'usageLimit':
      if (end.errorInfo === 'sessionBudgetExceeded') {
        return { kind, message: joined('This session has used up its token budget', text), hint: 'Start a new session with /new.' };
      }
      return { kind, message: joined('Usage limit reached', text), hint: MODEL_HINT };
    case 'modelUnavailable':
      return {
        kind,
        message: joined(`The model ${model ?? 'chosen for this chat'} is not available for this account (or was retired)`, text),
        hint: MODEL_HINT,
      };
    case 'overloaded':
      return { kind, message: joined(`The model${model ? ` ${model}` : ''} is overloaded right now${code}`, text), hint: MODEL_HINT };
    case 'rateLimit':
      return { kind, message: joined(`Rate limited by the model provider${code}`, text), hint: 'Wait a little, then send the message again.' };
    case 'contextWindow':
      return {
        kind,
        message: 'The conversation no longer fits in the model\u2019s context window.',
        hint: 'Send /compact to summarise it, or /new to start a fresh session (this one stays reachable with /resume).',
      };
    case 'unauthorized':
      // 401: no sign-in, or one the provider no longer takes (docs/architecture.md "Account"); 403: refused as is.
      if (status === 403) {
        return { kind, message: joined(`The model provider refused Codex\u2019s credentials${code}`, text), hint: SIGN_IN_HINT };
      }
      return { kind, message: joined(`Codex is not signed in, or the model provider refused its sign-in${code}`, text), hint: SIGN_IN_HINT };
    case 'network':
      return { kind, message: joined('Codex could not reach the model provider', text), hint: 'Check the network connection, then send the message again.' };
    case 'serverError':
      return {
        kind,
        message: joined(`The model provider had a server error${code}`, text),
        hint: 'This is usually temporary: send the message again in a moment.',
      };
    case 'policy': {
      const lead = (typeof end.errorInfo === 'string' ? POLICY_LEADS[end.errorInfo] : undefined) ?? 'Codex stopped this turn under its usage policy';
      return { kind, message: joined(lead, text), hint: null };
    }
    default:
      return { kind, message: text ?? 'The turn failed (Codex gave no reason).', hint: null };
  }
}
