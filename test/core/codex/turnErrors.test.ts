/**
 * describeTurnError / turnErrorKind: every kind from the codexErrorInfo values codex 0.169.0 and 0.171.0 were
 * measured to send (scripts/measure/turn-errors.ts, table in src/main/core/codex/turnErrors.ts), including a model the
 * account cannot use or that was retired.
 */
import { describe, expect, it } from 'vitest';
import type { TurnEnd } from '../../../src/main/core/codex/items';
import { MODEL_HINT, describeTurnError, httpVariantOf, turnErrorKind, type TurnErrorKind } from '../../../src/main/core/codex/turnErrors';

const failed = (errorInfo: unknown, message: string | null = 'codex text'): TurnEnd => ({ turnId: 't1', status: 'failed', message, errorInfo });

describe('turnErrorKind: measured codexErrorInfo values', () => {
  const cases: Array<[string, unknown, TurnErrorKind]> = [
    ['HTTP 429 usage_limit_reached / usage_not_included / insufficient_quota', 'usageLimitExceeded', 'usageLimit'],
    ['HTTP 429 rate_limit_exceeded (retries exhausted)', { responseTooManyFailedAttempts: { httpStatusCode: 429 } }, 'rateLimit'],
    ['SSE rate_limit_exceeded / slow_down', 'rateLimitExceeded', 'rateLimit'],
    ['HTTP 503 / SSE server_is_overloaded', 'serverOverloaded', 'overloaded'],
    ['HTTP 503 plain body', { httpConnectionFailed: { httpStatusCode: 503 } }, 'overloaded'],
    ['HTTP 529 overloaded_error', { httpConnectionFailed: { httpStatusCode: 529 } }, 'overloaded'],
    ['HTTP 404 / 400 model_not_found', 'modelNotFound', 'modelUnavailable'],
    ['context_length_exceeded', 'contextWindowExceeded', 'contextWindow'],
    ['HTTP 401', { httpConnectionFailed: { httpStatusCode: 401 } }, 'unauthorized'],
    ['HTTP 403', { httpConnectionFailed: { httpStatusCode: 403 } }, 'unauthorized'],
    ['unauthorized variant', 'unauthorized', 'unauthorized'],
    ['HTTP 500', 'internalServerError', 'serverError'],
    ['HTTP 502', { httpConnectionFailed: { httpStatusCode: 502 } }, 'serverError'],
    ['HTTP 504', { httpConnectionFailed: { httpStatusCode: 504 } }, 'serverError'],
    ['stream dropped, no status', { responseStreamDisconnected: { httpStatusCode: null } }, 'network'],
    ['connection failed, no status', { httpConnectionFailed: { httpStatusCode: null } }, 'network'],
    ['stream connection failed 503', { responseStreamConnectionFailed: { httpStatusCode: 503 } }, 'overloaded'],
    ['SSE cyber_policy', 'cyberPolicy', 'policy'],
    ['SSE or HTTP 400 bio_policy (codex 0.171.0)', 'bioPolicy', 'policy'],
    ['misalignment', 'misalignmentPolicyViolation', 'policy'],
    ['guardian denials', 'tooManyDenials', 'policy'],
    ['hook denied', 'inferenceHookDenied', 'policy'],
    ['session budget', 'sessionBudgetExceeded', 'usageLimit'],
    ['flex tier unavailable', 'flexUnavailable', 'overloaded'],
    ['HTTP 400 "model is not supported" body', 'other', 'other'],
    ['HTTP 404 plain', { httpConnectionFailed: { httpStatusCode: 404 } }, 'other'],
    ['HTTP 422', { httpConnectionFailed: { httpStatusCode: 422 } }, 'other'],
    ['badRequest (refused turn settings)', 'badRequest', 'other'],
    ['sandboxError', 'sandboxError', 'other'],
    ['activeTurnNotSteerable', { activeTurnNotSteerable: { turnKind: 'review' } }, 'other'],
    ['absent', null, 'other'],
    ['unknown future string', 'somethingNew', 'other'],
    ['unknown future object', { somethingNew: { httpStatusCode: 429 } }, 'other'],
    ['malformed', 42, 'other'],
  ];
  for (const [what, info, kind] of cases) {
    it(`${what} → ${kind}`, () => {
      expect(turnErrorKind(info)).toBe(kind);
      expect(describeTurnError(failed(info)).kind).toBe(kind);
    });
  }

  it('reads the HTTP status of the object variants only', () => {
    expect(httpVariantOf({ responseTooManyFailedAttempts: { httpStatusCode: 429 } })).toEqual({ variant: 'responseTooManyFailedAttempts', status: 429 });
    expect(httpVariantOf({ responseStreamDisconnected: { httpStatusCode: null } })).toEqual({ variant: 'responseStreamDisconnected', status: null });
    expect(httpVariantOf('usageLimitExceeded')).toBeNull();
    expect(httpVariantOf({ activeTurnNotSteerable: { turnKind: 'review' } })).toBeNull();
  });
});

describe('the kind comes from codexErrorInfo, never from the text', () => {
  it('a usage-limit text with codexErrorInfo "other" stays other, and keeps the text', () => {
    const v = describeTurnError(failed('other', 'You’ve hit your usage limit. Try again later.'));
    expect(v).toEqual({ kind: 'other', message: 'You’ve hit your usage limit. Try again later.', hint: null });
  });

  it('a 400 "model is not supported" body (measured as "other") is not guessed into modelUnavailable', () => {
    const body = '{"detail":"The \'gpt-5.4/medium\' model is not supported when using Codex with a ChatGPT account."}';
    expect(describeTurnError(failed('other', body), { model: 'gpt-5.4/medium' }).kind).toBe('other');
  });

  it('usageLimitExceeded with an unrelated text is still a usage limit', () => {
    expect(describeTurnError(failed('usageLimitExceeded', 'Quota exceeded. Check your plan and billing details.')).kind).toBe('usageLimit');
  });
});

describe('describeTurnError messages and hints', () => {
  it('usage limit: says so, keeps Codex’s text with the reset time, gives the /model hint', () => {
    const text =
      'You’ve hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro), visit https://chatgpt.com/settings/usage to purchase more credits or try again at 6:42 PM.';
    const v = describeTurnError(failed('usageLimitExceeded', text), { model: 'gpt-5.5' });
    expect(v.kind).toBe('usageLimit');
    expect(v.message).toBe(`Usage limit reached: ${text}`);
    expect(v.message).toContain('try again at 6:42 PM');
    expect(v.hint).toBe(MODEL_HINT);
    expect(v.hint).toBe('To keep going now, switch model for this chat: send /model <name> (/model lists them). /model default goes back later.');
  });

  it('usage limit without a text still says so', () => {
    expect(describeTurnError(failed('usageLimitExceeded', null)).message).toBe('Usage limit reached.');
  });

  it('a 400 model_not_found (modelNotFound) names the model, offers /model, and is an error view (not a reply)', () => {
    const v = describeTurnError(failed('modelNotFound', 'The model `gpt-5.3-codex` does not exist or you do not have access to it.'), {
      model: 'gpt-5.3-codex',
    });
    expect(v.kind).toBe('modelUnavailable');
    expect(v.message).toMatch(/^The model gpt-5\.3-codex is not available for this account \(or was retired\)/);
    expect(v.message).toContain('does not exist or you do not have access');
    expect(v.hint).toBe(MODEL_HINT);
  });

  it('model unavailable without a known model id', () => {
    expect(describeTurnError(failed('modelNotFound', null)).message).toBe('The model chosen for this chat is not available for this account (or was retired).');
  });

  it('overloaded gives the /model hint and the HTTP status when Codex sent one', () => {
    const v = describeTurnError(failed({ httpConnectionFailed: { httpStatusCode: 529 } }, 'unexpected status 529'), { model: 'gpt-5.5' });
    expect(v).toEqual({ kind: 'overloaded', message: 'The model gpt-5.5 is overloaded right now (HTTP 529): unexpected status 529', hint: MODEL_HINT });
    expect(describeTurnError(failed('serverOverloaded', 'Selected model is at capacity. Please try a different model.')).message).toBe(
      'The model is overloaded right now: Selected model is at capacity. Please try a different model.',
    );
  });

  it('rate limit: plain, with the status, and no /model hint', () => {
    const v = describeTurnError(failed({ responseTooManyFailedAttempts: { httpStatusCode: 429 } }, 'exceeded retry limit, last status: 429 Too Many Requests'));
    expect(v.message).toBe('Rate limited by the model provider (HTTP 429): exceeded retry limit, last status: 429 Too Many Requests');
    expect(v.hint).not.toContain('/model');
  });

  it('context window: plain message, /compact and /new in the hint', () => {
    const v = describeTurnError(failed('contextWindowExceeded', "Codex ran out of room in the model's context window."));
    expect(v.message).toBe('The conversation no longer fits in the model’s context window.');
    expect(v.hint).toContain('/compact');
    expect(v.hint).toContain('/new');
  });

  it('unauthorized, network, server error and policy say what happened and keep Codex’s text', () => {
    // A 401 says Codex is not signed in and how to sign in (docs/architecture.md "Account"); a 403 is a refusal as is.
    const unsigned = describeTurnError(failed({ httpConnectionFailed: { httpStatusCode: 401 } }, 'unexpected status 401 Unauthorized: bad key'));
    expect(unsigned.message).toBe('Codex is not signed in, or the model provider refused its sign-in (HTTP 401): unexpected status 401 Unauthorized: bad key');
    expect(unsigned.hint).toContain('angelia login');
    expect(unsigned.hint).toContain('Sign in');
    expect(describeTurnError(failed({ httpConnectionFailed: { httpStatusCode: 403 } }, 'unexpected status 403 Forbidden')).message).toBe(
      'The model provider refused Codex’s credentials (HTTP 403): unexpected status 403 Forbidden',
    );
    expect(describeTurnError(failed({ responseStreamDisconnected: { httpStatusCode: null } }, 'stream disconnected')).message).toBe(
      'Codex could not reach the model provider: stream disconnected',
    );
    expect(describeTurnError(failed('internalServerError', 'We’re currently experiencing high demand.')).message).toBe(
      'The model provider had a server error: We’re currently experiencing high demand.',
    );
    expect(describeTurnError(failed('cyberPolicy', 'blocked by policy'))).toEqual({
      kind: 'policy',
      message: 'Codex stopped this turn under its usage policy: blocked by policy',
      hint: null,
    });
    expect(describeTurnError(failed('tooManyDenials', null)).message).toBe('Codex stopped this turn: too many of its actions were declined.');
    expect(describeTurnError(failed('bioPolicy', 'This content was flagged for possible biological risk.'))).toEqual({
      kind: 'policy',
      message:
        'The model provider stopped this turn: it flagged the request under its biological safety policy: This content was flagged for possible biological risk.',
      hint: null,
    });
    expect(describeTurnError(failed('bioPolicy', null)).message).toBe(
      'The model provider stopped this turn: it flagged the request under its biological safety policy.',
    );
  });

  it('session budget points to /new, not /model', () => {
    const v = describeTurnError(failed('sessionBudgetExceeded', null));
    expect(v).toEqual({ kind: 'usageLimit', message: 'This session has used up its token budget.', hint: 'Start a new session with /new.' });
  });

  it('other: Codex’s text as is, or a plain line when there is none', () => {
    expect(describeTurnError(failed('other', 'stream disconnected before completion: upstream broke')).message).toBe(
      'stream disconnected before completion: upstream broke',
    );
    expect(describeTurnError(failed(null, null))).toEqual({ kind: 'other', message: 'The turn failed (Codex gave no reason).', hint: null });
    expect(describeTurnError(failed(null, '   '))).toEqual({ kind: 'other', message: 'The turn failed (Codex gave no reason).', hint: null });
  });

  it('the /model hint is given exactly for usageLimit, modelUnavailable and overloaded', () => {
    const infos: unknown[] = [
      'usageLimitExceeded',
      'rateLimitExceeded',
      'serverOverloaded',
      'modelNotFound',
      'contextWindowExceeded',
      'unauthorized',
      { responseStreamDisconnected: { httpStatusCode: null } },
      'internalServerError',
      'cyberPolicy',
      'bioPolicy',
      'other',
    ];
    const withHint = infos
      .map((i) => describeTurnError(failed(i)))
      .filter((v) => v.hint === MODEL_HINT)
      .map((v) => v.kind);
    expect(withHint).toEqual(['usageLimit', 'overloaded', 'modelUnavailable']);
  });
});
