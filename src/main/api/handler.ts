/**
 * The one request handler of the loopback API, shared by both transports (README,
 * docs/sandbox-sockets.md): the Unix socket (server.ts) and the chats' mailboxes (mailbox.ts). A request
 * is a method, a target (path and query), a bearer token and a body; the answer is a status and a JSON
 * body, or an event stream (socket only).
 *
 * Per request, in order: the route (404, 405), for a mailbox an event stream is refused (400
 * `socket-only`), the token (401; through a mailbox only the agent token of that mailbox's chat is
 * taken: the folder proves which chat's agent wrote it, the token proves it again), the query and body
 * (JSON objects of at most 256 KB: 413 over, 400 for bad JSON, a non-object or a schema error naming
 * the field), the caller's class for the targeted chat (403; an agent's `from` must be its own chat),
 * the chat (404), then the route's handler. Errors answer `{error, code}` with a message safe to show
 * (errors.ts).
 */
import type { z } from 'zod';
import { identify, classify, type Caller, type CallerClass } from './auth';
import type { ApiCore } from './core';
import { ApiError, errorAnswer, type ErrorBody } from './errors';
import { findRoute, type EventSink, type RouteContext, type RouteDeps } from './routes';

/** The largest request body: 256 KB. */
export const MAX_BODY_BYTES = 256 * 1024;

/** One request, whichever transport brought it. */
export interface ApiRequest {
  method: string;
  /** The request target: a path with an optional query, e.g. `/history?key=coder`. */
  target: string;
  /** The bearer token, or null when none (or a malformed one) was given. */
  token: string | null;
  /** The body, at most MAX_BODY_BYTES (throws ApiError 413 over). */
  readBody(): Promise<Buffer>;
  /** Drops an unread body (the socket drains it). */
  discardBody(): void;
}

/** Which transport a request came by: the socket, or the mailbox of one chat. */
export type Via = { kind: 'socket' } | { kind: 'mailbox'; chat: string };

/** What the handler answers: a JSON answer, or (socket only) an event stream to open. */
export type Outcome = { kind: 'json'; status: number; body: unknown } | { kind: 'sse'; open(sink: EventSink): Promise<() => void> };

/** The handler: never throws; every failure becomes a JSON error answer. */
export interface ApiHandler {
  handle(req: ApiRequest, via: Via, signal: AbortSignal): Promise<Outcome>;
}

/** What the handler needs: the core, the owner token, the routes' dependencies, the 500 reporter. */
export interface HandlerDeps {
  core: ApiCore;
  ownerToken: string;
  routeDeps: RouteDeps;
  /** Told of every unexpected (500) failure. */
  onError?: (e: unknown) => void;
}

/** The error an event stream asked for through a mailbox gets. */
export const SOCKET_ONLY = 'the event stream is served on the API socket only; a mailbox carries one request and its answer';

function issues(e: z.ZodError, where: string): string {
  return e.issues
    .slice(0, 5)
    .map((i) => `${[where, ...i.path.map(String)].join('.')}: ${i.message}`)
    .join('; ');
}

/** Parses a route's query (strings only, no repeated names) against its schema. Throws ApiError 400. */
function parseQuery(schema: z.ZodType | null, params: URLSearchParams): unknown {
  const obj: Record<string, string> = {};
  for (const [k, v] of params) {
    if (Object.prototype.hasOwnProperty.call(obj, k)) throw new ApiError(400, 'bad-request', `query: ${k} is given twice`);
    obj[k] = v;
  }
  if (!schema) {
    if (Object.keys(obj).length) throw new ApiError(400, 'bad-request', 'this route takes no query');
    return undefined;
  }
  const r = schema.safeParse(obj);
  if (!r.success) throw new ApiError(400, 'bad-request', issues(r.error, 'query'));
  return r.data;
}

/** Parses a JSON object body against `schema`. Throws ApiError 400 / 413. */
async function parseBody(schema: z.ZodType | null, req: ApiRequest): Promise<unknown> {
  const raw = await req.readBody();
  if (!schema) {
    if (raw.length) throw new ApiError(400, 'bad-request', 'this route takes no body');
    return undefined;
  }
  let value: unknown;
  try {
    value = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new ApiError(400, 'bad-json', 'the body is not JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ApiError(400, 'bad-json', 'the body must be a JSON object');
  const r = schema.safeParse(value);
  if (!r.success) throw new ApiError(400, 'bad-request', issues(r.error, 'body'));
  return r.data;
}

function keyOf(v: unknown): string | null {
  return typeof v === 'object' && v !== null && typeof (v as { key?: unknown }).key === 'string' ? (v as { key: string }).key : null;
}

function fromOf(v: unknown): string | null {
  return typeof v === 'object' && v !== null && typeof (v as { from?: unknown }).from === 'string' ? (v as { from: string }).from : null;
}

/** Who is calling, as far as known: decides how errors are shown (errors.ts). */
interface Who {
  caller: Caller | null;
  /** Folders the caller may see named in an error (an agent: its profile's folder). */
  allowed: string[];
}

/** Builds the handler over `deps` (see the module comment for the order of checks). */
export function createHandler(deps: HandlerDeps): ApiHandler {
  const { core, ownerToken, routeDeps } = deps;

  async function run(req: ApiRequest, via: Via, signal: AbortSignal, who: Who): Promise<Outcome> {
    if (!req.target.startsWith('/')) throw new ApiError(400, 'bad-request', 'the request target must be a path');
    const url = new URL(req.target, 'http://localhost');
    const { route, pathKnown } = findRoute(req.method, url.pathname);
    if (!route)
      throw new ApiError(pathKnown ? 405 : 404, pathKnown ? 'bad-method' : 'not-found', pathKnown ? 'that method is not served on this path' : 'no such route');
    if (route.kind === 'sse' && via.kind === 'mailbox') throw new ApiError(400, 'socket-only', SOCKET_ONLY);
    let cls: CallerClass | null = null;
    let chatIds: string[] = [];
    if (route.access !== 'public') {
      const chats = await core.chats();
      chatIds = chats.map((c) => c.id);
      const caller = req.token === null ? null : identify(req.token, ownerToken, chatIds);
      if (!caller) {
        req.discardBody();
        throw new ApiError(401, 'unauthorized', req.token === null ? 'a bearer token is needed' : 'that token names nobody');
      }
      if (via.kind === 'mailbox' && (caller.kind !== 'agent' || caller.chat !== via.chat)) {
        throw new ApiError(401, 'unauthorized', 'that token does not belong to the chat whose mailbox carried it');
      }
      who.caller = caller;
      if (caller.kind === 'agent') {
        const own = chats.find((c) => c.id === caller.chat);
        const profile = (await core.profiles()).find((p) => p.name === own?.profile);
        who.allowed = profile ? [profile.cwd] : [];
      }
    }
    const query = parseQuery(route.query, url.searchParams);
    const body = route.method === 'POST' ? await parseBody(route.body, req) : (req.discardBody(), undefined);
    const target = keyOf(body) ?? keyOf(query);
    const caller = who.caller;
    if (caller && route.access !== 'public') {
      cls = classify(caller, target);
      const from = fromOf(body);
      if (from !== null && (caller.kind === 'owner' || from !== caller.chat)) {
        throw new ApiError(403, 'forbidden', caller.kind === 'owner' ? '`from` is only for agent tokens' : '`from` must be your own chat');
      }
      if (!route.access.includes(cls)) {
        throw new ApiError(
          403,
          'forbidden',
          cls === 'peer' && route.path === '/send-media'
            ? 'files go only into your own chat'
            : cls === 'chat' && route.path === '/ask'
              ? 'an agent cannot ask its own chat (its own turn is running)'
              : 'this token may not do that',
        );
      }
      if (target !== null && !chatIds.includes(target)) throw new ApiError(404, 'unknown-chat', 'no such chat');
    }
    const ctx: RouteContext = { query, body, caller, cls, target, deps: routeDeps, signal };
    if (route.kind === 'sse') return { kind: 'sse', open: (sink) => route.open(ctx, sink) };
    return { kind: 'json', status: 200, body: await route.handle(ctx) };
  }

  return {
    async handle(req, via, signal) {
      const who: Who = { caller: null, allowed: [] };
      try {
        return await run(req, via, signal, who);
      } catch (e) {
        const { status, body } = errorAnswer(e, who.caller?.kind === 'owner', who.allowed);
        if (status >= 500 && !(e instanceof ApiError)) deps.onError?.(e);
        return { kind: 'json', status, body: body satisfies ErrorBody };
      }
    },
  };
}
