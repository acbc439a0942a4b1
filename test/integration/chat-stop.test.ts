/**
 * Stopping and switching while a turn starts, on real Codex (pinned npm package) in the real Linux
 * sandbox with the scripted model: /stop while the app-server is still starting, Stop after
 * turn/start went out but before its answer, /new while a message starts, a command cut off by Stop, and
 * the effort re-checked when /model changes the model. Scripted-connection versions of the same rules:
 * test/core/chats/chat-lifecycle.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatItem } from '../../src/shared/contract';
import { Orchestrator } from '../../src/main/core/chats/orchestrator';
import type { CodexConnection, StartCodex } from '../../src/main/core/codex/connection';
import { startCodexClient } from '../../src/main/core/codex/start';
import { memoryAudit } from '../../src/main/core/approvals/audit';
import { makeInstance, turnOn, type TestInstance } from '../fixtures/instance';
import { until } from '../fixtures/until';

let inst: TestInstance | null = null;
let orchs: Orchestrator[] = [];
afterEach(async () => {
  await Promise.all(orchs.map((o) => o.shutdown()));
  orchs = [];
  await inst?.cleanup();
  inst = null;
});

/** Every request the chat sent to Codex, and a hook run right after a turn/start was written (before its answer). */
interface Wire {
  sent: Array<{ method: string; params: Record<string, unknown> }>;
  answers: Map<string, unknown>;
  afterTurnStart: (() => void) | null;
}

/** Starts real Codex and records the chat's requests; `wire.afterTurnStart` runs synchronously once turn/start is on its way. */
function recordingStart(wire: Wire): StartCodex {
  return async (spec) => {
    const conn: CodexConnection = await startCodexClient(spec);
    const wrapped: CodexConnection = Object.create(conn) as CodexConnection;
    wrapped.request = (method, params, opts) => {
      const answer = conn.request(method, params, opts);
      wire.sent.push({ method, params: (params ?? {}) as Record<string, unknown> });
      void answer.then(
        (a) => wire.answers.set(method, a),
        () => undefined,
      );
      if (method === 'turn/start' && wire.afterTurnStart) {
        const hook = wire.afterTurnStart;
        wire.afterTurnStart = null;
        hook();
      }
      return answer;
    };
    return wrapped;
  };
}

async function orchestrator(i: TestInstance, wire?: Wire) {
  const o = await Orchestrator.create({ paths: i.paths, env: i.env, startCodex: wire ? recordingStart(wire) : startCodexClient, audit: memoryAudit() });
  orchs.push(o);
  return o;
}

const notices = (items: ChatItem[]) => items.filter((i): i is Extract<ChatItem, { type: 'notice' }> => i.type === 'notice').map((i) => i.text);
const turnEnds = (items: ChatItem[]) => items.filter((i): i is Extract<ChatItem, { type: 'turnEnd' }> => i.type === 'turnEnd');

describe('stop while a turn starts', () => {
  it('/stop while Codex is still starting: no turn/start, no model request; the next message runs', async () => {
    inst = await makeInstance({ coder: {} });
    inst.model.enqueue({ message: 'the second message ran' });
    const wire: Wire = { sent: [], answers: new Map(), afterTurnStart: null };
    const o = await orchestrator(inst, wire);
    const chat = o.chat('coder');
    chat.send('do not run this');
    expect(chat.view().state).toBe('starting');
    chat.send('/stop');
    await chat.idle();
    expect(notices(chat.transcript.all())).toEqual([
      'Stopped: the message "do not run this" was not sent to the agent (Codex goes on starting, for the next message).',
    ]);
    expect(chat.view().state).toBe('idle');
    expect(wire.sent.some((r) => r.method === 'thread/start')).toBe(true);
    expect(wire.sent.filter((r) => r.method === 'turn/start')).toHaveLength(0);
    expect(inst.model.modelRequests()).toHaveLength(0);
    const items = await turnOn(o, 'coder', 'run this one');
    expect(turnEnds(items)).toMatchObject([{ status: 'completed' }]);
    expect(JSON.stringify(inst.model.modelRequests().at(-1)?.body)).not.toContain('do not run this');
  });

  it('Stop right after turn/start went out: the turn is interrupted with the id Codex gives, the queue dropped', async () => {
    inst = await makeInstance({ coder: {} });
    inst.model.enqueue({ hang: true });
    const wire: Wire = { sent: [], answers: new Map(), afterTurnStart: null };
    const o = await orchestrator(inst, wire);
    const chat = o.chat('coder');
    let stopped: Promise<boolean> | null = null;
    wire.afterTurnStart = () => {
      chat.send('queued behind it');
      stopped = chat.interrupt();
    };
    chat.send('think forever');
    await until('the stop', () => stopped);
    expect(await stopped).toBe(true);
    await chat.idle();
    const started = wire.answers.get('turn/start') as { turn?: { id?: string } } | undefined;
    expect(started?.turn?.id).toBeTruthy();
    expect(wire.sent.filter((r) => r.method === 'turn/interrupt').map((r) => r.params)).toEqual([
      { threadId: chat.view().threadId, turnId: started?.turn?.id },
    ]);
    expect(notices(chat.transcript.all())).toEqual([
      'Stopping: the message "think forever" had just been handed to Codex; its turn is interrupted as soon as Codex confirms it started. Dropped 1 queued: "queued behind it".',
    ]);
    expect(turnEnds(chat.transcript.all())).toMatchObject([{ status: 'interrupted', reason: 'stopped with Stop' }]);
    expect(chat.view()).toMatchObject({ state: 'idle', queued: 0 });
    expect(wire.sent.filter((r) => r.method === 'turn/start')).toHaveLength(1);
  });

  it('/new while a message starts is refused; the message runs in the session it was sent to', async () => {
    inst = await makeInstance({ coder: {} });
    inst.model.enqueue({ message: 'answered' });
    const o = await orchestrator(inst);
    const chat = o.chat('coder');
    chat.send('first question');
    chat.send('/new');
    await chat.idle();
    expect(notices(chat.transcript.all())).toEqual([
      'A message is still starting in this chat, so /new did not run and nothing was dropped. Send /stop first (it stops the turn and drops the queue), or wait until it ends; then /new again.',
    ]);
    expect(turnEnds(chat.transcript.all())).toMatchObject([{ status: 'completed' }]);
    expect(chat.view()).toMatchObject({ state: 'idle', label: 'first question' });
    expect(await o.api().handlers['chats:sessions']({ chatId: 'coder' })).toHaveLength(1);
  });

  it('a command cut off by Stop is shown interrupted, not running', async () => {
    inst = await makeInstance({ coder: {} });
    inst.model.enqueue({ exec: { cmd: 'sleep 30', login: false } }, { message: 'unused' });
    const o = await orchestrator(inst);
    const chat = o.chat('coder');
    chat.send('sleep a while');
    await until('the command running', () => chat.transcript.all().some((i) => i.type === 'command' && i.status === 'running'));
    expect(await chat.interrupt()).toBe(true);
    await chat.idle();
    const command = chat.transcript.all().find((i): i is Extract<ChatItem, { type: 'command' }> => i.type === 'command');
    expect(command?.status).toBe('interrupted');
    expect(turnEnds(chat.transcript.all())).toMatchObject([{ status: 'interrupted', reason: 'stopped with Stop' }]);
  });
});

describe('the effort in force', () => {
  it('/model to a model that does not offer the session effort clears it; the model gets what /status says', async () => {
    // Codex compacts when the model changes between turns (one extra model request): answer every request.
    inst = await makeInstance({ coder: {} }, { script: () => ({ message: 'ok' }) });
    const o = await orchestrator(inst);
    const chat = o.chat('coder');
    await turnOn(o, 'coder', '/model gpt-6-sol');
    await turnOn(o, 'coder', '/effort ultra');
    const back = notices(await turnOn(o, 'coder', '/model gpt-5.5'))[0] ?? '';
    expect(back).toMatch(
      /Effort ultra \(set for this session\) is not offered by gpt-5\.5 \(it offers low, medium, high, xhigh\), so it was cleared\. Effort from the next turn: medium \(default of gpt-5\.5\)\.$/,
    );
    expect(chat.view()).toMatchObject({ model: 'gpt-5.5', effort: 'medium', overrides: { model: 'gpt-5.5', effort: null } });
    expect(notices(await turnOn(o, 'coder', '/status'))[0]).toContain('model gpt-5.5 (this session) · effort medium (default of gpt-5.5)');
    await turnOn(o, 'coder', 'which effort?');
    const body = inst.model
      .modelRequests()
      .map((r) => r.body as { model?: string; reasoning?: { effort?: string }; input?: unknown[] })
      .find((b) => JSON.stringify(b.input?.at(-1)).includes('which effort?'));
    expect(body).toMatchObject({ model: 'gpt-5.5', reasoning: { effort: 'medium' } });
  });
});
