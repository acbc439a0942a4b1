/**
 * The loopback API's account routes (routes.ts holds the table): the Codex account of Angelia's Codex
 * home, read and changed by the orchestrator's account service (`account:*` channels,
 * core/account/service.ts; docs/architecture.md "Account"). Owner only: an agent never signs Codex in or
 * out, nor learns who it is signed in as.
 *
 * The API key of `POST /account/login` is in that request body only. It is never in an answer, an error
 * message or anything logged: the progress's `error` and any thrown failure pass through `redact`
 * (core/account/login.ts) before they leave the route, and body errors name fields, never values
 * (docs/security-model.md "The Codex account").
 */
import { z } from 'zod';
import { AccountView, LoginProgress, LoginRequest } from '../../../shared/account';
import { AppFailure } from '../../../shared/result';
import { redact } from '../../core/account/login';
import { json } from '../routeKit';

/** The example's Codex home and account (the tests' fake core answers them). */
export const EX_ACCOUNT: AccountView = {
  codexHome: '/home/me/.codex',
  signedIn: true,
  method: 'chatgpt',
  email: 'me@example.com',
  plan: 'plus',
  requiresOpenaiAuth: true,
};
/** The example's signed-out account (after `POST /account/logout`). */
export const EX_SIGNED_OUT: AccountView = { codexHome: '/home/me/.codex', signedIn: false, method: null, email: null, plan: null, requiresOpenaiAuth: true };
/** The example's pending sign-in id (the tests' fake core holds it pending). */
export const EX_LOGIN = '7c1e4b2a-9d3f-4a6e-8b5c-0f2d4e6a8c13';
/** The example's ChatGPT sign-in address (Codex's, callback on 127.0.0.1:1455). */
export const EX_AUTH_URL = 'https://auth.openai.com/oauth/authorize?response_type=code&redirect_uri=http%3A%2F%2F127.0.0.1%3A1455%2Fauth%2Fcallback';
/** The example's device-code sign-in: where to go and what to type. */
export const EX_DEVICE = { verificationUrl: 'https://auth.openai.com/codex/device', userCode: 'ABCD-1234' } as const;
/** The example's API key (a placeholder: an example is public). */
export const EX_API_KEY = 'sk-proj-EXAMPLE-0123456789abcdef';

const CancelBody = z.object({ loginId: z.string().min(1).max(200).describe('the `loginId` of a pending sign-in') }).strict();
const Cancelled = z.object({ cancelled: z.boolean().describe('false when no sign-in was pending under that id') }).strict();

const pending = (p: Partial<LoginProgress> & Pick<LoginProgress, 'method'>): LoginProgress => ({
  loginId: EX_LOGIN,
  state: 'pending',
  authUrl: null,
  verificationUrl: null,
  userCode: null,
  error: null,
  ...p,
});

/**
 * `e` with every occurrence of `secret` taken out of what it says (message, fix, where). An AppFailure
 * stays one (same code, so the same status); anything else becomes an Error with the redacted message.
 */
export function redactFailure(e: unknown, secret: string): unknown {
  if (e instanceof AppFailure) {
    const { code, message, fix, where } = e.app;
    return new AppFailure({
      code,
      message: redact(message, secret),
      ...(fix !== undefined ? { fix: redact(fix, secret) } : {}),
      ...(where !== undefined ? { where: redact(where, secret) } : {}),
    });
  }
  return new Error(redact(e instanceof Error ? e.message : String(e), secret));
}

/** `GET /account`: who Codex is signed in as. */
export const accountRoute = json({
  id: 'account',
  method: 'GET',
  path: '/account',
  access: ['owner'],
  summary: 'Who Codex is signed in as',
  description:
    "The Codex account of Angelia's Codex home (`CODEX_HOME`, else `~/.codex`), as Codex's `account/read` answers it: `method` null when not signed in; `email` and `plan` only for ChatGPT; `requiresOpenaiAuth` false when the configured model provider needs no OpenAI sign-in.",
  query: null,
  body: null,
  response: AccountView,
  errors: { 502: 'Codex could not read its account (`account-unreadable`)', 503: 'no Codex executable was found (`codex-missing`)' },
  examples: [{ name: 'chatgpt', summary: 'signed in with ChatGPT', caller: 'owner', status: 200, response: EX_ACCOUNT }],
  handle: async (ctx) => ctx.deps.core.account(),
});

/** `POST /account/login`: starts a sign-in. */
export const loginRoute = json({
  id: 'login',
  method: 'POST',
  path: '/account/login',
  access: ['owner'],
  summary: 'Sign Codex in',
  description:
    'Starts a sign-in. `apiKey`: the key goes only into Codex (which writes `CODEX_HOME/auth.json`, mode 600) and the answer is settled: `completed`, or `failed` with the reason; the key is in no answer, error or log. `chatgpt`: open `authUrl` in a browser on this machine (Codex listens for the callback on 127.0.0.1:1455); `deviceCode`: open `verificationUrl` anywhere and type `userCode`. Both answer `pending`; the end comes as the app event `account:login` (or cancel with `/account/login/cancel`); a pending sign-in is cancelled after 15 minutes. A refusal by Codex is a `failed` answer, not an error.',
  query: null,
  body: LoginRequest,
  response: LoginProgress,
  errors: { 503: 'no Codex executable was found (`codex-missing`)' },
  examples: [
    {
      name: 'apiKey',
      summary: 'an OpenAI API key',
      caller: 'owner',
      body: { method: 'apiKey', apiKey: EX_API_KEY },
      status: 200,
      response: { loginId: null, method: 'apiKey', state: 'completed', authUrl: null, verificationUrl: null, userCode: null, error: null },
    },
    {
      name: 'chatgpt',
      summary: 'ChatGPT in the browser',
      caller: 'owner',
      body: { method: 'chatgpt' },
      status: 200,
      response: pending({ method: 'chatgpt', authUrl: EX_AUTH_URL }),
    },
    {
      name: 'deviceCode',
      summary: 'ChatGPT with a device code',
      caller: 'owner',
      body: { method: 'deviceCode' },
      status: 200,
      response: pending({ method: 'deviceCode', ...EX_DEVICE }),
    },
  ],
  handle: async (ctx) => {
    const secret = ctx.body.method === 'apiKey' ? ctx.body.apiKey : '';
    let progress: LoginProgress;
    try {
      progress = await ctx.deps.core.login(ctx.body);
    } catch (e) {
      throw redactFailure(e, secret);
    }
    return { ...progress, error: progress.error === null ? null : redact(progress.error, secret) };
  },
});

/** `POST /account/login/cancel`: cancels a pending sign-in. */
export const loginCancelRoute = json({
  id: 'loginCancel',
  method: 'POST',
  path: '/account/login/cancel',
  access: ['owner'],
  summary: 'Cancel a pending sign-in',
  description:
    'Cancels a pending ChatGPT or device-code sign-in (Codex stops listening for its callback). `cancelled: false` when none is pending under that id (it completed, failed, was cancelled, or never was).',
  query: null,
  body: CancelBody,
  response: Cancelled,
  errors: {},
  examples: [
    { name: 'cancelled', summary: 'the sign-in was pending', caller: 'owner', body: { loginId: EX_LOGIN }, status: 200, response: { cancelled: true } },
    {
      name: 'none',
      summary: 'nothing pending under that id',
      caller: 'owner',
      body: { loginId: 'no-such-login' },
      status: 200,
      response: { cancelled: false },
    },
  ],
  handle: async (ctx) => ctx.deps.core.loginCancel(ctx.body.loginId),
});

/** `POST /account/logout`: signs Codex out. */
export const logoutRoute = json({
  id: 'logout',
  method: 'POST',
  path: '/account/logout',
  access: ['owner'],
  summary: 'Sign Codex out',
  description: 'Codex removes `CODEX_HOME/auth.json`; the answer is the account after it.',
  query: null,
  body: null,
  response: AccountView,
  errors: { 502: 'Codex could not read its account (`account-unreadable`)', 503: 'no Codex executable was found (`codex-missing`)' },
  examples: [{ name: 'out', summary: 'signed out', caller: 'owner', status: 200, response: EX_SIGNED_OUT }],
  handle: async (ctx) => ctx.deps.core.logout(),
});
