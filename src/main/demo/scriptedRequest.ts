/**
 * Reading a Responses-API request body that Codex sent to the scripted model: the user's text, the tool
 * calls of the current turn and their outputs, and whether the request is a compaction.
 *
 * Source (codex-cli 0.169.0, its Responses API requests, measured): `input` holds, in order, developer
 * messages, a user `<environment_context>` message, the conversation (user / assistant messages,
 * `function_call` + `function_call_output`, `custom_tool_call` + `custom_tool_call_output`, all linked by
 * `call_id`); a local compaction request ends with a user message "You are performing a CONTEXT CHECKPOINT
 * COMPACTION…". Tool outputs are strings (an array of `{type:"input_text", text}` parts is also accepted).
 */

/** One item of the request's `input` (loose: only the fields read here are typed). */
export interface InputItem {
  type?: string;
  role?: string;
  content?: unknown;
  call_id?: string;
  name?: string;
  arguments?: string;
  input?: string;
  output?: unknown;
  [key: string]: unknown;
}

/** The JSON body of `POST /v1/responses` (loose). */
export interface ResponsesRequestBody {
  model?: string;
  input?: InputItem[];
  tools?: unknown[];
  [key: string]: unknown;
}

/** A tool call of the current turn, with its output once Codex has sent it back. */
export interface TurnToolCall {
  callId: string;
  /** `exec_command`, `apply_patch`, `request_permissions`, … */
  name: string;
  /** Parsed JSON arguments of a `function_call` (or `{}` when not JSON); undefined for custom calls. */
  arguments?: Record<string, unknown>;
  /** Raw freeform input of a `custom_tool_call` (e.g. the patch). */
  input?: string;
  /** The output string Codex returned, when present in this request. */
  output?: string;
}

/** Prefixes of user-role messages Codex writes itself (not typed by the user). */
const CONTEXT_PREFIXES = ['<environment_context>', '<user_instructions>', '<turn_aborted>', '# AGENTS.md', '<skill>'];
const COMPACTION_MARK = 'CONTEXT CHECKPOINT COMPACTION';

function items(body: unknown): InputItem[] {
  const input = (body as ResponsesRequestBody | null)?.input;
  return Array.isArray(input) ? input.filter((i): i is InputItem => typeof i === 'object' && i !== null) : [];
}

/** The concatenated text parts of a message item's `content` (string or `[{type, text}]`). */
export function messageText(item: InputItem): string {
  const c = item.content;
  if (typeof c === 'string') return c;
  if (!Array.isArray(c)) return '';
  return c.map((p) => (typeof p === 'object' && p !== null && typeof (p as { text?: unknown }).text === 'string' ? (p as { text: string }).text : '')).join('');
}

function outputText(output: unknown): string | undefined {
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) return messageText({ content: output });
  if (typeof output === 'object' && output !== null && typeof (output as { content?: unknown }).content === 'string') {
    return (output as { content: string }).content;
  }
  return undefined;
}

function isUserText(item: InputItem): boolean {
  if (item.role !== 'user' || (item.type !== undefined && item.type !== 'message')) return false;
  const text = messageText(item).trimStart();
  return !CONTEXT_PREFIXES.some((p) => text.startsWith(p));
}

function lastUserIndex(list: InputItem[]): number {
  for (let i = list.length - 1; i >= 0; i -= 1) if (isUserText(list[i] as InputItem)) return i;
  return -1;
}

/** The text of the last user-typed message (context messages Codex adds are skipped); undefined if none. */
export function lastUserText(body: unknown): string | undefined {
  const list = items(body);
  const i = lastUserIndex(list);
  return i < 0 ? undefined : messageText(list[i] as InputItem);
}

/** The output string of the `function_call_output` / `custom_tool_call_output` for `callId`, if present. */
export function toolOutput(body: unknown, callId: string): string | undefined {
  for (const item of items(body)) {
    if ((item.type === 'function_call_output' || item.type === 'custom_tool_call_output') && item.call_id === callId) {
      return outputText(item.output);
    }
  }
  return undefined;
}

/** True when the request is Codex's local context compaction (its last user message asks for a summary). */
export function isCompactionRequest(body: unknown): boolean {
  const list = items(body);
  for (let i = list.length - 1; i >= 0; i -= 1) {
    const item = list[i] as InputItem;
    if (item.role === 'user') return messageText(item).includes(COMPACTION_MARK);
  }
  return false;
}

/** The tool calls after the last user-typed message (the current turn), in order, with their outputs. */
export function turnToolCalls(body: unknown): TurnToolCall[] {
  const list = items(body);
  const calls: TurnToolCall[] = [];
  for (const item of list.slice(lastUserIndex(list) + 1)) {
    if (item.type === 'function_call' && typeof item.call_id === 'string') {
      let args: Record<string, unknown> = {};
      try {
        const parsed: unknown = JSON.parse(item.arguments ?? '{}');
        if (typeof parsed === 'object' && parsed !== null) args = parsed as Record<string, unknown>;
      } catch {
        args = {};
      }
      calls.push({ callId: item.call_id, name: item.name ?? '', arguments: args });
    } else if (item.type === 'custom_tool_call' && typeof item.call_id === 'string') {
      calls.push({ callId: item.call_id, name: item.name ?? '', input: item.input ?? '' });
    }
  }
  for (const call of calls) {
    const out = toolOutput(body, call.callId);
    if (out !== undefined) call.output = out;
  }
  return calls;
}
