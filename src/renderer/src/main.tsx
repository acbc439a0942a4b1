/**
 * Renderer entry: picks the client (preload or WebSocket), starts the one session that feeds the store,
 * renders the window, and follows the route in the URL fragment (`#chat=<id>`, `#review=table`: what
 * Electron opens the window on from a notification or the tray) on load and on every `hashchange`.
 */
// First: zod is configured before any schema is built (see zodConfig.ts).
import './zodConfig';
import { createRoot } from 'react-dom/client';
import { connectClient } from './api/client';
import { startSession, type Session } from './api/session';
import { App } from './App';
import { applyConnection, applyProblem } from './store/app';
import { hashWithoutRoute, routeFromHash, type Route } from './store/panel';
import { update, useAppStore } from './store/store';
import './styles.css';
import './panels.css';
import './usage.css';
import './questions.css';
import './images.css';
import './sessions.css';

// Read before the client takes the token out of the fragment (which drops the rest of it too).
const initialRoute = routeFromHash(window.location.hash);

const api = connectClient();
if (!api) update((s) => applyConnection(s, 'no-token'));
const session = api ? startSession(api, (where, e) => update((s) => applyProblem(s, `Failed ${where}: ${e.message}`))) : null;

/** Opens what `route` names, then takes the route out of the fragment (keeping anything else there). */
function follow(s: Session, route: Route): void {
  if (route && 'chat' in route) s.select(route.chat);
  else if (route?.review === 'account') s.openSignIn();
  else if (route) s.reviewTable();
  const rest = hashWithoutRoute(window.location.hash);
  if (route && window.location.hash !== rest) {
    try {
      window.history.replaceState(null, '', window.location.pathname + window.location.search + rest);
    } catch {
      // History unavailable: the route stays in the fragment; asking for the same one again then does nothing.
    }
  }
}

if (session) {
  follow(session, initialRoute);
  // Electron: main learns which chat this window shows (the notifications' focus rule); the browser has no such report.
  // Every host: the core learns it too when a chat is opened or its window focused (`chats:shown`), so the
  // chat's agent starts before the first message (docs/architecture.md "Warm agents").
  const report = api?.showingChat;
  let shown = useAppStore.getState().selection.chatId;
  const tell = (chatId: string | null): void => {
    report?.(chatId);
    if (chatId) session.shown(chatId);
  };
  tell(shown);
  useAppStore.subscribe((s) => {
    if (s.selection.chatId === shown) return;
    shown = s.selection.chatId;
    tell(shown);
  });
  window.addEventListener('focus', () => {
    if (shown) session.shown(shown);
  });
  window.addEventListener('hashchange', () => follow(session, routeFromHash(window.location.hash)));
}

const root = document.getElementById('root');
if (root) createRoot(root).render(<App session={session} />);
