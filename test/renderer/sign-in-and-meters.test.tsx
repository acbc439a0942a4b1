/**
 * The sign-in screen and the usage meters as they render (react-dom/server): each state of the account
 * (needs a sign-in, signed in with ChatGPT or an API key, no sign-in needed), a sign-in in flight (the
 * ChatGPT link, opened through the host or only shown; the device code), the API key as a password
 * field; the header meter, the composer's context meter (Compact from 90 %) and "paused until". The
 * same in a real browser: test/e2e/ui-usage.test.ts.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ChatUsage, HomeUsage } from '../../src/shared/usage';
import { initialAccount, type AccountSlice } from '../../src/renderer/src/store/account';
import { SignInView, type SignInHandlers } from '../../src/renderer/src/features/account/SignIn';
import { ContextMeterView, PausedLineView, UsageMeterView } from '../../src/renderer/src/features/usage/Meters';
import { contextShown } from '../../src/renderer/src/features/usage/describe';
import { offersSignIn } from '../../src/renderer/src/features/chat/describe';
import { accountView, loginProgress } from '../fixtures/account';

process.env.TZ = 'UTC';
const NOW = new Date('2026-12-01T12:00:00Z');

const view = accountView;
const progress = loginProgress;
const noop = (): void => undefined;
const handlers = (open = false): SignInHandlers => ({ signIn: noop, cancel: noop, clear: noop, signOut: noop, ...(open ? { open: noop } : {}) });
const screen = (account: Partial<AccountSlice>, open = false): string =>
  renderToStaticMarkup(<SignInView account={{ ...initialAccount, ...account }} h={handlers(open)} onClose={noop} />);
const has = (html: string, testId: string): boolean => html.includes(`data-testid="${testId}"`);
const text = (html: string): string => html.replace(/<[^>]+>/g, '').replace(/&#x27;/g, "'");

describe('the sign-in screen', () => {
  it('not signed in: says so and offers ChatGPT, a device code and an API key in a password field; "Later" closes', () => {
    const html = screen({ view: view() });
    expect(text(html)).toContain('Codex is not signed in.');
    expect(html).toContain('data-signed-in="false"');
    for (const id of ['sign-in-chatgpt', 'sign-in-device', 'api-key-form']) expect(has(html, id)).toBe(true);
    expect(html).toMatch(/<input[^>]*type="password"[^>]*data-testid="api-key-input"|<input[^>]*data-testid="api-key-input"[^>]*type="password"/);
    expect(html).toMatch(/autoComplete="off"|autocomplete="off"/);
    expect(has(html, 'sign-out')).toBe(false);
    expect(text(html)).toContain('Later');
  });

  it('signed in with ChatGPT: email and plan, Sign out, no ways in', () => {
    const html = screen({ view: view({ signedIn: true, method: 'chatgpt', email: 'ada@example.com', plan: 'plus' }) });
    expect(text(html)).toContain('Signed in with ChatGPT as ada@example.com');
    expect(text(html)).toContain('Plus');
    expect(has(html, 'sign-out')).toBe(true);
    expect(has(html, 'sign-in-ways')).toBe(false);
    expect(text(html)).toContain('Close');
  });

  it('signed in with an API key; a provider that needs no sign-in still offers the ways', () => {
    expect(text(screen({ view: view({ signedIn: true, method: 'apiKey' }) }))).toContain('Signed in with an API key.');
    const none = screen({ view: view({ requiresOpenaiAuth: false }) });
    expect(text(none)).toContain('needs no OpenAI sign-in');
    expect(has(none, 'sign-in-ways')).toBe(true);
  });

  it('ChatGPT pending in Electron: the page opened through the host, the link, "Open the browser again" and Cancel', () => {
    const html = screen({ view: view(), login: progress() }, true);
    expect(text(html)).toContain('Finish signing in in your browser.');
    expect(html).toContain('href="https://auth.openai.com/oauth/authorize?client=codex"');
    expect(has(html, 'login-open')).toBe(true);
    expect(has(html, 'login-cancel')).toBe(true);
    expect(has(html, 'sign-in-ways')).toBe(false);
  });

  it('ChatGPT pending in a browser tab: only the link to click (no opener)', () => {
    const html = screen({ view: view(), login: progress() });
    expect(text(html)).toContain('Open this link in a browser on this computer');
    expect(html).toContain('target="_blank"');
    expect(has(html, 'login-open')).toBe(false);
  });

  it('a device code: the page and the code', () => {
    const html = screen({
      view: view(),
      login: progress({ method: 'deviceCode', authUrl: null, verificationUrl: 'https://auth.openai.com/codex/device', userCode: 'ABCD-1234' }),
    });
    expect(html).toContain('href="https://auth.openai.com/codex/device"');
    expect(text(html)).toContain('ABCD-1234');
  });

  it('a failure is said, and the ways are offered again; a completed sign-in says so', () => {
    const failed = screen({ view: view(), login: progress({ state: 'failed' }), error: 'Not signed in: denied' });
    expect(text(failed)).toContain('Not signed in: denied');
    expect(has(failed, 'sign-in-ways')).toBe(true);
    const done = screen({ view: view({ signedIn: true, method: 'chatgpt' }), login: progress({ state: 'completed' }) });
    expect(has(done, 'login-done')).toBe(true);
  });

  it('lists every rate-limit window under the account', () => {
    const html = renderToStaticMarkup(
      <SignInView
        account={{ ...initialAccount, view: view({ signedIn: true, method: 'apiKey' }) }}
        h={handlers()}
        onClose={noop}
        usage={[home(42, 77)]}
        now={NOW}
      />,
    );
    expect([...html.matchAll(/data-testid="usage-row"/g)]).toHaveLength(2);
    expect(text(html)).toContain('5 h42 % usedresets in 2 h 14 min');
    expect(text(html)).toContain('week77 % used');
  });

  it('before the account is read: a line saying so', () => {
    expect(text(screen({}))).toContain('Reading the Codex account');
  });

  it.each([
    [{ kind: 'unauthorized', message: 'The model provider refused Codex’s credentials' }, true],
    [{ message: 'Codex is not signed in' }, true],
    [{ kind: 'usageLimit', message: 'Usage limit reached' }, false],
  ])('an error item %j offers the sign-in: %s', (item, offers) => expect(offersSignIn(item)).toBe(offers));
});

const home = (primary: number, secondary: number | null, over: Partial<HomeUsage> = {}): HomeUsage => ({
  codexHome: '/home/u/.codex',
  rateLimits: {
    primary: { usedPercent: primary, windowMinutes: 300, resetsAt: '2026-12-01T14:14:00Z' },
    secondary: secondary === null ? null : { usedPercent: secondary, windowMinutes: 10080, resetsAt: null },
  },
  reportedAt: null,
  pausedUntil: null,
  ...over,
});
const usage = (contextPercent: number | null): ChatUsage => ({
  lastTurn: { input: 11_000, output: 1_345, total: 12_345, contextWindow: 272_000 },
  session: { input: 40_000, output: 5_600, total: 45_600, contextWindow: 272_000 },
  contextPercent,
});

describe('the meters', () => {
  it('header: the fullest window, its level, every window in the tooltip; nothing before a report', () => {
    const html = renderToStaticMarkup(<UsageMeterView homes={[home(42, 77)]} now={NOW} />);
    expect(html).toContain('data-level="warn"');
    expect(text(html)).toBe('week77 %');
    expect(html).toContain('5 h: 42 % used · resets in 2 h 14 min');
    expect(html).toContain('week: 77 % used');
    expect(renderToStaticMarkup(<UsageMeterView homes={[home(0, null, { rateLimits: null })]} now={NOW} />)).toBe('');
  });

  it('composer: context percent and tokens; Compact only from 90 %, off when sending is', () => {
    const calm = renderToStaticMarkup(<ContextMeterView usage={usage(64)} canCompact onCompact={noop} />);
    expect(text(calm)).toContain('context 64 %');
    expect(text(calm)).toContain('turn 12.3k · session 45.6k tokens');
    expect(calm).toContain('title="last turn 12.3k tokens · session 45.6k tokens (context window 272k)"');
    expect(has(calm, 'compact-button')).toBe(false);
    const full = renderToStaticMarkup(<ContextMeterView usage={usage(92)} canCompact onCompact={noop} />);
    expect(full).toContain('data-level="high"');
    expect(text(full)).toContain('/compact');
    expect(full).not.toMatch(/data-testid="compact-button"[^>]*disabled/);
    expect(renderToStaticMarkup(<ContextMeterView usage={usage(95)} canCompact={false} onCompact={noop} />)).toMatch(
      /disabled=""[^>]*data-testid="compact-button"|data-testid="compact-button"[^>]*disabled=""/,
    );
    expect(renderToStaticMarkup(<ContextMeterView usage={null} canCompact onCompact={noop} />)).toBe('');
  });

  it.each([
    [null, null],
    [{ lastTurn: null, session: null, contextPercent: null }, null],
    [
      { lastTurn: null, session: null, contextPercent: 90 },
      { label: 'context 90 %', suggestCompact: true, level: 'high', detail: '', tokens: '' },
    ],
    [usage(null), { percent: null, label: 'context ?', suggestCompact: false }],
  ])('contextShown(%j)', (u, shown) => {
    const got = contextShown(u);
    if (shown === null) expect(got).toBeNull();
    else expect(got).toMatchObject(shown);
  });

  it('paused: "paused until 14:05" while ahead; nothing once past or when not paused', () => {
    expect(text(renderToStaticMarkup(<PausedLineView pausedUntil="2026-12-01T14:05:00Z" now={NOW} where="row" />))).toBe('paused until 14:05');
    expect(renderToStaticMarkup(<PausedLineView pausedUntil="2026-12-01T11:00:00Z" now={NOW} where="chat" />)).toBe('');
    expect(renderToStaticMarkup(<PausedLineView pausedUntil={null} now={NOW} where="chat" />)).toBe('');
  });
});
