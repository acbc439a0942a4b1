/**
 * Steps of the scripted model: what one `POST {baseUrl}/responses` answers, and how each step becomes the
 * Server-Sent-Events frames of the OpenAI Responses API that Codex reads.
 *
 * Source of the protocol facts: codex-cli 0.169.0, measured (test/integration/scripted-turn.test.ts,
 * demo-scenario.test.ts). Frames are `event: <type>\ndata: <json>\n\n`; Codex needs at least `response.created`,
 * `response.output_item.done` per item and `response.completed` (with `response.id`); the `.added`/delta
 * frames make it stream `item/agentMessage/delta` notifications.
 */
import { randomBytes } from 'node:crypto';

/** File-system / network permissions as the model writes them in tool arguments (snake_case). */
export interface PermissionsArg {
  /** Absolute paths. */
  file_system?: { read?: string[]; write?: string[] };
  network?: { enabled: boolean };
}

/** `exec_command` arguments (unified exec, codex 0.169.0). `login` defaults to false (`/bin/bash -c`). */
export interface ExecArgs {
  cmd: string;
  login?: boolean;
  workdir?: string;
  yield_time_ms?: number;
  tty?: boolean;
  sandbox_permissions?: 'use_default' | 'require_escalated' | 'with_additional_permissions';
  justification?: string;
  prefix_rule?: string[];
  additional_permissions?: PermissionsArg;
}

/** An assistant message streamed in `chunks` deltas (default 3), `delayMs` apart (default 0). */
export interface MessageStep {
  message: string;
  chunks?: number;
  delayMs?: number;
}
/** A `function_call` named `exec_command` with JSON-string arguments and a fresh call id. */
export interface ExecStep {
  exec: ExecArgs;
}
/** A freeform `custom_tool_call` named `apply_patch`; `patch` is the raw `*** Begin Patch …` text. */
export interface PatchStep {
  patch: string;
}
/** A `function_call` named `request_permissions` (needs `features.request_permissions_tool`). */
export interface RequestPermissionsStep {
  requestPermissions: { reason?: string; permissions: PermissionsArg };
}
/**
 * Any other `function_call` (e.g. `write_stdin`); object arguments are JSON-encoded. `namespace` names the
 * tool's namespace: an MCP tool found by `tool_search` is called as `{name: "<tool>", namespace:
 * "mcp__<server>__"}` (codex 0.169.0, measured: test/integration/elicitation.test.ts).
 */
export interface FunctionCallStep {
  functionCall: { name: string; arguments: Record<string, unknown> | string; namespace?: string };
}
/**
 * A `tool_search_call` (execution `client`): codex 0.169.0 defers every MCP tool behind `tool_search`, answers
 * this call with a `tool_search_output` listing the matching tools, and accepts calls to them afterwards.
 */
export interface ToolSearchStep {
  toolSearch: { query: string; limit?: number };
}
/** One output item of a response. */
export type ItemStep = MessageStep | ExecStep | PatchStep | RequestPermissionsStep | FunctionCallStep | ToolSearchStep;
/** A plain HTTP error reply; an object body is JSON-encoded (e.g. 429 `{error:{type:"usage_limit_reached"}}`). */
export interface HttpErrorStep {
  httpError: { status: number; body: unknown; headers?: Record<string, string> };
}
/** An SSE `response.failed` (e.g. code `context_length_exceeded`, `server_error`). */
export interface FailedStep {
  failed: { code: string; message: string };
}
/** Several items in one response (`output_index` 0..n); Codex runs the tool calls in parallel. */
export interface ItemsStep {
  items: ItemStep[];
}
/** Sends `response.created` and never completes (for interrupt tests); ends when the server closes. */
export interface HangStep {
  hang: true;
}
/**
 * Drops the connection: `before` destroys the socket without any HTTP reply (a network failure as Codex sees
 * it); `midstream` sends the SSE headers and `response.created`, then destroys the socket before
 * `response.completed`.
 */
export interface DropStep {
  drop: 'before' | 'midstream';
}
/**
 * Another step answered with extra HTTP response headers, e.g. the rate-limit headers Codex reads
 * (`rateLimitHeaders`). On an `httpError` step its own `headers` win over these.
 */
export interface WithHeadersStep {
  withHeaders: Record<string, string>;
  step: Exclude<Step, WithHeadersStep>;
}
/** Token counts of one response, as the scripted model reports them in `response.completed`'s `usage`. */
export interface ResponseTokens {
  input: number;
  output: number;
}
/**
 * Another step whose `response.completed` reports these token counts instead of the fixed ones (100 in,
 * 10 out): Codex passes them on as the turn's `thread/tokenUsage/updated` `last`. Only streamed steps
 * have a `response.completed`; on the others it changes nothing.
 */
export interface WithUsageStep {
  withUsage: ResponseTokens;
  step: Exclude<Step, WithHeadersStep | WithUsageStep>;
}
/** What one model request is answered with. */
export type Step = ItemStep | HttpErrorStep | FailedStep | ItemsStep | HangStep | DropStep | WithHeadersStep | WithUsageStep;

/** One rate-limit window as the scripted model sends it: percent used, window length, reset (unix seconds). */
export interface RateWindowHeader {
  usedPercent: number;
  windowMinutes?: number;
  resetsAt?: number;
}

/**
 * The rate-limit response headers Codex reads from a Responses reply, measured on codex 0.169.0:
 * `x-codex-{primary,secondary}-used-percent`, `-window-minutes` and `-reset-at` (unix seconds; a
 * `-reset-after-seconds` header is ignored), and `x-codex-rate-limit-reached-type` (a
 * `RateLimitReachedType`). Codex passes them on in `account/rateLimits/updated`.
 */
export function rateLimitHeaders(w: { primary?: RateWindowHeader; secondary?: RateWindowHeader; reachedType?: string }): Record<string, string> {
  const out: Record<string, string> = {};
  for (const which of ['primary', 'secondary'] as const) {
    const win = w[which];
    if (!win) continue;
    out[`x-codex-${which}-used-percent`] = String(win.usedPercent);
    if (win.windowMinutes !== undefined) out[`x-codex-${which}-window-minutes`] = String(win.windowMinutes);
    if (win.resetsAt !== undefined) out[`x-codex-${which}-reset-at`] = String(win.resetsAt);
  }
  if (w.reachedType !== undefined) out['x-codex-rate-limit-reached-type'] = w.reachedType;
  return out;
}

/** One SSE frame: `event` is the Responses event type, `data` its JSON payload. */
export interface SseFrame {
  event: string;
  data: Record<string, unknown>;
}

/** Mints fresh ids (`resp_…`, `msg_…`, `fc_…`, `call_…`): a random per-server prefix plus a counter. */
export class IdSource {
  private readonly prefix = randomBytes(4).toString('hex');
  private n = 0;
  /** A new id `<kind>_<prefix><n>`. */
  next(kind: string): string {
    this.n += 1;
    return `${kind}_${this.prefix}${this.n}`;
  }
}

/** The token counts `response.completed` reports unless a `withUsage` step says otherwise. */
export const DEFAULT_TOKENS: ResponseTokens = { input: 100, output: 10 };

/** The Responses API `usage` block of `response.completed` for `t` (no cached or reasoning tokens). */
function usageBlock(t: ResponseTokens): Record<string, unknown> {
  return {
    input_tokens: t.input,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: t.output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: t.input + t.output,
  };
}

/** Splits `text` into at most `chunks` non-empty pieces of near-equal length (whole code points). */
export function splitText(text: string, chunks: number): string[] {
  const chars = Array.from(text);
  const n = Math.max(1, Math.min(Math.floor(chunks), chars.length));
  if (chars.length === 0) return [];
  const out: string[] = [];
  for (let i = 0; i < n; i += 1) {
    out.push(chars.slice(Math.floor((i * chars.length) / n), Math.floor(((i + 1) * chars.length) / n)).join(''));
  }
  return out;
}

/** A frame carrying `type` both as the SSE event name and inside the data, as the Responses API does. */
function frame(type: string, rest: Record<string, unknown>): SseFrame {
  return { event: type, data: { type, ...rest } };
}

/** The frames of one output item, plus the call id it carries (tool calls only). */
export function itemFrames(step: ItemStep, index: number, ids: IdSource): { frames: SseFrame[]; callId?: string } {
  if ('message' in step) {
    const id = ids.next('msg');
    const text = step.message;
    const done = { type: 'message', id, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] };
    const deltas = splitText(text, step.chunks ?? 3).map((delta) =>
      frame('response.output_text.delta', { item_id: id, output_index: index, content_index: 0, delta }),
    );
    return {
      frames: [
        frame('response.output_item.added', { output_index: index, item: { type: 'message', id, role: 'assistant', status: 'in_progress', content: [] } }),
        frame('response.content_part.added', { item_id: id, output_index: index, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } }),
        ...deltas,
        frame('response.output_text.done', { item_id: id, output_index: index, content_index: 0, text }),
        frame('response.output_item.done', { output_index: index, item: done }),
      ],
    };
  }
  const callId = ids.next('call');
  if ('patch' in step) {
    const item = { type: 'custom_tool_call', id: ids.next('ctc'), call_id: callId, name: 'apply_patch', input: step.patch, status: 'completed' };
    return { frames: [frame('response.output_item.done', { output_index: index, item })], callId };
  }
  if ('toolSearch' in step) {
    const item = { type: 'tool_search_call', id: ids.next('tsc'), call_id: callId, execution: 'client', status: 'completed', arguments: step.toolSearch };
    return { frames: [frame('response.output_item.done', { output_index: index, item })], callId };
  }
  let name: string;
  let args: string;
  let namespace: string | undefined;
  if ('exec' in step) {
    name = 'exec_command';
    args = JSON.stringify({ ...step.exec, login: step.exec.login ?? false });
  } else if ('requestPermissions' in step) {
    name = 'request_permissions';
    args = JSON.stringify(step.requestPermissions);
  } else {
    name = step.functionCall.name;
    namespace = step.functionCall.namespace;
    const a = step.functionCall.arguments;
    args = typeof a === 'string' ? a : JSON.stringify(a);
  }
  const id = ids.next('fc');
  return {
    frames: [
      frame('response.output_item.added', {
        output_index: index,
        item: { type: 'function_call', id, call_id: callId, name, ...(namespace ? { namespace } : {}), arguments: '', status: 'in_progress' },
      }),
      frame('response.output_item.done', {
        output_index: index,
        item: { type: 'function_call', id, call_id: callId, name, ...(namespace ? { namespace } : {}), arguments: args, status: 'completed' },
      }),
    ],
    callId,
  };
}

/** The complete SSE answer for a step that streams items: created, the items' frames, completed (reporting `tokens`). */
export function responseFrames(
  items: ItemStep[],
  ids: IdSource,
  tokens: ResponseTokens = DEFAULT_TOKENS,
): { frames: SseFrame[]; callIds: string[]; delays: number[] } {
  const responseId = ids.next('resp');
  const frames: SseFrame[] = [frame('response.created', { response: { id: responseId, object: 'response', status: 'in_progress', output: [] } })];
  const delays: number[] = [0];
  const callIds: string[] = [];
  items.forEach((item, index) => {
    const built = itemFrames(item, index, ids);
    const delay = 'message' in item ? (item.delayMs ?? 0) : 0;
    for (const f of built.frames) {
      frames.push(f);
      delays.push(f.event === 'response.output_text.delta' ? delay : 0);
    }
    if (built.callId) callIds.push(built.callId);
  });
  frames.push(frame('response.completed', { response: { id: responseId, object: 'response', status: 'completed', usage: usageBlock(tokens) } }));
  delays.push(0);
  return { frames, callIds, delays };
}

/** The SSE answer for a `failed` step: `response.created` then `response.failed` with `error:{code,message}`. */
export function failedFrames(step: FailedStep, ids: IdSource): SseFrame[] {
  const id = ids.next('resp');
  return [
    frame('response.created', { response: { id, object: 'response', status: 'in_progress', output: [] } }),
    frame('response.failed', { response: { id, object: 'response', status: 'failed', error: { code: step.failed.code, message: step.failed.message } } }),
  ];
}

/** The first frame of a `hang` step (the response is never completed). */
export function hangFrames(ids: IdSource): SseFrame[] {
  return [frame('response.created', { response: { id: ids.next('resp'), object: 'response', status: 'in_progress', output: [] } })];
}

/** Encodes one frame on the wire. */
export function encodeFrame(f: SseFrame): string {
  return `event: ${f.event}\ndata: ${JSON.stringify(f.data)}\n\n`;
}
