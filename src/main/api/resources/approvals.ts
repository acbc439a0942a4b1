/**
 * The loopback API's approval routes (routes.ts holds the table): `/permissions` lists what waits and
 * `/permission` answers through the one approval broker, so the first answer wins on every surface.
 * Agent questions and MCP elicitations are rows too: they carry `questions` / `elicitation`, and an
 * Allow carries `answers` / `content` (docs/architecture.md, "Questions and elicitations").
 */
import { z } from 'zod';
import { AnswerOutcome, ApprovalAnswer, ElicitationView, ElicitContent, QuestionAnswers, QuestionView, RequestedAccess } from '../../../shared/contract';
import { withdrawnText } from '../../../shared/withdrawnText';
import { ApiError } from '../errors';
import { chatKey, EX_APPROVAL, EX_QUESTION, json, ok } from '../routeKit';

/** The command row of the examples (the fake core's seeded approval). */
const EX_COMMAND_ROW = {
  key: 'coder',
  at: '2025-06-01T09:31:00.000Z',
  id: EX_APPROVAL,
  tool: 'command',
  preview: 'Run npm publish',
  detail: 'npm publish',
  answers: ['allow', 'deny', 'cancel'],
};

const PermissionBody = z
  .object({
    key: chatKey.optional().describe('when given, the approval must belong to this chat'),
    id: z.string().min(5).max(100).describe('the approval id, or a unique prefix of at least 5 characters'),
    allow: z.boolean().optional().describe('true: the first Allow offered; false: Deny (or Deny and stop when only that is offered)'),
    answer: ApprovalAnswer.optional().describe('an exact answer among those offered, instead of allow'),
    grant: RequestedAccess.optional().describe('permissions requests: the part of what was asked that is granted'),
    reason: z.string().min(1).max(4000).optional().describe('Deny only: sent to the agent after the decline'),
    answers: QuestionAnswers.optional().describe(
      'agent questions, Allow only: question id → answers (option labels, or free text where allowed); every question answered',
    ),
    content: ElicitContent.optional().describe('MCP form requests, Allow only: field name → value, matching the form’s fields'),
  })
  .strict();

const PermissionRow = z
  .object({
    key: z.string(),
    at: z.string(),
    id: z.string(),
    tool: z.string(),
    preview: z.string(),
    detail: z.string().nullable(),
    answers: z.array(z.string()),
    questions: z.array(QuestionView).optional().describe("userInput only: the agent's questions"),
    isBlocking: z.boolean().optional().describe('userInput only: false when the agent may go on without the answer'),
    elicitation: ElicitationView.optional().describe('elicitation only: the MCP form or link'),
  })
  .strict();

const Permissions = z.object({ permissions: z.array(PermissionRow) }).strict();

const PermissionAnswered = z.object({ ok, answer: ApprovalAnswer, by: z.string() }).strict();

/** `GET /permissions`: every pending approval. */
export const permissionsRoute = json({
  id: 'permissions',
  method: 'GET',
  path: '/permissions',
  access: ['owner'],
  summary: 'Approvals waiting for an answer',
  description: 'Every pending approval of every chat, oldest first.',
  query: null,
  body: null,
  response: Permissions,
  errors: {},
  examples: [
    {
      name: 'one',
      summary: 'one command waits',
      caller: 'owner',
      status: 200,
      response: { permissions: [EX_COMMAND_ROW] },
    },
    {
      name: 'question',
      summary: 'a command and an agent question wait',
      caller: 'owner',
      status: 200,
      response: {
        permissions: [
          EX_COMMAND_ROW,
          {
            key: 'coder',
            at: '2025-06-01T09:32:00.000Z',
            id: EX_QUESTION,
            tool: 'userInput',
            preview: 'The agent asks: Which database should the tests use?',
            detail: null,
            answers: ['allow', 'deny'],
            questions: [
              {
                id: 'db',
                header: 'Database',
                question: 'Which database should the tests use?',
                isOther: true,
                isSecret: false,
                options: [
                  { label: 'SQLite', description: 'in memory, fast' },
                  { label: 'Postgres', description: 'the one in docker-compose.yml' },
                ],
              },
            ],
            isBlocking: true,
          },
        ],
      },
    },
  ],
  handle: async (ctx) => ({
    permissions: (await ctx.deps.core.approvals())
      .filter((a) => a.state === 'pending')
      .map((a) => ({
        key: a.chatId,
        at: a.createdAt,
        id: a.id,
        tool: a.kind,
        preview: a.title,
        detail: a.command ?? a.reason,
        answers: [...a.answers],
        ...(a.questions ? { questions: a.questions, isBlocking: a.isBlocking ?? true } : {}),
        ...(a.elicitation ? { elicitation: a.elicitation } : {}),
      })),
  }),
});

/** `POST /permission`: an answer through the one approval broker (`by: api`). */
export const permissionRoute = json({
  id: 'permission',
  method: 'POST',
  path: '/permission',
  access: ['owner'],
  summary: 'Answer an approval',
  description: 'Answers through the one approval broker (`by: api`): the first answer wins, wherever it is given. 409 when nothing waits under that id.',
  query: null,
  body: PermissionBody,
  response: PermissionAnswered,
  errors: { 409: 'nothing waits under that id (unknown, or already answered)' },
  examples: [
    {
      name: 'allow',
      summary: 'the owner allows',
      caller: 'owner',
      body: { key: 'coder', id: EX_APPROVAL, allow: true },
      status: 200,
      response: { ok: true, answer: 'allow', by: 'api' },
    },
    {
      name: 'answers',
      summary: "the owner answers the agent's question",
      caller: 'owner',
      body: { key: 'coder', id: EX_QUESTION, allow: true, answers: { db: ['SQLite'] } },
      status: 200,
      response: { ok: true, answer: 'allow', by: 'api' },
    },
    {
      name: 'late',
      summary: 'already answered in the window',
      caller: 'owner',
      body: { id: EX_APPROVAL.slice(0, 8), allow: false },
      status: 409,
      response: { error: 'already answered (allow, by window)', code: 'not-waiting' },
    },
  ],
  handle: async (ctx) => {
    const { key, id, allow, answer, grant, reason, answers, content } = ctx.body;
    if ((allow === undefined) === (answer === undefined)) throw new ApiError(400, 'bad-request', 'give exactly one of allow or answer');
    const all = await ctx.deps.core.approvals();
    const lower = id.toLowerCase();
    const hits = all.filter((a) => a.id === id || a.id.startsWith(lower));
    const view = hits.length === 1 ? hits[0] : undefined;
    if (!view || (key !== undefined && view.chatId !== key)) throw new ApiError(409, 'not-waiting', 'nothing waits for an answer under that id');
    const offered = view.answers;
    const chosen =
      answer ??
      (allow ? (['allow', 'allowForSession'] as const).find((a) => offered.includes(a)) : (['deny', 'cancel'] as const).find((a) => offered.includes(a)));
    if (!chosen) throw new ApiError(400, 'bad-answer', `that answer is not offered; offered: ${offered.join(', ')}`);
    const out = AnswerOutcome.parse(await ctx.deps.core.answer(view.id, chosen, { grant, reason, answers, content }));
    if (out.outcome !== 'answered') {
      throw new ApiError(
        409,
        'not-waiting',
        out.outcome !== 'already-answered'
          ? 'nothing waits for an answer under that id'
          : out.by === 'codex'
            ? withdrawnText(out.withdrawn)
            : `already answered (${out.answer ?? '?'}, by ${out.by ?? '?'})`,
      );
    }
    return { ok: true as const, answer: chosen, by: out.by ?? 'api' };
  },
});
