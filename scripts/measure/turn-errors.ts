/**
 * `npx tsx scripts/measure/turn-errors.ts [--json] [--retries N] [--only <regex>]` — measures what the pinned `codex app-server`
 * (codex-cli 0.171.0; first 0.169.0) reports for failed turns and for `model/list`, fully offline.
 *
 * One scripted model (src/main/demo/scriptedModel.ts), one fresh CODEX_HOME under `<repo>/.angelia-test/`
 * written by `writeOfflineCodexHome` (custom provider `mock`, request_max_retries=0, stream_max_retries=0, so
 * no back-off), one app-server driven by the bare client (test/fixtures/bareCodex.ts). Every case runs on its
 * own new thread (a context-window failure makes the NEXT turn of that thread auto-compact first) and answers
 * its one model request with one scripted step (`httpError` or `failed`). For each case it prints
 * `turn.error.codexErrorInfo`, `turn.error.message`, `additionalDetails`, the `error` notifications'
 * `willRetry`, how many model requests the turn made and whether any agentMessage item appeared.
 * Then `model/list` pages (default, `includeHidden:true`, `limit:3`). The results are recorded in the docstrings
 * of src/main/core/codex/turnErrors.ts and src/main/core/codex/models.ts; re-run after a Codex upgrade.
 */
import { rm } from 'node:fs/promises';
import { freshDir, writeOfflineCodexHome } from '../../src/main/demo/codexHome';
import { startScriptedModel, type Step } from '../../src/main/demo/scriptedModel';
import { BareCodex, runTurn, type RpcMessage, type TurnOutcome } from '../../test/fixtures/bareCodex';

/**
 * One measured case: a label, the step that answers the turn's model request (none: nothing is queued, the
 * request, if any, gets the scripted model's "nothing scripted" failure) and extra `turn/start` params.
 */
export interface ErrorCase {
  name: string;
  step?: Step;
  turn?: Record<string, unknown>;
}

const resetsAt = Math.floor(Date.now() / 1000) + 2 * 3600;

/** Every case measured, in print order. */
export const CASES: ErrorCase[] = [
  {
    name: 'HTTP 429 usage_limit_reached + resets_at',
    step: {
      httpError: {
        status: 429,
        body: { error: { type: 'usage_limit_reached', message: 'The usage limit has been reached', plan_type: 'plus', resets_at: resetsAt } },
      },
    },
  },
  {
    name: 'HTTP 429 usage_limit_reached, no resets_at',
    step: { httpError: { status: 429, body: { error: { type: 'usage_limit_reached', message: 'The usage limit has been reached', plan_type: 'plus' } } } },
  },
  { name: 'HTTP 429 usage_not_included', step: { httpError: { status: 429, body: { error: { type: 'usage_not_included', message: 'not included' } } } } },
  {
    name: 'HTTP 429 insufficient_quota (code)',
    step: {
      httpError: { status: 429, body: { error: { code: 'insufficient_quota', type: 'insufficient_quota', message: 'You exceeded your current quota.' } } },
    },
  },
  {
    name: 'HTTP 429 rate_limit_exceeded + retry-after',
    step: {
      httpError: {
        status: 429,
        body: { error: { type: 'rate_limit_exceeded', code: 'rate_limit_exceeded', message: 'Rate limit reached for requests' } },
        headers: { 'retry-after': '1' },
      },
    },
  },
  {
    name: 'HTTP 429 rate_limit_exceeded',
    step: {
      httpError: { status: 429, body: { error: { type: 'rate_limit_exceeded', code: 'rate_limit_exceeded', message: 'Rate limit reached for requests' } } },
    },
  },
  { name: 'HTTP 429 plain text', step: { httpError: { status: 429, body: 'Too Many Requests' } } },
  {
    name: 'HTTP 503 server_is_overloaded',
    step: {
      httpError: {
        status: 503,
        body: {
          error: { code: 'server_is_overloaded', type: 'service_unavailable_error', message: 'Our servers are currently overloaded. Please try again later.' },
        },
      },
    },
  },
  { name: 'HTTP 503 slow_down', step: { httpError: { status: 503, body: { error: { code: 'slow_down', message: 'Slow down' } } } } },
  { name: 'HTTP 503 plain text', step: { httpError: { status: 503, body: 'Service Unavailable' } } },
  { name: 'HTTP 529 overloaded_error', step: { httpError: { status: 529, body: { error: { type: 'overloaded_error', message: 'Overloaded' } } } } },
  { name: 'HTTP 500', step: { httpError: { status: 500, body: { error: { message: 'internal' } } } } },
  { name: 'HTTP 502', step: { httpError: { status: 502, body: 'Bad Gateway' } } },
  {
    name: 'HTTP 404 model_not_found',
    step: {
      httpError: {
        status: 404,
        body: {
          error: { code: 'model_not_found', type: 'invalid_request_error', message: 'The model `gpt-x` does not exist or you do not have access to it.' },
        },
      },
    },
  },
  {
    name: 'HTTP 400 model_not_found',
    step: {
      httpError: {
        status: 400,
        body: {
          error: { code: 'model_not_found', type: 'invalid_request_error', message: 'The model `gpt-x` does not exist or you do not have access to it.' },
        },
      },
    },
  },
  {
    name: 'HTTP 400 detail "model is not supported"',
    step: { httpError: { status: 400, body: { detail: "The 'gpt-5.4/medium' model is not supported when using Codex with a ChatGPT account." } } },
  },
  {
    name: 'HTTP 400 error.message "model is not supported"',
    step: {
      httpError: {
        status: 400,
        body: { error: { type: 'invalid_request_error', message: "The 'gpt-5.4/medium' model is not supported when using Codex with a ChatGPT account." } },
      },
    },
  },
  {
    name: 'HTTP 400 context_length_exceeded',
    step: {
      httpError: {
        status: 400,
        body: { error: { code: 'context_length_exceeded', type: 'invalid_request_error', message: 'Your input exceeds the context window of this model.' } },
      },
    },
  },
  {
    name: 'HTTP 400 invalid_request_error',
    step: { httpError: { status: 400, body: { error: { type: 'invalid_request_error', message: 'Invalid value for reasoning.effort' } } } },
  },
  { name: 'HTTP 401', step: { httpError: { status: 401, body: { error: { message: 'bad key' } } } } },
  { name: 'HTTP 403', step: { httpError: { status: 403, body: { error: { message: 'forbidden' } } } } },
  {
    name: 'SSE failed context_length_exceeded',
    step: { failed: { code: 'context_length_exceeded', message: 'Your input exceeds the context window of this model.' } },
  },
  { name: 'SSE failed server_is_overloaded', step: { failed: { code: 'server_is_overloaded', message: 'Our servers are currently overloaded.' } } },
  { name: 'SSE failed slow_down', step: { failed: { code: 'slow_down', message: 'Slow down' } } },
  { name: 'SSE failed rate_limit_exceeded', step: { failed: { code: 'rate_limit_exceeded', message: 'Rate limit reached. Please try again in 1.5s.' } } },
  { name: 'SSE failed insufficient_quota', step: { failed: { code: 'insufficient_quota', message: 'You exceeded your current quota.' } } },
  { name: 'SSE failed usage_not_included', step: { failed: { code: 'usage_not_included', message: 'not included' } } },
  { name: 'SSE failed usage_limit_reached', step: { failed: { code: 'usage_limit_reached', message: 'usage limit' } } },
  { name: 'SSE failed model_not_found', step: { failed: { code: 'model_not_found', message: 'The model `gpt-x` does not exist.' } } },
  { name: 'SSE failed invalid_prompt', step: { failed: { code: 'invalid_prompt', message: 'Invalid prompt: flagged' } } },
  { name: 'SSE failed cyber_policy', step: { failed: { code: 'cyber_policy', message: 'blocked by policy' } } },
  { name: 'SSE failed bio_policy', step: { failed: { code: 'bio_policy', message: 'blocked by the biological safety policy' } } },
  { name: 'SSE failed bio_policy, no message', step: { failed: { code: 'bio_policy', message: '' } } },
  {
    name: 'HTTP 400 code bio_policy',
    step: { httpError: { status: 400, body: { error: { code: 'bio_policy', message: 'blocked by the biological safety policy' } } } },
  },
  { name: 'SSE failed server_error', step: { failed: { code: 'server_error', message: 'upstream broke' } } },
  {
    name: 'HTTP 400 code model_not_supported',
    step: { httpError: { status: 400, body: { error: { code: 'model_not_supported', type: 'invalid_request_error', message: 'model not supported' } } } },
  },
  {
    name: 'HTTP 400 code unsupported_model',
    step: { httpError: { status: 400, body: { error: { code: 'unsupported_model', type: 'invalid_request_error', message: 'unsupported model' } } } },
  },
  {
    name: 'HTTP 400 code invalid_model',
    step: { httpError: { status: 400, body: { error: { code: 'invalid_model', type: 'invalid_request_error', message: 'invalid model' } } } },
  },
  {
    name: 'HTTP 403 code unsupported_country_region_territory',
    step: {
      httpError: { status: 403, body: { error: { code: 'unsupported_country_region_territory', message: 'Country, region, or territory not supported' } } },
    },
  },
  { name: 'HTTP 400 plain text', step: { httpError: { status: 400, body: 'Bad Request' } } },
  { name: 'HTTP 404 plain text', step: { httpError: { status: 404, body: 'Not Found' } } },
  { name: 'HTTP 408', step: { httpError: { status: 408, body: 'Request Timeout' } } },
  { name: 'HTTP 413', step: { httpError: { status: 413, body: 'Payload Too Large' } } },
  { name: 'HTTP 422', step: { httpError: { status: 422, body: { error: { message: 'unprocessable' } } } } },
  { name: 'HTTP 504', step: { httpError: { status: 504, body: 'Gateway Timeout' } } },
  { name: 'connection dropped before any reply', step: { drop: 'before' } },
  { name: 'connection dropped mid-stream', step: { drop: 'midstream' } },
  { name: 'turn/start model "" (+ message step)', step: { message: 'ok' }, turn: { model: '' } },
  {
    name: 'turn/start model "gpt-5.4/medium" (+ 400 detail)',
    step: { httpError: { status: 400, body: { detail: "The 'gpt-5.4/medium' model is not supported when using Codex with a ChatGPT account." } } },
    turn: { model: 'gpt-5.4/medium' },
  },
  { name: 'turn/start effort "bogus" (+ message step)', step: { message: 'ok' }, turn: { effort: 'bogus' } },
];

/** What one case produced. */
export interface Measured {
  name: string;
  status: string;
  codexErrorInfo: unknown;
  message: string | null;
  additionalDetails: unknown;
  /** The JSON-RPC error of turn/start, when the request itself was refused. */
  rpcError?: string;
  /** `model` of the request the scripted model received, when there was one. */
  sentModel?: unknown;
  /** `reasoning` of that request (cases with turn/start params only). */
  sentReasoning?: unknown;
  willRetry: unknown[];
  requests: number;
  agentMessages: number;
}

/** `turn/start` with extra params (e.g. `model`, `effort`), then that turn's `turn/completed`. */
async function turnWith(codex: BareCodex, threadId: string, prompt: string, extra: Record<string, unknown>): Promise<TurnOutcome> {
  const started = await codex.request<{ turn: { id: string } }>('turn/start', {
    threadId,
    input: [{ type: 'text', text: prompt, text_elements: [] }],
    ...extra,
  });
  const turnId = started.turn.id;
  const of = (m: RpcMessage): unknown => m.params?.turnId ?? (m.params?.turn as { id?: unknown } | undefined)?.id;
  const done = await codex.waitFor((m) => m.method === 'turn/completed' && of(m) === turnId, 30_000);
  const turn = (done.params?.turn ?? {}) as { status?: string; error?: Record<string, unknown> | null };
  const items = codex.notifications
    .filter((m) => m.method === 'item/completed' && of(m) === turnId)
    .map((m) => (m.params?.item ?? {}) as Record<string, unknown>);
  return { turnId, status: turn.status ?? 'unknown', error: turn.error ?? null, text: '', items, deltas: [], turnMs: 0 };
}

const show = (v: unknown): string => (typeof v === 'string' ? `\`"${v}"\`` : `\`${JSON.stringify(v)}\``);
const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

async function main(): Promise<number> {
  const asJson = process.argv.includes('--json');
  const r = process.argv.indexOf('--retries');
  const retries = r >= 0 ? Number(process.argv[r + 1]) : 0;
  const only = process.argv.indexOf('--only');
  const pattern = only >= 0 ? new RegExp(process.argv[only + 1] ?? '', 'i') : null;
  // The current case's step answers every model request of that case (a responder, not the queue, so a
  // refused turn/start leaves nothing behind for the next case).
  let current: Step | undefined;
  const model = await startScriptedModel({
    script: () => {
      if (!current) throw new Error('no step for this case');
      return current;
    },
  });
  const codexHome = await freshDir('measure-home');
  const cwd = await freshDir('measure-cwd');
  await writeOfflineCodexHome(codexHome, { modelBaseUrl: model.baseUrl });
  // --retries N: Codex's own retries (the offline home has 0); shows what a client with default retries sees.
  const args = retries > 0 ? ['-c', `model_providers.mock.request_max_retries=${retries}`, '-c', `model_providers.mock.stream_max_retries=${retries}`] : [];
  const codex = BareCodex.spawn({ codexHome, cwd, args });
  const results: Measured[] = [];
  try {
    await codex.initialize('angelia_measure');
    for (const c of CASES.filter((x) => !pattern || pattern.test(x.name))) {
      const { thread } = await codex.request<{ thread: { id: string } }>('thread/start', { cwd, approvalPolicy: 'on-request', approvalsReviewer: 'user' });
      const before = model.modelRequests().length;
      current = c.step;
      let out: TurnOutcome;
      try {
        out = c.turn ? await turnWith(codex, thread.id, `measure: ${c.name}`, c.turn) : await runTurn(codex, thread.id, `measure: ${c.name}`, 30_000);
      } catch (e) {
        results.push({
          name: c.name,
          status: 'rpc error',
          codexErrorInfo: null,
          message: null,
          additionalDetails: null,
          rpcError: e instanceof Error ? e.message : String(e),
          willRetry: [],
          requests: model.modelRequests().length - before,
          agentMessages: 0,
        });
        continue;
      } finally {
        current = undefined;
      }
      const errors = codex.notifications.filter((n) => n.method === 'error' && n.params?.turnId === out.turnId);
      results.push({
        name: c.name,
        status: out.status,
        codexErrorInfo: out.error?.codexErrorInfo ?? null,
        message: typeof out.error?.message === 'string' ? out.error.message : null,
        additionalDetails: out.error?.additionalDetails ?? null,
        willRetry: errors.map((e) =>
          e.params?.willRetry === true
            ? { willRetry: true, codexErrorInfo: (e.params.error as { codexErrorInfo?: unknown } | undefined)?.codexErrorInfo }
            : e.params?.willRetry,
        ),
        requests: model.modelRequests().length - before,
        sentModel: model.modelRequests()[before]?.body?.model,
        ...(c.turn ? { sentReasoning: model.modelRequests()[before]?.body?.reasoning } : {}),
        agentMessages: out.items.filter((i) => i.type === 'agentMessage').length,
      });
    }
    const pages: unknown[] = [];
    const all = await codex.request<{ data: Record<string, unknown>[]; nextCursor: string | null }>('model/list', {});
    const hidden = await codex.request<{ data: Record<string, unknown>[]; nextCursor: string | null }>('model/list', { includeHidden: true });
    let cursor: string | null = null;
    do {
      const page: { data: Record<string, unknown>[]; nextCursor: string | null } = await codex.request('model/list', {
        limit: 3,
        ...(cursor ? { cursor } : {}),
      });
      pages.push({ ids: page.data.map((m) => m.id), nextCursor: page.nextCursor });
      cursor = page.nextCursor;
    } while (cursor && pages.length < 20);
    const summary = (m: Record<string, unknown>): unknown => ({
      id: m.id,
      model: m.model,
      displayName: m.displayName,
      hidden: m.hidden,
      isDefault: m.isDefault,
      defaultReasoningEffort: m.defaultReasoningEffort,
      efforts: Array.isArray(m.supportedReasoningEfforts) ? m.supportedReasoningEfforts.map((e: { reasoningEffort?: unknown }) => e.reasoningEffort) : null,
      upgrade: m.upgrade,
    });
    if (asJson) {
      process.stdout.write(
        `${JSON.stringify({ results, modelList: { nextCursor: all.nextCursor, data: all.data.map(summary) }, includeHidden: hidden.data.map(summary), pages, sample: all.data[0] }, null, 2)}\n`,
      );
    } else {
      process.stdout.write(
        '| mock reply | status | codexErrorInfo | turn.error.message | additionalDetails | willRetry | requests | agentMessage |\n|---|---|---|---|---|---|---|---|\n',
      );
      for (const r of results) {
        const message = r.rpcError ? `turn/start refused: ${r.rpcError}` : (r.message ?? '');
        const reasoning = r.sentReasoning !== undefined ? `, reasoning ${JSON.stringify(r.sentReasoning)}` : '';
        const sent = r.sentModel !== undefined ? ` (model sent: ${JSON.stringify(r.sentModel)}${reasoning})` : '';
        process.stdout.write(
          `| ${cell(r.name)} | ${r.status} | ${show(r.codexErrorInfo)} | ${cell(message)} | ${show(r.additionalDetails)} | ${JSON.stringify(r.willRetry)} | ${r.requests}${sent} | ${r.agentMessages} |\n`,
        );
      }
      process.stdout.write(`\nmodel/list {}: ${all.data.length} models, nextCursor ${JSON.stringify(all.nextCursor)}\n`);
      for (const m of all.data) process.stdout.write(`  ${JSON.stringify(summary(m))}\n`);
      process.stdout.write(
        `model/list {includeHidden:true}: ${hidden.data.length} models, hidden: ${JSON.stringify(hidden.data.filter((m) => m.hidden).map((m) => m.id))}\n`,
      );
      process.stdout.write(`model/list {limit:3} pages: ${JSON.stringify(pages)}\n`);
      process.stdout.write(`model requests during model/list: ${model.modelRequests().length - results.reduce((n, r) => n + r.requests, 0)}\n`);
    }
    return 0;
  } finally {
    await codex.close();
    await model.close();
    await rm(codexHome, { recursive: true, force: true });
    await rm(cwd, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
