/**
 * The header's corner for the account and what it costs: "Sign in" (amber) while Codex needs a sign-in;
 * else the usage meter (the fullest rate-limit window) or, before any report, how it is signed in
 * ("ChatGPT", "API key"). Each
 * opens the sign-in screen (who is signed in, Sign out).
 */
import type { ReactElement } from 'react';
import { accountLine, fullestWindow, needsSignIn } from '../../../../shared/usageText';
import { useSession } from '../../api/session';
import { useAppStore } from '../../store/store';
import { UsageMeterView } from '../usage/Meters';
import { useNow } from '../usage/useNow';

/** The account chip or the usage meter, as a button that opens the sign-in screen. */
export function HeaderAccount(): ReactElement | null {
  const session = useSession();
  const view = useAppStore((s) => s.account.view);
  const homes = useAppStore((s) => s.usage.homes);
  const now = useNow();
  const needs = needsSignIn(view);
  if (needs) {
    return (
      <button
        type="button"
        className="btn small account-chip needs"
        data-testid="account-chip"
        title="Codex is not signed in"
        onClick={() => session.openSignIn()}
      >
        Sign in
      </button>
    );
  }
  const hasMeter = fullestWindow(homes, now) !== null;
  if (!hasMeter && !view?.signedIn) return null;
  return (
    <button
      type="button"
      className="btn small account-chip"
      data-testid="account-chip"
      title={view ? `Codex account: ${accountLine(view)}` : 'Codex account'}
      onClick={() => session.openSignIn()}
    >
      {hasMeter ? <UsageMeterView homes={homes} now={now} /> : view?.method === 'apiKey' ? 'API key' : view?.method === 'chatgpt' ? 'ChatGPT' : 'Account'}
    </button>
  );
}
