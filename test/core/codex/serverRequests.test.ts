import { describe, expect, it } from 'vitest';
import { checkGrant, classifyServerRequest, fileSystemPathName, readRequestedAccess, type AskRequest } from '../../../src/main/core/codex/serverRequests';
import { AppFailure } from '../../../src/shared/result';

const ctx = { fileChanges: new Map([['call_8', [{ path: '/w/a.txt', kind: 'add', diff: '+hi\n' }]]]), onRequest: true };

function ask(method: string, params: unknown): AskRequest {
  const c = classifyServerRequest(method, params, ctx);
  if (c.type !== 'ask') throw new Error(`expected ask, got ${c.type}`);
  return c;
}

/** The AppFailure a call throws (fails the test when it does not throw one). */
function failureOf(f: () => unknown): AppFailure {
  try {
    f();
  } catch (e) {
    if (e instanceof AppFailure) return e;
    throw e;
  }
  throw new Error('expected an AppFailure');
}

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

  it('B04: availableDecisions [accept, decline, cancel] → no allowForSession, and every reply is a listed decision', () => {
    const available = ['accept', 'decline', 'cancel'];
    const c = ask('item/commandExecution/requestApproval', { threadId: 't', turnId: 'u', itemId: 'i', command: 'rm -rf build/', cwd: '/w', availableDecisions: available });
    expect(c.answers).toEqual(['allow', 'deny', 'cancel']);
    for (const a of c.answers) {
      const wire = c.toWire(a) as { decision: string };
      expect(Object.keys(wire)).toEqual(['decision']);
      expect(available).toContain(wire.decision);
    }
    const e = failureOf(() => c.toWire('allowForSession'));
    expect(e.app.code).toBe('bad-answer');
    expect(e.app.message).toBe('"allowForSession" was not offered for this request (offered: allow, deny, cancel)');
  });

  it('B04: without availableDecisions every v2 decision is offered; a grant never goes with a decision', () => {
    const c = ask('item/commandExecution/requestApproval', { threadId: 't', turnId: 'u', itemId: 'i', command: 'ls', cwd: '/w' });
    expect(c.answers).toEqual(['allow', 'allowForSession', 'deny', 'cancel']);
    expect(c.toWire('allowForSession')).toEqual({ decision: 'acceptForSession' });
    expect(failureOf(() => c.toWire('allow', { read: ['/x'], write: [], network: false })).app.code).toBe('bad-answer');
    const f = ask('item/fileChange/requestApproval', { threadId: 't', turnId: 'u', itemId: 'call_8' });
    expect(failureOf(() => f.toWire('allow', { read: [], write: ['/w/a.txt'], network: false })).app.code).toBe('bad-answer');
  });

  it('B03: Deny of a permissions request is exactly {"permissions":{}}; Allow echoes what was asked; never a decision', () => {
    // The field case's repro, verbatim.
    const msg = { id: 61, method: 'item/permissions/requestApproval', params: { threadId: 't', turnId: 'u', itemId: 'c', reason: 'need ~/shared', permissions: { fileSystem: { write: ['/Users/me/shared'] } } } };
    const c = ask(msg.method, msg.params);
    expect(c.kind).toBe('permissions');
    expect(c.requested).toEqual({ read: [], write: ['/Users/me/shared'], network: false });
    expect(c.answers).toEqual(['allow', 'allowForSession', 'deny']);
    expect(JSON.stringify({ id: msg.id, result: c.toWire('deny') })).toBe('{"id":61,"result":{"permissions":{}}}');
    expect(c.toWire('allow')).toEqual({ permissions: { fileSystem: { write: ['/Users/me/shared'] } }, scope: 'turn' });
    expect(c.toWire('allowForSession')).toEqual({ permissions: { fileSystem: { write: ['/Users/me/shared'] } }, scope: 'session' });
    for (const a of c.answers) expect(c.toWire(a)).not.toHaveProperty('decision');
    expect(failureOf(() => c.toWire('cancel')).app.code).toBe('bad-answer');
  });

  it('B03: the codex 0.169.0 shape (legacy arrays and entries): Allow echoes both, dropping a null network', () => {
    const permissions = { network: null, fileSystem: { read: null, write: ['/Users/me/shared'], entries: [{ path: { type: 'path', path: '/Users/me/shared' }, access: 'write' }] } };
    const c = ask('item/permissions/requestApproval', { threadId: 't', turnId: 'u', itemId: 'c', reason: 'need ~/shared', permissions });
    expect(c.requested).toEqual({ read: [], write: ['/Users/me/shared'], network: false });
    expect(c.toWire('deny')).toEqual({ permissions: {} });
    expect(c.toWire('allow')).toEqual({ permissions: { fileSystem: permissions.fileSystem }, scope: 'turn' });
  });

  it('B03: Allow with a grant echoes only the granted subset, in the shape Codex sent', () => {
    const entry = (path: string, access: string) => ({ path: { type: 'path', path }, access });
    const permissions = {
      network: { enabled: true },
      fileSystem: {
        read: ['/data/in'], write: ['/repo/a', '/repo/b'], globScanMaxDepth: 3,
        entries: [entry('/data/in', 'read'), entry('/repo/a', 'write'), entry('/repo/b', 'write'), entry('/repo/a/.secrets', 'deny')],
      },
    };
    const c = ask('item/permissions/requestApproval', { threadId: 't', turnId: 'u', itemId: 'c', reason: null, permissions });
    expect(c.requested).toEqual({ read: ['/data/in'], write: ['/repo/a', '/repo/b'], network: true });
    // One folder of two, no read, no network; the deny entry stays (it only takes access away).
    expect(c.toWire('allow', { read: [], write: ['/repo/a'], network: false })).toEqual({
      permissions: { fileSystem: { read: null, write: ['/repo/a'], globScanMaxDepth: 3, entries: [entry('/repo/a', 'write'), entry('/repo/a/.secrets', 'deny')] } },
      scope: 'turn',
    });
    // Network alone: no fileSystem at all.
    expect(c.toWire('allowForSession', { read: [], write: [], network: true })).toEqual({ permissions: { network: { enabled: true } }, scope: 'session' });
    // Everything, named one by one, equals Allow without a grant.
    expect(c.toWire('allow', { read: ['/data/in'], write: ['/repo/a', '/repo/b'], network: true })).toEqual(c.toWire('allow'));
  });

  it('B03: a grant beyond what was asked, an empty grant, or a grant with Deny is refused', () => {
    const c = ask('item/permissions/requestApproval', { threadId: 't', turnId: 'u', itemId: 'c', permissions: { fileSystem: { write: ['/Users/me/shared'] } } });
    const notAsked = failureOf(() => c.toWire('allow', { read: [], write: ['/Users/me/shared', '/etc'], network: false }));
    expect(notAsked.app.code).toBe('bad-answer');
    expect(notAsked.app.message).toBe('the grant goes beyond what was asked: write /etc was not requested (asked: write /Users/me/shared)');
    // Asked for writing ≠ asked for reading: a grant names each path with the access asked for.
    expect(failureOf(() => c.toWire('allow', { read: ['/Users/me/shared'], write: [], network: false })).app.message).toMatch(/read \/Users\/me\/shared was not requested/);
    expect(failureOf(() => c.toWire('allow', { read: [], write: ['/Users/me/shared'], network: true })).app.message).toMatch(/network was not requested/);
    expect(failureOf(() => c.toWire('allow', { read: [], write: [], network: false })).app.message).toMatch(/empty/);
    expect(failureOf(() => c.toWire('deny', { read: [], write: ['/Users/me/shared'], network: false })).app.message).toMatch(/only goes with Allow/);
  });

  it('reads entries with special paths and globs, and grants them by the same names', () => {
    const permissions = {
      network: null,
      fileSystem: {
        read: null, write: null,
        entries: [
          { path: { type: 'special', value: { kind: 'tmpdir' } }, access: 'write' },
          { path: { type: 'special', value: { kind: 'project_roots', subpath: 'docs' } }, access: 'read' },
          { path: { type: 'glob_pattern', pattern: '/logs/*.txt' }, access: 'read' },
        ],
      },
    };
    expect(readRequestedAccess(permissions)).toEqual({ read: [':project_roots/docs', '/logs/*.txt'], write: [':tmpdir'], network: false });
    const c = ask('item/permissions/requestApproval', { threadId: 't', turnId: 'u', itemId: 'c', permissions });
    expect(c.toWire('allow', { read: ['/logs/*.txt'], write: [], network: false })).toEqual({
      permissions: { fileSystem: { read: null, write: null, entries: [permissions.fileSystem.entries[2]] } },
      scope: 'turn',
    });
    expect(fileSystemPathName({ type: 'special', value: { kind: 'unknown', path: ':future', subpath: null } })).toBe(':future');
    expect(fileSystemPathName({ type: 'path' })).toBeNull();
  });

  it('checkGrant deduplicates and refuses a grant on a request that names nothing', () => {
    expect(checkGrant({ read: [], write: ['/a'], network: false }, { read: [], write: ['/a', '/a'], network: false })).toEqual({ read: [], write: ['/a'], network: false });
    expect(failureOf(() => checkGrant(null, { read: [], write: ['/a'], network: false })).app.code).toBe('bad-answer');
  });

  it('grants nothing at once in modes without approvals', () => {
    const c = classifyServerRequest('item/permissions/requestApproval', { permissions: { fileSystem: { write: ['/x'] } } }, { ...ctx, onRequest: false });
    expect(c).toMatchObject({ type: 'immediate', result: { permissions: {}, scope: 'turn' } });
  });

  it('shows the diff remembered from item/started for a file change', () => {
    const c = ask('item/fileChange/requestApproval', { threadId: 't', turnId: 'u', itemId: 'call_8', reason: null, grantRoot: null });
    expect(c.changes).toEqual([{ path: '/w/a.txt', kind: 'add', diff: '+hi\n' }]);
    expect(c.toWire('deny')).toEqual({ decision: 'decline' });
  });

  it('B02: user input → {answers:{}}, elicitation → {action:"decline",content:null,_meta:null}, both at once', () => {
    const input = classifyServerRequest('item/tool/requestUserInput', { threadId: 't', turnId: 'u', itemId: 'i', questions: [] }, ctx);
    expect(input.type).toBe('immediate');
    if (input.type === 'immediate') {
      expect(input.result).toEqual({ answers: {} });
      expect(input.notice).not.toBe('');
    }
    const elicit = classifyServerRequest('mcpServer/elicitation/request', { threadId: 't', serverName: 'docs' }, ctx);
    expect(elicit.type).toBe('immediate');
    if (elicit.type === 'immediate') {
      expect(elicit.result).toEqual({ action: 'decline', content: null, _meta: null });
      expect(elicit.notice).toContain('docs');
    }
  });

  it('B02: an unknown method is classified unknown (answered -32601 by the chat), never asked or dropped', () => {
    const c = classifyServerRequest('item/tool/somethingNew', { threadId: 't' }, ctx);
    expect(c).toEqual({ type: 'unknown', method: 'item/tool/somethingNew', notice: 'Codex sent a request Angelia does not know (item/tool/somethingNew); it was answered "unsupported".' });
  });

  it('maps legacy approvals to legacy decisions', () => {
    const c = ask('execCommandApproval', { conversationId: 't', callId: 'c', command: ['rm', '-rf', 'x'], cwd: '/w', reason: null, parsedCmd: [] });
    expect(c.command).toBe('rm -rf x');
    expect(c.toWire('allow')).toEqual({ decision: 'approved' });
    expect(c.toWire('deny')).toEqual({ decision: { denied: { rejection: 'Denied by the user in Angelia' } } });
    expect(c.toWire('cancel')).toEqual({ decision: 'abort' });
  });
});
