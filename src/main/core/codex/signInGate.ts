/**
 * The sign-in gate of an agent's start (pure): Codex's `account/read` answer on the agent's own app-server
 * (codex 0.169.0, `GetAccountResponse {account, requiresOpenaiAuth}`) decides whether a turn could reach
 * the model provider at all. Not signed in where the provider needs an OpenAI sign-in, Codex would send
 * each turn without credentials and retry the 401 ("Reconnecting... n/5"), so the start is refused
 * instead (docs/architecture.md "Account"). A provider that needs no OpenAI sign-in, an answer that says
 * nothing, or a failed read refuse nothing (codex/session.ts `openAttestedSession`).
 */
import { AppFailure } from '../../../shared/result';
import { SIGN_IN_HINT } from './turnErrors';
import { isObj } from './wire';

/** The AppFailure code of a start refused for want of a sign-in. */
export const NOT_SIGNED_IN = 'not-signed-in';

/** The message of that refusal (the fix is turnErrors.ts `SIGN_IN_HINT`). */
export const NOT_SIGNED_IN_MESSAGE = 'Codex is not signed in, and its model provider needs an OpenAI sign-in, so no turn was sent.';

/**
 * The refusal for `answer` (`account/read`'s result as Codex sent it, or null when the read failed):
 * AppFailure `not-signed-in` only when Codex says `requiresOpenaiAuth: true` and `account: null`; null
 * otherwise (signed in, no OpenAI sign-in needed, an absent or malformed answer).
 */
export function signInRefusal(answer: unknown): AppFailure | null {
  if (!isObj(answer) || answer.requiresOpenaiAuth !== true || answer.account !== null) return null;
  return new AppFailure({ code: NOT_SIGNED_IN, message: NOT_SIGNED_IN_MESSAGE, fix: SIGN_IN_HINT });
}
