/**
 * The loopback API's service routes (routes.ts holds the table): `/healthz` and `/openapi.json`, which
 * need no token, and the owner's `/status`.
 */
import { z } from 'zod';
import { API_FEATURES, API_VERSION, EX_SESSION, json, ok } from '../routeKit';
import { HomeUsage } from '../../../shared/usage';

/** The example's usage of the owner's Codex home (one window reported). */
export const EX_USAGE: HomeUsage = {
  codexHome: '/home/me/.codex',
  rateLimits: { primary: { usedPercent: 42, windowMinutes: 300, resetsAt: '2030-01-01T11:00:00.000Z' }, secondary: null },
  reportedAt: '2030-01-01T10:00:00.000Z',
  pausedUntil: null,
};

const Health = z.object({ ok, api: z.literal(API_VERSION), features: z.array(z.string()) }).strict();

const Status = z
  .object({
    api: z.literal(API_VERSION),
    version: z.string(),
    stateDir: z.string(),
    socket: z.string(),
    codexVersion: z.string().nullable(),
    chats: z.array(
      z
        .object({
          chat: z.string(),
          profile: z.string(),
          state: z.string(),
          session: z.string().nullable(),
          queued: z.number().int(),
          pendingApprovals: z.number().int(),
          /** Why the chat is `refused` (its refusal, with the fix) or in `error` (its last line); null otherwise. */
          reason: z.string().nullable(),
        })
        .strict(),
    ),
    pendingApprovals: z.number().int(),
    /** The latest rate limits and pause of each Codex home in use (src/shared/usage.ts `HomeUsage`). */
    usage: z.array(HomeUsage),
  })
  .strict();

/** `GET /healthz`: is Angelia answering (no token). */
export const healthzRoute = json({
  id: 'healthz',
  method: 'GET',
  path: '/healthz',
  access: 'public',
  summary: 'Is Angelia answering?',
  description: 'No token needed. The API version and the features served.',
  query: null,
  body: null,
  response: Health,
  errors: {},
  examples: [{ name: 'ok', summary: 'Angelia answers', caller: 'none', status: 200, response: { ok: true, api: 1, features: ['files', 'openapi'] } }],
  handle: async () => ({ ok: true as const, api: API_VERSION, features: [...API_FEATURES] }),
});

/** `GET /openapi.json`: the OpenAPI document built from the route table (no token). */
export const openapiRoute = json({
  id: 'openapi',
  method: 'GET',
  path: '/openapi.json',
  access: 'public',
  summary: 'This document',
  description: 'The OpenAPI 3.1 document, generated from the route table. No token needed.',
  query: null,
  body: null,
  response: z.record(z.string(), z.unknown()),
  errors: {},
  examples: [],
  handle: async (ctx) => ctx.deps.openapi() as Record<string, unknown>,
});

/** `GET /status`: the version, state folder, socket and every chat's state. */
export const statusRoute = json({
  id: 'status',
  method: 'GET',
  path: '/status',
  access: ['owner'],
  summary: "Angelia's state",
  description: "Version, state folder, socket, the Codex version last seen, every chat's state, and the latest rate limits of each Codex home in use.",
  query: null,
  body: null,
  response: Status,
  errors: {},
  examples: [
    {
      name: 'running',
      summary: 'one chat working',
      caller: 'owner',
      status: 200,
      response: {
        api: 1,
        version: '0.1.0',
        stateDir: '/home/me/.angelia',
        socket: '/home/me/.angelia/api.sock',
        codexVersion: '0.169.0',
        chats: [{ chat: 'coder', profile: 'coder', state: 'working', session: EX_SESSION, queued: 0, pendingApprovals: 1, reason: null }],
        pendingApprovals: 1,
        usage: [EX_USAGE],
      },
    },
  ],
  handle: async (ctx) => {
    const { core, socketPath } = ctx.deps;
    const [info, chats, approvals, usage] = await Promise.all([core.info(), core.chats(), core.approvals(), core.usage()]);
    return {
      api: API_VERSION,
      version: info.version,
      stateDir: info.stateDir,
      socket: socketPath,
      codexVersion: info.codexVersion,
      chats: chats.map((c) => ({
        chat: c.id,
        profile: c.profile,
        state: c.state,
        session: c.sessionId,
        queued: c.queued,
        pendingApprovals: c.pendingApprovals,
        reason: c.refusal ?? (c.state === 'error' || c.state === 'refused' ? c.lastLine || null : null),
      })),
      pendingApprovals: approvals.filter((a) => a.state === 'pending').length,
      usage,
    };
  },
});
