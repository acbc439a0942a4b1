/**
 * Real `codex app-server` (pinned 0.171.0) against the scripted model, driven by the bare client: failed turns
 * read with `readTurnEnd` and told apart by `describeTurnError` (kind from codexErrorInfo only), and the
 * `/model` catalog read by `ModelCatalog` from a live app-server's `model/list` (hidden entries left out).
 */
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CodexConnection, CodexExit } from '../../src/main/core/codex/connection';
import { scripted } from '../fixtures/scriptedRequest';
import { readTurnEnd } from '../../src/main/core/codex/items';
import { ModelCatalog, chooseEffort, chooseModel } from '../../src/main/core/codex/models';
import { MODEL_HINT, describeTurnError, type TurnErrorView } from '../../src/main/core/codex/turnErrors';
import { freshDir, writeOfflineCodexHome } from '../../src/main/demo/codexHome';
import { startScriptedModel, type ScriptedModel, type Step } from '../../src/main/demo/scriptedModel';
import { BareCodex, type RpcMessage } from '../fixtures/bareCodex';

let model: ScriptedModel;
let codex: BareCodex;
let codexHome: string;
let cwd: string;

beforeAll(async () => {
  model = await startScriptedModel();
  codexHome = await freshDir('turn-errors-home');
  cwd = await freshDir('turn-errors-cwd');
  await writeOfflineCodexHome(codexHome, { modelBaseUrl: model.baseUrl });
  codex = BareCodex.spawn({ codexHome, cwd });
  await codex.initialize();
});

afterAll(async () => {
  await codex?.close();
  await model?.close();
  if (codexHome) await rm(codexHome, { recursive: true, force: true });
  if (cwd) await rm(cwd, { recursive: true, force: true });
});

const turnOf = (m: RpcMessage): unknown => m.params?.turnId ?? (m.params?.turn as { id?: unknown } | undefined)?.id;

interface Failed {
  view: TurnErrorView;
  errorInfo: unknown;
  requests: number;
  agentMessages: number;
  errorNotes: RpcMessage[];
  status: string;
}

/** A new thread, one scripted step, one turn (extra turn/start params optional); the turn's end as the chat reads it. */
async function failTurn(step: Step, turnParams: Record<string, unknown> = {}): Promise<Failed> {
  const { thread } = await codex.request<{ thread: { id: string; model?: string } }>('thread/start', {
    cwd,
    approvalPolicy: 'on-request',
    approvalsReviewer: 'user',
  });
  const before = model.modelRequests().length;
  model.enqueue(step);
  const started = await codex.request<{ turn: { id: string } }>('turn/start', {
    threadId: thread.id,
    input: [{ type: 'text', text: 'hello', text_elements: [] }],
    ...turnParams,
  });
  const done = await codex.waitFor((m) => m.method === 'turn/completed' && turnOf(m) === started.turn.id);
  const end = readTurnEnd(done.params);
  const mine = codex.notifications.filter((m) => turnOf(m) === started.turn.id);
  return {
    view: describeTurnError(end, { model: (turnParams.model as string | undefined) ?? 'gpt-5.5' }),
    errorInfo: end.errorInfo,
    status: end.status,
    requests: model.modelRequests().length - before,
    agentMessages: mine.filter((m) => m.method === 'item/completed' && (m.params?.item as { type?: string } | undefined)?.type === 'agentMessage').length,
    errorNotes: mine.filter((m) => m.method === 'error'),
  };
}

describe('failed turns on real codex, told apart by codexErrorInfo', () => {
  it('usage limit (HTTP 429 usage_limit_reached with resets_at) → usageLimit, with the reset time and the /model hint', async () => {
    const resetsAt = Math.floor(Date.now() / 1000) + 3600;
    const r = await failTurn({
      httpError: {
        status: 429,
        body: { error: { type: 'usage_limit_reached', message: 'The usage limit has been reached', plan_type: 'plus', resets_at: resetsAt } },
      },
    });
    expect(r.status).toBe('failed');
    expect(r.errorInfo).toBe('usageLimitExceeded');
    expect(r.view.kind).toBe('usageLimit');
    expect(r.view.message).toMatch(/^Usage limit reached: You’ve hit your usage limit\./);
    expect(r.view.message).toMatch(/try again at [^.]*\d{1,2}:\d{2}/);
    expect(r.view.hint).toBe(MODEL_HINT);
    expect(r.errorNotes.map((n) => n.params?.willRetry)).toEqual([false]);
    expect(r.requests).toBe(1);
  });

  it('a 400 model_not_found reply → modelUnavailable naming the model; no assistant message, no retry', async () => {
    const r = await failTurn({
      httpError: {
        status: 400,
        body: {
          error: { code: 'model_not_found', type: 'invalid_request_error', message: 'The model `gpt-5.5` does not exist or you do not have access to it.' },
        },
      },
    });
    expect(r.errorInfo).toBe('modelNotFound');
    expect(r.view.kind).toBe('modelUnavailable');
    expect(r.view.message).toMatch(/^The model gpt-5\.5 is not available for this account \(or was retired\)/);
    expect(r.view.hint).toBe(MODEL_HINT);
    expect(r.agentMessages).toBe(0);
    expect(r.requests).toBe(1);
  });

  it('a 404 model_not_found reply → modelUnavailable too', async () => {
    const r = await failTurn({ httpError: { status: 404, body: { error: { code: 'model_not_found', message: 'The model `gpt-x` does not exist.' } } } });
    expect(r.view.kind).toBe('modelUnavailable');
  });

  it('HTTP 429 rate_limit_exceeded → rateLimit (responseTooManyFailedAttempts 429)', async () => {
    const r = await failTurn({
      httpError: { status: 429, body: { error: { type: 'rate_limit_exceeded', message: 'Rate limit reached' } }, headers: { 'retry-after': '1' } },
    });
    expect(r.errorInfo).toEqual({ responseTooManyFailedAttempts: { httpStatusCode: 429 } });
    expect(r.view.kind).toBe('rateLimit');
    expect(r.view.message).toMatch(/^Rate limited by the model provider \(HTTP 429\)/);
  });

  it('SSE response.failed rate_limit_exceeded → rateLimit (rateLimitExceeded)', async () => {
    const r = await failTurn({ failed: { code: 'rate_limit_exceeded', message: 'Rate limit reached. Please try again in 1.5s.' } });
    expect(r.errorInfo).toBe('rateLimitExceeded');
    expect(r.view.kind).toBe('rateLimit');
  });

  it('overloaded: HTTP 503 server_is_overloaded, HTTP 529 and SSE server_is_overloaded → overloaded with the /model hint', async () => {
    const a = await failTurn({
      httpError: { status: 503, body: { error: { code: 'server_is_overloaded', message: 'Our servers are currently overloaded.' } } },
    });
    expect(a.errorInfo).toBe('serverOverloaded');
    expect(a.view.kind).toBe('overloaded');
    expect(a.view.hint).toBe(MODEL_HINT);
    const b = await failTurn({ httpError: { status: 529, body: { error: { type: 'overloaded_error', message: 'Overloaded' } } } });
    expect(b.errorInfo).toEqual({ httpConnectionFailed: { httpStatusCode: 529 } });
    expect(b.view.kind).toBe('overloaded');
    const c = await failTurn({ failed: { code: 'server_is_overloaded', message: 'at capacity' } });
    expect(c.view.kind).toBe('overloaded');
  });

  it('bio_policy (codex 0.171.0), by SSE or HTTP 400 → policy with the provider’s text, or Codex’s own when it sent none; not retried', async () => {
    const a = await failTurn({ failed: { code: 'bio_policy', message: 'blocked by the biological safety policy' } });
    expect(a.errorInfo).toBe('bioPolicy');
    expect(a.view).toEqual({
      kind: 'policy',
      message: 'The model provider stopped this turn: it flagged the request under its biological safety policy: blocked by the biological safety policy',
      hint: null,
    });
    expect(a.requests).toBe(1);
    expect(a.agentMessages).toBe(0);
    const b = await failTurn({ failed: { code: 'bio_policy', message: '' } });
    expect(b.errorInfo).toBe('bioPolicy');
    expect(b.view.message).toMatch(/biological safety policy: This content was flagged for possible biological risk\.$/);
    const c = await failTurn({ httpError: { status: 400, body: { error: { code: 'bio_policy', message: 'refused' } } } });
    expect(c.errorInfo).toBe('bioPolicy');
    expect(c.view.kind).toBe('policy');
  });

  it('context window, unauthorized and server error each get their kind', async () => {
    expect((await failTurn({ failed: { code: 'context_length_exceeded', message: 'too long' } })).view.kind).toBe('contextWindow');
    expect((await failTurn({ httpError: { status: 401, body: { error: { message: 'bad key' } } } })).view.kind).toBe('unauthorized');
    expect((await failTurn({ httpError: { status: 500, body: { error: { message: 'internal' } } } })).view.kind).toBe('serverError');
  });

  it('a 400 "model is not supported" body arrives as codexErrorInfo "other": shown as Codex’s text, not as an assistant message', async () => {
    const detail = "The 'gpt-5.4/medium' model is not supported when using Codex with a ChatGPT account.";
    const r = await failTurn({ httpError: { status: 400, body: { detail } } });
    expect(r.errorInfo).toBe('other');
    expect(r.view.kind).toBe('other');
    expect(r.view.message).toContain(detail);
    expect(r.agentMessages).toBe(0);
    expect(r.requests).toBe(1);
  });
});

/** The bare client as a CodexConnection, counting the requests that reach codex. */
function countingConnection(c: BareCodex): CodexConnection & { sent: string[] } {
  const sent: string[] = [];
  return {
    sent,
    version: '0.171.0',
    request: scripted((method, params) => {
      sent.push(method);
      return c.request(method, (params ?? {}) as Record<string, unknown>);
    }),
    onServerRequest() {},
    onEvent() {},
    exited: c.exited.then((e): CodexExit => ({ code: e.code, signal: e.signal, stderrTail: c.stderrTail() })),
    stop: async () => undefined,
    kill: () => undefined,
  };
}

describe('the /model catalog from a real app-server', () => {
  it('lists the bundled catalog (hidden excluded), caches it, and the chosen model and effort go to Codex separately', async () => {
    const conn = countingConnection(codex);
    const catalog = new ModelCatalog();
    const httpBefore = model.requests.length;
    const models = await catalog.list('pinned-codex', conn);
    expect(conn.sent).toEqual(['model/list']);
    expect(model.requests.length).toBe(httpBefore); // model/list does not ask the provider
    // The catalog bundled in codex 0.171.0 (0.169.0 had 9 models, gpt-6.1-sol the default).
    expect(models.map((m) => m.id)).toEqual([
      'gpt-6.2-sol',
      'gpt-6.2-astra',
      'gpt-6.1-terra',
      'gpt-6.1-sol',
      'gpt-6-astra',
      'gpt-6-sol',
      'gpt-6-luna',
      'gpt-5.6-sol',
      'gpt-5.6-terra',
      'gpt-5.6-luna',
      'gpt-5.5',
    ]);
    expect(models.filter((m) => m.isDefault).map((m) => m.id)).toEqual(['gpt-6.2-sol']);
    expect(models.map((m) => m.id)).not.toContain('codex-auto-review');
    expect(models.find((m) => m.id === 'gpt-5.5')).toEqual({
      id: 'gpt-5.5',
      name: 'GPT-5.5',
      efforts: ['low', 'medium', 'high', 'xhigh'],
      defaultEffort: 'medium',
      isDefault: false,
    });

    const again = await catalog.list('pinned-codex', conn);
    expect(again).toEqual(models);
    expect(conn.sent).toEqual(['model/list']);

    const chosen = chooseModel(models, 'GPT-5.5');
    const effort = chooseEffort(models, 'gpt-5.5', 'high');
    expect(chosen).toEqual({ model: 'gpt-5.5', note: null });
    expect(effort).toEqual({ effort: 'high' });
    const { thread } = await codex.request<{ thread: { id: string } }>('thread/start', { cwd, approvalPolicy: 'on-request', approvalsReviewer: 'user' });
    model.enqueue({ message: 'ok' });
    const started = await codex.request<{ turn: { id: string } }>('turn/start', {
      threadId: thread.id,
      input: [{ type: 'text', text: 'hi', text_elements: [] }],
      model: 'model' in chosen ? chosen.model : null,
      effort: 'effort' in effort ? effort.effort : null,
    });
    const done = await codex.waitFor((m) => m.method === 'turn/completed' && turnOf(m) === started.turn.id);
    expect(readTurnEnd(done.params).status).toBe('completed');
    const body = model.modelRequests().at(-1)?.body;
    expect(body?.model).toBe('gpt-5.5');
    expect(body?.reasoning).toMatchObject({ effort: 'high' });
  });
});
