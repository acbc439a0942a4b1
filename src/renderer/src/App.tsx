/**
 * The window: the chat list (and the profiles) beside the open chat when wide; one at a time when
 * narrow (a menu-bar popover). The profile editor, a policy inspector, the table review or the sign-in
 * screen take the chat's place while open; the header carries the usage meter and the account. Banners say when the link to Angelia is down, a load failed, or the table
 * on disk changed.
 */
import { useEffect, type ReactElement } from 'react';
import { SessionContext, useSession, type Session } from './api/session';
import { HeaderAccount } from './features/account/HeaderAccount';
import { SignIn } from './features/account/SignIn';
import { SignInBanner } from './features/account/SignInBanner';
import { ChatList } from './features/chats/ChatList';
import { NewChat } from './features/chats/NewChat';
import { ProfileList } from './features/chats/ProfileList';
import { ChatPane } from './features/chat/ChatPane';
import { PolicyInspector } from './features/policy/PolicyInspector';
import { ProfileEditor } from './features/profiles/ProfileEditor';
import { TableBanner } from './features/table/TableBanner';
import { TableReview } from './features/table/TableReview';
import { PastSession } from './features/sessions/PastSession';
import { SessionBrowser } from './features/sessions/SessionBrowser';
import { SessionSearch } from './features/sessions/SessionSearch';
import { applyProblem } from './store/app';
import { update, useAppStore } from './store/store';

function Banner(): ReactElement | null {
  const connection = useAppStore((s) => s.connection);
  const problem = useAppStore((s) => s.problem);
  if (connection === 'no-token') {
    return (
      <div className="banner bad" data-testid="banner">
        No access token in this address. Open the link <code>angelia serve</code> printed (it ends in <code>#token=…</code>).
      </div>
    );
  }
  if (connection === 'closed')
    return (
      <div className="banner warn" data-testid="banner">
        Connection to Angelia lost — reconnecting…
      </div>
    );
  if (problem) {
    return (
      <div className="banner bad" data-testid="banner">
        {problem}{' '}
        <button type="button" className="btn link" onClick={() => update((s) => applyProblem(s, null))}>
          Dismiss
        </button>
      </div>
    );
  }
  return null;
}

function Main({ selected }: { selected: string | null }): ReactElement {
  const panel = useAppStore((s) => s.panel);
  if (panel.kind === 'editor') return <ProfileEditor />;
  if (panel.kind === 'policy') return <PolicyInspector key={panel.profile} profile={panel.profile} />;
  if (panel.kind === 'table') return <TableReview />;
  if (panel.kind === 'account') return <SignIn />;
  if (panel.kind === 'sessions') return <SessionBrowser key={panel.chatId} chatId={panel.chatId} />;
  if (panel.kind === 'search') return <SessionSearch />;
  if (panel.kind === 'past') return <PastSession key={`${panel.chatId}/${panel.session}`} chatId={panel.chatId} session={panel.session} from={panel.from} />;
  return selected ? <ChatPane chatId={selected} /> : <div className="pane empty">Pick a chat.</div>;
}

function Layout(): ReactElement {
  const selected = useAppStore((s) => s.selection.chatId);
  const panelOpen = useAppStore((s) => s.panel.kind !== 'none');
  const pending = useAppStore((s) => Object.values(s.approvals.byId).filter((a) => a.state === 'pending').length);
  const session = useSession();
  // Ctrl/Cmd+K: the search over every chat's sessions, from anywhere (features/sessions/SessionSearch.tsx).
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        session.showSearch();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [session]);
  return (
    <div className={`app${selected || panelOpen ? ' has-selection' : ''}`}>
      <aside className="side">
        <header className="side-head">
          <strong>Angelia</strong>
          {pending > 0 && (
            <span className="badge pending-count" title="Approvals waiting for you">
              {pending} waiting
            </span>
          )}
          <span className="spacer" />
          <HeaderAccount />
          <NewChat />
        </header>
        <button
          type="button"
          className="side-search"
          data-testid="search-button"
          title="Search the names and messages of every chat's sessions"
          onClick={() => session.showSearch()}
        >
          <span>Search past sessions…</span>
          <kbd>{/Mac|iPhone|iPad/.test(navigator.platform) ? '⌘K' : 'Ctrl K'}</kbd>
        </button>
        <ChatList />
        <ProfileList />
      </aside>
      <main className="main">
        <Main selected={selected} />
      </main>
    </div>
  );
}

/** The whole window, given its session (null when the browser has no token). */
export function App({ session }: { session: Session | null }): ReactElement {
  if (!session) {
    return (
      <div className="app">
        <Banner />
      </div>
    );
  }
  return (
    <SessionContext.Provider value={session}>
      <div className="root">
        <Banner />
        <TableBanner />
        <SignInBanner />
        <Layout />
      </div>
    </SessionContext.Provider>
  );
}
