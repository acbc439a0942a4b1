/**
 * The server requests the approval properties send, one of every kind codex 0.171.0 asks a person
 * (codex/serverRequests.ts `classifyServerRequest`): v2 command and file-change approvals, permissions
 * requests (grantable, and naming a private place: answered at once), the legacy
 * `execCommandApproval` / `applyPatchApproval`, agent questions (`item/tool/requestUserInput`), MCP
 * form elicitations of two servers (the per-server bound, codex/askLimits.ts) and a method Angelia
 * does not know. Each comes with the extras a valid Allow needs and extras that are always wrong.
 */
import fc from 'fast-check';
import type { AnswerOptions } from '../../src/main/core/approvals/broker';
import type { AnswerSource, ApprovalAnswer } from '../../src/shared/contract';

/** One request template: its method, its params for a thread and turn, and the extras of a valid Allow. */
export interface Template {
  name: string;
  method: string;
  params: (threadId: string | null, turnId: string | null, n: number) => Record<string, unknown>;
  allowExtras: AnswerOptions;
  /** Asked of a person (through the broker); false: answered at once or refused -32601. */
  asks: boolean;
}

const decisions = ['accept', 'acceptForSession', 'decline', 'cancel'];

/** Every template (see the file comment); `/w` is the profile's folder of the fake launch plan. */
export const TEMPLATES: readonly Template[] = [
  {
    name: 'command',
    method: 'item/commandExecution/requestApproval',
    params: (threadId, turnId, n) => ({ threadId, turnId, itemId: `call_${n}`, command: `make step-${n}`, cwd: '/w', availableDecisions: decisions }),
    allowExtras: {},
    asks: true,
  },
  {
    name: 'command (accept or cancel only)',
    method: 'item/commandExecution/requestApproval',
    params: (threadId, turnId, n) => ({ threadId, turnId, itemId: `call_${n}`, command: 'make deploy', cwd: '/w', availableDecisions: ['accept', 'cancel'] }),
    allowExtras: {},
    asks: true,
  },
  {
    name: 'fileChange',
    method: 'item/fileChange/requestApproval',
    params: (threadId, turnId, n) => ({ threadId, turnId, itemId: `patch_${n}`, reason: 'edit the notes' }),
    allowExtras: {},
    asks: true,
  },
  {
    name: 'permissions',
    method: 'item/permissions/requestApproval',
    params: (threadId, turnId, n) => ({
      threadId,
      turnId,
      itemId: `perm_${n}`,
      cwd: '/w',
      reason: 'need it',
      permissions: { network: null, fileSystem: { read: null, write: [`/data/shared-${n % 3}`] } },
    }),
    allowExtras: {},
    asks: true,
  },
  {
    name: 'permissions (a private place: answered at once)',
    method: 'item/permissions/requestApproval',
    params: (threadId, turnId, n) => ({
      threadId,
      turnId,
      itemId: `perm_${n}`,
      cwd: '/w',
      permissions: { network: null, fileSystem: { read: ['/w/home/.ssh'], write: null } },
    }),
    allowExtras: {},
    asks: false,
  },
  {
    name: 'execCommandApproval (legacy)',
    method: 'execCommandApproval',
    params: (threadId, _turnId, n) => ({ conversationId: threadId, callId: `exec_${n}`, command: ['ls', `-${n}`], cwd: '/w', reason: null, parsedCmd: [] }),
    allowExtras: {},
    asks: true,
  },
  {
    name: 'applyPatchApproval (legacy)',
    method: 'applyPatchApproval',
    params: (threadId, _turnId, n) => ({
      conversationId: threadId,
      callId: `patch_${n}`,
      fileChanges: { [`/w/f${n}.txt`]: { type: 'add', content: 'x' } },
      reason: null,
      grantRoot: null,
    }),
    allowExtras: {},
    asks: true,
  },
  {
    name: 'question',
    method: 'item/tool/requestUserInput',
    params: (threadId, turnId, n) => ({
      threadId,
      turnId,
      itemId: `q_${n}`,
      isBlocking: n % 2 === 0,
      autoResolutionMs: null,
      questions: [{ id: 'env', header: 'Env', question: 'Where?', isOther: false, isSecret: false, options: [{ label: 'staging', description: '' }] }],
    }),
    allowExtras: { answers: { env: ['staging'] } },
    asks: true,
  },
  ...['vault', 'evil'].map((server): Template => ({
    name: `elicitation (${server})`,
    method: 'mcpServer/elicitation/request',
    params: (threadId, turnId) => ({
      threadId,
      turnId,
      serverName: server,
      mode: 'form',
      _meta: null,
      message: 'Your name',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    }),
    allowExtras: { content: { name: 'Ada' } },
    asks: true,
  })),
  {
    name: 'unknown method',
    method: 'item/tool/somethingNew',
    params: (threadId, turnId) => ({ threadId, turnId }),
    allowExtras: {},
    asks: false,
  },
];

/** The surfaces a person answers from (the broker's `by`; `timeout` and `codex` are the broker's own). */
export const SURFACES: readonly AnswerSource[] = ['window', 'tray', 'notification', 'api', 'cli'];

/** Every answer a surface can send (a kind may not offer some: the broker refuses them `bad-answer`). */
export const ANSWERS: readonly ApprovalAnswer[] = ['allow', 'allowForSession', 'deny', 'cancel'];

/** The extras of one answer: the valid ones for its template, none, a typed reason, or always-wrong ones. */
export type ExtrasPick = 'valid' | 'none' | 'reason' | 'wrong';

/** `pick` made concrete for `template` and `answer`. */
export function extrasFor(template: Template, answer: ApprovalAnswer, pick: ExtrasPick): AnswerOptions {
  switch (pick) {
    case 'valid':
      return answer === 'allow' ? template.allowExtras : {};
    case 'none':
      return {};
    case 'reason':
      return { reason: '  not now  ' };
    case 'wrong':
      return { grant: { read: ['/etc'], write: ['/'], network: true }, answers: { nope: ['x'] } };
  }
}

/** One answer from one surface: to the `ref`-th request opened so far (modulo), maybe by a 5+ character id prefix. */
export interface AnswerOp {
  t: 'answer';
  ref: number;
  answer: ApprovalAnswer;
  by: AnswerSource;
  extras: ExtrasPick;
  prefix: boolean;
}

/** An answer arbitrary (`AnswerOp`), valid extras most often. */
export const answerOp: fc.Arbitrary<AnswerOp> = fc.record({
  t: fc.constant('answer' as const),
  ref: fc.nat({ max: 40 }),
  answer: fc.constantFrom(...ANSWERS),
  by: fc.constantFrom(...SURFACES),
  extras: fc.oneof({ weight: 6, arbitrary: fc.constant('valid' as const) }, fc.constantFrom('none' as const, 'reason' as const, 'wrong' as const)),
  prefix: fc.boolean(),
});
