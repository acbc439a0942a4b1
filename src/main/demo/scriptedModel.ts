/**
 * The scripted model: a local OpenAI Responses-API server on 127.0.0.1 that Codex uses as its model
 * provider (`writeOfflineCodexHome` points `model_providers.mock.base_url` at it). Every test, the demo and
 * the benchmark run real Codex turns against it, offline and without a login.
 *
 * Each `POST {baseUrl}/responses` answers with ONE step: the next queued step, else the `script`
 * responder's step for that request body, else a `response.failed` saying nothing was scripted.
 * `GET /__requests` lists the captured requests as JSON. Protocol facts: codex-cli 0.169.0,
 * its Responses API requests and `model_providers` config (test/integration/scripted-turn.test.ts).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_TOKENS, IdSource, encodeFrame, failedFrames, hangFrames, responseFrames, type SseFrame, type Step } from './scriptedSteps';
import type { ResponsesRequestBody } from './scriptedRequest';

export * from './scriptedSteps';
export * from './scriptedRequest';

/** Decides the step for a request when the queue is empty (may be async). Throwing fails that response. */
export type Responder = (body: ResponsesRequestBody, request: CapturedRequest) => Step | Promise<Step>;

/** One HTTP request the server received. */
export interface CapturedRequest {
  /** 0-based arrival order. */
  index: number;
  method: string;
  /** Request path, e.g. `/v1/responses`. */
  path: string;
  /** Lower-cased header names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** Parsed JSON body (`null` when empty or not JSON). */
  body: ResponsesRequestBody | null;
  /** Where the answer came from. */
  source: 'queue' | 'responder' | 'none';
  /** The step answered (undefined for non-model requests or when nothing was scripted). */
  step?: Step;
  /** Call ids minted for the tool calls in the answer, in output order. */
  callIds: string[];
  /** Arrival time, epoch milliseconds. */
  receivedAt: number;
}

/** Options of `startScriptedModel`. */
export interface ScriptedModelOptions {
  /** Listen address; only loopback is supported. Default `127.0.0.1`. */
  host?: '127.0.0.1';
  /** TCP port; default 0 (a free port). */
  port?: number;
  /** Decides steps once the queue is empty. */
  script?: Responder;
}

/** A running scripted model. */
export interface ScriptedModel {
  /** `http://127.0.0.1:PORT/v1` — the provider `base_url` for Codex. */
  baseUrl: string;
  port: number;
  /** Appends steps; each model request pops one. */
  enqueue(...steps: Step[]): void;
  /** Steps still queued. */
  pending(): number;
  /** Every request received so far (live array). */
  requests: CapturedRequest[];
  /** Only the model requests (`POST …/responses`). */
  modelRequests(): CapturedRequest[];
  /** Ends hanging responses, drops connections, stops listening. Idempotent. */
  close(): Promise<void>;
}

const NO_STEP_MESSAGE = 'scripted model: no step queued and no responder for this request';

function headersOf(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) {
    if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function parseJson(text: string): ResponsesRequestBody | null {
  if (!text.trim()) return null;
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null ? (v as ResponsesRequestBody) : null;
  } catch {
    return null;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Starts the server; resolves once it listens. */
export async function startScriptedModel(opts: ScriptedModelOptions = {}): Promise<ScriptedModel> {
  const host = opts.host ?? '127.0.0.1';
  const queue: Step[] = [];
  const requests: CapturedRequest[] = [];
  const hanging = new Set<ServerResponse>();
  const ids = new IdSource();
  let closed = false;

  function startSse(res: ServerResponse, extra: Record<string, string> = {}): void {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', ...extra });
  }

  async function writeFrames(res: ServerResponse, frames: SseFrame[], delays?: number[]): Promise<void> {
    for (let i = 0; i < frames.length; i += 1) {
      const d = delays?.[i] ?? 0;
      if (d > 0) await sleep(d);
      if (res.destroyed) return;
      res.write(encodeFrame(frames[i] as SseFrame));
    }
  }

  async function answer(res: ServerResponse, given: Step | undefined, captured: CapturedRequest): Promise<void> {
    const extra = given !== undefined && 'withHeaders' in given ? given.withHeaders : {};
    const inner = given !== undefined && 'withHeaders' in given ? given.step : given;
    const tokens = inner !== undefined && 'withUsage' in inner ? inner.withUsage : DEFAULT_TOKENS;
    const step = inner !== undefined && 'withUsage' in inner ? inner.step : inner;
    if (step === undefined) {
      startSse(res);
      await writeFrames(res, failedFrames({ failed: { code: 'server_error', message: NO_STEP_MESSAGE } }, ids));
      res.end();
      return;
    }
    if ('httpError' in step) {
      const { status, body, headers } = step.httpError;
      const text = typeof body === 'string' ? body : JSON.stringify(body);
      res.writeHead(status, { 'content-type': 'application/json', ...extra, ...headers });
      res.end(text);
      return;
    }
    if ('drop' in step) {
      if (step.drop === 'midstream') {
        startSse(res, extra);
        // Wait until `response.created` is flushed to the socket, so the drop happens mid-stream.
        for (const f of hangFrames(ids)) await new Promise<void>((resolve) => res.write(encodeFrame(f), () => resolve()));
      }
      res.destroy();
      return;
    }
    startSse(res, extra);
    if ('hang' in step) {
      hanging.add(res);
      res.on('close', () => hanging.delete(res));
      await writeFrames(res, hangFrames(ids));
      return;
    }
    if ('failed' in step) {
      await writeFrames(res, failedFrames(step, ids));
      res.end();
      return;
    }
    const built = responseFrames('items' in step ? step.items : [step], ids, tokens);
    captured.callIds.push(...built.callIds);
    await writeFrames(res, built.frames, built.delays);
    res.end();
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (req.method === 'GET' && path === '/__requests') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(requests));
      return;
    }
    const captured: CapturedRequest = {
      index: requests.length,
      method: req.method ?? 'GET',
      path,
      headers: headersOf(req),
      body: parseJson(raw),
      source: 'none',
      callIds: [],
      receivedAt: Date.now(),
    };
    requests.push(captured);
    if (req.method !== 'POST' || !path.endsWith('/responses')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `scripted model: no route for ${req.method} ${path}` } }));
      return;
    }
    let step = queue.shift();
    if (step !== undefined) captured.source = 'queue';
    else if (opts.script) {
      try {
        step = await opts.script(captured.body ?? {}, captured);
        captured.source = 'responder';
      } catch (e) {
        const message = `scripted model responder failed: ${e instanceof Error ? e.message : String(e)}`;
        step = { failed: { code: 'server_error', message } };
      }
    }
    if (step !== undefined) captured.step = step;
    await answer(res, step, captured);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `scripted model: ${e instanceof Error ? e.message : String(e)}` } }));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    baseUrl: `http://${host}:${port}/v1`,
    port,
    requests,
    enqueue(...steps) {
      queue.push(...steps);
    },
    pending: () => queue.length,
    modelRequests: () => requests.filter((r) => r.method === 'POST' && r.path.endsWith('/responses')),
    async close() {
      if (closed) return;
      closed = true;
      for (const res of hanging) res.destroy();
      hanging.clear();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
