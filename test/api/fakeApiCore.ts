/**
 * An in-memory `ApiCore` (src/main/api/core.ts) for the API tests, seeded so that every documented
 * example of the route table can be replayed against it: profiles `coder` (accept_from research,
 * answer_from *), `research` (* and *) and `vault` (isolated), one chat each; chat `coder` has one
 * session, six history items and one pending command approval (the examples' ids). `turn` answers the
 * examples' turn id first and plays `turn` → `out` → `turn-end` on the next tick (the reply is
 * `opts.reply`'s); `ask` answers with the same reply (a failed one throws `ask-failed`, none at all waits
 * until the timeout or the caller's abort). Everything the API did is recorded (`posts`, `turns`, `asks`,
 * `attached`, `answers`, `accountCalls`).
 */
import { randomUUID } from 'node:crypto';
import type { AnswerOutcome, ApprovalAnswer, ApprovalView, ChatItem, ChatView, SessionView } from '../../src/shared/contract';
import { AppFailure } from '../../src/shared/result';
import type { ApiCore, ApiEvent, ApiPost, ApiProfile } from '../../src/main/api/core';
import { EX_QUESTION } from '../../src/main/api/routeKit';
import { EXAMPLE_APPROVAL_ID } from '../../src/main/api/routes';
import { EX_USAGE } from '../../src/main/api/resources/service';
import { EX_ACCOUNT, EX_AUTH_URL, EX_DEVICE, EX_LOGIN, EX_SIGNED_OUT } from '../../src/main/api/resources/account';
import type { AccountView, LoginProgress } from '../../src/shared/account';
import { chatView } from '../fixtures/fakeCore/types';

export const EX_TURN = '3f6c2b1e-8a4d-4c7e-9b2f-1d5e7a9c0b34';
export const EX_SESSION = '019a3c5e-7b21-7d44-a1c9-3e5f7a9b1c2d';

/** How a fake turn ends. */
export interface FakeReply {
  status: 'completed' | 'failed' | 'interrupted' | 'dropped';
  text?: string;
  reason?: string | null;
}

export interface FakeApiCoreOptions {
  /** Keep only these chats (and their profiles). */
  only?: string[];
  /** Override profiles' `acceptFrom`. */
  acceptFrom?: Record<string, string[]>;
  /** Override profiles' `answerFrom`. */
  answerFrom?: Record<string, string[]>;
  /** Chats whose queue is full. */
  queueFull?: string[];
  /** How each turn ends (default: completed with "Node 20.19 (see .nvmrc)."); null: never ends. */
  reply?: ((text: string) => FakeReply) | null;
  /** The state of the seeded approval (default pending). */
  approval?: Partial<Pick<ApprovalView, 'state' | 'answer' | 'by'>>;
  /** Also seed a pending agent question (`EX_QUESTION`, one question `db` with options SQLite / Postgres). */
  question?: boolean;
  /** Deny rules per profile (`readDenyRules`). */
  deny?: Record<string, string[]>;
  /** Folder per profile (default /home/me/<name>, coder /home/me/code). */
  cwd?: Record<string, string>;
}

export interface FakeApiCore {
  core: ApiCore;
  posts: { chatId: string; post: ApiPost }[];
  turns: { chatId: string; text: string; turn: string; app: boolean }[];
  asks: { chatId: string; text: string }[];
  attached: { chatId: string; name: string; size: number }[];
  answers: { id: string; answer: ApprovalAnswer; opts: unknown }[];
  /**
   * The account calls, in order: `read`, `login:<method>`, `cancel:<loginId>`, `logout`, `resume:<codexHome>`. The account
   * starts signed in with ChatGPT (`EX_ACCOUNT`) and sign-in `EX_LOGIN` pending; an API-key sign-in
   * completes, ChatGPT and device code answer the examples' pending progress.
   */
  accountCalls: string[];
  /** Emits an API event to every subscriber. */
  emit(e: ApiEvent): void;
}

function profile(name: string, o: FakeApiCoreOptions, extra: Partial<ApiProfile> = {}): ApiProfile {
  return {
    name,
    cwd: o.cwd?.[name] ?? (name === 'coder' ? '/home/me/code' : `/home/me/${name}`),
    permissionMode: 'acceptEdits',
    sandboxed: true,
    model: null,
    effort: null,
    isolated: false,
    acceptFrom: ['*'],
    answerFrom: ['*'],
    ...extra,
    ...(o.acceptFrom?.[name] ? { acceptFrom: o.acceptFrom[name] } : {}),
    ...(o.answerFrom?.[name] ? { answerFrom: o.answerFrom[name] } : {}),
  };
}

function chat(id: string, extra: Partial<ChatView> = {}): ChatView {
  return chatView(id, { enforcement: 'managed', ...extra });
}

/** Builds the fake (see the module comment). */
export function createFakeApiCore(o: FakeApiCoreOptions = {}): FakeApiCore {
  const keep = (name: string): boolean => !o.only || o.only.includes(name);
  const profiles = [profile('coder', o, { acceptFrom: ['research'] }), profile('research', o), profile('vault', o, { isolated: true })].filter((p) =>
    keep(p.name),
  );
  const chats = [chat('coder', { state: 'working', pendingApprovals: 1, sessionId: EX_SESSION, threadId: EX_SESSION }), chat('research'), chat('vault')].filter(
    (c) => keep(c.id),
  );
  const sessions: Record<string, SessionView[]> = {
    coder: [
      { id: EX_SESSION, threadId: EX_SESSION, label: 'Run the tests and fix what fails.', turns: 3, lastUsedAt: '2025-06-01T09:30:12.000Z', active: true },
    ],
  };
  const items: Record<string, ChatItem[]> = {
    coder: [
      { type: 'user', id: 'u1', text: 'Hello', via: 'turn' },
      { type: 'agent', id: 'a1', text: 'Hi.', done: true },
      { type: 'user', id: 'u2', text: 'Build it.', via: 'turn' },
      { type: 'agent', id: 'a2', text: 'Built.', done: true },
      { type: 'notice', id: 'n1', text: 'not history' },
      { type: 'user', id: 'u3', text: 'Run the tests.', via: 'turn' },
      { type: 'agent', id: 'a3', text: 'All 212 tests pass.', done: true },
    ],
  };
  const approvals: ApprovalView[] = [
    {
      id: EXAMPLE_APPROVAL_ID,
      chatId: 'coder',
      profile: 'coder',
      kind: 'command',
      title: 'Run npm publish',
      command: 'npm publish',
      cwd: '/home/me/code',
      reason: null,
      changes: [],
      requested: null,
      answers: ['allow', 'deny', 'cancel'],
      createdAt: '2025-06-01T09:31:00.000Z',
      state: 'pending',
      answer: null,
      by: null,
      granted: null,
      denyReason: null,
      ...o.approval,
    },
    ...(o.question ? [exampleQuestion()] : []),
  ];
  const listeners = new Set<(e: ApiEvent) => void>();
  const emit = (e: ApiEvent): void => {
    for (const l of listeners) l(e);
  };
  const fake: FakeApiCore = { core: undefined as unknown as ApiCore, posts: [], turns: [], asks: [], attached: [], answers: [], accountCalls: [], emit };
  let account: AccountView = { ...EX_ACCOUNT };
  const pendingLogins = new Set([EX_LOGIN]);
  const progress = (p: Partial<LoginProgress> & Pick<LoginProgress, 'method'>): LoginProgress => ({
    loginId: null,
    state: 'pending',
    authUrl: null,
    verificationUrl: null,
    userCode: null,
    error: null,
    ...p,
  });
  const reply = o.reply === undefined ? (): FakeReply => ({ status: 'completed', text: 'Node 20.19 (see .nvmrc).' }) : o.reply;
  const known = (chatId: string): void => {
    if (!chats.some((c) => c.id === chatId)) throw new AppFailure({ code: 'unknown-chat', message: `no chat or profile named "${chatId}"` });
  };
  fake.core = {
    info: async () => ({ version: '0.1.0', stateDir: '/home/me/.angelia', codexVersion: '0.169.0' }),
    usage: async () => [EX_USAGE],
    resumeUsage: async (codexHome) => {
      fake.accountCalls.push(`resume:${codexHome}`);
      return { ...EX_USAGE, codexHome, pausedUntil: null };
    },
    account: async () => {
      fake.accountCalls.push('read');
      return { ...account };
    },
    login: async (req) => {
      fake.accountCalls.push(`login:${req.method}`);
      if (req.method === 'apiKey') {
        account = { ...account, signedIn: true, method: 'apiKey', email: null, plan: null };
        return progress({ method: 'apiKey', state: 'completed' });
      }
      pendingLogins.add(EX_LOGIN);
      return req.method === 'chatgpt'
        ? progress({ method: 'chatgpt', loginId: EX_LOGIN, authUrl: EX_AUTH_URL })
        : progress({ method: 'deviceCode', loginId: EX_LOGIN, ...EX_DEVICE });
    },
    loginCancel: async (loginId) => {
      fake.accountCalls.push(`cancel:${loginId}`);
      return { cancelled: pendingLogins.delete(loginId) };
    },
    logout: async () => {
      fake.accountCalls.push('logout');
      account = { ...EX_SIGNED_OUT };
      return { ...account };
    },
    chats: async () => chats.map((c) => ({ ...c })),
    profiles: async () => profiles.map((p) => ({ ...p })),
    sessions: async (chatId) => {
      known(chatId);
      return sessions[chatId] ?? [];
    },
    items: async (chatId) => {
      known(chatId);
      return items[chatId] ?? [];
    },
    turn: async (chatId, text, opts = {}) => {
      known(chatId);
      if (o.queueFull?.includes(chatId))
        throw new AppFailure({ code: 'queue-full', message: 'this chat already holds 10 messages; wait for the agent to work through them', where: chatId });
      const turn = fake.turns.length === 0 ? EX_TURN : randomUUID();
      fake.turns.push({ chatId, text, turn, app: opts.app === true });
      if (reply) {
        setImmediate(() => {
          const at = new Date().toISOString();
          const r = reply(text);
          emit({ event: 'turn', key: chatId, at, turn, text });
          if (r.text !== undefined) emit({ event: 'out', key: chatId, at, turn, text: r.text });
          emit({ event: 'turn-end', key: chatId, at, turn, status: r.status, reason: r.reason ?? null });
        });
      }
      return { queued: 1, turn };
    },
    canQueue: async (chatId) => {
      known(chatId);
      if (o.queueFull?.includes(chatId))
        throw new AppFailure({ code: 'queue-full', message: 'this chat already holds 10 messages; wait for the agent to work through them', where: chatId });
    },
    ask: async (chatId, text, opts) => {
      known(chatId);
      fake.asks.push({ chatId, text });
      if (!reply) {
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, opts.timeoutMs);
          opts.signal?.addEventListener(
            'abort',
            () => {
              clearTimeout(t);
              resolve();
            },
            { once: true },
          );
        });
        if (opts.signal?.aborted) throw new AppFailure({ code: 'ask-aborted', message: 'the caller went away' });
        throw new AppFailure({ code: 'ask-timeout', message: 'no answer in time' });
      }
      const r = reply(text);
      if (r.status !== 'completed') throw new AppFailure({ code: 'ask-failed', message: r.reason ?? `the turn ${r.status}` });
      return { answer: r.text ?? '' };
    },
    post: async (chatId, post) => {
      known(chatId);
      fake.posts.push({ chatId, post });
    },
    attach: async (chatId, name, data) => {
      known(chatId);
      fake.attached.push({ chatId, name, size: data.length });
      return { path: `/home/me/code/.inbox/${name}` };
    },
    readDenyRules: async (name) => o.deny?.[name] ?? [],
    approvals: async () => approvals.map((a) => ({ ...a })),
    answer: async (id, answer, opts): Promise<AnswerOutcome> => {
      const a = approvals.find((x) => x.id === id);
      if (!a) return { outcome: 'unknown', answer: null, by: null };
      if (a.state !== 'pending') return { outcome: 'already-answered', answer: a.answer, by: a.by };
      if (!a.answers.includes(answer)) throw new AppFailure({ code: 'bad-answer', message: `"${answer}" is not offered` });
      Object.assign(a, { state: 'answered', answer, by: 'api' });
      fake.answers.push({ id, answer, opts });
      return { outcome: 'answered', answer, by: 'api' };
    },
    subscribe: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
  return fake;
}

/** The pending agent question of the examples (`question: true`). */
function exampleQuestion(): ApprovalView {
  return {
    id: EX_QUESTION,
    chatId: 'coder',
    profile: 'coder',
    kind: 'userInput',
    title: 'The agent asks: Which database should the tests use?',
    command: null,
    cwd: null,
    reason: null,
    changes: [],
    requested: null,
    answers: ['allow', 'deny'],
    createdAt: '2025-06-01T09:32:00.000Z',
    state: 'pending',
    answer: null,
    by: null,
    granted: null,
    denyReason: null,
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
  };
}
