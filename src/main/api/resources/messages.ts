/**
 * The loopback API's message routes (routes.ts holds the table): `/send` and `/send-media` post a line
 * or a file into a chat, `/turn` gives its agent a turn, `/ask` asks a read-only copy of it. Who may
 * send what to whom is the peer policy (policy.ts); files are checked and copied by media.ts.
 */
import { rm } from 'node:fs/promises';
import { z } from 'zod';
import { AppFailure } from '../../../shared/result';
import { MAX_IMAGE_BYTES, MAX_IMAGES, sniffImage } from '../../../shared/images';
import { ApiError } from '../errors';
import { checkMedia, readChecked, snapshotMedia, type CheckedMedia } from '../media';
import { cleanText, normalizeBreaks, quoted } from '../policy';
import {
  admitPeer,
  agentChat,
  callerDeny,
  chatKey,
  EX_TURN,
  fromKey,
  json,
  label,
  MAX_TEXT,
  messageText,
  ok,
  profileOfChat,
  text,
  type RouteContext,
} from '../routeKit';

const SendBody = z
  .object({
    key: chatKey,
    text: text.describe("the line to show; `MEDIA:<absolute path>` lines attach files (owner and the chat's own agent only)"),
    from: fromKey.optional(),
  })
  .strict();

const SendMediaBody = z
  .object({
    key: chatKey,
    path: z.string().min(1).max(4096).describe('absolute path (or ~/…) of a regular file of at most 25 MiB'),
    caption: z.string().max(4000).optional(),
    file_name: z.string().min(1).max(255).optional().describe("the name to show (sanitised); default the file's own"),
    from: fromKey.optional(),
  })
  .strict();

const filePath = z.string().min(1).max(4096).describe('absolute path (or ~/…) of a regular file of at most 25 MiB');

const TurnFile = z.union([
  filePath,
  z
    .object({
      path: filePath,
      from: chatKey
        .optional()
        .describe(
          "the chat the file comes from (`{path, from}`): the path is checked as if that chat's agent sent it, with its profile's Read rules on top of the send-media checks",
        ),
      name: z.string().min(1).max(255).optional().describe("the name to give the copy (sanitised); default the file's own"),
    })
    .strict(),
]);

const TurnBody = z
  .object({
    key: chatKey,
    text: text.optional().describe('the message; required unless files are given'),
    from: fromKey.optional(),
    reply: z
      .literal('caller')
      .optional()
      .describe(
        "owner only: an app turn; it runs in the chat's thread, its answer goes to the caller (the event stream, by the turn id) and the window shows it folded, as an app turn",
      ),
    plain: z
      .boolean()
      .optional()
      .describe(
        'owner only: the text goes to the agent exactly as written, with no envelope and no command check (a leading `/` is sent as it is); without it, an owner text starting with `/` is refused',
      ),
    files: z
      .array(TurnFile)
      .min(1)
      .max(10)
      .optional()
      .describe("owner only: 1–10 files, each a path or `{path, from}`, checked like send-media and copied into the profile's .inbox/"),
    images: z
      .array(TurnFile)
      .min(1)
      .max(MAX_IMAGES)
      .optional()
      .describe(
        "owner only: 1–10 images (PNG, JPEG, GIF or WebP by content, at most 10 MiB each), each a path or `{path, from}`, checked like files, copied into the profile's .inbox/ and given to the agent as images (Codex `localImage`)",
      ),
  })
  .strict();

const AskBody = z.object({ key: chatKey, text, from: fromKey.optional() }).strict();

const Posted = z.object({ ok }).strict();

const MediaSent = z.object({ ok, name: z.string(), size: z.number().int().positive() }).strict();

const Queued = z.object({ ok, queued: z.number().int().nonnegative(), turn: z.string().describe('the turn id its events carry') }).strict();

const Answered = z.object({ answer: z.string().describe('the last agent message of the read-only copy\'s turn ("" when it wrote none)') }).strict();

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
 * Checks every image of an owner's turn as `checkTurnFiles` does, and its size against
 * `MAX_IMAGE_BYTES` (shared/images.ts). Throws ApiError as `checkTurnFiles`, 413 for an image too large.
 */
async function checkTurnImages(ctx: RouteContext, images: readonly z.infer<typeof TurnFile>[]): Promise<CheckedTurnFile[]> {
  const checked = await checkTurnFiles(ctx, images);
  for (const [i, f] of checked.entries()) {
    if (f.media.size > MAX_IMAGE_BYTES) throw new ApiError(413, 'too-large', `images[${i}] is larger than ${MAX_IMAGE_BYTES / 1048576} MiB`);
  }
  return checked;
}

/** The bytes of a checked image (media.ts `readChecked`); ApiError 400 `not-image` when its content is no PNG, JPEG, GIF or WebP. */
async function readImageBytes(f: CheckedTurnFile, i: number): Promise<Buffer> {
  const bytes = await readChecked(f.media);
  if (!sniffImage(bytes)) throw new ApiError(400, 'not-image', `images[${i}] is not a PNG, JPEG, GIF or WebP image (by its content)`);
  return bytes;
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

const MEDIA_LINE = /^\s*MEDIA:\s*(\S.*?)\s*$/;

/** `POST /send`: a line (and `MEDIA:` files) shown in a chat without a turn. */
export const sendRoute = json({
  id: 'send',
  method: 'POST',
  path: '/send',
  access: ['owner', 'chat', 'peer'],
  summary: 'Post a line into a chat',
  description:
    'Shows a line in the chat without running a turn, labelled with who sent it (`owner`, or `from <profile>`). ' +
    "Owner and the chat's own agent may attach files with `MEDIA:<absolute path>` lines (send-media checks). " +
    'From another chat (peer): refused when either profile is isolated; at most 30 an hour from one chat to another.',
  query: null,
  body: SendBody,
  response: Posted,
  errors: { 413: 'body over 256 KB', 429: 'over 30 messages an hour from that chat' },
  examples: [
    {
      name: 'owner',
      summary: 'the owner posts a line',
      caller: 'owner',
      body: { key: 'coder', text: 'The build is green again.' },
      status: 200,
      response: { ok: true },
    },
    {
      name: 'peer',
      summary: "an agent posts into another profile's chat",
      caller: 'peer',
      body: { key: 'coder', text: 'Notes are in _common/notes.md', from: 'research' },
      status: 200,
      response: { ok: true },
    },
    {
      name: 'isolated',
      summary: 'refused: the target is isolated',
      caller: 'peer',
      body: { key: 'vault', text: 'hello', from: 'research' },
      status: 403,
      response: { error: 'profile vault is isolated: other profiles cannot message it', code: 'isolated' },
    },
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
});

/** `POST /send-media`: a file posted into the caller's own chat (a private copy). */
export const sendMediaRoute = json({
  id: 'sendMedia',
  method: 'POST',
  path: '/send-media',
  access: ['owner', 'chat'],
  summary: 'Post a file into a chat',
  description:
    'Checks the path (absolute, real path, no credential or system location, no secrets folder or credential name, ' +
    "not Angelia's state, the asking profile's Read rules, a regular non-empty file of at most 25 MiB), takes a private copy into " +
    '`<state>/media/`, and shows it in the chat. Peers are refused: files go only into your own chat.',
  query: null,
  body: SendMediaBody,
  response: MediaSent,
  errors: { 413: 'file over 25 MiB' },
  examples: [
    {
      name: 'owner',
      summary: 'the owner posts a chart',
      caller: 'owner',
      body: { key: 'coder', path: '/home/me/Pictures/chart.png', caption: 'this week' },
      status: 200,
      response: { ok: true, name: 'chart.png', size: 48213 },
    },
    {
      name: 'credential',
      summary: 'refused: a credential location',
      caller: 'chat',
      body: { key: 'coder', path: '~/.ssh/id_ed25519' },
      status: 403,
      response: { error: 'refusing to send from that location', code: 'media-refused' },
    },
  ],
  handle: async (ctx) => {
    const { key, path, caption, file_name } = ctx.body;
    const media = await checkMedia(path, ctx.deps.places, await callerDeny(ctx));
    const copy = await snapshotMedia(media, ctx.deps.places.stateDirs[0]!, file_name);
    const captionText = cleanText(caption ?? '').trim();
    await ctx.deps.core.post(key, { label: await label(ctx), text: ctx.cls === 'owner' ? captionText : quoted(captionText), files: [copy.path] });
    return { ok: true as const, name: copy.name, size: copy.data.length };
  },
});

/** `POST /turn`: a turn of its own in a chat, with optional files copied into `.inbox/`. */
export const turnRoute = json({
  id: 'turn',
  method: 'POST',
  path: '/turn',
  access: ['owner', 'chat', 'peer'],
  summary: "Give a chat's agent a turn",
  description:
    'Queues the text as a turn of its own (never a chat command, never a steer) and answers the turn id its events carry. ' +
    "An agent's text arrives labelled `[from <profile>]`, its lines that could pass for a label quoted. From another chat (peer): " +
    "the target profile's `accept_from` must list the sender, neither may be isolated, at most 30 an hour. 429 when the chat already " +
    'holds 10 turns (running and waiting). Owner only: `reply: "caller"` makes an app turn (it runs in the chat\'s thread; its answer ' +
    'goes to the caller through `/events` with this turn id, and the window folds it and marks it as an app turn instead of showing a ' +
    'reply); `plain: true` sends the text exactly as written (no envelope, no command check); `files` (1–10, each a path or ' +
    "`{path, from}`) are checked like send-media (a `from` chat's profile's Read rules too) and copied into the profile's `.inbox/` only " +
    'after every check that can refuse the turn (the files, the text, the queue); a turn refused after all leaves no copy. `images` ' +
    '(1–10, the same shapes) are checked the same way, must be PNG, JPEG, GIF or WebP by content and at most 10 MiB each, are copied ' +
    'into `.inbox/` too and go to the agent as images (Codex `localImage`: the core checks each copy again and gives Codex a private ' +
    'copy of it), not as `[file: …]` lines.',
  query: null,
  body: TurnBody,
  response: Queued,
  errors: { 413: 'a file over 25 MiB', 429: 'the chat already holds 10 turns, or over 30 messages an hour from that chat' },
  examples: [
    {
      name: 'owner',
      summary: 'the owner gives a task',
      caller: 'owner',
      body: { key: 'coder', text: 'Run the tests and fix what fails.' },
      status: 200,
      response: { ok: true, queued: 1, turn: EX_TURN },
    },
    {
      name: 'files',
      summary: 'the owner gives a task with a file',
      caller: 'owner',
      body: { key: 'coder', text: 'Summarise this report.', files: ['/home/me/Documents/report.pdf'] },
      status: 200,
      response: { ok: true, queued: 1, turn: EX_TURN },
    },
    {
      name: 'images',
      summary: 'the owner gives a task with a screenshot, as an image the model sees',
      caller: 'owner',
      body: { key: 'coder', text: 'Why is this button cut off?', images: ['/home/me/Pictures/screenshot.png'] },
      status: 200,
      response: { ok: true, queued: 1, turn: EX_TURN },
    },
    {
      name: 'app',
      summary: 'an app turn: the answer comes back on /events with this turn id, the window folds it',
      caller: 'owner',
      body: { key: 'coder', text: 'List the failing tests, one per line.', reply: 'caller', plain: true },
      status: 200,
      response: { ok: true, queued: 1, turn: EX_TURN },
    },
    {
      name: 'from-chat',
      summary: "a file from another chat, checked against that chat's profile",
      caller: 'owner',
      body: { key: 'coder', text: 'Use the chart research made.', files: [{ path: '/home/me/research/chart.png', from: 'research' }] },
      status: 200,
      response: { ok: true, queued: 1, turn: EX_TURN },
    },
    {
      name: 'full',
      summary: 'refused: the chat already holds 10 turns',
      caller: 'owner',
      body: { key: 'coder', text: 'one more' },
      status: 429,
      response: { error: 'this chat already holds 10 messages; wait for the agent to work through them', code: 'queue-full' },
    },
    {
      name: 'not-accepted',
      summary: 'refused: the target does not take turns from the sender',
      caller: 'peer',
      body: { key: 'coder', text: 'please deploy', from: 'research' },
      status: 403,
      response: { error: 'profile coder does not take turns from research (its accept_from does not list it)', code: 'not-accepted' },
    },
    {
      name: 'agent-app',
      summary: 'refused: only the owner makes an app turn',
      caller: 'chat',
      body: { key: 'coder', text: 'done?', reply: 'caller' },
      status: 403,
      response: { error: 'only the owner gives a turn with reply, plain or files', code: 'forbidden' },
    },
  ],
  handle: async (ctx) => {
    const { key, text: raw, files, images, reply, plain } = ctx.body;
    if (raw === undefined && !files && !images) throw new ApiError(400, 'bad-request', 'a turn needs text, files or both');
    if ((files || images || reply !== undefined || plain) && ctx.cls !== 'owner')
      throw new ApiError(403, 'forbidden', 'only the owner gives a turn with reply, plain or files');
    if (!plain) refuseCommandText(ctx, raw);
    // Everything that can refuse the turn comes before any file is copied into the profile's .inbox/:
    // the peer policy, every file's checks, the text's length and the chat's queue.
    await admitPeer(ctx, key, 'turn');
    const checked = await checkTurnFiles(ctx, files ?? []);
    const pictures = await checkTurnImages(ctx, images ?? []);
    const body = raw === undefined ? '' : plain ? cleanText(raw) : await messageText(ctx, raw);
    const tooLong = (n: number): ApiError => new ApiError(400, 'bad-request', `the message is ${n} characters long; at most ${MAX_TEXT}`);
    if (body.length > MAX_TEXT) throw tooLong(body.length);
    if (checked.length || pictures.length) await ctx.deps.core.canQueue(key);
    const attached: string[] = [];
    const given: string[] = [];
    try {
      for (const f of checked) attached.push((await ctx.deps.core.attach(key, f.name, await readChecked(f.media))).path);
      const files = attached.slice();
      for (const [i, f] of pictures.entries()) {
        const { path } = await ctx.deps.core.attach(key, f.name, await readImageBytes(f, i));
        attached.push(path);
        given.push(path);
      }
      const message = [body, ...files.map((p) => `[file: ${p}]`)].filter(Boolean).join('\n');
      if (message.length > MAX_TEXT) throw tooLong(message.length);
      const opts = { ...(reply === 'caller' ? { app: true } : {}), ...(given.length ? { images: given } : {}) };
      const { queued, turn } = await ctx.deps.core.turn(key, message, opts);
      return { ok: true as const, queued, turn };
    } catch (e) {
      // Refused after all (a file changed while it was read, the queue filled meanwhile): no copy stays.
      await removeCopies(attached);
      throw e;
    }
  },
});

/** `POST /ask`: an answer from a read-only copy of the chat's session (docs/api-ask.md). */
export const askRoute = json({
  id: 'ask',
  method: 'POST',
  path: '/ask',
  access: ['owner', 'peer'],
  summary: "Ask a chat's agent and wait for the answer",
  description:
    "Answers from a READ-ONLY COPY of the chat's current session (waits up to 10 minutes): a fork of its Codex thread on a " +
    "short-lived Codex of its own, under the profile's permission profile with every write entry made read (deny entries unchanged), " +
    'approvals `never`, no MCP servers and no way to message anyone, attested before the turn like every start. The chat itself (its ' +
    'thread, queue and transcript) is not touched; a chat with no session yet is answered by a fresh read-only thread. The answer is the ' +
    "last agent message. From another chat (peer): the target profile's `answer_from` must list the sender, neither may be isolated, " +
    'at most 30 an hour. An agent cannot ask its own chat. See docs/api-ask.md.',
  query: null,
  body: AskBody,
  response: Answered,
  errors: {
    429: 'over 30 messages an hour from that chat',
    502: 'the read-only copy did not answer (a start check refused it, or its turn failed)',
    504: 'no answer in time (the copy was stopped)',
  },
  examples: [
    {
      name: 'peer',
      summary: 'an agent asks another profile',
      caller: 'peer',
      body: { key: 'coder', text: 'Which Node version does the build use?', from: 'research' },
      status: 200,
      response: { answer: 'Node 20.19 (see .nvmrc).' },
    },
    {
      name: 'failed',
      summary: 'the read-only copy did not start',
      caller: 'owner',
      body: { key: 'coder', text: 'status?' },
      status: 502,
      response: { error: 'the read-only copy of chat coder did not answer: the launch guard refused the start', code: 'ask-failed' },
    },
  ],
  handle: async (ctx) => {
    const { key, text: raw } = ctx.body;
    await admitPeer(ctx, key, 'ask');
    const message = await messageText(ctx, raw);
    if (message.length > MAX_TEXT) throw new ApiError(400, 'bad-request', `the message is ${message.length} characters long; at most ${MAX_TEXT}`);
    try {
      return await ctx.deps.core.ask(key, message, { timeoutMs: ctx.deps.askTimeoutMs, signal: ctx.signal, owner: agentChat(ctx) === null });
    } catch (e) {
      if (!(e instanceof AppFailure)) throw e;
      const { code, message: why } = e.app;
      if (code === 'ask-timeout')
        throw new ApiError(
          504,
          'ask-timeout',
          `no answer within ${Math.max(1, Math.round(ctx.deps.askTimeoutMs / 60_000))} min; the read-only copy of chat ${key} was stopped`,
        );
      if (code === 'ask-aborted') throw new ApiError(499, 'gone', 'the caller went away');
      if (code === 'ask-failed' || code === 'refused') throw new ApiError(502, 'ask-failed', `the read-only copy of chat ${key} did not answer: ${why}`);
      throw e;
    }
  },
});
