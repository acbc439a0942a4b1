import { describe, expect, it } from 'vitest';
import type { LoginProgress } from '../../../src/shared/account';
import { codexLoginType, isSettled, loginBegins, loginStep, redact, type LoginInput } from '../../../src/main/core/account/login';

const URL = 'https://auth.openai.com/oauth/authorize?response_type=code';
const chatgpt = (): LoginProgress => loginStep(loginBegins('chatgpt'), { kind: 'answered', response: { type: 'chatgpt', loginId: 'l-1', authUrl: URL } });

describe('loginStep', () => {
  const cases: Array<[string, LoginProgress, LoginInput, Partial<LoginProgress>]> = [
    [
      'API key answered: still pending until Codex says completed',
      loginBegins('apiKey'),
      { kind: 'answered', response: { type: 'apiKey' } },
      { state: 'pending', loginId: null },
    ],
    ['API key completed', loginBegins('apiKey'), { kind: 'completed', loginId: null, success: true, error: null }, { state: 'completed', error: null }],
    ['API key refused', loginBegins('apiKey'), { kind: 'refused', error: 'bad' }, { state: 'failed', error: 'bad' }],
    [
      'ChatGPT answered: pending with the address',
      loginBegins('chatgpt'),
      { kind: 'answered', response: { type: 'chatgpt', loginId: 'l-1', authUrl: URL } },
      { state: 'pending', loginId: 'l-1', authUrl: URL },
    ],
    [
      'ChatGPT answered without an address: failed',
      loginBegins('chatgpt'),
      { kind: 'answered', response: { type: 'chatgpt', loginId: 'l-1' } },
      { state: 'failed', error: 'Codex gave no sign-in address' },
    ],
    [
      'device code answered',
      loginBegins('deviceCode'),
      { kind: 'answered', response: { type: 'chatgptDeviceCode', loginId: 'd-1', verificationUrl: 'https://auth.openai.com/codex/device', userCode: 'AB-12' } },
      { state: 'pending', loginId: 'd-1', verificationUrl: 'https://auth.openai.com/codex/device', userCode: 'AB-12' },
    ],
    [
      'device code without a code: failed',
      loginBegins('deviceCode'),
      { kind: 'answered', response: { loginId: 'd-1', verificationUrl: 'https://x' } },
      { state: 'failed', error: 'Codex gave no device code' },
    ],
    ['ChatGPT completed', chatgpt(), { kind: 'completed', loginId: 'l-1', success: true, error: null }, { state: 'completed', authUrl: URL }],
    [
      'ChatGPT failed with Codex\u2019s error',
      chatgpt(),
      { kind: 'completed', loginId: 'l-1', success: false, error: 'Login server error' },
      { state: 'failed', error: 'Login server error' },
    ],
    [
      'ChatGPT failed without an error text',
      chatgpt(),
      { kind: 'completed', loginId: 'l-1', success: false, error: null },
      { state: 'failed', error: 'Codex did not complete the sign-in' },
    ],
    ['another sign-in\u2019s end leaves it pending', chatgpt(), { kind: 'completed', loginId: 'l-2', success: true, error: null }, { state: 'pending' }],
    ['cancelled', chatgpt(), { kind: 'cancelled' }, { state: 'cancelled', error: null }],
    [
      'Codex exited',
      chatgpt(),
      { kind: 'exited', detail: 'exit code 1' },
      { state: 'failed', error: 'Codex stopped before the sign-in completed: exit code 1' },
    ],
    ['timed out', chatgpt(), { kind: 'timedOut', minutes: 15 }, { state: 'failed', error: 'the sign-in was not completed within 15 minutes' }],
  ];
  it.each(cases)('%s', (_name, from, input, expected) => {
    expect(loginStep(from, input)).toMatchObject(expected);
  });

  it('a settled sign-in never changes again', () => {
    const done = loginStep(chatgpt(), { kind: 'cancelled' });
    expect(isSettled(done)).toBe(true);
    for (const input of [
      { kind: 'completed', loginId: 'l-1', success: true, error: null },
      { kind: 'exited', detail: '' },
      { kind: 'refused', error: 'x' },
    ] as LoginInput[]) {
      expect(loginStep(done, input)).toBe(done);
    }
  });
});

describe('codexLoginType and redact', () => {
  it.each([
    ['apiKey', 'apiKey'],
    ['chatgpt', 'chatgpt'],
    ['deviceCode', 'chatgptDeviceCode'],
  ] as const)('%s → %s', (method, type) => expect(codexLoginType(method)).toBe(type));

  it.each([
    ['the key is replaced wherever it appears', 'bad key sk-abc and sk-abc', 'sk-abc', 'bad key … and …'],
    ['no secret: as is', 'plain', null, 'plain'],
    ['a text without the key is unchanged', 'no key here', 'sk-abc', 'no key here'],
  ])('%s', (_name, text, secret, out) => expect(redact(text, secret)).toBe(out));
});
