/**
 * Renderer entry: picks the client (preload or WebSocket), starts the one session that feeds the store,
 * and renders the window.
 */
import { createRoot } from 'react-dom/client';
import { connectClient } from './api/client';
import { startSession } from './api/session';
import { App } from './App';
import { applyConnection, applyProblem } from './store/app';
import { update } from './store/store';
import './styles.css';
import './panels.css';

const api = connectClient();
if (!api) update((s) => applyConnection(s, 'no-token'));
const session = api ? startSession(api, (where, e) => update((s) => applyProblem(s, `Failed ${where}: ${e.message}`))) : null;

const root = document.getElementById('root');
if (root) createRoot(root).render(<App session={session} />);
