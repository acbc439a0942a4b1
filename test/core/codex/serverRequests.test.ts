import { describe, expect, it } from 'vitest';
import { classifyServerRequest } from '../../../src/main/core/codex/serverRequests';

const ctx = { fileChanges: new Map([['call_8', [{ path: '/w/a.txt', kind: 'add', diff: '+hi\n' }]]]), onRequest: true };

describe('server requests', () => {
  it('offers only the decisions Codex lists, plus a plain Deny (B04)', () => {
    const c = classifyServerRequest('item/commandExecution/requestApproval', {
      threadId: 't', turnId: 'u', itemId: 'i', command: "/bin/bash -lc 'touch /x'", cwd: '/w', reason: 'need it',
      availableDecisions: ['accept', { acceptWithExecpolicyAmendment: { execpolicy_amendment: ['touch'] } }, 'cancel'],
    }, ctx);
    expect(c.type).toBe('ask');
    if (c.type !== 'ask') return;
    expect(c.answers).toEqual(['allow', 'deny', 'cancel']);
    expect(c.answers).not.toContain('allowForSession');
    expect(c.toWire('deny')).toEqual({ decision: 'decline' });
    expect(c.command).toBe("/bin/bash -lc 'touch /x'");
    expect(c.title).toBe("Run OUTSIDE the sandbox: /bin/bash -lc 'touch /x'");
    expect(c.toWire('allow')).toEqual({ decision: 'accept' });
    expect(c.toWire('cancel')).toEqual({ decision: 'cancel' });
  });

  it('answers a permissions request with a grant or an empty grant, never a decision (B03)', () => {
    const permissions = { network: null, fileSystem: { read: null, write: ['/Users/me/shared'], entries: [{ path: { type: 'path', path: '/Users/me/shared' }, access: 'write' }] } };
    const c = classifyServerRequest('item/permissions/requestApproval', { threadId: 't', turnId: 'u', itemId: 'c', reason: 'need ~/shared', permissions }, ctx);
    if (c.type !== 'ask') throw new Error('expected ask');
    expect(c.requested).toEqual({ read: [], write: ['/Users/me/shared'], network: false });
    expect(c.answers).not.toContain('cancel');
    expect(c.toWire('deny')).toEqual({ permissions: {}, scope: 'turn' });
    expect(c.toWire('allow')).toEqual({ permissions: { fileSystem: permissions.fileSystem }, scope: 'turn' });
    expect(c.toWire('allowForSession')).toMatchObject({ scope: 'session' });
  });

  it('grants nothing at once in modes without approvals', () => {
    const c = classifyServerRequest('item/permissions/requestApproval', { permissions: { fileSystem: { write: ['/x'] } } }, { ...ctx, onRequest: false });
    expect(c).toMatchObject({ type: 'immediate', result: { permissions: {}, scope: 'turn' } });
  });

  it('shows the diff remembered from item/started for a file change', () => {
    const c = classifyServerRequest('item/fileChange/requestApproval', { threadId: 't', turnId: 'u', itemId: 'call_8', reason: null, grantRoot: null }, ctx);
    if (c.type !== 'ask') throw new Error('expected ask');
    expect(c.changes).toEqual([{ path: '/w/a.txt', kind: 'add', diff: '+hi\n' }]);
    expect(c.toWire('deny')).toEqual({ decision: 'decline' });
  });

  it('answers the schema-correct refusal for user input and elicitation (B02)', () => {
    expect(classifyServerRequest('item/tool/requestUserInput', {}, ctx)).toMatchObject({ type: 'immediate', result: { answers: {} } });
    expect(classifyServerRequest('mcpServer/elicitation/request', {}, ctx)).toMatchObject({ type: 'immediate', result: { action: 'decline', content: null, _meta: null } });
  });

  it('classifies an unknown method as unknown (answered -32601 by the chat)', () => {
    expect(classifyServerRequest('item/tool/somethingNew', {}, ctx)).toMatchObject({ type: 'unknown', method: 'item/tool/somethingNew' });
  });

  it('maps legacy approvals to legacy decisions', () => {
    const c = classifyServerRequest('execCommandApproval', { conversationId: 't', callId: 'c', command: ['rm', '-rf', 'x'], cwd: '/w', reason: null, parsedCmd: [] }, ctx);
    if (c.type !== 'ask') throw new Error('expected ask');
    expect(c.command).toBe('rm -rf x');
    expect(c.toWire('allow')).toEqual({ decision: 'approved' });
    expect(c.toWire('deny')).toEqual({ decision: { denied: { rejection: 'Denied by the user in Angelia' } } });
  });
});
