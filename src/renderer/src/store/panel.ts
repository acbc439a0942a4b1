/**
 * Panel slice: what the main area shows instead of the open chat — the profile editor, a profile's
 * policy inspector, the review of a changed table, or the Codex account (sign-in). `none` shows the chat. Pure transitions, and the
 * route a window is opened on (its URL fragment: a chat or the table review).
 */

/** The panel in the main area; `none` = the open chat (or the list when narrow). */
export type Panel =
  | { kind: 'none' }
  | { kind: 'editor' }
  | { kind: 'policy'; profile: string }
  | { kind: 'table' }
  | { kind: 'account' }
  /** Every session of a chat (features/sessions/SessionBrowser.tsx). */
  | { kind: 'sessions'; chatId: string }
  /** The search over every chat's sessions (features/sessions/SessionSearch.tsx). */
  | { kind: 'search' }
  /** One past session, read-only, until resumed (features/sessions/PastSession.tsx); `from`: the panel Back returns to. */
  | { kind: 'past'; chatId: string; session: string; from: 'search' | 'sessions' };

/** Nothing open over the chat. */
export const initialPanel: Panel = { kind: 'none' };

/** Shows `next` (the same object back when it is already shown). */
export function showPanel(state: Panel, next: Panel): Panel {
  if (state.kind !== next.kind) return next;
  if (state.kind === 'policy' && next.kind === 'policy' && state.profile !== next.profile) return next;
  if (JSON.stringify(state) !== JSON.stringify(next)) return next;
  return state;
}

/**
 * What the window was asked to open through its URL fragment: a chat (`#chat=<id>`, from a notification
 * click or the tray), the table review (`#review=table`, the table changed on disk) or the sign-in
 * screen (`#review=account`, the tray's "Sign in to Codex…"). Electron puts it
 * there (src/main/electron/renderer.ts `rendererUrlFor`); null when the fragment asks for nothing.
 */
export type Route = { chat: string } | { review: 'table' | 'account' } | null;

const ROUTE_KEYS = ['chat', 'review'] as const;

function fragmentParams(hash: string): URLSearchParams {
  return new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
}

/**
 * Reads the route from a URL fragment (`#chat=demo`, `#review=table`; other parameters such as the
 * headless host's `token` may stand beside it). A chat wins over a review when both are given; an empty
 * chat id or another review target is no route.
 */
export function routeFromHash(hash: string): Route {
  const params = fragmentParams(hash);
  const chat = params.get('chat');
  if (chat) return { chat };
  const review = params.get('review');
  if (review === 'table' || review === 'account') return { review };
  return null;
}

/**
 * The fragment with the route taken out and everything else kept ("" when nothing is left, else
 * "#…"). The window drops the route once followed, so the same route asked for again (a second click
 * on the same notification) changes the fragment and fires `hashchange` again.
 */
export function hashWithoutRoute(hash: string): string {
  const params = fragmentParams(hash);
  for (const k of ROUTE_KEYS) params.delete(k);
  const rest = params.toString();
  return rest === '' ? '' : `#${rest}`;
}
