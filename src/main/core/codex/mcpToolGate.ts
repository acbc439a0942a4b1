/**
 * Codex's own approval of an MCP tool call, which codex 0.169.0 sends as an MCP elicitation (a form
 * with an empty schema and `_meta.codex_approval_kind: "mcp_tool_call"`, docs/architecture.md "MCP
 * elicitations, measured"), told apart from a server's own elicitation that carries the same `_meta`
 * (Codex forwards a server's `_meta` as sent): it is Codex's gate only when it names a tool call Codex
 * announced in this chat (`item/started` of an `mcpToolCall` item, still in progress, not gated yet)
 * with the same server, tool and arguments.
 */
import { isDeepStrictEqual } from 'node:util';
import type { ApprovalAnswer } from '../../../shared/contract';
import { assertOffered, badAnswer, type AskRequest } from './askRequest';
import type * as v2 from './generated/v2';
import { oneLine } from './questions';
import { isObj, str, strList, type Obj } from './wire';

/** An `mcpToolCall` item Codex announced (`item/started`, status `inProgress`; codex 0.169.0 `ThreadItem`). */
export interface McpCall {
  server: string;
  tool: string;
  /** `arguments` as sent (a JSON value). */
  arguments: unknown;
}

/** `null` and an absent value read as no arguments (`{}`). */
const args = (v: unknown): unknown => (v === null || v === undefined ? {} : v);

/**
 * The id of the call of `calls` (item id → call) that an elicitation of `serverName` with `meta` gates:
 * `meta.codex_approval_kind` is `"mcp_tool_call"`, and a call has the same server, `tool === tool_name`
 * and arguments deep-equal to `tool_params` (null or absent read as `{}`). null when none matches (the
 * request is then a server's own form). Never throws.
 */
export function gatedCall(serverName: string, meta: Obj | null, calls: ReadonlyMap<string, McpCall>): string | null {
  if (meta?.codex_approval_kind !== 'mcp_tool_call') return null;
  const tool = str(meta.tool_name);
  for (const [id, call] of calls) {
    if (call.server === serverName && call.tool === tool && isDeepStrictEqual(args(call.arguments), args(meta.tool_params))) return id;
  }
  return null;
}

/** `name: value` lines of `tool_params_display` (`[{name, value, display_name}]`), values as JSON, each cut to one line. */
function paramLines(display: unknown): string[] {
  return (Array.isArray(display) ? display : []).filter(isObj).map((d) => {
    const name = str(d.display_name) ?? str(d.name) ?? '?';
    return oneLine(`${name}: ${typeof d.value === 'string' ? d.value : JSON.stringify(d.value ?? null)}`, 300);
  });
}

/**
 * The gate as an ask (kind `elicitation`, `itemId` the gated call): "Run MCP tool <server>.<tool>",
 * the parameters as the command lines, the description as the reason. Allow → `{action: "accept",
 * content: {}, _meta: null}`; Allow for the session (offered when `persist` names "session") → the
 * same with `_meta: {persist: "session"}`, which Codex honours for later calls of that tool in the
 * session (measured); "always" is never offered. Deny → decline, cancel → cancel.
 */
export function toolGate(serverName: string, message: string, meta: Obj, ids: { threadId: string | null; turnId: string | null; itemId: string }): AskRequest {
  const tool = str(meta.tool_name) ?? 'a tool';
  const params = paramLines(meta.tool_params_display);
  const session = strList(meta.persist).includes('session') || meta.persist === 'session';
  const answers: ApprovalAnswer[] = session ? ['allow', 'allowForSession', 'deny', 'cancel'] : ['allow', 'deny', 'cancel'];
  return {
    type: 'ask',
    kind: 'elicitation',
    ...ids,
    outsideSandbox: null,
    title: `Run MCP tool ${serverName}.${tool}`,
    command: params.length ? params.join('\n') : null,
    cwd: null,
    reason: str(meta.tool_description),
    changes: [],
    requested: null,
    refused: [],
    answers,
    toWire: (a, extras = {}) => {
      assertOffered(answers, a);
      if (extras.grant || extras.answers || extras.content) throw badAnswer('an MCP tool approval takes a plain answer (no grant, answers or content)');
      if (a === 'allow' || a === 'allowForSession') {
        return {
          action: 'accept',
          content: {},
          _meta: a === 'allowForSession' ? { persist: 'session' } : null,
        } satisfies v2.McpServerElicitationRequestResponse;
      }
      return { action: a === 'cancel' ? 'cancel' : 'decline', content: null, _meta: null } satisfies v2.McpServerElicitationRequestResponse;
    },
    timeoutAnswer: 'deny',
    elicitation: { serverName, mode: 'form', message, fields: [], url: null, domain: null },
  };
}
