/**
 * What a Codex server request asks, in Angelia's terms, and how each answer is written back on the wire.
 * Wire shapes are read here only (house rule 2). Method names and shapes: codex 0.169.0 generated types
 * (`ServerRequest`, `CommandExecutionRequestApprovalParams`, `PermissionsRequestApprovalParams`,
 * `RequestPermissionProfile`, `GrantedPermissionProfile`, `PermissionsRequestApprovalResponse`,
 * `ExecCommandApprovalParams`, `ApplyPatchApprovalParams`, `ToolRequestUserInputResponse`,
 * `McpServerElicitationRequestResponse`) and codex-app-server.md §4.
 */
import type { ApprovalAnswer, ApprovalKind, RequestedAccess } from '../../../shared/contract';
import { AppFailure } from '../../../shared/result';
import type { ApplyPatchApprovalResponse, ExecCommandApprovalResponse } from './generated';
import type * as v2 from './generated/v2';
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
  /**
   * The JSON-RPC `result` for an answer (codex 0.169.0 shapes). `grant` narrows an Allow of a
   * permissions request to a subset of `requested` (omitted: everything asked is granted). Throws
   * AppFailure `bad-answer` when `answer` is not one of `answers`, when `grant` comes with anything
   * but an Allow of a permissions request, or when `grant` is not a non-empty subset of `requested`
   * (see `checkGrant`). Permissions replies: `{permissions: <granted subset>, scope: "turn"|"session"}`
   * for Allow, exactly `{permissions: {}}` for Deny (field case B03); never a `decision`. Command and
   * file-change replies: `{decision}` for the answer given, which is one of `answers` (B04).
   */
  toWire(answer: ApprovalAnswer, grant?: RequestedAccess): unknown;
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

/** What `classifyServerRequest` makes of one server request: ask a person, answer at once, or refuse as unknown. */
export type ClassifiedRequest = AskRequest | ImmediateRequest | UnknownRequest;

/** Context the classifier needs: the diffs remembered from `item/started` of fileChange items, and the policy. */
export interface RequestContext {
  fileChanges: ReadonlyMap<string, ChangeView[]>;
  /** False in bypassPermissions and plan (approval policy `never`): permission requests grant nothing. */
  onRequest: boolean;
}

/**
 * The name a codex 0.169.0 `FileSystemPath` is shown and granted by: the path of `{type:"path", path}`,
 * the pattern of `{type:"glob_pattern", pattern}`, or `:<kind>` (plus `/<subpath>` when given) for
 * `{type:"special", value:{kind, …}}`, as config.toml writes special paths (`:root`, `:tmpdir`,
 * `:project_roots/src`). null when the value has none of these shapes. Never throws.
 */
export function fileSystemPathName(p: unknown): string | null {
  if (!isObj(p)) return null;
  if (p.type === 'special') {
    const v = p.value;
    if (!isObj(v)) return null;
    const kind = v.kind === 'unknown' ? str(v.path) : str(v.kind);
    if (!kind) return null;
    const sub = str(v.subpath);
    return `${kind.startsWith(':') ? '' : ':'}${kind}${sub ? `/${sub}` : ''}`;
  }
  if (p.type === 'glob_pattern') return str(p.pattern);
  return str(p.path) ?? str(p.pattern);
}

/**
 * Reads a codex 0.169.0 `RequestPermissionProfile` / `AdditionalPermissionProfile` (`{network,
 * fileSystem}`) as what is asked for: the legacy `fileSystem.read/write` arrays and the `read`/`write`
 * `fileSystem.entries` (named by `fileSystemPathName`), deduplicated in order of appearance, plus
 * `network` when `network.enabled` is true. `deny` entries only take access away and are not listed.
 * null when nothing is asked (or `p` is not an object). Never throws.
 */
export function readRequestedAccess(p: unknown): RequestedAccess | null {
  if (!isObj(p)) return null;
  const fs = isObj(p.fileSystem) ? p.fileSystem : null;
  const read = new Set(strList(fs?.read));
  const write = new Set(strList(fs?.write));
  for (const e of Array.isArray(fs?.entries) ? fs.entries : []) {
    if (!isObj(e)) continue;
    const path = fileSystemPathName(e.path);
    if (!path) continue;
    if (e.access === 'write') write.add(path);
    else if (e.access === 'read') read.add(path);
  }
  const network = isObj(p.network) && p.network.enabled === true;
  if (read.size === 0 && write.size === 0 && !network) return null;
  return { read: [...read], write: [...write], network };
}

function badAnswer(message: string): AppFailure {
  return new AppFailure({ code: 'bad-answer', message });
}

/**
 * Checks a grant against what a permissions request asked for and returns it deduplicated. A grant is
 * valid when it is non-empty (at least one path, or network) and a subset of `requested`: every `read`
 * path was asked for reading, every `write` path for writing, and `network` only when network was asked.
 * Throws AppFailure `bad-answer` naming what is wrong (the paths not asked for, network not asked for,
 * an empty grant, or a request that names nothing to grant).
 */
export function checkGrant(requested: RequestedAccess | null, grant: RequestedAccess): RequestedAccess {
  const read = [...new Set(grant.read)];
  const write = [...new Set(grant.write)];
  if (read.length === 0 && write.length === 0 && !grant.network) {
    throw badAnswer('the grant is empty: to grant nothing, answer Deny');
  }
  if (!requested) throw badAnswer('this request names nothing that could be granted; answer Allow without a grant, or Deny');
  const extra = [
    ...read.filter((x) => !requested.read.includes(x)).map((x) => `read ${x}`),
    ...write.filter((x) => !requested.write.includes(x)).map((x) => `write ${x}`),
    ...(grant.network && !requested.network ? ['network'] : []),
  ];
  if (extra.length) {
    throw badAnswer(`the grant goes beyond what was asked: ${extra.join(', ')} ${extra.length === 1 ? 'was' : 'were'} not requested (asked: ${describeAccess(requested)})`);
  }
  return { read, write, network: grant.network };
}

const DECISION_TO_ANSWER: Record<string, ApprovalAnswer> = {
  accept: 'allow',
  acceptForSession: 'allowForSession',
  decline: 'deny',
  cancel: 'cancel',
};
const ANSWER_TO_DECISION = {
  allow: 'accept',
  allowForSession: 'acceptForSession',
  deny: 'decline',
  cancel: 'cancel',
} as const satisfies Record<ApprovalAnswer, v2.CommandExecutionApprovalDecision & v2.FileChangeApprovalDecision>;
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
  return parts.join('; ') || 'nothing named';
}

/** Everything asked, echoed back as a GrantedPermissionProfile (only the `fileSystem` and `network` objects). */
function grantAll(permissions: unknown): v2.GrantedPermissionProfile {
  if (!isObj(permissions)) return {};
  const out: Obj = {};
  if (isObj(permissions.fileSystem)) out.fileSystem = permissions.fileSystem;
  if (isObj(permissions.network)) out.network = permissions.network;
  return out as v2.GrantedPermissionProfile;
}

/**
 * Only the granted part of what was asked, in the shape Codex sent it: the legacy `read`/`write` arrays
 * keep only granted paths (null when none is left, as Codex writes "none"), `entries` keep the granted
 * `read`/`write` entries and every `deny` entry (a deny only takes access away, so echoing it never
 * grants more), other keys (`globScanMaxDepth`) are kept; `fileSystem` is left out when it grants no
 * path, `network` is echoed only when granted. `grant` has been checked by `checkGrant`.
 */
function grantSubset(permissions: unknown, grant: RequestedAccess): v2.GrantedPermissionProfile {
  if (!isObj(permissions)) return {};
  const out: Obj = {};
  const fs = permissions.fileSystem;
  if (isObj(fs)) {
    const kept: Obj = { ...fs };
    let grantsPath = false;
    for (const key of ['read', 'write'] as const) {
      if (!Array.isArray(fs[key])) continue;
      const list = strList(fs[key]).filter((x) => grant[key].includes(x));
      kept[key] = list.length ? list : null;
      if (list.length) grantsPath = true;
    }
    if (Array.isArray(fs.entries)) {
      kept.entries = fs.entries.filter((e) => {
        if (!isObj(e)) return false;
        if (e.access === 'deny') return true;
        const name = fileSystemPathName(e.path);
        const ok = name !== null && (e.access === 'read' || e.access === 'write') && grant[e.access].includes(name);
        if (ok) grantsPath = true;
        return ok;
      });
    }
    if (grantsPath) out.fileSystem = kept;
  }
  if (grant.network && isObj(permissions.network)) out.network = permissions.network;
  return out as v2.GrantedPermissionProfile;
}

/** Wraps a reply writer: refuses an answer that was not offered (B04) and a grant on a request that is not for permissions. */
function decisionOnly(answers: readonly ApprovalAnswer[], write: (a: ApprovalAnswer) => unknown): AskRequest['toWire'] {
  return (a, grant) => {
    assertOffered(answers, a);
    if (grant) throw badAnswer('a grant can only answer a permissions request (more access); this request takes a plain answer');
    return write(a);
  };
}

function assertOffered(answers: readonly ApprovalAnswer[], a: ApprovalAnswer): void {
  if (!answers.includes(a)) throw badAnswer(`"${a}" was not offered for this request (offered: ${answers.join(', ')})`);
}

/**
 * The reply to `item/permissions/requestApproval` (codex 0.169.0 `PermissionsRequestApprovalResponse`):
 * Allow → `{permissions: <grant or everything asked>, scope: "turn"}`, Allow for the session → the same
 * with `scope: "session"`, Deny → exactly `{permissions: {}}` (empty grant; Codex reads an omitted
 * scope as "turn", field case B03). Never a `decision`.
 */
function permissionsWire(answers: readonly ApprovalAnswer[], permissions: unknown, requested: RequestedAccess | null): AskRequest['toWire'] {
  return (a, grant) => {
    assertOffered(answers, a);
    if (a === 'allow' || a === 'allowForSession') {
      const granted = grant ? grantSubset(permissions, checkGrant(requested, grant)) : grantAll(permissions);
      return { permissions: granted, scope: a === 'allow' ? 'turn' : 'session' } satisfies v2.PermissionsRequestApprovalResponse;
    }
    if (grant) throw badAnswer(`a grant only goes with Allow; "${a}" grants nothing`);
    return { permissions: {} } satisfies Omit<v2.PermissionsRequestApprovalResponse, 'scope'>;
  };
}

/**
 * Classifies one server request (codex 0.169.0 `ServerRequest` methods). Never throws. Unknown methods
 * come back as `unknown` (the caller answers -32601 at once, field case B02); `requestUserInput` and MCP
 * elicitation are answered at once with their schema-correct refusal (`{answers: {}}`, `{action:
 * "decline", content: null, _meta: null}`, B02); permission requests are answered with a grant or an
 * empty grant, never a decision (B03), and at once with an empty grant when the mode has no approvals.
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
        toWire: decisionOnly(answers, (a) => ({ decision: ANSWER_TO_DECISION[a] }) satisfies v2.CommandExecutionRequestApprovalResponse),
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
        toWire: decisionOnly(answers, (a) => ({ decision: ANSWER_TO_DECISION[a] }) satisfies v2.FileChangeRequestApprovalResponse),
        timeoutAnswer: 'deny',
      };
    }
    case 'item/permissions/requestApproval': {
      const requested = readRequestedAccess(p.permissions);
      if (!ctx.onRequest) {
        return { type: 'immediate', kind: 'permissions', result: { permissions: {}, scope: 'turn' } satisfies v2.PermissionsRequestApprovalResponse,
          notice: `The agent asked for more access (${describeAccess(requested)}); this mode grants nothing, so it was refused.` };
      }
      const answers: ApprovalAnswer[] = ['allow', 'allowForSession', 'deny'];
      return {
        type: 'ask', kind: 'permissions', threadId, turnId,
        title: `More access: ${describeAccess(requested)}`,
        command: null, cwd: str(p.cwd), reason: str(p.reason), changes: [], requested, answers,
        toWire: permissionsWire(answers, p.permissions, requested),
        timeoutAnswer: 'deny',
      };
    }
    case 'execCommandApproval': {
      const command = strList(p.command).join(' ') || null;
      const answers = [...ALL_ANSWERS];
      return {
        type: 'ask', kind: 'command', threadId, turnId: null,
        title: `Run OUTSIDE the sandbox${command ? `: ${command}` : ''}`,
        command, cwd: str(p.cwd), reason: str(p.reason), changes: [], requested: null, answers,
        toWire: decisionOnly(answers, (a) => legacyDecision(a) satisfies ExecCommandApprovalResponse), timeoutAnswer: 'deny',
      };
    }
    case 'applyPatchApproval': {
      const files = isObj(p.fileChanges) ? Object.keys(p.fileChanges) : [];
      const answers = [...ALL_ANSWERS];
      return {
        type: 'ask', kind: 'fileChange', threadId, turnId: null,
        title: files.length ? `Change ${files.join(', ')}` : 'Apply a file change',
        command: null, cwd: null, reason: str(p.reason),
        changes: files.map((f) => ({ path: f, kind: 'update', diff: JSON.stringify((p.fileChanges as Obj)[f]) })),
        requested: null, answers, toWire: decisionOnly(answers, (a) => legacyDecision(a) satisfies ApplyPatchApprovalResponse), timeoutAnswer: 'deny',
      };
    }
    case 'item/tool/requestUserInput':
      return { type: 'immediate', kind: 'userInput', result: { answers: {} } satisfies v2.ToolRequestUserInputResponse,
        notice: 'The agent asked a question Angelia cannot show yet; it was answered with no answer.' };
    case 'mcpServer/elicitation/request':
      return { type: 'immediate', kind: 'elicitation', result: { action: 'decline', content: null, _meta: null } satisfies v2.McpServerElicitationRequestResponse,
        notice: `An MCP server asked for input (${str(p.serverName) ?? 'unknown server'}); it was declined.` };
    default:
      return { type: 'unknown', method, notice: `Codex sent a request Angelia does not know (${method}); it was answered "unsupported".` };
  }
}

/** Legacy `ReviewDecision` (codex 0.169.0 `execCommandApproval` / `applyPatchApproval`). */
function legacyDecision(a: ApprovalAnswer): { decision: 'approved' | 'approved_for_session' | 'abort' | { denied: { rejection: string } } } {
  switch (a) {
    case 'allow': return { decision: 'approved' };
    case 'allowForSession': return { decision: 'approved_for_session' };
    case 'deny': return { decision: { denied: { rejection: 'Denied by the user in Angelia' } } };
    case 'cancel': return { decision: 'abort' };
  }
}
