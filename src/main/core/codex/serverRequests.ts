/**
 * What a Codex server request asks, in Angelia's terms, and how each answer is written back on the wire.
 * Wire shapes are read here only (one place to change when Codex does). Method names and shapes: codex
 * 0.169.0 generated types (`ServerRequest`, `CommandExecutionRequestApprovalParams`,
 * `PermissionsRequestApprovalParams`, `RequestPermissionProfile`, `GrantedPermissionProfile`,
 * `PermissionsRequestApprovalResponse`, `ExecCommandApprovalParams`, `ApplyPatchApprovalParams`,
 * test/core/codex/serverRequests.test.ts); agent questions: questions.ts, MCP elicitations: elicitation.ts.
 * What no grant may open, whoever answers:
 * approvals/privateReach.ts (refused here, and again when an answer is written).
 */
import { isAbsolute } from 'node:path';
import type { ApprovalAnswer, RefusedAccess, RequestedAccess } from '../../../shared/contract';
import { describeRefused, splitRequested, type GrantFloor, type WritablePlace } from '../approvals/privateReach';
import { assertOffered, badAnswer, refuseFormExtras, type AskRequest, type ChangeView, type ImmediateRequest } from './askRequest';
import type { ApplyPatchApprovalResponse, ExecCommandApprovalResponse } from './generated';
import type * as v2 from './generated/v2';
import { classifyElicitation } from './elicitation';
import type { McpCall } from './mcpToolGate';
import { classifyUserInput } from './questions';
import { isObj, str, strList, type Obj } from './wire';

export type { AskRequest, ChangeView, ImmediateRequest, WireExtras } from './askRequest';

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
  /**
   * The MCP tool calls Codex announced (`item/started` of `mcpToolCall` items, in progress) and no tool
   * gate was shown for yet, by item id (mcpToolGate.ts `gatedCall`). Absent: none, so no elicitation is
   * taken for Codex's own tool gate.
   */
  mcpCalls?: ReadonlyMap<string, McpCall>;
  /** False in bypassPermissions and plan (approval policy `never`): permission requests grant nothing. */
  onRequest: boolean;
  /**
   * The profile's closed places (privateReach.ts `grantFloor`, from the chat's launch plan): requested
   * paths that reach one are never granted. Absent: no path can be checked, so every requested path
   * is refused (fail closed); network alone stays grantable.
   */
  floor?: GrantFloor;
  /**
   * The places this chat granted for writing earlier and that are still in force (privateReach.ts
   * `grantedPlaces`; turn grants until their turn ends, session grants until the process ends), read
   * when the request comes and again when it is answered: a path in one is never granted (the agent
   * could swap it for a symbolic link). Absent: none.
   */
  granted?: () => readonly WritablePlace[];
  /**
   * Present when the launch is sandboxed: an escalated command then runs outside the sandbox, with the
   * whole filesystem writable except the launch's deny entries (measured on codex 0.169.0, Linux).
   * `denied`: how many deny entries the launch has (null: unknown). Absent: no sandbox to leave.
   */
  sandbox?: { denied: number | null };
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

/** What `checkGrant` also holds a grant against: the refused part of the request, and the floor to check each path again. */
export interface GrantGuard {
  /** What the request asked for and is never granted (`AskRequest.refused`). */
  refused?: readonly RefusedAccess[];
  /** When given, every granted path is checked again now (a symbolic link may have changed since the request). */
  floor?: GrantFloor;
  /** The request's folder, for relative paths (default `floor.cwd`). */
  base?: string;
  /** The chat's write grants in force now (RequestContext.granted), checked with `floor`. */
  granted?: () => readonly WritablePlace[];
}

const NEVER = 'Angelia never grants it, whoever answers: grant only the other paths, or Deny';

/**
 * Checks a grant against what a permissions request asked for and returns it deduplicated. A grant is
 * valid when it is non-empty (at least one path, or network), grants no path Angelia never grants
 * (`guard.refused`, and privateReach.ts against `guard.floor` and `guard.granted` when given: checked
 * again now, since a link or an earlier grant may have changed since the request) and is a subset of
 * `requested`: every `read` path was asked for reading, every `write` path for writing, and `network`
 * only when network was asked. Throws AppFailure `bad-answer` naming what is wrong (a path never
 * granted and why, the paths not asked for, network not asked for, an empty grant, or a request that
 * names nothing to grant).
 */
export function checkGrant(requested: RequestedAccess | null, grant: RequestedAccess, guard: GrantGuard = {}): RequestedAccess {
  const read = [...new Set(grant.read)];
  const write = [...new Set(grant.write)];
  if (read.length === 0 && write.length === 0 && !grant.network) {
    throw badAnswer('the grant is empty: to grant nothing, answer Deny');
  }
  const never: RefusedAccess[] = [];
  for (const [access, paths] of [
    ['write', write],
    ['read', read],
  ] as const) {
    for (const path of paths) {
      const known = guard.refused?.find((r) => r.access === access && r.path === path);
      const now =
        known ??
        (guard.floor
          ? splitRequested(
              { read: access === 'read' ? [path] : [], write: access === 'write' ? [path] : [], network: false },
              guard.floor,
              guard.base,
              guard.granted?.() ?? [],
            ).refused[0]
          : undefined);
      if (now) never.push(now);
    }
  }
  if (never.length) throw badAnswer(`${describeRefused(never)}: ${NEVER}`);
  if (!requested) throw badAnswer('this request names nothing that could be granted; answer Allow without a grant, or Deny');
  const extra = [
    ...read.filter((x) => !requested.read.includes(x)).map((x) => `read ${x}`),
    ...write.filter((x) => !requested.write.includes(x)).map((x) => `write ${x}`),
    ...(grant.network && !requested.network ? ['network'] : []),
  ];
  if (extra.length) {
    throw badAnswer(
      `the grant goes beyond what was asked: ${extra.join(', ')} ${extra.length === 1 ? 'was' : 'were'} not requested (asked: ${describeAccess(requested)})`,
    );
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
 * Buttons from `availableDecisions` when given (only what Codex offers), else every v2 decision. Deny
 * (`decline`) is always offered: it grants nothing, and codex 0.169.0 lists only `accept`, an
 * amendment and `cancel` for an escalation yet accepts `decline` and lets the turn go on (measured,
 * `item/commandExecution/requestApproval`); without it the only refusal would stop the whole turn.
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

/** Wraps a reply writer: refuses an answer that was not offered, and a grant, answers or content (none fits a decision). */
function decisionOnly(answers: readonly ApprovalAnswer[], write: (a: ApprovalAnswer) => unknown): AskRequest['toWire'] {
  return (a, extras = {}) => {
    assertOffered(answers, a);
    if (extras.grant) throw badAnswer('a grant can only answer a permissions request (more access); this request takes a plain answer');
    refuseFormExtras(extras, 'this request takes a plain answer');
    return write(a);
  };
}

/**
 * The reply to `item/permissions/requestApproval` (codex 0.169.0 `PermissionsRequestApprovalResponse`):
 * Allow → `{permissions: <grant, or everything grantable>, scope: "turn"}`, Allow for the session → the
 * same with `scope: "session"`, Deny → exactly `{permissions: {}}` (empty grant; Codex reads an omitted
 * scope as "turn"). Never a `decision`. What is granted is always echoed through
 * `grantSubset` from the checked grant, so nothing Angelia could not name or never grants goes back.
 */
function permissionsWire(answers: readonly ApprovalAnswer[], permissions: unknown, requested: RequestedAccess | null, guard: GrantGuard): AskRequest['toWire'] {
  return (a, extras = {}) => {
    assertOffered(answers, a);
    refuseFormExtras(extras, 'a permissions request takes a grant');
    const grant = extras.grant;
    if (a === 'allow' || a === 'allowForSession') {
      const chosen = grant ?? requested;
      const granted = chosen ? grantSubset(permissions, checkGrant(requested, chosen, guard)) : {};
      return { permissions: granted, scope: a === 'allow' ? 'turn' : 'session' } satisfies v2.PermissionsRequestApprovalResponse;
    }
    if (grant) throw badAnswer(`a grant only goes with Allow; "${a}" grants nothing`);
    return { permissions: {} } satisfies Omit<v2.PermissionsRequestApprovalResponse, 'scope'>;
  };
}

/** Why every path is refused when the chat has no floor to check against (RequestContext.floor absent). */
const NO_FLOOR = "Angelia cannot check it against the profile's floor (no launch plan)";

/**
 * What may be granted of `asked` and what never is: privateReach.ts `splitRequested` against
 * `ctx.floor` (relative paths against the request's `cwd` when absolute, else the profile's folder);
 * without a floor every path is refused and only network stays grantable.
 */
function screen(asked: RequestedAccess | null, ctx: RequestContext, cwd: string | null): { grantable: RequestedAccess | null; refused: RefusedAccess[] } {
  if (ctx.floor) return splitRequested(asked, ctx.floor, cwd && isAbsolute(cwd) ? cwd : ctx.floor.cwd, ctx.granted?.() ?? []);
  if (!asked) return { grantable: null, refused: [] };
  const refused: RefusedAccess[] = [
    ...asked.write.map((path) => ({ access: 'write' as const, path, why: NO_FLOOR })),
    ...asked.read.map((path) => ({ access: 'read' as const, path, why: NO_FLOOR })),
  ];
  return { grantable: asked.network ? { read: [], write: [], network: true } : null, refused };
}

/** `write /a, read /b`: the refused entries by access and path only (for a title). */
function refusedNames(refused: readonly RefusedAccess[]): string {
  return refused.map((r) => `${r.access} ${r.path}`).join(', ');
}

/** The title's tail for refused paths: ` — never granted: write /a; already writable: write /w/b` ('' when none). */
function refusedTitle(refused: readonly RefusedAccess[]): string {
  const never = refused.filter((r) => !r.already);
  const already = refused.filter((r) => r.already);
  const parts = [...(never.length ? [`never granted: ${refusedNames(never)}`] : []), ...(already.length ? [`already writable: ${refusedNames(already)}`] : [])];
  return parts.length ? ` — ${parts.join('; ')}` : '';
}

/** Why a grant on a place the agent can already write is not given, for the chat's notices. */
const ALREADY_WHY = 'a grant on a place the agent can change could be redirected with a symbolic link';

/**
 * Classifies one server request (codex 0.169.0 `ServerRequest` methods). Never throws. Unknown methods
 * come back as `unknown` (the caller answers -32601 at once, never silently); `requestUserInput` and MCP
 * elicitation are asked as questions and forms (questions.ts); permission requests are answered with a grant or an
 * empty grant, never a decision, and at once with an empty grant when the mode has no approvals.
 * Paths no grant may open (privateReach.ts, against `ctx.floor`) are never offered: a permissions request
 * shows them as `refused` and grants only the rest; when nothing else is asked it is answered at once
 * with an empty grant, and a command whose additional permissions name one is declined at once (a
 * decision cannot grant part of them); both come back `immediate` with `refused` and an `agentNote`.
 * The same holds for paths the agent could swap for a symbolic link after the answer (in a place it
 * can write, its earlier write grants `ctx.granted`, /tmp, or through a link): those it can already
 * write carry `already: true` and are told as "already writable", not as never granted.
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
      const { refused } = screen(requested, ctx, str(p.cwd));
      if (refused.length) {
        const already = refused.every((r) => r.already);
        return {
          type: 'immediate',
          kind: 'command',
          result: { decision: 'decline' } satisfies v2.CommandExecutionRequestApprovalResponse,
          refused,
          notice: `The agent asked to run a command with more access${command ? ` (${command})` : ''}: ${describeRefused(refused)}. ${already ? `It can already write there, so Angelia declined the command without asking you (${ALREADY_WHY}).` : 'Angelia never grants that, whoever answers, so it declined the command without asking you.'}`,
          agentNote: `Angelia declined your command without asking the user: its additional permissions name ${describeRefused(refused)}. ${already ? 'You can already write there: run the command without additional permissions.' : 'These locations are never granted in this chat; run the command without them.'}`,
        };
      }
      return {
        type: 'ask',
        kind: 'command',
        threadId,
        turnId,
        itemId: str(p.itemId),
        // Without additional permissions, codex 0.169.0 asks only to run a command outside the sandbox (an escalation).
        title: requested ? `Run with more access (${describeAccess(requested)})` : `Run OUTSIDE the sandbox${command ? `: ${command}` : ''}`,
        outsideSandbox: !requested && ctx.sandbox ? { denied: ctx.sandbox.denied } : null,
        command,
        cwd: str(p.cwd),
        reason: str(p.reason),
        changes: [],
        requested,
        refused: [],
        answers,
        toWire: decisionOnly(answers, (a) => ({ decision: ANSWER_TO_DECISION[a] }) satisfies v2.CommandExecutionRequestApprovalResponse),
        timeoutAnswer: 'deny',
      };
    }
    case 'item/fileChange/requestApproval': {
      const changes = ctx.fileChanges.get(str(p.itemId) ?? '') ?? [];
      const answers = [...ALL_ANSWERS];
      return {
        type: 'ask',
        kind: 'fileChange',
        threadId,
        turnId,
        itemId: str(p.itemId),
        outsideSandbox: null,
        title: changes.length ? `Change ${changes.map((c) => c.path).join(', ')}` : 'Apply a file change',
        command: null,
        cwd: null,
        reason: str(p.reason),
        changes,
        requested: null,
        refused: [],
        answers,
        toWire: decisionOnly(answers, (a) => ({ decision: ANSWER_TO_DECISION[a] }) satisfies v2.FileChangeRequestApprovalResponse),
        timeoutAnswer: 'deny',
      };
    }
    case 'item/permissions/requestApproval': {
      const asked = readRequestedAccess(p.permissions);
      if (!ctx.onRequest) {
        return {
          type: 'immediate',
          kind: 'permissions',
          result: { permissions: {}, scope: 'turn' } satisfies v2.PermissionsRequestApprovalResponse,
          notice: `The agent asked for more access (${describeAccess(asked)}); this mode grants nothing, so it was refused.`,
        };
      }
      const cwd = str(p.cwd);
      const { grantable: requested, refused } = screen(asked, ctx, cwd);
      if (refused.length && !requested) {
        const already = refused.every((r) => r.already);
        return {
          type: 'immediate',
          kind: 'permissions',
          result: { permissions: {}, scope: 'turn' } satisfies v2.PermissionsRequestApprovalResponse,
          refused,
          notice: already
            ? `The agent asked for ${describeRefused(refused)}. It can already write there, so Angelia answered with an empty grant without asking you (${ALREADY_WHY}).`
            : `The agent asked for ${describeRefused(refused)}. Angelia never grants that, whoever answers, so it refused the request without asking you.`,
          agentNote: already
            ? `Angelia answered your request for more access with an empty grant without asking the user: ${describeRefused(refused)}. You can already write there: use those paths directly, without asking for them.`
            : `Angelia refused your request for more access without asking the user: ${describeRefused(refused)}. These locations are never granted in this chat; do not ask for them again, and go on without them.`,
        };
      }
      const answers: ApprovalAnswer[] = ['allow', 'allowForSession', 'deny'];
      return {
        type: 'ask',
        kind: 'permissions',
        threadId,
        turnId,
        itemId: null,
        outsideSandbox: null,
        title: `More access: ${describeAccess(requested)}${refusedTitle(refused)}`,
        command: null,
        cwd,
        reason: str(p.reason),
        changes: [],
        requested,
        refused,
        answers,
        toWire: permissionsWire(answers, p.permissions, requested, {
          refused,
          ...(ctx.floor ? { floor: ctx.floor, base: cwd && isAbsolute(cwd) ? cwd : ctx.floor.cwd, ...(ctx.granted ? { granted: ctx.granted } : {}) } : {}),
        }),
        timeoutAnswer: 'deny',
      };
    }
    case 'execCommandApproval': {
      const command = strList(p.command).join(' ') || null;
      const answers = [...ALL_ANSWERS];
      return {
        type: 'ask',
        kind: 'command',
        threadId,
        turnId: null,
        itemId: null,
        title: `Run OUTSIDE the sandbox${command ? `: ${command}` : ''}`,
        outsideSandbox: ctx.sandbox ? { denied: ctx.sandbox.denied } : null,
        command,
        cwd: str(p.cwd),
        reason: str(p.reason),
        changes: [],
        requested: null,
        refused: [],
        answers,
        toWire: decisionOnly(answers, (a) => legacyDecision(a) satisfies ExecCommandApprovalResponse),
        timeoutAnswer: 'deny',
      };
    }
    case 'applyPatchApproval': {
      const files = isObj(p.fileChanges) ? Object.keys(p.fileChanges) : [];
      const answers = [...ALL_ANSWERS];
      return {
        type: 'ask',
        kind: 'fileChange',
        threadId,
        turnId: null,
        itemId: null,
        outsideSandbox: null,
        title: files.length ? `Change ${files.join(', ')}` : 'Apply a file change',
        command: null,
        cwd: null,
        reason: str(p.reason),
        changes: files.map((f) => ({ path: f, kind: 'update', diff: JSON.stringify((p.fileChanges as Obj)[f]) })),
        requested: null,
        refused: [],
        answers,
        toWire: decisionOnly(answers, (a) => legacyDecision(a) satisfies ApplyPatchApprovalResponse),
        timeoutAnswer: 'deny',
      };
    }
    case 'item/tool/requestUserInput':
      return classifyUserInput(p, threadId, turnId);
    case 'mcpServer/elicitation/request':
      return classifyElicitation(p, threadId, turnId, ctx.mcpCalls);
    default:
      return { type: 'unknown', method, notice: `Codex sent a request Angelia does not know (${method}); it was answered "unsupported".` };
  }
}

/** Legacy `ReviewDecision` (codex 0.169.0 `execCommandApproval` / `applyPatchApproval`). */
function legacyDecision(a: ApprovalAnswer): { decision: 'approved' | 'approved_for_session' | 'abort' | { denied: { rejection: string } } } {
  switch (a) {
    case 'allow':
      return { decision: 'approved' };
    case 'allowForSession':
      return { decision: 'approved_for_session' };
    case 'deny':
      return { decision: { denied: { rejection: 'Denied by the user in Angelia' } } };
    case 'cancel':
      return { decision: 'abort' };
  }
}
