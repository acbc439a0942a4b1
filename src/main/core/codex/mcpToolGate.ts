/**
 * Codex's own approval of an MCP tool call, which codex 0.169.0 sends as an MCP elicitation (a form
 * with an empty schema and `_meta.codex_approval_kind: "mcp_tool_call"`, docs/architecture.md "MCP
 * elicitations, measured"), told apart from a server's own elicitation that carries the same `_meta`
 * (Codex forwards a server's `_meta` as sent): it is Codex's gate only when it names a tool call Codex
 * announced in this chat (`item/started` of an `mcpToolCall` item, still in progress, not gated yet)
 * with the same server, tool and arguments. What the gate shows of the parameters is shown in full, or
 * the call can only be denied.
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

/** The most characters of parameters a gate shows; beyond it the call can only be denied. */
export const GATE_PARAMS_MAX = 20_000;

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

/** Any control character or line break a one-line value must not carry (shown as JSON instead). */
const NOT_ONE_LINE = /[\p{Cc}\p{Zl}\p{Zp}]/u;

/**
 * The parameters as shown, whole: `<display name>: <value>` lines from `tool_params_display` when it
 * names exactly the keys of `params` with the same values (a string as written when it is one line,
 * anything else as JSON), else `params` as pretty JSON. '' when there are none.
 */
export function gateParams(params: unknown, display: unknown): string {
  const p = args(params);
  const rows = (Array.isArray(display) ? display : []).filter(isObj);
  const keys = isObj(p) ? Object.keys(p) : null;
  const agrees =
    keys !== null &&
    isObj(p) &&
    rows.length === keys.length &&
    rows.every((d) => {
      const name = str(d.name);
      return name !== null && Object.hasOwn(p, name) && isDeepStrictEqual(p[name], d.value);
    });
  if (!agrees) return keys?.length === 0 ? '' : JSON.stringify(p, null, 2);
  return rows
    .map((d) => {
      const v = d.value;
      const shown = typeof v === 'string' && !NOT_ONE_LINE.test(v) ? v : JSON.stringify(v ?? null);
      return `${oneLine(str(d.display_name) ?? str(d.name) ?? '?', 80)}: ${shown}`;
    })
    .join('\n');
}

/**
 * The gate as an ask (kind `elicitation`, `itemId` the gated call): "Run MCP tool <server>.<tool>",
 * the parameters whole as the command (`gateParams`), the description as the reason. Allow →
 * `{action: "accept", content: {}, _meta: null}`; Allow for the session (offered when `persist` names
 * "session") → the same with `_meta: {persist: "session"}`, which Codex honours for later calls of that
 * tool in the session (measured); "always" is never offered. Deny → decline, cancel → cancel. When the
 * parameters are longer than `GATE_PARAMS_MAX` characters the start is shown, the rest is said to be
 * left out, and only Deny and cancel are offered.
 */
export function toolGate(serverName: string, message: string, meta: Obj, ids: { threadId: string | null; turnId: string | null; itemId: string }): AskRequest {
  const tool = str(meta.tool_name) ?? 'a tool';
  const params = gateParams(meta.tool_params, meta.tool_params_display);
  const cut = params.length > GATE_PARAMS_MAX;
  const session = strList(meta.persist).includes('session') || meta.persist === 'session';
  const answers: ApprovalAnswer[] = cut ? ['deny', 'cancel'] : session ? ['allow', 'allowForSession', 'deny', 'cancel'] : ['allow', 'deny', 'cancel'];
  const description = str(meta.tool_description);
  const tooLong = `The parameters are ${params.length} characters long, too long to show in full here (at most ${GATE_PARAMS_MAX}), so this call can only be denied.`;
  return {
    type: 'ask',
    kind: 'elicitation',
    ...ids,
    outsideSandbox: null,
    title: `Run MCP tool ${serverName}.${tool}`,
    command: cut ? `${params.slice(0, GATE_PARAMS_MAX)}\n… ${params.length - GATE_PARAMS_MAX} more characters not shown` : params || null,
    cwd: null,
    reason: cut ? (description ? `${description}\n\n${tooLong}` : tooLong) : description,
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
