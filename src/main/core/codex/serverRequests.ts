/**
 * What a Codex server request asks, in Angelia's terms, and how each answer is written back on the wire.
 * Wire shapes are read here only (house rule 2). Method names and shapes: codex 0.169.0 generated types
 * (`ServerRequest`, `CommandExecutionRequestApprovalParams`, `PermissionsRequestApprovalParams`,
 * `ExecCommandApprovalParams`, `ApplyPatchApprovalParams`) and codex-app-server.md §4.
 */
import type { ApprovalAnswer, ApprovalKind, RequestedAccess } from '../../../shared/contract';
import { isObj, str, strList, type Obj } from './wire';

/** A file change as shown on an approval card. */
export interface ChangeView {
  path: string;
  kind: string;
  diff: string;
}

/** A request a person must answer: what to show, which answers to offer, how to write each answer. */
export interface AskRequest {
  type: 'ask';
  kind: ApprovalKind;
  title: string;
  command: string | null;
  cwd: string | null;
  reason: string | null;
  changes: ChangeView[];
  requested: RequestedAccess | null;
  answers: ApprovalAnswer[];
  /** The JSON-RPC `result` for an answer. Only called with one of `answers` (or the timeout answer). */
  toWire(answer: ApprovalAnswer): unknown;
  /** The answer written when nobody answers in time (always `deny`: Codex `decline`). */
  timeoutAnswer: ApprovalAnswer;
  /** Codex ids, to withdraw the card when Codex settles the request or the turn ends. */
  threadId: string | null;
  turnId: string | null;
}

/** A request answered at once, without asking (known but unsupported kinds). */
export interface ImmediateRequest {
  type: 'immediate';
  kind: ApprovalKind;
  result: unknown;
  /** What the chat is told. */
  notice: string;
}

/** A request Angelia does not know: answered with JSON-RPC error -32601 at once and shown. */
export interface UnknownRequest {
  type: 'unknown';
  method: string;
  notice: string;
}

export type ClassifiedRequest = AskRequest | ImmediateRequest | UnknownRequest;

/** Context the classifier needs: the diffs remembered from `item/started` of fileChange items, and the policy. */
export interface RequestContext {
  fileChanges: ReadonlyMap<string, ChangeView[]>;
  /** False in bypassPermissions and plan (approval policy `never`): permission requests grant nothing. */
  onRequest: boolean;
}

/** Reads `{network, fileSystem}` (RequestPermissionProfile / AdditionalPermissionProfile) as folders asked for. */
export function readRequestedAccess(p: unknown): RequestedAccess | null {
  if (!isObj(p)) return null;
  const fs = isObj(p.fileSystem) ? p.fileSystem : null;
  const read = new Set(strList(fs?.read));
  const write = new Set(strList(fs?.write));
  for (const e of Array.isArray(fs?.entries) ? fs.entries : []) {
    if (!isObj(e) || !isObj(e.path)) continue;
    const path = str(e.path.path) ?? str(e.path.pattern) ?? str(e.path.special);
    if (!path) continue;
    if (e.access === 'write') write.add(path);
    else if (e.access === 'read') read.add(path);
  }
  const network = isObj(p.network) && p.network.enabled === true;
  if (read.size === 0 && write.size === 0 && !network) return null;
  return { read: [...read], write: [...write], network };
}

const DECISION_TO_ANSWER: Record<string, ApprovalAnswer> = {
  accept: 'allow',
  acceptForSession: 'allowForSession',
  decline: 'deny',
  cancel: 'cancel',
};
const ANSWER_TO_DECISION: Record<ApprovalAnswer, string> = {
  allow: 'accept',
  allowForSession: 'acceptForSession',
  deny: 'decline',
  cancel: 'cancel',
};
const ALL_ANSWERS: ApprovalAnswer[] = ['allow', 'allowForSession', 'deny', 'cancel'];

/**
 * Buttons from `availableDecisions` when given (field case B04), else every v2 decision. Deny
 * (`decline`) is always offered: it grants nothing, and codex 0.169.0 lists only `accept`, an
 * amendment and `cancel` for an escalation yet accepts `decline` and lets the turn go on (measured,
 * codex-app-server.md §4.1); without it the only refusal would stop the whole turn.
 */
function answersFrom(available: unknown): ApprovalAnswer[] {
  if (!Array.isArray(available)) return [...ALL_ANSWERS];
  const out: ApprovalAnswer[] = [];
  for (const d of available) {
    const a = typeof d === 'string' ? DECISION_TO_ANSWER[d] : undefined;
    if (a && !out.includes(a)) out.push(a);
  }
  if (!out.includes('deny')) out.splice(out.includes('cancel') ? out.indexOf('cancel') : out.length, 0, 'deny');
  return out;
}

function describeAccess(r: RequestedAccess | null): string {
  if (!r) return 'nothing named';
  const parts: string[] = [];
  if (r.write.length) parts.push(`write ${r.write.join(', ')}`);
  if (r.read.length) parts.push(`read ${r.read.join(', ')}`);
  if (r.network) parts.push('network');
  return parts.join('; ');
}

/** Echoes back only what was asked (a subset of the request), as GrantedPermissionProfile. */
function grantOf(permissions: unknown): Obj {
  if (!isObj(permissions)) return {};
  const out: Obj = {};
  if (isObj(permissions.fileSystem)) out.fileSystem = permissions.fileSystem;
  if (isObj(permissions.network)) out.network = permissions.network;
  return out;
}

/**
 * Classifies one server request. Never throws. Unknown methods come back as `unknown` (the caller
 * answers -32601 at once, field case B02); permission requests are answered with a grant or an empty
 * grant, never a decision (B03).
 */
export function classifyServerRequest(method: string, params: unknown, ctx: RequestContext): ClassifiedRequest {
  const p: Obj = isObj(params) ? params : {};
  const threadId = str(p.threadId) ?? str(p.conversationId);
  const turnId = str(p.turnId);
  switch (method) {
    case 'item/commandExecution/requestApproval': {
      const answers = answersFrom(p.availableDecisions);
      const requested = readRequestedAccess(p.additionalPermissions);
      const command = str(p.command);
      return {
        type: 'ask', kind: 'command', threadId, turnId,
        // Without additional permissions, codex 0.169.0 asks only to run a command outside the sandbox (an escalation).
        title: requested ? `Run with more access (${describeAccess(requested)})` : `Run OUTSIDE the sandbox${command ? `: ${command}` : ''}`,
        command, cwd: str(p.cwd), reason: str(p.reason), changes: [], requested, answers,
        toWire: (a) => ({ decision: ANSWER_TO_DECISION[a] }),
        timeoutAnswer: 'deny',
      };
    }
    case 'item/fileChange/requestApproval': {
      const changes = ctx.fileChanges.get(str(p.itemId) ?? '') ?? [];
      const answers = [...ALL_ANSWERS];
      return {
        type: 'ask', kind: 'fileChange', threadId, turnId,
        title: changes.length ? `Change ${changes.map((c) => c.path).join(', ')}` : 'Apply a file change',
        command: null, cwd: null, reason: str(p.reason), changes, requested: null, answers,
        toWire: (a) => ({ decision: ANSWER_TO_DECISION[a] }),
        timeoutAnswer: 'deny',
      };
    }
    case 'item/permissions/requestApproval': {
      const requested = readRequestedAccess(p.permissions);
      if (!ctx.onRequest) {
        return { type: 'immediate', kind: 'permissions', result: { permissions: {}, scope: 'turn' },
          notice: `The agent asked for more access (${describeAccess(requested)}); this mode grants nothing, so it was refused.` };
      }
      const answers: ApprovalAnswer[] = ['allow', 'allowForSession', 'deny'];
      return {
        type: 'ask', kind: 'permissions', threadId, turnId,
        title: `More access: ${describeAccess(requested)}`,
        command: null, cwd: str(p.cwd), reason: str(p.reason), changes: [], requested, answers,
        toWire: (a) =>
          a === 'allow' ? { permissions: grantOf(p.permissions), scope: 'turn' }
          : a === 'allowForSession' ? { permissions: grantOf(p.permissions), scope: 'session' }
          : { permissions: {}, scope: 'turn' },
        timeoutAnswer: 'deny',
      };
    }
    case 'execCommandApproval': {
      const command = strList(p.command).join(' ') || null;
      return {
        type: 'ask', kind: 'command', threadId, turnId: null,
        title: `Run OUTSIDE the sandbox${command ? `: ${command}` : ''}`,
        command, cwd: str(p.cwd), reason: str(p.reason), changes: [], requested: null, answers: [...ALL_ANSWERS],
        toWire: legacyDecision, timeoutAnswer: 'deny',
      };
    }
    case 'applyPatchApproval': {
      const files = isObj(p.fileChanges) ? Object.keys(p.fileChanges) : [];
      return {
        type: 'ask', kind: 'fileChange', threadId, turnId: null,
        title: files.length ? `Change ${files.join(', ')}` : 'Apply a file change',
        command: null, cwd: null, reason: str(p.reason),
        changes: files.map((f) => ({ path: f, kind: 'update', diff: JSON.stringify((p.fileChanges as Obj)[f]) })),
        requested: null, answers: [...ALL_ANSWERS], toWire: legacyDecision, timeoutAnswer: 'deny',
      };
    }
    case 'item/tool/requestUserInput':
      return { type: 'immediate', kind: 'userInput', result: { answers: {} },
        notice: 'The agent asked a question Angelia cannot show yet; it was answered with no answer.' };
    case 'mcpServer/elicitation/request':
      return { type: 'immediate', kind: 'elicitation', result: { action: 'decline', content: null, _meta: null },
        notice: `An MCP server asked for input (${str(p.serverName) ?? 'unknown server'}); it was declined.` };
    default:
      return { type: 'unknown', method, notice: `Codex sent a request Angelia does not know (${method}); it was answered "unsupported".` };
  }
}

function legacyDecision(a: ApprovalAnswer): unknown {
  switch (a) {
    case 'allow': return { decision: 'approved' };
    case 'allowForSession': return { decision: 'approved_for_session' };
    case 'deny': return { decision: { denied: { rejection: 'Denied by the user in Angelia' } } };
    case 'cancel': return { decision: 'abort' };
  }
}
