/**
 * Codex's account answer as Angelia shows it (pure): `account/read`'s `GetAccountResponse` → the
 * `AccountView` of src/shared/account.ts (`angelia account --json`, the window's header). Protocol:
 * codex 0.169.0 generated `GetAccountResponse {account: Account | null, requiresOpenaiAuth, …}` with
 * `Account` = `{type:"apiKey"} | {type:"chatgpt", email, planType, workspaceName} | {type:"amazonBedrock", …}
 * | {type:"gcp"}`. Architecture: docs/architecture.md "Account".
 */
import type { AccountView } from '../../../shared/account';

/** The part of `GetAccountResponse` read here (lenient: Codex's value is not validated by the client). */
export interface AccountAnswer {
  account?: { type?: unknown; email?: unknown; planType?: unknown } | null;
  requiresOpenaiAuth?: unknown;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);

/**
 * The view of one Codex home's account. Signed in whenever Codex names an account; `method` is
 * `apiKey` or `chatgpt`, null for any other type (Bedrock, GCP: signed in, shown by no method of ours);
 * `email` and `plan` only for ChatGPT. `requiresOpenaiAuth` is true unless Codex says false.
 */
export function accountView(codexHome: string, answer: AccountAnswer | null | undefined): AccountView {
  const account = answer?.account ?? null;
  const type = account ? account.type : null;
  const chatgpt = type === 'chatgpt';
  return {
    codexHome,
    signedIn: account !== null && typeof type === 'string',
    method: type === 'apiKey' || type === 'chatgpt' ? type : null,
    email: chatgpt ? str(account?.email) : null,
    plan: chatgpt ? str(account?.planType) : null,
    requiresOpenaiAuth: answer?.requiresOpenaiAuth !== false,
  };
}

/** One sentence for `angelia account` without `--json`. */
export function accountSentence(v: AccountView): string {
  if (!v.signedIn) {
    return v.requiresOpenaiAuth
      ? `Codex is not signed in (Codex home ${v.codexHome}). Sign in with \`angelia login\` (ChatGPT in the browser), \`angelia login --device-code\`, or \`angelia login --api-key\` (the key on standard input).`
      : `Codex is not signed in (Codex home ${v.codexHome}); its model provider needs no OpenAI sign-in.`;
  }
  if (v.method === 'apiKey') return `Codex is signed in with an API key (Codex home ${v.codexHome}).`;
  if (v.method === 'chatgpt') {
    const who = v.email ?? 'a ChatGPT account';
    return `Codex is signed in with ChatGPT as ${who}${v.plan ? ` (plan ${v.plan})` : ''} (Codex home ${v.codexHome}).`;
  }
  return `Codex is signed in (Codex home ${v.codexHome}).`;
}
