/**
 * The loopback API's usage route (routes.ts holds the table): the owner's "Try now" on a usage-limit
 * pause, the orchestrator's `usage:resume` (core/usage/store.ts `resume`; docs/architecture.md "Usage").
 * Owner only: an agent never lifts the pause that holds the account's chats. The usage itself is read
 * with `GET /status` (`usage`).
 */
import { z } from 'zod';
import { HomeUsage } from '../../../shared/usage';
import { json } from '../routeKit';
import { EX_USAGE } from './service';

const ResumeBody = z.object({ codexHome: z.string().min(1).max(4096).describe('the Codex home whose pause to lift, as `GET /status` lists it') }).strict();

/** `POST /usage/resume`: lifts a Codex home's usage-limit pause now. */
export const usageResumeRoute = json({
  id: 'usageResume',
  method: 'POST',
  path: '/usage/resume',
  access: ['owner'],
  summary: 'Lift a usage-limit pause now',
  description:
    "At a usage limit every chat of the Codex home waits until the reset (`pausedUntil`). This lifts the pause at once (e.g. after upgrading the plan): the chats start their queued messages; if Codex is still at its limit, the next turn pauses them again. The answer is the home's usage after it (unchanged when it was not paused).",
  query: null,
  body: ResumeBody,
  response: HomeUsage,
  errors: {},
  examples: [{ name: 'resumed', summary: 'the pause is lifted', caller: 'owner', body: { codexHome: EX_USAGE.codexHome }, status: 200, response: EX_USAGE }],
  handle: async (ctx) => ctx.deps.core.resumeUsage(ctx.body.codexHome),
});
