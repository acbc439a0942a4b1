/**
 * THE route table of the loopback API (README, version `api: 1`): every route's method, path,
 * who may call it, its zod schemas (query, body, answer), its documented errors and examples, and its
 * handler. The server answers only these routes; the OpenAPI document (openapi.ts) and the tests are
 * generated from this one table. The routes themselves are written by resource under `resources/`
 * (service, messages, chats, profiles, approvals, usage, account) with what they share in routeKit.ts.
 *
 * Callers (auth.ts): `owner` (the owner token); `chat` (an agent token, for its own chat); `peer` (an
 * agent token, writing into another chat: `/send`, `/turn` with the target's `accept_from`, `/ask`
 * with its `answer_from`, all subject to isolation and 30 an hour, policy.ts). Every GET but
 * `/healthz` and `/openapi.json` takes the owner token only, and so does every `/account` route and
 * `/usage/resume`.
 */
import { accountRoute, loginCancelRoute, loginRoute, logoutRoute } from './resources/account';
import { permissionRoute, permissionsRoute } from './resources/approvals';
import { eventsRoute, historyRoute, sessionsRoute } from './resources/chats';
import { askRoute, sendMediaRoute, sendRoute, turnRoute } from './resources/messages';
import { jobsRoute, profilesRoute } from './resources/profiles';
import { healthzRoute, openapiRoute, statusRoute } from './resources/service';
import { usageResumeRoute } from './resources/usage';
import type { Route } from './routeKit';

export { API_FEATURES, API_VERSION, EXAMPLE_APPROVAL_ID, MAX_TEXT } from './routeKit';
export type { EventSink, JsonRoute, Route, RouteContext, RouteDeps, RouteExample, StreamRoute } from './routeKit';

/** Every route the API answers, in the order the OpenAPI document lists them. */
export const routes: readonly Route[] = [
  healthzRoute,
  openapiRoute,
  sendRoute,
  sendMediaRoute,
  turnRoute,
  askRoute,
  eventsRoute,
  profilesRoute,
  sessionsRoute,
  historyRoute,
  permissionsRoute,
  permissionRoute,
  jobsRoute,
  statusRoute,
  usageResumeRoute,
  accountRoute,
  loginRoute,
  loginCancelRoute,
  logoutRoute,
];

/** The route for a method and path, or null; `pathKnown` tells a 405 from a 404. */
export function findRoute(method: string, path: string): { route: Route | null; pathKnown: boolean } {
  const same = routes.filter((r) => r.path === path);
  return { route: same.find((r) => r.method === method) ?? null, pathKnown: same.length > 0 };
}
