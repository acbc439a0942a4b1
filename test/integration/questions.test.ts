/**
 * Agent questions end to end on real codex 0.169.0 with the scripted model (docs/architecture.md,
 * "Questions and elicitations"): the model calls `request_user_input` (offered in an on-request launch
 * by `features.default_mode_request_user_input`), Codex sends `item/tool/requestUserInput`, which becomes
 * a pending request of the one approval broker; the answer given through the API's core (`by: api`) is
 * what the model's next request carries as the call's output. A secret answer reaches the model and
 * nothing of Angelia's state; a question nobody answers gets the empty answer and the chat says so; one
 * pending when the turn is stopped is withdrawn.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { apiCoreFromOrchestrator } from '../../src/main/api/orchestratorCore';
import { Orchestrator } from '../../src/main/core/chats/orchestrator';
import { startCodexClient } from '../../src/main/core/codex/start';
import type { ResponsesRequestBody, Step } from '../../src/main/demo/scriptedModel';
import { SECRET_MASK, type ChatItem } from '../../src/shared/contract';
import { makeInstance, type TestInstance } from '../fixtures/instance';
import { until } from '../fixtures/until';

const SECRET = 'tok-7f3a9c51-never-logged';

let inst: TestInstance | null = null;
let orch: Orchestrator | null = null;
afterEach(async () => {
  await orch?.shutdown();
  orch = null;
  await inst?.cleanup();
  inst = null;
});

/** The `function_call_output` items the model has been sent so far. */
function outputs(body: ResponsesRequestBody): Array<Record<string, unknown>> {
  return (body.input ?? []).filter((i) => i.type === 'function_call_output');
}

/** The model asks two questions (one secret) once, then says "thanks" (never repeating an answer). */
const asker = (body: ResponsesRequestBody): Step =>
  outputs(body).length === 0
    ? {
        functionCall: {
          name: 'request_user_input',
          arguments: {
            questions: [
              {
                id: 'color',
                header: 'Color',
                question: 'Which color?',
                options: [
                  { label: 'red', description: 'warm' },
                  { label: 'blue', description: 'cool' },
                ],
              },
              { id: 'token', header: 'Token', question: 'Paste the deploy token', isSecret: true, options: [{ label: 'none', description: 'no token' }] },
            ],
          },
        },
      }
    : { message: 'thanks' };

async function start(defaults?: Record<string, unknown>): Promise<{ i: TestInstance; o: Orchestrator }> {
  const i = await makeInstance({ coder: { permission_mode: 'default' } }, { privateHome: true, script: asker, ...(defaults ? { defaults } : {}) });
  inst = i;
  const o = await Orchestrator.create({ paths: i.paths, env: i.env, startCodex: startCodexClient, watchTable: false });
  orch = o;
  return { i, o };
}

/** Every file under `dir` (recursively) whose content contains `text`. */
function filesContaining(dir: string, text: string): string[] {
  const hits: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const st = statSync(p);
    if (st.isDirectory()) hits.push(...filesContaining(p, text));
    else if (st.isFile() && readFileSync(p).includes(text)) hits.push(p);
  }
  return hits;
}

const notices = (items: ChatItem[]): string[] => items.flatMap((x) => (x.type === 'notice' ? [x.text] : []));

describe('agent questions on real codex', () => {
  it('a question answered over the API reaches the model as the call output; the secret answer stays out of Angelia’s state', async () => {
    const { i, o } = await start();
    const core = apiCoreFromOrchestrator(o, { paths: i.paths, env: i.env });
    const chat = o.chat('coder');
    chat.send('ask me something');
    const q = await until('a pending question', () => o.broker.pending()[0]);
    expect(q).toMatchObject({ kind: 'userInput', isBlocking: false, answers: ['allow', 'deny'], title: 'The agent asks: Which color? (and 1 more)' });
    expect(q.questions?.map((x) => [x.id, x.isOther, x.isSecret])).toEqual([
      ['color', true, false],
      ['token', true, true],
    ]);
    expect(chat.view().state).toBe('needs-you');
    expect(await core.answer(q.id, 'allow', { answers: { color: ['blue'], token: [SECRET] } })).toEqual({ outcome: 'answered', answer: 'allow', by: 'api' });
    await chat.idle();
    core.close();
    const sent = outputs(i.model.modelRequests()[1]?.body ?? ({} as ResponsesRequestBody));
    expect(JSON.parse(String(sent[0]?.output))).toEqual({ answers: { color: { answers: ['blue'] }, token: { answers: [SECRET] } } });
    expect(o.broker.all()[0]).toMatchObject({ state: 'answered', by: 'api', given: { color: ['blue'], token: [SECRET_MASK] } });
    o.broker.flushDeferred();
    await o.shutdown();
    orch = null;
    // Angelia's whole state folder (audit log, approval records, sessions, logs) holds no secret.
    expect(filesContaining(i.paths.stateDir, SECRET)).toEqual([]);
    // Codex keeps it in its own session file, as every tool output the model was sent (and nowhere else).
    const inCodex = filesContaining(i.paths.codexHome, SECRET).map((f) => f.slice(i.paths.codexHome.length + 1));
    expect(inCodex.length).toBeGreaterThan(0);
    expect(inCodex.every((f) => f.startsWith('sessions/'))).toBe(true);
    const audit = readFileSync(i.paths.auditLog, 'utf8');
    expect(audit).toContain('"answered":["color","token"]');
    expect(JSON.stringify(chat.transcript.all())).not.toContain(SECRET);
  }, 120_000);

  it('nobody answers: the model gets the empty answer and the chat says so', async () => {
    const { i, o } = await start({ permission_timeout_minutes: 0.01 });
    const chat = o.chat('coder');
    const before = chat.transcript.all().length;
    chat.send('ask me something');
    await chat.idle();
    const sent = outputs(i.model.modelRequests()[1]?.body ?? ({} as ResponsesRequestBody));
    expect(JSON.parse(String(sent[0]?.output))).toEqual({ answers: {} });
    expect(o.broker.all()[0]).toMatchObject({ kind: 'userInput', state: 'timedOut', answer: 'deny', by: 'timeout', given: {} });
    const said = notices(chat.transcript.all().slice(before));
    expect(said.some((t) => /^Nobody answered the agent's question within 1 s; it got an empty answer\. \([0-9a-f-]{8}\)$/.test(t))).toBe(true);
  }, 120_000);

  it('a question pending when the turn is stopped is withdrawn, never answered', async () => {
    const { o } = await start();
    const chat = o.chat('coder');
    chat.send('ask me something');
    const q = await until('a pending question', () => o.broker.pending()[0]);
    await chat.interrupt();
    await chat.idle();
    expect(o.broker.all().find((v) => v.id === q.id)).toMatchObject({ state: 'withdrawn', by: 'codex', answer: null });
    expect(o.broker.answer(q.id, 'allow', 'api', { answers: { color: ['red'], token: ['x'] } }).outcome).toBe('already-answered');
  }, 120_000);
});
