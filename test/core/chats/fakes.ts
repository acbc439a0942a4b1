/**
 * Scripted Codex connections for the chat's unit tests (no Codex process): a `FakeConn` answers requests
 * from a table, records every request, and lets the test push notifications, server requests and an exit;
 * `makeChat` builds a Chat over a list of them (one per Codex start) with an in-memory audit, a real
 * broker and a sessions store in a test folder. Real-Codex behaviour is covered in test/integration.
 */
import { afterEach } from 'vitest';
import type { AppEvent, ChatItem } from '../../../src/shared/contract';
import { Chat } from '../../../src/main/core/chats/chat';
import type { ChatTiming } from '../../../src/main/core/chats/watchdogs';
import type { LaunchPlan } from '../../../src/main/core/launch/plan';
import type { CodexConnection, CodexExit } from '../../../src/main/core/codex/connection';
import { decodeNotification, type CodexEvent } from '../../../src/main/core/codex/events';
import type { ClientRequestMethod, RequestParams, ResponseOf } from '../../../src/main/core/codex/protocol';
import { SessionStore } from '../../../src/main/core/chats/sessions';
import type { ProfileNow } from '../../../src/main/core/chats/mode';
import { ApprovalBroker } from '../../../src/main/core/approvals/broker';
import { memoryAudit } from '../../../src/main/core/approvals/audit';
import { grantFloor } from '../../../src/main/core/approvals/privateReach';
import { ModelCatalog } from '../../../src/main/core/codex/models';
import { makeTestDir, removeTestDir } from '../instance/testDir';

/** Answers one request: the params sent and the connection; may return a promise (a late answer). */
export type Answer = (params: Record<string, unknown>, conn: FakeConn) => unknown;

/**
 * A connection that answers requests from a table and lets the test push notifications (`notify`, decoded
 * as the real client does, events.ts) and exit.
 */
export class FakeConn implements CodexConnection {
  readonly version = '0.169.0';
  readonly calls: Array<{ method: string; params: Record<string, unknown> }> = [];
  private onEv: (e: CodexEvent) => void = () => {};
  /** Pushes one notification as Codex would send it. */
  notify = (method: string, params: unknown): void => this.onEv(decodeNotification(method, params).event);
  serverRequest: ((method: string, params: unknown, id: string | number) => Promise<unknown>) | null = null;
  private exit!: (e: CodexExit) => void;
  readonly exited = new Promise<CodexExit>((r) => (this.exit = r));
  stopped = false;
  constructor(private readonly answers: Record<string, Answer>) {}
  async request<M extends ClientRequestMethod>(method: M, params: RequestParams<M>): Promise<ResponseOf<M>> {
    const p = (params ?? {}) as Record<string, unknown>;
    this.calls.push({ method, params: p });
    const a = this.answers[method];
    // The table's answers are scripted wire values, not checked against the generated response types.
    return (a ? a(p, this) : {}) as ResponseOf<M>;
  }
  onServerRequest(h: (method: string, params: unknown, id: string | number) => Promise<unknown>): void {
    this.serverRequest = h;
  }
  onEvent(h: (e: CodexEvent) => void): void {
    this.onEv = h;
  }
  /** The process dies on its own (a crash): exit code `code`, stderr as given (a panic by default). */
  die(code: number | null, exit: Partial<CodexExit> = {}): void {
    this.exit({ code, signal: null, stderrTail: "thread 'main' panicked at src/main.rs:1:1:\nboom\n", ...exit });
  }
  async stop(): Promise<void> {
    this.stopped = true;
    this.exit({ code: 0, signal: null, stderrTail: '' });
  }
  kill(): void {
    this.stopped = true;
  }
  /** The requests sent with `method`, oldest first. */
  sent(method: string): Array<Record<string, unknown>> {
    return this.calls.filter((c) => c.method === method).map((c) => c.params);
  }
}

let threadSeq = 0;

/** `account/read` signed in with an API key (codex 0.169.0 `GetAccountResponse`): the start's sign-in gate passes. */
export const SIGNED_IN = { account: { type: 'apiKey' }, requiresOpenaiAuth: true };

/** `account/read` not signed in where the provider needs an OpenAI sign-in: the start is refused `not-signed-in`. */
export const SIGNED_OUT = { account: null, requiresOpenaiAuth: true };

/** The answers of a healthy start (config, requirements, signed in, thread start/resume, an empty model list). */
export const baseAnswers = (): Record<string, Answer> => ({
  'config/read': () => ({ config: { model: 'gpt-5.5' } }),
  'configRequirements/read': () => ({ requirements: null }),
  'account/read': () => SIGNED_IN,
  'thread/start': () => ({ thread: { id: `thread-${++threadSeq}` }, approvalsReviewer: 'user', sandbox: { type: 'dangerFullAccess' }, model: 'gpt-5.5' }),
  'thread/resume': (p) => ({ thread: { id: p.threadId }, approvalsReviewer: 'user', sandbox: { type: 'dangerFullAccess' }, model: 'gpt-5.5' }),
  'model/list': () => ({ data: [], nextCursor: null }),
});

/** A full-access launch plan (no sandbox to attest), so the fake's `dangerFullAccess` passes. */
export const plan: LaunchPlan = {
  spawn: { bin: '/fake/codex', args: ['app-server'], cwd: '/w', env: {} },
  sandboxed: false,
  permissionsExtends: null,
  onRequest: true,
  threadParams: { cwd: '/w' },
  effort: null,
  expect: { sandboxed: false, approvalPolicy: 'on-request', features: {} },
  allowedMcpServers: [],
  grantFloor: grantFloor({ stateDir: '/w/.angelia', home: '/w/home', codexHome: '/w/home/.codex', cwd: '/w', platform: 'linux' }),
};

const timing: ChatTiming = { stallMs: 0, idleMs: 0, ghostApprovalMs: 50, interruptGraceMs: 200 };
let chats: Chat[] = [];
let dirs: string[] = [];
afterEach(async () => {
  await Promise.all(chats.map((c) => c.dispose()));
  chats = [];
  await Promise.all(dirs.map(removeTestDir));
  dirs = [];
});

/**
 * A sandboxed launch plan (`sandboxDeny` names three deny entries): a fake passes its attestation with
 * `sandboxedAnswers`.
 */
export const sandboxedPlan: LaunchPlan = {
  ...plan,
  sandboxed: true,
  permissionsExtends: null,
  expect: { sandboxed: true, approvalPolicy: 'on-request', features: {} },
  sandboxDeny: ['/w/home/.ssh', '/w/other-profile', '/w/secrets'],
};

/** The answers of a healthy sandboxed start: config layers, and a thread under the "angelia" profile in a managed sandbox. */
export const sandboxedAnswers = (): Record<string, Answer> => {
  const sandboxed = {
    approvalsReviewer: 'user',
    sandbox: { type: 'workspaceWrite' },
    activePermissionProfile: { id: 'angelia', extends: null },
    model: 'gpt-5.5',
  };
  return {
    ...baseAnswers(),
    'config/read': () => ({ config: { model: 'gpt-5.5' }, layers: [] }),
    'thread/start': () => ({ thread: { id: `thread-${++threadSeq}` }, ...sandboxed }),
    'thread/resume': (p) => ({ thread: { id: p.threadId }, ...sandboxed }),
  };
};

/**
 * A chat (id `c`, profile `p`) whose n-th Codex start returns `conns[n]`. `opts.gate`, when given, holds
 * each start until it resolves (Codex "still starting"); `opts.plan` replaces the full-access `plan`;
 * `opts.sessions` is a sessions file to use (default: a fresh one in the test's folder). Disposed after each test.
 */
export async function makeChat(
  conns: FakeConn[],
  t: Partial<ChatTiming> = {},
  opts: { gate?: () => Promise<void>; profileNow?: () => ProfileNow | null; plan?: LaunchPlan; sessions?: string } = {},
) {
  const dir = await makeTestDir('chat-unit');
  dirs.push(dir);
  const events: AppEvent[] = [];
  const audit = memoryAudit();
  const broker = new ApprovalBroker({ timeoutMs: 60_000, audit, onUpdate: () => {} });
  let started = 0;
  const chat = new Chat({
    chatId: 'c',
    profile: 'p',
    plan: async () => opts.plan ?? plan,
    startCodex: async () => {
      const conn = conns[started++];
      if (!conn) throw new Error('no more fake connections');
      if (opts.gate) await opts.gate();
      return conn;
    },
    broker,
    audit,
    sessions: new SessionStore(opts.sessions ?? `${dir}/sessions.json`),
    emit: (e) => events.push(e),
    timing: { ...timing, ...t },
    models: new ModelCatalog(),
    exportDir: `${dir}/exports`,
    threadHeldElsewhere: () => null,
    ...(opts.profileNow ? { profileNow: opts.profileNow } : {}),
  });
  chats.push(chat);
  return { chat, events, broker, audit, starts: () => started, dir };
}

/** The texts of the notices among `items`, oldest first. */
export const notices = (items: ChatItem[]) => items.filter((i): i is Extract<ChatItem, { type: 'notice' }> => i.type === 'notice').map((i) => i.text);

/** The items of one type among `items`. */
export function itemsOf<T extends ChatItem['type']>(items: ChatItem[], type: T): Array<Extract<ChatItem, { type: T }>> {
  return items.filter((i): i is Extract<ChatItem, { type: T }> => i.type === type);
}

/** Polls `get` every 10 ms until it gives a truthy value (at most 5 s); throws naming `what` otherwise. */
export async function until<T>(what: string, get: () => T | undefined | null | false): Promise<T> {
  for (let n = 0; n < 500; n++) {
    const v = get();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`never happened: ${what}`);
}

/** Answers turn/start with turn id `id` and completes it on the next tick with `status`. */
export function completing(status: 'completed' | 'failed' = 'completed', error: unknown = null, id = 'turn-1'): Answer {
  return (p, conn) => {
    setTimeout(() => conn.notify('turn/completed', { threadId: p.threadId, turn: { id, status, error } }), 5);
    return { turn: { id } };
  };
}

/** Answers turn/interrupt with `{}` and ends the turn as interrupted shortly after (as Codex 0.169.0 does). */
export function interrupting(): Answer {
  return (p, conn) => {
    setTimeout(() => conn.notify('turn/completed', { threadId: p.threadId, turn: { id: p.turnId, status: 'interrupted', error: null } }), 5);
    return {};
  };
}

/** A promise with its resolve function, for answers the test releases. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (v: T) => void } {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
