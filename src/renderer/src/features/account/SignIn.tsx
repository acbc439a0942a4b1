/**
 * The sign-in screen: whether Codex is signed in (ChatGPT with email and plan, or an API key) or needs
 * it, and the three ways in — ChatGPT in the browser (its page opened through the host, or the link to
 * click; Codex waits for the browser's answer on 127.0.0.1:1455), a device code (a page to open anywhere
 * and a code to type), or an API key (a password field; the key is sent once with `account:login` and
 * kept nowhere: not in the store, cleared from the field when sent). Sign out. Opened by itself on a
 * first run that needs a sign-in, from the header, and from a chat whose turn failed signed out.
 */
import { useState, type FormEvent, type ReactElement } from 'react';
import type { AccountView, LoginProgress, LoginRequest } from '../../../../shared/account';
import { accountLine, needsSignIn, planName } from '../../../../shared/usageText';
import { useSession } from '../../api/session';
import type { AccountSlice } from '../../store/account';
import { useAppStore } from '../../store/store';
import { UsageListView } from '../usage/Meters';
import { useNow } from '../usage/useNow';
import type { HomeUsage } from '../../../../shared/usage';

/** What the screen can do (the session's actions, or fakes in tests). */
export interface SignInHandlers {
  signIn(req: LoginRequest): void;
  cancel(): void;
  clear(): void;
  signOut(): void;
  /** Opens a URL in the system browser; absent when the host cannot (a browser tab: the link is clicked). */
  open?: (url: string) => void;
  /** "Try now" on a Codex home's usage-limit pause (`usage:resume`); absent: no button. */
  resume?: (codexHome: string) => void;
}

/** Where the account stands, in a sentence or two. */
function Status({ view }: { view: AccountView | null }): ReactElement {
  if (!view) return <div className="empty">Reading the Codex account…</div>;
  const needs = needsSignIn(view);
  return (
    <div className={`account-status${needs ? ' needs' : view.signedIn ? ' ok' : ''}`} data-testid="account-status" data-signed-in={String(view.signedIn)}>
      {view.signedIn && view.method === 'chatgpt' && (
        <div>
          Signed in with <strong>ChatGPT</strong>
          {view.email && (
            <>
              {' '}
              as <strong data-testid="account-email">{view.email}</strong>
            </>
          )}
        </div>
      )}
      {view.signedIn && view.method === 'chatgpt' && view.plan && (
        <div className="meta">
          ChatGPT plan{' '}
          <span className="badge account-plan" data-testid="account-plan">
            {planName(view.plan)}
          </span>
        </div>
      )}
      {view.signedIn && view.method === 'apiKey' && (
        <div>
          Signed in with an <strong>API key</strong>.
        </div>
      )}
      {view.signedIn && view.method === null && <div>{accountLine(view)}</div>}
      {needs && (
        <div>
          <strong>Codex is not signed in.</strong> Agents cannot answer until you sign in.
        </div>
      )}
      {!view.signedIn && !view.requiresOpenaiAuth && <div>The model provider Codex is set up with needs no OpenAI sign-in.</div>}
      <div className="meta">
        Codex home <code>{view.codexHome}</code>
      </div>
    </div>
  );
}

/** A sign-in waiting for the browser or the device code, with Cancel. */
function Pending({ login, h, busy }: { login: LoginProgress; h: SignInHandlers; busy: boolean }): ReactElement {
  const open = h.open;
  return (
    <div className="login-pending" data-testid="login-pending" data-method={login.method}>
      {login.method === 'chatgpt' && login.authUrl && (
        <>
          <div>{open ? 'Finish signing in in your browser.' : 'Open this link in a browser on this computer to finish signing in:'}</div>
          <a className="login-url" data-testid="login-url" href={login.authUrl} target="_blank" rel="noreferrer noopener">
            {login.authUrl}
          </a>
          {open && (
            <button type="button" className="btn small" data-testid="login-open" onClick={() => open(login.authUrl ?? '')}>
              Open the browser again
            </button>
          )}
        </>
      )}
      {login.method === 'deviceCode' && (
        <>
          <div>
            Open{' '}
            {login.verificationUrl ? (
              <a data-testid="login-url" href={login.verificationUrl} target="_blank" rel="noreferrer noopener">
                {login.verificationUrl}
              </a>
            ) : (
              'the sign-in page'
            )}{' '}
            on any device and enter this code:
          </div>
          <code className="device-code" data-testid="device-code">
            {login.userCode ?? '…'}
          </code>
        </>
      )}
      <div className="meta">Waiting for Codex to finish the sign-in…</div>
      <button type="button" className="btn" data-testid="login-cancel" disabled={busy} onClick={h.cancel}>
        {busy ? 'Cancelling…' : 'Cancel'}
      </button>
    </div>
  );
}

/** The API key form: a password field; the key leaves the field when sent. */
function ApiKeyForm({ h, busy }: { h: SignInHandlers; busy: boolean }): ReactElement {
  const [key, setKey] = useState('');
  const submit = (e: FormEvent): void => {
    e.preventDefault();
    const apiKey = key.trim();
    if (!apiKey) return;
    setKey('');
    h.signIn({ method: 'apiKey', apiKey });
  };
  return (
    <form className="api-key-form" data-testid="api-key-form" onSubmit={submit}>
      <label className="meta" htmlFor="api-key">
        Or use an OpenAI API key (sent to Codex once, never kept by Angelia)
      </label>
      <div className="api-key-row">
        <input
          id="api-key"
          data-testid="api-key-input"
          type="password"
          autoComplete="off"
          spellCheck={false}
          placeholder="sk-…"
          value={key}
          onChange={(e) => setKey(e.target.value)}
        />
        <button type="submit" className="btn" data-testid="api-key-submit" disabled={busy || key.trim() === ''}>
          {busy ? 'Signing in…' : 'Use this key'}
        </button>
      </div>
    </form>
  );
}

/** The screen for an account slice (pure but for the API key field's own state). */
export function SignInView({
  account,
  h,
  onClose,
  usage = [],
  now = new Date(),
}: {
  account: AccountSlice;
  h: SignInHandlers;
  onClose: () => void;
  /** The rate limits to list under the account (the header meter's detail). */
  usage?: readonly HomeUsage[];
  now?: Date;
}): ReactElement {
  const { view, login, busy, error } = account;
  const pending = login?.state === 'pending';
  const done = login?.state === 'completed';
  const showWays = view !== null && !view.signedIn && !pending && !done;
  return (
    <div className="pane panel sign-in" data-testid="sign-in-panel">
      <header className="pane-head panel-head">
        <button type="button" className="btn link back" onClick={onClose} aria-label="Back">
          ‹ Back
        </button>
        <strong className="panel-title">Codex account</strong>
        <span className="spacer" />
        <button type="button" className="btn small" data-testid="sign-in-close" onClick={onClose}>
          {view && needsSignIn(view) ? 'Later' : 'Close'}
        </button>
      </header>
      <div className="panel-body">
        <Status view={view} />
        <UsageListView homes={usage} now={now} {...(h.resume ? { onResume: h.resume } : {})} />
        {error && (
          <div className="issue issue-error" data-testid="account-error" role="alert">
            {error}
          </div>
        )}
        {pending && login && <Pending login={login} h={h} busy={busy === 'cancel'} />}
        {done && (
          <div className="login-done" data-testid="login-done" role="status">
            Signed in.{' '}
            <button type="button" className="btn small" onClick={onClose}>
              Done
            </button>
          </div>
        )}
        {showWays && (
          <div className="sign-in-ways" data-testid="sign-in-ways">
            <button
              type="button"
              className="btn primary"
              data-testid="sign-in-chatgpt"
              disabled={busy !== null}
              onClick={() => h.signIn({ method: 'chatgpt' })}
            >
              {busy === 'chatgpt' ? 'Starting…' : 'Sign in with ChatGPT'}
            </button>
            <button type="button" className="btn" data-testid="sign-in-device" disabled={busy !== null} onClick={() => h.signIn({ method: 'deviceCode' })}>
              {busy === 'deviceCode' ? 'Starting…' : 'Sign in with a device code'}
            </button>
            <ApiKeyForm h={h} busy={busy === 'apiKey'} />
          </div>
        )}
        {view?.signedIn && !pending && (
          <div className="sign-out">
            <button type="button" className="btn" data-testid="sign-out" disabled={busy !== null} onClick={h.signOut}>
              {busy === 'logout' ? 'Signing out…' : 'Sign out'}
            </button>
          </div>
        )}
      </div>
    </div>
  );
}

/** The screen, from the store and the session. */
export function SignIn(): ReactElement {
  const session = useSession();
  const account = useAppStore((s) => s.account);
  const usage = useAppStore((s) => s.usage.homes);
  const now = useNow();
  const open = session.openExternal;
  const h: SignInHandlers = {
    signIn: (req) => void session.signIn(req),
    cancel: () => void session.cancelSignIn(),
    clear: () => session.clearSignIn(),
    signOut: () => void session.signOut(),
    resume: (codexHome) => void session.resumeUsage(codexHome),
    ...(open ? { open: (url: string) => void open(url) } : {}),
  };
  return (
    <SignInView
      account={account}
      usage={usage}
      now={now}
      h={h}
      onClose={() => {
        session.clearSignIn();
        session.closePanel();
      }}
    />
  );
}
