/**
 * The loopback API's profile routes (routes.ts holds the table): `/profiles` (the accepted table's
 * profiles with their chats) and `/jobs` (scheduled jobs, not in this version).
 */
import { z } from 'zod';
import { ApiError } from '../errors';
import { EX_SESSION, json } from '../routeKit';

const JobsQuery = z.object({ profile: z.string().min(1).max(200).optional().describe('one profile (it must exist); default every profile') }).strict();

const Jobs = z
  .object({
    version: z.literal(1),
    supported: z.literal(false).describe('scheduled jobs are not in this version of Angelia'),
    profile: z.string().nullable().describe('the profile asked about, or null for every profile'),
    jobs: z.array(z.never()).max(0).describe('always empty: no job is scheduled, and none can be'),
    reason: z.string(),
  })
  .strict();

const ProfileRow = z
  .object({
    name: z.string(),
    backend: z.literal('codex'),
    folder: z.string(),
    permissionMode: z.string(),
    sandboxed: z.boolean(),
    model: z.string().nullable(),
    effort: z.string().nullable(),
    isolated: z.boolean(),
    acceptFrom: z.array(z.string()),
    answerFrom: z.array(z.string()),
    chats: z.array(z.object({ chat: z.string(), session: z.string().nullable(), sessions: z.array(z.string()) }).strict()),
  })
  .strict();

const Profiles = z.object({ version: z.literal(1), profiles: z.array(ProfileRow) }).strict();

/** `GET /profiles`: the accepted table's profiles with their chats and sessions. */
export const profilesRoute = json({
  id: 'profiles',
  method: 'GET',
  path: '/profiles',
  access: ['owner'],
  summary: 'Profiles and their chats',
  description: 'Every profile of the accepted table, with its chats and their session ids (most recent first).',
  query: null,
  body: null,
  response: Profiles,
  errors: {},
  examples: [
    {
      name: 'one',
      summary: 'one profile with one chat',
      caller: 'owner',
      status: 200,
      response: {
        version: 1,
        profiles: [
          {
            name: 'coder',
            backend: 'codex',
            folder: '/home/me/code',
            permissionMode: 'acceptEdits',
            sandboxed: true,
            model: null,
            effort: null,
            isolated: false,
            acceptFrom: ['research'],
            answerFrom: ['*'],
            chats: [{ chat: 'coder', session: EX_SESSION, sessions: [EX_SESSION] }],
          },
        ],
      },
    },
  ],
  handle: async (ctx) => {
    const { core } = ctx.deps;
    const [profiles, chats] = await Promise.all([core.profiles(), core.chats()]);
    const sessions = new Map(await Promise.all(chats.map(async (c) => [c.id, await core.sessions(c.id)] as const)));
    return {
      version: 1 as const,
      profiles: profiles.map((p) => ({
        name: p.name,
        backend: 'codex' as const,
        folder: p.cwd,
        permissionMode: p.permissionMode,
        sandboxed: p.sandboxed,
        model: p.model,
        effort: p.effort,
        isolated: p.isolated,
        acceptFrom: p.acceptFrom,
        answerFrom: p.answerFrom,
        chats: chats
          .filter((c) => c.profile === p.name)
          .map((c) => ({ chat: c.id, session: c.sessionId, sessions: (sessions.get(c.id) ?? []).map((s) => s.id) })),
      })),
    };
  },
});

/** `GET /jobs`: scheduled jobs, which this version does not have (an honest empty answer). */
export const jobsRoute = json({
  id: 'jobs',
  method: 'GET',
  path: '/jobs',
  access: ['owner'],
  summary: 'Scheduled jobs (not in this version)',
  description:
    'Scheduled jobs are not in this version of Angelia: the route answers so that a caller gets a well-formed, ' +
    'honest answer, `supported: false` and no jobs, for every profile or for the one named in `?profile=` (404 when there is no such profile).',
  query: JobsQuery,
  body: null,
  response: Jobs,
  errors: { 404: 'no such profile' },
  examples: [
    {
      name: 'none',
      summary: 'jobs are not supported',
      caller: 'owner',
      query: { profile: 'coder' },
      status: 200,
      response: { version: 1, supported: false, profile: 'coder', jobs: [], reason: 'scheduled jobs are not in this version of Angelia' },
    },
    {
      name: 'unknown',
      summary: 'no such profile',
      caller: 'owner',
      query: { profile: 'nobody' },
      status: 404,
      response: { error: 'no profile named "nobody" in the accepted table', code: 'unknown-profile' },
    },
  ],
  handle: async (ctx) => {
    const { profile } = ctx.query;
    if (profile !== undefined && !(await ctx.deps.core.profiles()).some((p) => p.name === profile)) {
      throw new ApiError(404, 'unknown-profile', `no profile named ${JSON.stringify(profile)} in the accepted table`);
    }
    return { version: 1 as const, supported: false as const, profile: profile ?? null, jobs: [], reason: 'scheduled jobs are not in this version of Angelia' };
  },
});
