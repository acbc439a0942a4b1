/**
 * Typed method maps over the generated Codex app-server protocol (`generated/`, from
 * `codex app-server generate-ts --experimental`, codex-cli 0.171.0; regenerate with `npm run gen:protocol`).
 *
 * The generated `ClientRequest`, `ServerRequest` and `ServerNotification` unions carry method names and
 * params but not result types; responses are separate `*Response` types whose names do not follow the
 * method names mechanically (`thread/name/set` → `ThreadSetNameResponse`), so `ResponseMap` maps the
 * methods Angelia uses by hand and every other method answers `unknown`.
 */
import type {
  ApplyPatchApprovalResponse,
  ClientNotification,
  ClientRequest,
  ExecCommandApprovalResponse,
  InitializeResponse,
  ServerNotification,
  ServerRequest,
} from './generated';
import type * as v2 from './generated/v2';

/** Every request method a client may send (e.g. `"thread/start"`). */
export type ClientRequestMethod = ClientRequest['method'];

/**
 * The `params` of client request `M`. A method without params in the generated union (e.g.
 * `configRequirements/read`) takes `undefined` or an empty object (`{}` is what Angelia has always sent).
 */
export type RequestParams<M extends ClientRequestMethod> = Extract<ClientRequest, { method: M }>['params'] extends undefined
  ? undefined | Record<string, never>
  : Extract<ClientRequest, { method: M }>['params'];

/** Result types of the client requests Angelia uses (codex 0.171.0 generated `*Response` types). */
export interface ResponseMap {
  initialize: InitializeResponse;
  'thread/start': v2.ThreadStartResponse;
  'thread/resume': v2.ThreadResumeResponse;
  'thread/read': v2.ThreadReadResponse;
  'thread/list': v2.ThreadListResponse;
  'thread/fork': v2.ThreadForkResponse;
  'thread/compact/start': v2.ThreadCompactStartResponse;
  'thread/turns/list': v2.ThreadTurnsListResponse;
  'thread/search': v2.ThreadSearchResponse;
  'thread/searchOccurrences': v2.ThreadSearchOccurrencesResponse;
  'thread/name/set': v2.ThreadSetNameResponse;
  'thread/archive': v2.ThreadArchiveResponse;
  'thread/unarchive': v2.ThreadUnarchiveResponse;
  'turn/start': v2.TurnStartResponse;
  'turn/interrupt': v2.TurnInterruptResponse;
  'turn/steer': v2.TurnSteerResponse;
  'config/read': v2.ConfigReadResponse;
  'configRequirements/read': v2.ConfigRequirementsReadResponse;
  'model/list': v2.ModelListResponse;
  'modelProvider/list': v2.ModelProviderListResponse;
  'permissionProfile/list': v2.PermissionProfileListResponse;
  'account/read': v2.GetAccountResponse;
  'account/login/start': v2.LoginAccountResponse;
  'account/login/cancel': v2.CancelLoginAccountResponse;
  'account/logout': v2.LogoutAccountResponse;
}

/** The result of client request `M`: the generated `*Response` type when mapped, else `unknown`. */
export type ResponseOf<M extends ClientRequestMethod> = M extends keyof ResponseMap ? ResponseMap[M] : unknown;

/** Client notifications (only `"initialized"` in 0.171.0). */
export type ClientNotificationMethod = ClientNotification['method'];

/** Every request method Codex may send to the client (approvals, user input, tool calls, …). */
export type ServerRequestMethod = ServerRequest['method'];

/** The `params` of server request `M`. */
export type ServerRequestParams<M extends ServerRequestMethod> = Extract<ServerRequest, { method: M }>['params'];

/** Result types the client answers server requests with (codex 0.171.0 generated `*Response` types). */
export interface ServerResponseMap {
  'item/commandExecution/requestApproval': v2.CommandExecutionRequestApprovalResponse;
  'item/fileChange/requestApproval': v2.FileChangeRequestApprovalResponse;
  'item/tool/requestUserInput': v2.ToolRequestUserInputResponse;
  'mcpServer/elicitation/request': v2.McpServerElicitationRequestResponse;
  'item/permissions/requestApproval': v2.PermissionsRequestApprovalResponse;
  'item/tool/call': v2.DynamicToolCallResponse;
  'account/chatgptAuthTokens/refresh': v2.ChatgptAuthTokensRefreshResponse;
  'attestation/generate': v2.AttestationGenerateResponse;
  applyPatchApproval: ApplyPatchApprovalResponse;
  execCommandApproval: ExecCommandApprovalResponse;
}

/** The result type for server request `M`. */
export type ServerResponseOf<M extends ServerRequestMethod> = ServerResponseMap[M];

/**
 * The server request methods of the generated `ServerRequest` union, at run time. The client answers any
 * other method with JSON-RPC error -32601 at once. The compile-time checks below fail when the generated
 * union and this list disagree (e.g. after a Codex bump).
 */
export const SERVER_REQUEST_METHODS = [
  'item/commandExecution/requestApproval',
  'item/fileChange/requestApproval',
  'item/tool/requestUserInput',
  'mcpServer/elicitation/request',
  'item/permissions/requestApproval',
  'item/tool/call',
  'account/chatgptAuthTokens/refresh',
  'attestation/generate',
  'applyPatchApproval',
  'execCommandApproval',
] as const satisfies readonly ServerRequestMethod[];

type MissingServerMethods = Exclude<ServerRequestMethod, (typeof SERVER_REQUEST_METHODS)[number]>;
type MissingServerResponses = Exclude<ServerRequestMethod, keyof ServerResponseMap>;
/** Compile-time: every generated server request method is listed above and has a response type. */
export const SERVER_REQUEST_LIST_IS_COMPLETE: [MissingServerMethods | MissingServerResponses] extends [never] ? true : never = true;

const serverMethods: ReadonlySet<string> = new Set(SERVER_REQUEST_METHODS);

/** True when `method` is a server request method of the generated protocol (codex 0.171.0). */
export function isServerRequestMethod(method: string): method is ServerRequestMethod {
  return serverMethods.has(method);
}

/** Every notification method Codex may send (e.g. `"item/agentMessage/delta"`, `"turn/completed"`). */
export type ServerNotificationMethod = ServerNotification['method'];

/** The `params` of server notification `M`. */
export type NotificationParams<M extends ServerNotificationMethod> = Extract<ServerNotification, { method: M }>['params'];

/** Constants for the client methods Angelia calls, checked against the generated union. */
export const CodexMethod = {
  initialize: 'initialize',
  threadStart: 'thread/start',
  threadResume: 'thread/resume',
  threadRead: 'thread/read',
  threadCompactStart: 'thread/compact/start',
  turnStart: 'turn/start',
  turnInterrupt: 'turn/interrupt',
  turnSteer: 'turn/steer',
  configRead: 'config/read',
  configRequirementsRead: 'configRequirements/read',
  modelList: 'model/list',
  permissionProfileList: 'permissionProfile/list',
} as const satisfies Record<string, keyof ResponseMap>;

/** The client notification sent after `initialize` answers. */
export const INITIALIZED_NOTIFICATION = 'initialized' satisfies ClientNotificationMethod;
