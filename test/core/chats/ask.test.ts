/**
 * `askReadOnly` (src/main/core/chats/ask.ts) over a scripted connection: it forks the chat's thread
 * (ephemeral, the plan's thread parameters without developerInstructions), falls back to a fresh
 * read-only thread when the thread has no rollout, attests the copy before the turn (read-only profile,
 * sandbox `readOnly`, approvals `never`; anything else refuses and no turn starts), grants nothing a
 * server request asks, answers with the turn's last agent message, and always stops the process.
 * The real fork on real codex is test/integration/api-ask.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { AppFailure } from '../../../src/shared/result';
import { ASK_FRAME, askReadOnly, type AskInput } from '../../../src/main/core/chats/ask';
import type { LaunchPlan } from '../../../src/main/core/launch/plan';
import { grantFloor } from '../../../src/main/core/approvals/privateReach';
import { FakeConn, type Answer } from './fakes';

/** A read-only plan as launch/plan.ts makes it (what the checks look at). */
const roPlan: LaunchPlan = {
  spawn: { bin: '/fake/codex', args: ['app-server'], cwd: '/w', env: {} },
  sandboxed: true,
  permissionsExtends: null,
  readOnly: true,
  onRequest: false,
  threadParams: { cwd: '/w', approvalPolicy: 'never', approvalsReviewer: 'user', developerInstructions: 'plan-mode words' },
  effort: null,
  expect: { sandboxed: true, approvalPolicy: 'never', features: { network_proxy: true } },
  allowedMcpServers: [],
  grantFloor: grantFloor({ stateDir: '/w/.angelia', home: '/w/home', codexHome: '/w/home/.codex', cwd: '/w', platform: 'linux' }),
};

/** What a read-only thread answer of codex 0.169.0 looks like (measured, docs/api-ask.md). */
const roThread = (id: string, over: Record<string, unknown> = {}): Record<string, unknown> => ({
  thread: { id, ephemeral: true, path: null },
  approvalPolicy: 'never',
  approvalsReviewer: 'user',
  sandbox: { type: 'readOnly', networkAccess: true },
  activePermissionProfile: { id: 'angelia', extends: null },
  ...over,
});

/** A connection that plays one turn: `turn/start` answers, then the agent's messages and `turn/completed`. */
class AskConn extends FakeConn {
  killed = false;
  override kill(): void {
    this.killed = true;
    void this.stop();
  }
}

function conn(over: Record<string, Answer> = {}, turn: { messages?: string[]; status?: string; error?: unknown; never?: boolean } = {}): AskConn {
  const c: AskConn = new AskConn({
    'config/read': () => ({ config: {}, layers: [{ name: { type: 'sessionFlags' }, config: {} }] }),
    'configRequirements/read': () => ({ requirements: null }),
    'thread/fork': (p) => roThread(`fork-of-${String(p.threadId)}`),
    'thread/start': () => roThread('fresh'),
    'turn/start': (p) => {
      const threadId = p.threadId as string;
      if (!turn.never) {
        setImmediate(() => {
          for (const [i, text] of (turn.messages ?? ['the answer']).entries())
            c.notify('item/completed', { threadId, turnId: 'turn-1', item: { type: 'agentMessage', id: `m${i}`, text } });
          c.notify('turn/completed', { threadId, turn: { id: 'turn-1', status: turn.status ?? 'completed', error: turn.error ?? null } });
        });
      }
      return { turn: { id: 'turn-1' } };
    },
    ...over,
  });
  return c;
}

function input(c: AskConn, over: Partial<AskInput> = {}): AskInput {
  return {
    plan: roPlan,
    startCodex: async () => c,
    threadId: 'chat-thread',
    model: null,
    effort: null,
    text: '[from research]\n\nwhich node?',
    timeoutMs: 5_000,
    ...over,
  };
}

async function failure(p: Promise<unknown>): Promise<AppFailure['app']> {
  try {
    await p;
  } catch (e) {
    if (e instanceof AppFailure) return e.app;
    throw e;
  }
  throw new Error('expected a failure');
}

describe('askReadOnly', () => {
  it("forks the chat's thread (ephemeral, never asking), runs one turn on the fork and answers its last agent message", async () => {
    const c = conn({}, { messages: ['thinking…', 'Node 20.19.'] });
    const out = await askReadOnly(input(c, { model: 'gpt-5.5', effort: 'high' }));
    expect(out).toEqual({ answer: 'Node 20.19.', forkedFrom: 'chat-thread', codexVersion: '0.169.0' });
    expect(c.sent('thread/fork')).toEqual([
      { cwd: '/w', approvalPolicy: 'never', approvalsReviewer: 'user', ephemeral: true, model: 'gpt-5.5', threadId: 'chat-thread', excludeTurns: true },
    ]);
    expect(c.sent('thread/start')).toEqual([]);
    expect(c.sent('turn/start')).toEqual([
      {
        threadId: 'fork-of-chat-thread',
        input: [{ type: 'text', text: `${ASK_FRAME}\n\n[from research]\n\nwhich node?`, text_elements: [] }],
        model: 'gpt-5.5',
        effort: 'high',
      },
    ]);
    expect(c.stopped).toBe(true);
  });

  it('answers from a fresh read-only thread when the chat has none, or its rollout is gone', async () => {
    const none = conn();
    expect(await askReadOnly(input(none, { threadId: null }))).toMatchObject({ answer: 'the answer', forkedFrom: null });
    expect(none.sent('thread/start')).toEqual([{ ...roPlan.threadParams, ephemeral: true }]);
    const lost = conn({
      'thread/fork': () => {
        throw new Error('no rollout found for thread id chat-thread');
      },
    });
    expect(await askReadOnly(input(lost))).toMatchObject({ answer: 'the answer', forkedFrom: null });
    expect(lost.sent('thread/start')).toHaveLength(1);
    const busy = conn({
      'thread/fork': () => {
        throw new Error('thread is locked');
      },
    });
    expect(await failure(askReadOnly(input(busy)))).toMatchObject({ code: 'ask-failed', message: 'the conversation could not be copied: thread is locked' });
    expect(busy.sent('turn/start')).toEqual([]);
  });

  for (const [what, over, says] of [
    ['a writable sandbox', { sandbox: { type: 'workspaceWrite' } }, 'not readOnly'],
    ['an approval policy that asks', { approvalPolicy: 'on-request' }, 'not "never"'],
    ['the profile based on :workspace', { activePermissionProfile: { id: 'angelia', extends: ':workspace' } }, 'extends ":workspace"'],
    ['another permission profile', { activePermissionProfile: { id: 'angelia_ro', extends: null } }, 'not "angelia"'],
    [
      'the profile based on :read-only (the whole disk readable)',
      { activePermissionProfile: { id: 'angelia', extends: ':read-only' } },
      'extends ":read-only"',
    ],
    ['approvals routed to a model', { approvalsReviewer: 'auto_review' }, 'not to you'],
  ] as const) {
    it(`refuses a copy whose thread reports ${what}: no turn runs`, async () => {
      const c = conn({ 'thread/fork': () => roThread('f', over) });
      const e = await failure(askReadOnly(input(c)));
      expect(e.code).toBe('refused');
      expect(e.message).toContain(says);
      expect(c.sent('turn/start')).toEqual([]);
      expect(c.stopped).toBe(true);
    });
  }

  it('refuses before any thread when a config layer sets the profile, or the plan is not the read-only variant', async () => {
    const layered = conn({
      'config/read': () => ({
        config: {},
        layers: [{ name: { type: 'user', file: '/h/.codex/config.toml' }, config: { permissions: { angelia: { extends: ':workspace' } } } }],
      }),
    });
    expect(await failure(askReadOnly(input(layered)))).toMatchObject({ code: 'refused' });
    expect(layered.sent('thread/fork')).toEqual([]);
    const c = conn();
    let started = false;
    expect(
      await failure(
        askReadOnly(
          input(c, {
            plan: { ...roPlan, readOnly: false },
            startCodex: async () => {
              started = true;
              return c;
            },
          }),
        ),
      ),
    ).toMatchObject({ code: 'refused' });
    expect(started).toBe(false);
  });

  it('grants nothing a server request asks', async () => {
    const c = conn();
    await askReadOnly(input(c));
    const ask = c.serverRequest!;
    expect(await ask('item/commandExecution/requestApproval', {}, 1)).toEqual({ decision: 'decline' });
    expect(await ask('item/fileChange/requestApproval', {}, 2)).toEqual({ decision: 'decline' });
    expect(await ask('item/permissions/requestApproval', { permissions: { fileSystem: { write: ['/'] } } }, 3)).toEqual({ permissions: {}, scope: 'turn' });
    await expect(ask('something/new', {}, 4)).rejects.toThrow(/unsupported in a read-only copy/);
  });

  it('a failed turn is ask-failed; no answer in time stops the copy (ask-timeout); a caller gone stops it too', async () => {
    const failed = conn({}, { status: 'failed', error: { message: 'You hit your usage limit.', codexErrorInfo: 'usageLimitExceeded' } });
    expect(await failure(askReadOnly(input(failed)))).toMatchObject({ code: 'ask-failed' });
    const hung = conn({}, { never: true });
    expect(await failure(askReadOnly(input(hung, { timeoutMs: 50 })))).toMatchObject({ code: 'ask-timeout' });
    expect(hung.killed).toBe(true);
    const gone = conn({}, { never: true });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 30);
    expect(await failure(askReadOnly(input(gone, { signal: ac.signal })))).toMatchObject({ code: 'ask-aborted' });
    expect(gone.killed).toBe(true);
  });
});
