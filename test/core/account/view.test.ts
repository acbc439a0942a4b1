import { describe, expect, it } from 'vitest';
import { accountSentence, accountView, type AccountAnswer } from '../../../src/main/core/account/view';

const HOME = '/home/me/.codex';

describe('accountView: GetAccountResponse → AccountView (codex 0.169.0)', () => {
  const cases: Array<[string, AccountAnswer | null, Partial<ReturnType<typeof accountView>>]> = [
    ['not signed in', { account: null, requiresOpenaiAuth: true }, { signedIn: false, method: null, email: null, plan: null, requiresOpenaiAuth: true }],
    ['an API key', { account: { type: 'apiKey' }, requiresOpenaiAuth: true }, { signedIn: true, method: 'apiKey', email: null, plan: null }],
    [
      'ChatGPT with email and plan',
      { account: { type: 'chatgpt', email: 'me@example.com', planType: 'plus' }, requiresOpenaiAuth: true },
      { signedIn: true, method: 'chatgpt', email: 'me@example.com', plan: 'plus' },
    ],
    [
      'ChatGPT without email',
      { account: { type: 'chatgpt', email: null, planType: 'unknown' } },
      { signedIn: true, method: 'chatgpt', email: null, plan: 'unknown' },
    ],
    ['another account type (Bedrock)', { account: { type: 'amazonBedrock' } }, { signedIn: true, method: null, email: null, plan: null }],
    ['an email on a non-ChatGPT account is not shown', { account: { type: 'apiKey', email: 'x@y' } }, { method: 'apiKey', email: null }],
    ['a provider without OpenAI auth', { account: null, requiresOpenaiAuth: false }, { signedIn: false, requiresOpenaiAuth: false }],
    ['requiresOpenaiAuth missing reads as true', { account: null }, { requiresOpenaiAuth: true }],
    ['no answer at all', null, { signedIn: false, method: null, requiresOpenaiAuth: true }],
    ['an account without a type', { account: {} }, { signedIn: false, method: null }],
  ];
  it.each(cases)('%s', (_name, answer, expected) => {
    const view = accountView(HOME, answer);
    expect(view).toMatchObject({ codexHome: HOME, ...expected });
    expect(Object.keys(view).sort()).toEqual(['codexHome', 'email', 'method', 'plan', 'requiresOpenaiAuth', 'signedIn']);
  });
});

describe('accountSentence', () => {
  const base = { codexHome: HOME, signedIn: false, method: null, email: null, plan: null, requiresOpenaiAuth: true } as const;
  it.each([
    ['signed out', base, /not signed in .*angelia login/],
    ['signed out, no OpenAI auth needed', { ...base, requiresOpenaiAuth: false }, /needs no OpenAI sign-in/],
    ['API key', { ...base, signedIn: true, method: 'apiKey' as const }, /signed in with an API key/],
    ['ChatGPT', { ...base, signedIn: true, method: 'chatgpt' as const, email: 'me@example.com', plan: 'pro' }, /ChatGPT as me@example.com \(plan pro\)/],
    ['another type', { ...base, signedIn: true }, /^Codex is signed in \(Codex home/],
  ])('%s', (_name, view, sentence) => {
    expect(accountSentence(view)).toMatch(sentence);
    expect(accountSentence(view)).toContain(HOME);
  });
});
