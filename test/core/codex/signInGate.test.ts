/**
 * The sign-in gate's decision (codex/signInGate.ts) over `account/read` answers as codex 0.169.0 sends
 * them (`GetAccountResponse {account, requiresOpenaiAuth}`), and malformed or absent ones.
 */
import { describe, expect, it } from 'vitest';
import { NOT_SIGNED_IN, NOT_SIGNED_IN_MESSAGE, signInRefusal } from '../../../src/main/core/codex/signInGate';
import { SIGN_IN_HINT } from '../../../src/main/core/codex/turnErrors';

describe('signInRefusal', () => {
  const cases: Array<[string, unknown, boolean]> = [
    ['signed out, OpenAI sign-in needed', { account: null, requiresOpenaiAuth: true }, true],
    ['signed out, no OpenAI sign-in needed (a custom provider)', { account: null, requiresOpenaiAuth: false }, false],
    ['signed in with an API key', { account: { type: 'apiKey' }, requiresOpenaiAuth: true }, false],
    ['signed in with ChatGPT', { account: { type: 'chatgpt', email: 'a@b.c', planType: 'plus' }, requiresOpenaiAuth: true }, false],
    ['requiresOpenaiAuth absent', { account: null }, false],
    ['account absent', { requiresOpenaiAuth: true }, false],
    ['requiresOpenaiAuth not a boolean', { account: null, requiresOpenaiAuth: 'true' }, false],
    ['the read failed (null)', null, false],
    ['an empty answer', {}, false],
    ['not an object', 'signed out', false],
  ];
  it.each(cases)('%s → refused: %s', (_name, answer, refused) => {
    const r = signInRefusal(answer);
    expect(r !== null).toBe(refused);
    if (r) expect(r.app).toEqual({ code: NOT_SIGNED_IN, message: NOT_SIGNED_IN_MESSAGE, fix: SIGN_IN_HINT });
  });

  it('names the fix: angelia login and the window\u2019s Sign in', () => {
    expect(NOT_SIGNED_IN_MESSAGE).toMatch(/^Codex is not signed in/);
    expect(SIGN_IN_HINT).toMatch(/`angelia login`/);
    expect(SIGN_IN_HINT).toMatch(/Sign in in the window/);
  });
});
