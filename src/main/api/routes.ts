/**
 * THE route table of the loopback API (README, version `api: 1`): every route's method, path,
 * who may call it, its zod schemas (query, body, answer), its documented errors and examples, and its
 * handler. The server answers only these routes; the OpenAPI document (openapi.ts) and the tests are
 * generated from this one table.
 *
 * Callers (auth.ts): `owner` (the owner token); `chat` (an agent token, for its own chat); `peer` (an
 * agent token, writing into another chat: `/send`, `/turn` with the target's `accept_from`, `/ask`
 * with its `answer_from`, all subject to isolation and 30 an hour, policy.ts). Every GET but
 * `/healthz` and `/openapi.json` takes the owner token only.
 */
import { rm } from 'node:fs/promises';
import { z } from 'zod';
import { AnswerOutcome, ApprovalAnswer, RequestedAccess, type ChatItem } from '../../shared/contract';
import type { Caller, CallerClass } from './auth';
import { ApiEventSchema, type ApiCore, type ApiEvent, type ApiProfile } from './core';
import { AppFailure } from '../../shared/result';
import { ApiError } from './errors';
import { checkMedia, readChecked, snapshotMedia, type CheckedMedia, type MediaPlaces } from './media';
import { checkReach, cleanText, labelled, normalizeBreaks, quoted, type RateLimiter } from './policy';

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

interface RouteBase {
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
function json<Q extends z.ZodType | null, B extends z.ZodType | null, R extends z.ZodType>(
  spec: Omit<RouteBase, 'query' | 'body' | 'response'> & {
    query: Q; body: B; response: R;
    handle(ctx: RouteContext<Q extends z.ZodType ? z.infer<Q> : undefined, B extends z.ZodType ? z.infer<B> : undefined>): Promise<z.input<R>>;
  },
): JsonRoute {
  return { ...spec, kind: 'json', handle: spec.handle as JsonRoute['handle'] };
}

// ---- schemas ------------------------------------------------------------------------------------

const chatKey = z.string().min(1).max(200).describe('the chat id (the first chat of a profile is named after it)');
const fromKey = z.string().min(1).max(200).describe('the sending chat; agent tokens only, and it must be the token\'s own chat');
const text = z.string().min(1).max(MAX_TEXT);
const ok = z.literal(true);

const KeyQuery = z.object({ key: chatKey }).strict();

const SendBody = z.object({
  key: chatKey,
  text: text.describe('the line to show; `MEDIA:<absolute path>` lines attach files (owner and the chat\'s own agent only)'),
  from: fromKey.optional(),
}).strict();

const SendMediaBody = z.object({
  key: chatKey,
  path: z.string().min(1).max(4096).describe('absolute path (or ~/…) of a regular file of at most 25 MiB'),
  caption: z.string().max(4000).optional(),
  file_name: z.string().min(1).max(255).optional().describe('the name to show (sanitised); default the file\'s own'),
  from: fromKey.optional(),
}).strict();

const filePath = z.string().min(1).max(4096).describe('absolute path (or ~/…) of a regular file of at most 25 MiB');

const TurnFile = z.union([
  filePath,
  z.object({
    path: filePath,
    from: chatKey.optional().describe('the chat the file comes from (`{path, from}`): the path is checked as if that chat\'s agent sent it, with its profile\'s Read rules on top of the send-media checks'),
    name: z.string().min(1).max(255).optional().describe('the name to give the copy (sanitised); default the file\'s own'),
  }).strict(),
]);

const TurnBody = z.object({
  key: chatKey,
  text: text.optional().describe('the message; required unless files are given'),
  from: fromKey.optional(),
  reply: z.literal('caller').optional().describe('owner only: an app turn; it runs in the chat\'s thread, its answer goes to the caller (the event stream, by the turn id) and the window shows it folded, as an app turn'),
  plain: z.boolean().optional().describe('owner only: the text goes to the agent exactly as written, with no envelope and no command check (a leading `/` is sent as it is); without it, an owner text starting with `/` is refused'),
  files: z.array(TurnFile).min(1).max(10).optional().describe('owner only: 1–10 files, each a path or `{path, from}`, checked like send-media and copied into the profile\'s .inbox/'),
}).strict();

const AskBody = z.object({ key: chatKey, text, from: fromKey.optional() }).strict();

const JobsQuery = z.object({ profile: z.string().min(1).max(200).optional().describe('one profile (it must exist); default every profile') }).strict();

const EventsQuery = z.object({ key: chatKey.optional() }).strict();

const HistoryQuery = z.object({
  key: chatKey,
  session: z.string().min(1).max(200).optional().describe('must be the active session (the only one kept here)'),
  limit: z.string().regex(/^(?:[1-9][0-9]?|[1-4][0-9]{2}|500)$/, { error: 'must be a whole number from 1 to 500' }).optional().describe('items per page, 1–500 (default 50); anything else is refused (400)'),
  before: z.string().regex(/^[0-9]{1,9}$/).optional().describe('the cursor of the previous page'),
}).strict();

const PermissionBody = z.object({
  key: chatKey.optional().describe('when given, the approval must belong to this chat'),
  id: z.string().min(5).max(100).describe('the approval id, or a unique prefix of at least 5 characters'),
  allow: z.boolean().optional().describe('true: the first Allow offered; false: Deny (or Deny and stop when only that is offered)'),
  answer: ApprovalAnswer.optional().describe('an exact answer among those offered, instead of allow'),
  grant: RequestedAccess.optional().describe('permissions requests: the part of what was asked that is granted'),
  reason: z.string().min(1).max(4000).optional().describe('Deny only: sent to the agent after the decline'),
}).strict();

const Health = z.object({ ok, api: z.literal(API_VERSION), features: z.array(z.string()) }).strict();
const Posted = z.object({ ok }).strict();
const MediaSent = z.object({ ok, name: z.string(), size: z.number().int().positive() }).strict();
const Queued = z.object({ ok, queued: z.number().int().nonnegative(), turn: z.string().describe('the turn id its events carry') }).strict();
const Answered = z.object({ answer: z.string().describe('the last agent message of the read-only copy\'s turn ("" when it wrote none)') }).strict();
const Jobs = z.object({
  version: z.literal(1),
  supported: z.literal(false).describe('scheduled jobs are not in this version of Angelia'),
  profile: z.string().nullable().describe('the profile asked about, or null for every profile'),
  jobs: z.array(z.never()).max(0).describe('always empty: no job is scheduled, and none can be'),
  reason: z.string(),
}).strict();

const SessionRow = z.object({ id: z.string(), threadId: z.string().nullable(), label: z.string(), turns: z.number().int(), lastUsedAt: z.string(), active: z.boolean() }).strict();
const Sessions = z.object({ active: z.string().nullable(), sessions: z.array(SessionRow) }).strict();

const ProfileRow = z.object({
  name: z.string(), backend: z.literal('codex'), folder: z.string(), permissionMode: z.string(), sandboxed: z.boolean(),
  model: z.string().nullable(), effort: z.string().nullable(), isolated: z.boolean(),
  acceptFrom: z.array(z.string()), answerFrom: z.array(z.string()),
  chats: z.array(z.object({ chat: z.string(), session: z.string().nullable(), sessions: z.array(z.string()) }).strict()),
}).strict();
const Profiles = z.object({ version: z.literal(1), profiles: z.array(ProfileRow) }).strict();

const HistoryItem = z.object({ role: z.enum(['user', 'assistant', 'tool']), text: z.string(), tools: z.array(z.string()).optional() }).strict();
const History = z.object({
  session: z.string().nullable(), supported: z.boolean(), items: z.array(HistoryItem), more: z.boolean(),
  cursor: z.string().optional().describe('pass as `before` for the older page'),
}).strict();

const PermissionRow = z.object({
  key: z.string(), at: z.string(), id: z.string(), tool: z.string(), preview: z.string(), detail: z.string().nullable(), answers: z.array(z.string()),
}).strict();
const Permissions = z.object({ permissions: z.array(PermissionRow) }).strict();
const PermissionAnswered = z.object({ ok, answer: ApprovalAnswer, by: z.string() }).strict();

const Status = z.object({
  api: z.literal(API_VERSION), version: z.string(), stateDir: z.string(), socket: z.string(), codexVersion: z.string().nullable(),
  chats: z.array(z.object({
    chat: z.string(), profile: z.string(), state: z.string(), session: z.string().nullable(), queued: z.number().int(), pendingApprovals: z.number().int(),
  }).strict()),
  pendingApprovals: z.number().int(),
}).strict();

// ---- helpers ------------------------------------------------------------------------------------

/** The profile a chat runs on. Throws ApiError 404 for an unknown chat or a profile gone from the table. */
async function profileOfChat(core: ApiCore, chatId: string): Promise<ApiProfile> {
  const chat = (await core.chats()).find((c) => c.id === chatId);
  if (!chat) throw new ApiError(404, 'unknown-chat', 'no such chat');
  const profile = (await core.profiles()).find((p) => p.name === chat.profile);
  if (!profile) throw new ApiError(404, 'unknown-profile', `chat ${chatId}'s profile is not in the accepted table`);
  return profile;
}

/** The sending agent's chat, or null for the owner. */
function agentChat(ctx: RouteContext): string | null {
  return ctx.caller?.kind === 'agent' ? ctx.caller.chat : null;
}

/** Checks a peer's message against the policy and counts it. No-op for owner and chat callers. */
async function admitPeer(ctx: RouteContext, target: string, kind: 'send' | 'turn' | 'ask'): Promise<void> {
  const from = agentChat(ctx);
  if (ctx.cls !== 'peer' || from === null) return;
  const [fromProfile, toProfile] = await Promise.all([profileOfChat(ctx.deps.core, from), profileOfChat(ctx.deps.core, target)]);
  checkReach(fromProfile, toProfile, kind);
  ctx.deps.limiter.take(from, target);
}

/** The deny rules of the calling agent's profile (its Read rules bind what it sends), or null for the owner. */
async function callerDeny(ctx: RouteContext): Promise<string[] | null> {
  const from = agentChat(ctx);
  if (from === null) return null;
  return ctx.deps.core.readDenyRules((await profileOfChat(ctx.deps.core, from)).name);
}

/** A file of an owner's turn that passed the checks, and the name its copy gets. */
interface CheckedTurnFile {
  media: CheckedMedia;
  name: string;
}

/**
 * Checks every file of an owner's turn with the send-media checks (media.ts), copying nothing; a
 * `{path, from}` file is checked with the Read rules of chat `from`'s profile too, as if that chat's
 * agent had sent it. Throws ApiError (400 bad path, 403 refused, 404 unknown `from` chat or no such
 * file, 413 too large) at the first file refused.
 */
async function checkTurnFiles(ctx: RouteContext, files: readonly z.infer<typeof TurnFile>[]): Promise<CheckedTurnFile[]> {
  const out: CheckedTurnFile[] = [];
  for (const [i, f] of files.entries()) {
    const spec = typeof f === 'string' ? { path: f } : f;
    let deny: string[] | null = null;
    if ('from' in spec && spec.from !== undefined) {
      const origin = (await ctx.deps.core.chats()).find((c) => c.id === spec.from);
      if (!origin) throw new ApiError(404, 'unknown-chat', `files[${i}].from: no such chat`);
      deny = await ctx.deps.core.readDenyRules((await profileOfChat(ctx.deps.core, origin.id)).name);
    }
    const media = await checkMedia(spec.path, ctx.deps.places, deny);
    out.push({ media, name: ('name' in spec ? spec.name : undefined) ?? media.name });
  }
  return out;
}

/**
 * Removes copies made for a turn that was then refused (best effort: a copy already gone is fine). The
 * paths are those `ApiCore.attach` answered: files this process wrote into the profile's `.inbox/`.
 */
async function removeCopies(paths: readonly string[]): Promise<void> {
  await Promise.all(paths.map((p) => rm(p, { force: true }).catch(() => undefined)));
}

/**
 * Throws ApiError 400 when the owner's `/turn` text starts with `/` and a letter: it reads like a chat
 * command, which `/turn` never runs (the queue takes it as a message), so the caller is told rather than
 * surprised; `plain: true` sends it as written. An agent's text is labelled, so never one.
 */
function refuseCommandText(ctx: RouteContext, raw: string | undefined): void {
  if (ctx.cls === 'owner' && raw !== undefined && /^\/[A-Za-z]/.test(raw)) {
    throw new ApiError(400, 'bad-request', 'the text cannot start with "/" (the chat would take it as a command); put a space before it');
  }
}

/** The text of a message as the target receives it: the owner's as written, an agent's labelled. */
async function messageText(ctx: RouteContext, raw: string): Promise<string> {
  const from = agentChat(ctx);
  if (from === null) return cleanText(raw);
  return labelled((await profileOfChat(ctx.deps.core, from)).name, raw);
}

async function label(ctx: RouteContext): Promise<string> {
  const from = agentChat(ctx);
  return from === null ? 'owner' : `from ${(await profileOfChat(ctx.deps.core, from)).name}`;
}

const MEDIA_LINE = /^\s*MEDIA:\s*(\S.*?)\s*$/;

function historyOf(item: ChatItem): z.infer<typeof HistoryItem> | null {
  if (item.type === 'user') return { role: 'user', text: item.text };
  if (item.type === 'agent') return { role: 'assistant', text: item.text };
  if (item.type === 'command') return { role: 'tool', text: item.output, tools: [item.command] };
  if (item.type === 'fileChange') return { role: 'tool', text: item.changes.map((c) => `${c.kind} ${c.path}\n${c.diff}`).join('\n'), tools: ['fileChange'] };
  return null;
}

// ---- example values -----------------------------------------------------------------------------

const EX_TURN = '3f6c2b1e-8a4d-4c7e-9b2f-1d5e7a9c0b34';
const EX_APPROVAL = '0b7e2a4c-5d1f-4e8a-9c3b-2f6d8e1a7b45';
const EX_SESSION = '019a3c5e-7b21-7d44-a1c9-3e5f7a9b1c2d';

/** The example approval the examples answer (the tests' fake core holds it pending). */
export const EXAMPLE_APPROVAL_ID = EX_APPROVAL;

// ---- the table ----------------------------------------------------------------------------------

/** Every route the API answers, in the order the OpenAPI document lists them. */
export const routes: readonly Route[] = [
  json({
    id: 'healthz', method: 'GET', path: '/healthz', access: 'public',
    summary: 'Is Angelia answering?', description: 'No token needed. The API version and the features served.',
    query: null, body: null, response: Health, errors: {},
    examples: [{ name: 'ok', summary: 'Angelia answers', caller: 'none', status: 200, response: { ok: true, api: 1, features: ['files', 'openapi'] } }],
    handle: async () => ({ ok: true as const, api: API_VERSION, features: [...API_FEATURES] }),
  }),
  json({
    id: 'openapi', method: 'GET', path: '/openapi.json', access: 'public',
    summary: 'This document', description: 'The OpenAPI 3.1 document, generated from the route table. No token needed.',
    query: null, body: null, response: z.record(z.string(), z.unknown()), errors: {},
    examples: [],
    handle: async (ctx) => ctx.deps.openapi() as Record<string, unknown>,
  }),
  json({
    id: 'send', method: 'POST', path: '/send', access: ['owner', 'chat', 'peer'],
    summary: 'Post a line into a chat',
    description: 'Shows a line in the chat without running a turn, labelled with who sent it (`owner`, or `from <profile>`). '
      + 'Owner and the chat\'s own agent may attach files with `MEDIA:<absolute path>` lines (send-media checks). '
      + 'From another chat (peer): refused when either profile is isolated; at most 30 an hour from one chat to another.',
    query: null, body: SendBody, response: Posted, errors: { 413: 'body over 256 KB', 429: 'over 30 messages an hour from that chat' },
    examples: [
      { name: 'owner', summary: 'the owner posts a line', caller: 'owner', body: { key: 'coder', text: 'The build is green again.' }, status: 200, response: { ok: true } },
      { name: 'peer', summary: 'an agent posts into another profile\'s chat', caller: 'peer', body: { key: 'coder', text: 'Notes are in _common/notes.md', from: 'research' }, status: 200, response: { ok: true } },
      { name: 'isolated', summary: 'refused: the target is isolated', caller: 'peer', body: { key: 'vault', text: 'hello', from: 'research' }, status: 403, response: { error: 'profile vault is isolated: other profiles cannot message it', code: 'isolated' } },
    ],
    handle: async (ctx) => {
      const { key, text: raw } = ctx.body;
      await admitPeer(ctx, key, 'send');
      const files: string[] = [];
      const kept: string[] = [];
      const deny = ctx.cls === 'peer' ? null : await callerDeny(ctx);
      for (const line of normalizeBreaks(raw).split('\n')) {
        const m = ctx.cls === 'peer' ? null : MEDIA_LINE.exec(line);
        if (!m?.[1]) {
          kept.push(line);
          continue;
        }
        const media = await checkMedia(m[1], ctx.deps.places, deny);
        files.push((await snapshotMedia(media, ctx.deps.places.stateDirs[0]!)).path);
      }
      const body = cleanText(kept.join('\n')).trim();
      await ctx.deps.core.post(key, { label: await label(ctx), text: ctx.cls === 'owner' ? body : quoted(body), files });
      return { ok: true as const };
    },
  }),
  json({
    id: 'sendMedia', method: 'POST', path: '/send-media', access: ['owner', 'chat'],
    summary: 'Post a file into a chat',
    description: 'Checks the path (absolute, real path, no credential or system location, no secrets folder or credential name, '
      + 'not Angelia\'s state, the asking profile\'s Read rules, a regular non-empty file of at most 25 MiB), takes a private copy into '
      + '`<state>/media/`, and shows it in the chat. Peers are refused: files go only into your own chat.',
    query: null, body: SendMediaBody, response: MediaSent, errors: { 413: 'file over 25 MiB' },
    examples: [
      { name: 'owner', summary: 'the owner posts a chart', caller: 'owner', body: { key: 'coder', path: '/home/me/Pictures/chart.png', caption: 'this week' }, status: 200, response: { ok: true, name: 'chart.png', size: 48213 } },
      { name: 'credential', summary: 'refused: a credential location', caller: 'chat', body: { key: 'coder', path: '~/.ssh/id_ed25519' }, status: 403, response: { error: 'refusing to send from that location', code: 'media-refused' } },
    ],
    handle: async (ctx) => {
      const { key, path, caption, file_name } = ctx.body;
      const media = await checkMedia(path, ctx.deps.places, await callerDeny(ctx));
      const copy = await snapshotMedia(media, ctx.deps.places.stateDirs[0]!, file_name);
      const captionText = cleanText(caption ?? '').trim();
      await ctx.deps.core.post(key, { label: await label(ctx), text: ctx.cls === 'owner' ? captionText : quoted(captionText), files: [copy.path] });
      return { ok: true as const, name: copy.name, size: copy.data.length };
    },
  }),
  json({
    id: 'turn', method: 'POST', path: '/turn', access: ['owner', 'chat', 'peer'],
    summary: 'Give a chat\'s agent a turn',
    description: 'Queues the text as a turn of its own (never a chat command, never a steer) and answers the turn id its events carry. '
      + 'An agent\'s text arrives labelled `[from <profile>]`, its lines that could pass for a label quoted. From another chat (peer): '
      + 'the target profile\'s `accept_from` must list the sender, neither may be isolated, at most 30 an hour. 429 when the chat already '
      + 'holds 10 turns (running and waiting). Owner only: `reply: "caller"` makes an app turn (it runs in the chat\'s thread; its answer '
      + 'goes to the caller through `/events` with this turn id, and the window folds it and marks it as an app turn instead of showing a '
      + 'reply); `plain: true` sends the text exactly as written (no envelope, no command check); `files` (1–10, each a path or '
      + '`{path, from}`) are checked like send-media (a `from` chat\'s profile\'s Read rules too) and copied into the profile\'s `.inbox/` only '
      + 'after every check that can refuse the turn (the files, the text, the queue); a turn refused after all leaves no copy.',
    query: null, body: TurnBody, response: Queued, errors: { 413: 'a file over 25 MiB', 429: 'the chat already holds 10 turns, or over 30 messages an hour from that chat' },
    examples: [
      { name: 'owner', summary: 'the owner gives a task', caller: 'owner', body: { key: 'coder', text: 'Run the tests and fix what fails.' }, status: 200, response: { ok: true, queued: 1, turn: EX_TURN } },
      { name: 'files', summary: 'the owner gives a task with a file', caller: 'owner', body: { key: 'coder', text: 'Summarise this report.', files: ['/home/me/Documents/report.pdf'] }, status: 200, response: { ok: true, queued: 1, turn: EX_TURN } },
      { name: 'app', summary: 'an app turn: the answer comes back on /events with this turn id, the window folds it', caller: 'owner', body: { key: 'coder', text: 'List the failing tests, one per line.', reply: 'caller', plain: true }, status: 200, response: { ok: true, queued: 1, turn: EX_TURN } },
      { name: 'from-chat', summary: 'a file from another chat, checked against that chat\'s profile', caller: 'owner', body: { key: 'coder', text: 'Use the chart research made.', files: [{ path: '/home/me/research/chart.png', from: 'research' }] }, status: 200, response: { ok: true, queued: 1, turn: EX_TURN } },
      { name: 'full', summary: 'refused: the chat already holds 10 turns', caller: 'owner', body: { key: 'coder', text: 'one more' }, status: 429, response: { error: 'this chat already holds 10 messages; wait for the agent to work through them', code: 'queue-full' } },
      { name: 'not-accepted', summary: 'refused: the target does not take turns from the sender', caller: 'peer', body: { key: 'coder', text: 'please deploy', from: 'research' }, status: 403, response: { error: 'profile coder does not take turns from research (its accept_from does not list it)', code: 'not-accepted' } },
      { name: 'agent-app', summary: 'refused: only the owner makes an app turn', caller: 'chat', body: { key: 'coder', text: 'done?', reply: 'caller' }, status: 403, response: { error: 'only the owner gives a turn with reply, plain or files', code: 'forbidden' } },
    ],
    handle: async (ctx) => {
      const { key, text: raw, files, reply, plain } = ctx.body;
      if (raw === undefined && !files) throw new ApiError(400, 'bad-request', 'a turn needs text, files or both');
      if ((files || reply !== undefined || plain) && ctx.cls !== 'owner') throw new ApiError(403, 'forbidden', 'only the owner gives a turn with reply, plain or files');
      if (!plain) refuseCommandText(ctx, raw);
      // Everything that can refuse the turn comes before any file is copied into the profile's .inbox/:
      // the peer policy, every file's checks, the text's length and the chat's queue.
      await admitPeer(ctx, key, 'turn');
      const checked = await checkTurnFiles(ctx, files ?? []);
      const body = raw === undefined ? '' : plain ? cleanText(raw) : await messageText(ctx, raw);
      const tooLong = (n: number): ApiError => new ApiError(400, 'bad-request', `the message is ${n} characters long; at most ${MAX_TEXT}`);
      if (body.length > MAX_TEXT) throw tooLong(body.length);
      if (checked.length) await ctx.deps.core.canQueue(key);
      const attached: string[] = [];
      try {
        for (const f of checked) attached.push((await ctx.deps.core.attach(key, f.name, await readChecked(f.media))).path);
        const message = [body, ...attached.map((p) => `[file: ${p}]`)].filter(Boolean).join('\n');
        if (message.length > MAX_TEXT) throw tooLong(message.length);
        const { queued, turn } = await ctx.deps.core.turn(key, message, reply === 'caller' ? { app: true } : {});
        return { ok: true as const, queued, turn };
      } catch (e) {
        // Refused after all (a file changed while it was read, the queue filled meanwhile): no copy stays.
        await removeCopies(attached);
        throw e;
      }
    },
  }),
  json({
    id: 'ask', method: 'POST', path: '/ask', access: ['owner', 'peer'],
    summary: 'Ask a chat\'s agent and wait for the answer',
    description: 'Answers from a READ-ONLY COPY of the chat\'s current session (waits up to 10 minutes): a fork of its Codex thread on a '
      + 'short-lived Codex of its own, under the profile\'s permission profile with every write entry made read (deny entries unchanged), '
      + 'approvals `never`, no MCP servers and no way to message anyone, attested before the turn like every start. The chat itself (its '
      + 'thread, queue and transcript) is not touched; a chat with no session yet is answered by a fresh read-only thread. The answer is the '
      + 'last agent message. From another chat (peer): the target profile\'s `answer_from` must list the sender, neither may be isolated, '
      + 'at most 30 an hour. An agent cannot ask its own chat. See docs/api-ask.md.',
    query: null, body: AskBody, response: Answered,
    errors: { 429: 'over 30 messages an hour from that chat', 502: 'the read-only copy did not answer (a start check refused it, or its turn failed)', 504: 'no answer in time (the copy was stopped)' },
    examples: [
      { name: 'peer', summary: 'an agent asks another profile', caller: 'peer', body: { key: 'coder', text: 'Which Node version does the build use?', from: 'research' }, status: 200, response: { answer: 'Node 20.19 (see .nvmrc).' } },
      { name: 'failed', summary: 'the read-only copy did not start', caller: 'owner', body: { key: 'coder', text: 'status?' }, status: 502, response: { error: 'the read-only copy of chat coder did not answer: the launch guard refused the start', code: 'ask-failed' } },
    ],
    handle: async (ctx) => {
      const { key, text: raw } = ctx.body;
      await admitPeer(ctx, key, 'ask');
      const message = await messageText(ctx, raw);
      if (message.length > MAX_TEXT) throw new ApiError(400, 'bad-request', `the message is ${message.length} characters long; at most ${MAX_TEXT}`);
      try {
        return await ctx.deps.core.ask(key, message, { timeoutMs: ctx.deps.askTimeoutMs, signal: ctx.signal });
      } catch (e) {
        if (!(e instanceof AppFailure)) throw e;
        const { code, message: why } = e.app;
        if (code === 'ask-timeout') throw new ApiError(504, 'ask-timeout', `no answer within ${Math.max(1, Math.round(ctx.deps.askTimeoutMs / 60_000))} min; the read-only copy of chat ${key} was stopped`);
        if (code === 'ask-aborted') throw new ApiError(499, 'gone', 'the caller went away');
        if (code === 'ask-failed' || code === 'refused') throw new ApiError(502, 'ask-failed', `the read-only copy of chat ${key} did not answer: ${why}`);
        throw e;
      }
    },
  }),
  {
    kind: 'sse', id: 'events', method: 'GET', path: '/events', access: ['owner'],
    summary: 'The event stream (SSE)',
    description: 'Server-sent events: `turn`, `progress`, `out`, `permission`, `permission-answered`, `turn-end`, each a JSON object with `key` and `at` '
      + '(and `turn`, the id `/turn` answered). `?key=` keeps one chat\'s. A `: ping` comment every 15 s; a client that lets over 1 MiB pile up unread is disconnected.',
    query: EventsQuery, body: null, response: ApiEventSchema, errors: {},
    examples: [{ name: 'out', summary: 'one event (the `data:` line of `event: out`)', caller: 'owner', query: { key: 'coder' }, status: 200, response: { event: 'out', key: 'coder', at: '2025-06-01T09:30:12.000Z', turn: EX_TURN, text: 'All 212 tests pass.' } }],
    open: async (ctx, sink) => {
      const { key } = ctx.query as z.infer<typeof EventsQuery>;
      return ctx.deps.core.subscribe((e) => {
        if (key === undefined || e.key === key) sink(e);
      });
    },
  },
  json({
    id: 'profiles', method: 'GET', path: '/profiles', access: ['owner'],
    summary: 'Profiles and their chats', description: 'Every profile of the accepted table, with its chats and their session ids (most recent first).',
    query: null, body: null, response: Profiles, errors: {},
    examples: [{
      name: 'one', summary: 'one profile with one chat', caller: 'owner', status: 200,
      response: { version: 1, profiles: [{ name: 'coder', backend: 'codex', folder: '/home/me/code', permissionMode: 'acceptEdits', sandboxed: true, model: null, effort: null, isolated: false, acceptFrom: ['research'], answerFrom: ['*'], chats: [{ chat: 'coder', session: EX_SESSION, sessions: [EX_SESSION] }] }] },
    }],
    handle: async (ctx) => {
      const { core } = ctx.deps;
      const [profiles, chats] = await Promise.all([core.profiles(), core.chats()]);
      const sessions = new Map(await Promise.all(chats.map(async (c) => [c.id, await core.sessions(c.id)] as const)));
      return {
        version: 1 as const,
        profiles: profiles.map((p) => ({
          name: p.name, backend: 'codex' as const, folder: p.cwd, permissionMode: p.permissionMode, sandboxed: p.sandboxed,
          model: p.model, effort: p.effort, isolated: p.isolated, acceptFrom: p.acceptFrom, answerFrom: p.answerFrom,
          chats: chats.filter((c) => c.profile === p.name).map((c) => ({ chat: c.id, session: c.sessionId, sessions: (sessions.get(c.id) ?? []).map((s) => s.id) })),
        })),
      };
    },
  }),
  json({
    id: 'sessions', method: 'GET', path: '/sessions', access: ['owner'],
    summary: 'A chat\'s sessions', description: 'The active session and the 10 most recently used, newest first.',
    query: KeyQuery, body: null, response: Sessions, errors: {},
    examples: [{
      name: 'one', summary: 'one session', caller: 'owner', query: { key: 'coder' }, status: 200,
      response: { active: EX_SESSION, sessions: [{ id: EX_SESSION, threadId: EX_SESSION, label: 'Run the tests and fix what fails.', turns: 3, lastUsedAt: '2025-06-01T09:30:12.000Z', active: true }] },
    }],
    handle: async (ctx) => {
      const sessions = await ctx.deps.core.sessions(ctx.query.key);
      return { active: sessions.find((s) => s.active)?.id ?? null, sessions };
    },
  }),
  json({
    id: 'history', method: 'GET', path: '/history', access: ['owner'],
    summary: 'A chat\'s recent messages',
    description: 'The active session\'s messages as this Angelia process saw them, newest page first (`angelia export` reads the whole history from Codex).',
    query: HistoryQuery, body: null, response: History, errors: {},
    examples: [{
      name: 'page', summary: 'the newest page', caller: 'owner', query: { key: 'coder', limit: '2' }, status: 200,
      response: { session: EX_SESSION, supported: true, items: [{ role: 'user', text: 'Run the tests.' }, { role: 'assistant', text: 'All 212 tests pass.' }], more: true, cursor: '4' },
    }],
    handle: async (ctx) => {
      const { key, session, limit, before } = ctx.query;
      const active = (await ctx.deps.core.sessions(key)).find((s) => s.active)?.id ?? null;
      if (session !== undefined && session !== active) throw new ApiError(404, 'unknown-session', 'only the active session\'s messages are kept here; `angelia export --session` reads older ones');
      const all = (await ctx.deps.core.items(key)).map(historyOf).filter((i): i is z.infer<typeof HistoryItem> => i !== null);
      const n = Number(limit ?? 50);
      const end = before === undefined ? all.length : Math.min(Number(before), all.length);
      const start = Math.max(0, end - n);
      return { session: active, supported: true, items: all.slice(start, end), more: start > 0, ...(start > 0 ? { cursor: String(start) } : {}) };
    },
  }),
  json({
    id: 'permissions', method: 'GET', path: '/permissions', access: ['owner'],
    summary: 'Approvals waiting for an answer', description: 'Every pending approval of every chat, oldest first.',
    query: null, body: null, response: Permissions, errors: {},
    examples: [{
      name: 'one', summary: 'one command waits', caller: 'owner', status: 200,
      response: { permissions: [{ key: 'coder', at: '2025-06-01T09:31:00.000Z', id: EX_APPROVAL, tool: 'command', preview: 'Run npm publish', detail: 'npm publish', answers: ['allow', 'deny', 'cancel'] }] },
    }],
    handle: async (ctx) => ({
      permissions: (await ctx.deps.core.approvals()).filter((a) => a.state === 'pending').map((a) => ({
        key: a.chatId, at: a.createdAt, id: a.id, tool: a.kind, preview: a.title, detail: a.command ?? a.reason, answers: [...a.answers],
      })),
    }),
  }),
  json({
    id: 'permission', method: 'POST', path: '/permission', access: ['owner'],
    summary: 'Answer an approval',
    description: 'Answers through the one approval broker (`by: api`): the first answer wins, wherever it is given. 409 when nothing waits under that id.',
    query: null, body: PermissionBody, response: PermissionAnswered, errors: { 409: 'nothing waits under that id (unknown, or already answered)' },
    examples: [
      { name: 'allow', summary: 'the owner allows', caller: 'owner', body: { key: 'coder', id: EX_APPROVAL, allow: true }, status: 200, response: { ok: true, answer: 'allow', by: 'api' } },
      { name: 'late', summary: 'already answered in the window', caller: 'owner', body: { id: EX_APPROVAL.slice(0, 8), allow: false }, status: 409, response: { error: 'already answered (allow, by window)', code: 'not-waiting' } },
    ],
    handle: async (ctx) => {
      const { key, id, allow, answer, grant, reason } = ctx.body;
      if ((allow === undefined) === (answer === undefined)) throw new ApiError(400, 'bad-request', 'give exactly one of allow or answer');
      const all = await ctx.deps.core.approvals();
      const lower = id.toLowerCase();
      const hits = all.filter((a) => a.id === id || a.id.startsWith(lower));
      const view = hits.length === 1 ? hits[0] : undefined;
      if (!view || (key !== undefined && view.chatId !== key)) throw new ApiError(409, 'not-waiting', 'nothing waits for an answer under that id');
      const offered = view.answers;
      const chosen = answer ?? (allow
        ? (['allow', 'allowForSession'] as const).find((a) => offered.includes(a))
        : (['deny', 'cancel'] as const).find((a) => offered.includes(a)));
      if (!chosen) throw new ApiError(400, 'bad-answer', `that answer is not offered; offered: ${offered.join(', ')}`);
      const out = AnswerOutcome.parse(await ctx.deps.core.answer(view.id, chosen, { grant, reason }));
      if (out.outcome !== 'answered') {
        throw new ApiError(409, 'not-waiting', out.outcome === 'already-answered' ? `already answered (${out.answer ?? '?'}, by ${out.by ?? '?'})` : 'nothing waits for an answer under that id');
      }
      return { ok: true as const, answer: chosen, by: out.by ?? 'api' };
    },
  }),
  json({
    id: 'jobs', method: 'GET', path: '/jobs', access: ['owner'],
    summary: 'Scheduled jobs (not in this version)',
    description: 'Scheduled jobs are not in this version of Angelia: the route answers so that a caller gets a well-formed, '
      + 'honest answer, `supported: false` and no jobs, for every profile or for the one named in `?profile=` (404 when there is no such profile).',
    query: JobsQuery, body: null, response: Jobs, errors: { 404: 'no such profile' },
    examples: [
      { name: 'none', summary: 'jobs are not supported', caller: 'owner', query: { profile: 'coder' }, status: 200, response: { version: 1, supported: false, profile: 'coder', jobs: [], reason: 'scheduled jobs are not in this version of Angelia' } },
      { name: 'unknown', summary: 'no such profile', caller: 'owner', query: { profile: 'nobody' }, status: 404, response: { error: 'no profile named "nobody" in the accepted table', code: 'unknown-profile' } },
    ],
    handle: async (ctx) => {
      const { profile } = ctx.query;
      if (profile !== undefined && !(await ctx.deps.core.profiles()).some((p) => p.name === profile)) {
        throw new ApiError(404, 'unknown-profile', `no profile named ${JSON.stringify(profile)} in the accepted table`);
      }
      return { version: 1 as const, supported: false as const, profile: profile ?? null, jobs: [], reason: 'scheduled jobs are not in this version of Angelia' };
    },
  }),
  json({
    id: 'status', method: 'GET', path: '/status', access: ['owner'],
    summary: 'Angelia\'s state', description: 'Version, state folder, socket, the Codex version last seen, and every chat\'s state.',
    query: null, body: null, response: Status, errors: {},
    examples: [{
      name: 'running', summary: 'one chat working', caller: 'owner', status: 200,
      response: { api: 1, version: '0.1.0', stateDir: '/home/me/.angelia', socket: '/home/me/.angelia/api.sock', codexVersion: '0.169.0', chats: [{ chat: 'coder', profile: 'coder', state: 'working', session: EX_SESSION, queued: 0, pendingApprovals: 1 }], pendingApprovals: 1 },
    }],
    handle: async (ctx) => {
      const { core, socketPath } = ctx.deps;
      const [info, chats, approvals] = await Promise.all([core.info(), core.chats(), core.approvals()]);
      return {
        api: API_VERSION, version: info.version, stateDir: info.stateDir, socket: socketPath, codexVersion: info.codexVersion,
        chats: chats.map((c) => ({ chat: c.id, profile: c.profile, state: c.state, session: c.sessionId, queued: c.queued, pendingApprovals: c.pendingApprovals })),
        pendingApprovals: approvals.filter((a) => a.state === 'pending').length,
      };
    },
  }),
];

/** The route for a method and path, or null; `pathKnown` tells a 405 from a 404. */
export function findRoute(method: string, path: string): { route: Route | null; pathKnown: boolean } {
  const same = routes.filter((r) => r.path === path);
  return { route: same.find((r) => r.method === method) ?? null, pathKnown: same.length > 0 };
}

