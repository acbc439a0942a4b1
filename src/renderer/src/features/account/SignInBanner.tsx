/**
 * "Codex is not signed in": shown at the top of the window (a first run, or after a sign-out) while Codex
 * needs a sign-in before any agent can answer, with "Sign in…" to open the sign-in screen. Hidden while
 * that screen is open.
 */
import type { ReactElement } from 'react';
import { needsSignIn } from '../../../../shared/usageText';
import { useSession } from '../../api/session';
import { useAppStore } from '../../store/store';

/** The banner, or nothing when Codex is signed in, needs no sign-in, or the screen is open. */
export function SignInBanner(): ReactElement | null {
  const session = useSession();
  const needs = useAppStore((s) => needsSignIn(s.account.view));
  const open = useAppStore((s) => s.panel.kind === 'account');
  if (!needs || open) return null;
  return (
    <div className="banner warn sign-in-banner" data-testid="sign-in-banner" role="status">
      <span>Codex is not signed in: agents cannot answer until you sign in.</span>
      <button type="button" className="btn small" data-testid="sign-in-banner-open" onClick={() => session.openSignIn()}>
        Sign in…
      </button>
    </div>
  );
}
