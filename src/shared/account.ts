/**
 * The Codex account as Angelia shows it: who Codex is signed in as for one Codex home, and the sign-in
 * flows (API key, ChatGPT in the browser, ChatGPT with a device code). Read and changed by a short-lived
 * app-server of Angelia's own, never by an agent's (codex 0.169.0: `account/read`, `account/login/start`,
 * `account/login/cancel`, `account/logout`; notifications `account/login/completed`, `account/updated`).
 * The shapes of `angelia account --json` and of the window's sign-in screen. No Node, Electron or React.
 */
import { z } from 'zod';

/** How Codex is signed in (codex `Account.type`; other types are shown as their own name). */
export const AccountMethod = z.enum(['apiKey', 'chatgpt']);
export type AccountMethod = z.infer<typeof AccountMethod>;

/**
 * One Codex home's account: `angelia account --json` (stable) and the window's header. `method` null when
 * not signed in; `email` and `plan` only for ChatGPT; `requiresOpenaiAuth` is Codex's answer (false when
 * the configured model provider needs no OpenAI sign-in, e.g. a local model).
 */
export const AccountView = z.object({
  codexHome: z.string(),
  signedIn: z.boolean(),
  method: AccountMethod.nullable(),
  email: z.string().nullable(),
  plan: z.string().nullable(),
  requiresOpenaiAuth: z.boolean(),
});
export type AccountView = z.infer<typeof AccountView>;

/** A sign-in the user asked for. The API key travels only in this body (never a command line or a log). */
export const LoginRequest = z.discriminatedUnion('method', [
  z.object({ method: z.literal('apiKey'), apiKey: z.string().min(1).max(4096) }).strict(),
  z.object({ method: z.literal('chatgpt') }).strict(),
  z.object({ method: z.literal('deviceCode') }).strict(),
]);
export type LoginRequest = z.infer<typeof LoginRequest>;

/**
 * Where a sign-in stands. `chatgpt`: open `authUrl` in the browser (Codex serves the callback on
 * 127.0.0.1:1455); `deviceCode`: open `verificationUrl` anywhere and type `userCode`. `pending` until Codex
 * says `account/login/completed` (then `completed` or `failed` with `error`), or the user cancels.
 */
export const LoginProgress = z.object({
  loginId: z.string().nullable(),
  method: z.enum(['apiKey', 'chatgpt', 'deviceCode']),
  state: z.enum(['pending', 'completed', 'failed', 'cancelled']),
  authUrl: z.string().nullable(),
  verificationUrl: z.string().nullable(),
  userCode: z.string().nullable(),
  error: z.string().nullable(),
});
export type LoginProgress = z.infer<typeof LoginProgress>;
