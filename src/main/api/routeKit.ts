/**
 * What every route of the loopback API is made of (routes.ts holds the one table): the route and
 * handler types, the typed `json` builder, the schemas and example values several resources share, and
 * the caller helpers (who sends, the peer policy, the caller's Read rules, the label and envelope of a
 * message). Callers and access are explained in routes.ts; the policy itself is policy.ts.
 */
import { z } from 'zod';
import type { Caller, CallerClass } from './auth';
import type { ApiCore, ApiEvent, ApiProfile } from './core';
import { ApiError } from './errors';
import type { MediaPlaces } from './media';
import { checkReach, cleanText, labelled, type RateLimiter } from './policy';

/** The API version `/healthz` reports. */
export const API_VERSION = 1 as const;
/** Features `/healthz` reports: only those served (no `command` or `views` route exists). */
export const API_FEATURES = ['files', 'openapi'] as const;
/** The longest message text (as the contract's `chats:send`). */
export const MAX_TEXT = 100_000;

/** What every handler may use. `places.stateDirs[0]` is the state folder that receives media copies. */
export interface RouteDeps {
  core: ApiCore;
  places: MediaPlaces;
  limiter: RateLimiter;
  /** How long `/ask` waits for the answer (README: up to 10 minutes). */
  askTimeoutMs: number;
  socketPath: string;
  /** The OpenAPI document (served at `/openapi.json`). */
  openapi: () => unknown;
}

/** One request as a handler sees it: parsed query and body, who calls, and for which chat. */
export interface RouteContext<Q = unknown, B = unknown> {
  query: Q;
  body: B;
  /** Null for a public route. */
  caller: Caller | null;
  cls: CallerClass | null;
  /** The chat the request targets (`key`), or null. */
  target: string | null;
  deps: RouteDeps;
  /** Aborted when the client goes away. */
  signal: AbortSignal;
}

/** Where an SSE route writes: one event at a time; false once the client is gone. */
export type EventSink = (e: ApiEvent) => boolean;

/**
 * One documented example: who calls, the request, the answer. The tests validate each against the
 * schemas, and the OpenAPI document carries them as they are.
 */
export interface RouteExample {
  name: string;
  summary: string;
  caller: 'none' | CallerClass;
  query?: Record<string, string>;
  body?: unknown;
  status: number;
  response: unknown;
}

export interface RouteBase {
  /** The OpenAPI operationId. */
  id: string;
  method: 'GET' | 'POST';
  path: string;
  summary: string;
  description: string;
  /** `public` (no token) or the caller classes allowed. */
  access: 'public' | readonly CallerClass[];
  query: z.ZodType | null;
  body: z.ZodType | null;
  /** The 2xx answer (for an SSE route: one event). */
  response: z.ZodType;
  /** Error statuses the route documents besides the common ones (401, 403, 404, 400). */
  errors: Record<number, string>;
  examples: RouteExample[];
}

/** A JSON route: the handler's value is the 200 answer. */
export interface JsonRoute extends RouteBase {
  kind: 'json';
  handle(ctx: RouteContext): Promise<unknown>;
}

/** An SSE route: `open` starts the stream and returns its cleanup. */
export interface StreamRoute extends RouteBase {
  kind: 'sse';
  open(ctx: RouteContext, sink: EventSink): Promise<() => void>;
}

/** A route of the table. */
export type Route = JsonRoute | StreamRoute;

/** A JSON route with typed handler input and answer (checked at compile time, erased in the table). */
export function json<Q extends z.ZodType | null, B extends z.ZodType | null, R extends z.ZodType>(
  spec: Omit<RouteBase, 'query' | 'body' | 'response'> & {
    query: Q;
    body: B;
    response: R;
    handle(ctx: RouteContext<Q extends z.ZodType ? z.infer<Q> : undefined, B extends z.ZodType ? z.infer<B> : undefined>): Promise<z.input<R>>;
  },
): JsonRoute {
  return { ...spec, kind: 'json', handle: spec.handle as JsonRoute['handle'] };
}

// ---- schemas shared by several resources ---------------------------------------------------------

export const chatKey = z.string().min(1).max(200).describe('the chat id (the first chat of a profile is named after it)');
export const fromKey = z.string().min(1).max(200).describe("the sending chat; agent tokens only, and it must be the token's own chat");
export const text = z.string().min(1).max(MAX_TEXT);
export const ok = z.literal(true);

export const KeyQuery = z.object({ key: chatKey }).strict();

// ---- helpers ------------------------------------------------------------------------------------

/** The profile a chat runs on. Throws ApiError 404 for an unknown chat or a profile gone from the table. */
export async function profileOfChat(core: ApiCore, chatId: string): Promise<ApiProfile> {
  const chat = (await core.chats()).find((c) => c.id === chatId);
  if (!chat) throw new ApiError(404, 'unknown-chat', 'no such chat');
  const profile = (await core.profiles()).find((p) => p.name === chat.profile);
  if (!profile) throw new ApiError(404, 'unknown-profile', `chat ${chatId}'s profile is not in the accepted table`);
  return profile;
}

/** The sending agent's chat, or null for the owner. */
export function agentChat(ctx: RouteContext): string | null {
  return ctx.caller?.kind === 'agent' ? ctx.caller.chat : null;
}

/** Checks a peer's message against the policy and counts it. No-op for owner and chat callers. */
export async function admitPeer(ctx: RouteContext, target: string, kind: 'send' | 'turn' | 'ask'): Promise<void> {
  const from = agentChat(ctx);
  if (ctx.cls !== 'peer' || from === null) return;
  const [fromProfile, toProfile] = await Promise.all([profileOfChat(ctx.deps.core, from), profileOfChat(ctx.deps.core, target)]);
  checkReach(fromProfile, toProfile, kind);
  ctx.deps.limiter.take(from, target);
}

/** The deny rules of the calling agent's profile (its Read rules bind what it sends), or null for the owner. */
export async function callerDeny(ctx: RouteContext): Promise<string[] | null> {
  const from = agentChat(ctx);
  if (from === null) return null;
  return ctx.deps.core.readDenyRules((await profileOfChat(ctx.deps.core, from)).name);
}

/** The text of a message as the target receives it: the owner's as written, an agent's labelled. */
export async function messageText(ctx: RouteContext, raw: string): Promise<string> {
  const from = agentChat(ctx);
  if (from === null) return cleanText(raw);
  return labelled((await profileOfChat(ctx.deps.core, from)).name, raw);
}

/** Who a posted line is from, as shown: `owner`, or `from <profile>`. */
export async function label(ctx: RouteContext): Promise<string> {
  const from = agentChat(ctx);
  return from === null ? 'owner' : `from ${(await profileOfChat(ctx.deps.core, from)).name}`;
}

// ---- example values -----------------------------------------------------------------------------

export const EX_TURN = '3f6c2b1e-8a4d-4c7e-9b2f-1d5e7a9c0b34';
export const EX_APPROVAL = '0b7e2a4c-5d1f-4e8a-9c3b-2f6d8e1a7b45';
/** The example agent question (a `userInput` approval; the tests' fake core seeds it with `question: true`). */
export const EX_QUESTION = '3b2f6c1e-7d4a-4e58-9a0b-52c1d8e9f604';
export const EX_SESSION = '019a3c5e-7b21-7d44-a1c9-3e5f7a9b1c2d';

/** The example approval the examples answer (the tests' fake core holds it pending). */
export const EXAMPLE_APPROVAL_ID = EX_APPROVAL;
