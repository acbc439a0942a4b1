import { mkdir, rename, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeTestDir, removeTestDir } from '../instance/testDir';
import { EARLIER_GRANT_WHY, SLASH_TMP_WHY, grantFloor, grantedPlaces, type WritablePlace } from '../../../src/main/core/approvals/privateReach';
import { checkGrant, classifyServerRequest, fileSystemPathName, readRequestedAccess, type AskRequest } from '../../../src/main/core/codex/serverRequests';
import { AppFailure } from '../../../src/shared/result';

/** A profile `coder` in `/h/.angelia/workspace/profiles/coder`, with another profile's folder denied. */
const floor = grantFloor({
  stateDir: '/h/.angelia',
  home: '/h',
  codexHome: '/h/codex-home',
  cwd: '/h/.angelia/workspace/profiles/coder',
  platform: 'linux',
  filesystem: { '/h/.angelia/workspace/profiles/writer': 'deny', '/h/.angelia/workspace/profiles/coder/.codex': 'read' },
  sources: {
    '/h/.angelia/workspace/profiles/writer': "profile writer's folder",
    '/h/.angelia/workspace/profiles/coder/.codex': 'launch file (Codex project config, hooks and rules)',
  },
});
const ctx = { fileChanges: new Map([['call_8', [{ path: '/w/a.txt', kind: 'add', diff: '+hi\n' }]]]), onRequest: true, floor };

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
  it('offers only the decisions Codex lists, plus a plain Deny', () => {
    const c = classifyServerRequest(
      'item/commandExecution/requestApproval',
      {
        threadId: 't',
        turnId: 'u',
        itemId: 'i',
        command: "/bin/bash -lc 'touch /x'",
        cwd: '/w',
        reason: 'need it',
        availableDecisions: ['accept', { acceptWithExecpolicyAmendment: { execpolicy_amendment: ['touch'] } }, 'cancel'],
      },
      ctx,
    );
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

  it('availableDecisions [accept, decline, cancel] → no allowForSession, and every reply is a listed decision', () => {
    const available = ['accept', 'decline', 'cancel'];
    const c = ask('item/commandExecution/requestApproval', {
      threadId: 't',
      turnId: 'u',
      itemId: 'i',
      command: 'rm -rf build/',
      cwd: '/w',
      availableDecisions: available,
    });
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

  it('without availableDecisions every v2 decision is offered; a grant never goes with a decision', () => {
    const c = ask('item/commandExecution/requestApproval', { threadId: 't', turnId: 'u', itemId: 'i', command: 'ls', cwd: '/w' });
    expect(c.answers).toEqual(['allow', 'allowForSession', 'deny', 'cancel']);
    expect(c.toWire('allowForSession')).toEqual({ decision: 'acceptForSession' });
    expect(failureOf(() => c.toWire('allow', { grant: { read: ['/x'], write: [], network: false } })).app.code).toBe('bad-answer');
    const f = ask('item/fileChange/requestApproval', { threadId: 't', turnId: 'u', itemId: 'call_8' });
    expect(failureOf(() => f.toWire('allow', { grant: { read: [], write: ['/w/a.txt'], network: false } })).app.code).toBe('bad-answer');
  });

  it('Deny of a permissions request is exactly {"permissions":{}}; Allow echoes what was asked; never a decision', () => {
    // A permissions request as a client saw it (new-style `fileSystem.write`, no entries), verbatim.
    const msg = {
      id: 61,
      method: 'item/permissions/requestApproval',
      params: { threadId: 't', turnId: 'u', itemId: 'c', reason: 'need ~/shared', permissions: { fileSystem: { write: ['/Users/me/shared'] } } },
    };
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

  it('the codex 0.169.0 shape (legacy arrays and entries): Allow echoes both, dropping a null network', () => {
    const permissions = {
      network: null,
      fileSystem: { read: null, write: ['/Users/me/shared'], entries: [{ path: { type: 'path', path: '/Users/me/shared' }, access: 'write' }] },
    };
    const c = ask('item/permissions/requestApproval', { threadId: 't', turnId: 'u', itemId: 'c', reason: 'need ~/shared', permissions });
    expect(c.requested).toEqual({ read: [], write: ['/Users/me/shared'], network: false });
    expect(c.toWire('deny')).toEqual({ permissions: {} });
    expect(c.toWire('allow')).toEqual({ permissions: { fileSystem: permissions.fileSystem }, scope: 'turn' });
  });

  it('Allow with a grant echoes only the granted subset, in the shape Codex sent', () => {
    const entry = (path: string, access: string) => ({ path: { type: 'path', path }, access });
    const permissions = {
      network: { enabled: true },
      fileSystem: {
        read: ['/data/in'],
        write: ['/repo/a', '/repo/b'],
        globScanMaxDepth: 3,
        entries: [entry('/data/in', 'read'), entry('/repo/a', 'write'), entry('/repo/b', 'write'), entry('/repo/a/.secrets', 'deny')],
      },
    };
    const c = ask('item/permissions/requestApproval', { threadId: 't', turnId: 'u', itemId: 'c', reason: null, permissions });
    expect(c.requested).toEqual({ read: ['/data/in'], write: ['/repo/a', '/repo/b'], network: true });
    // One folder of two, no read, no network; the deny entry stays (it only takes access away).
    expect(c.toWire('allow', { grant: { read: [], write: ['/repo/a'], network: false } })).toEqual({
      permissions: {
        fileSystem: { read: null, write: ['/repo/a'], globScanMaxDepth: 3, entries: [entry('/repo/a', 'write'), entry('/repo/a/.secrets', 'deny')] },
      },
      scope: 'turn',
    });
    // Network alone: no fileSystem at all.
    expect(c.toWire('allowForSession', { grant: { read: [], write: [], network: true } })).toEqual({
      permissions: { network: { enabled: true } },
      scope: 'session',
    });
    // Everything, named one by one, equals Allow without a grant.
    expect(c.toWire('allow', { grant: { read: ['/data/in'], write: ['/repo/a', '/repo/b'], network: true } })).toEqual(c.toWire('allow'));
  });

  it('a grant beyond what was asked, an empty grant, or a grant with Deny is refused', () => {
    const c = ask('item/permissions/requestApproval', {
      threadId: 't',
      turnId: 'u',
      itemId: 'c',
      permissions: { fileSystem: { write: ['/Users/me/shared'] } },
    });
    const notAsked = failureOf(() => c.toWire('allow', { grant: { read: [], write: ['/Users/me/shared', '/etc'], network: false } }));
    expect(notAsked.app.code).toBe('bad-answer');
    expect(notAsked.app.message).toBe('the grant goes beyond what was asked: write /etc was not requested (asked: write /Users/me/shared)');
    // Asked for writing ≠ asked for reading: a grant names each path with the access asked for.
    expect(failureOf(() => c.toWire('allow', { grant: { read: ['/Users/me/shared'], write: [], network: false } })).app.message).toMatch(
      /read \/Users\/me\/shared was not requested/,
    );
    expect(failureOf(() => c.toWire('allow', { grant: { read: [], write: ['/Users/me/shared'], network: true } })).app.message).toMatch(
      /network was not requested/,
    );
    expect(failureOf(() => c.toWire('allow', { grant: { read: [], write: [], network: false } })).app.message).toMatch(/empty/);
    expect(failureOf(() => c.toWire('deny', { grant: { read: [], write: ['/Users/me/shared'], network: false } })).app.message).toMatch(/only goes with Allow/);
  });

  it('reads entries with special paths and globs, and grants them by the same names', () => {
    const permissions = {
      network: null,
      fileSystem: {
        read: null,
        write: null,
        entries: [
          { path: { type: 'special', value: { kind: 'tmpdir' } }, access: 'write' },
          { path: { type: 'special', value: { kind: 'project_roots', subpath: 'docs' } }, access: 'read' },
          { path: { type: 'glob_pattern', pattern: '/logs/*.txt' }, access: 'read' },
        ],
      },
    };
    expect(readRequestedAccess(permissions)).toEqual({ read: [':project_roots/docs', '/logs/*.txt'], write: [':tmpdir'], network: false });
    const c = ask('item/permissions/requestApproval', { threadId: 't', turnId: 'u', itemId: 'c', permissions });
    expect(c.toWire('allow', { grant: { read: ['/logs/*.txt'], write: [], network: false } })).toEqual({
      permissions: { fileSystem: { read: null, write: null, entries: [permissions.fileSystem.entries[2]] } },
      scope: 'turn',
    });
    expect(fileSystemPathName({ type: 'special', value: { kind: 'unknown', path: ':future', subpath: null } })).toBe(':future');
    expect(fileSystemPathName({ type: 'path' })).toBeNull();
  });

  it('checkGrant deduplicates and refuses a grant on a request that names nothing', () => {
    expect(checkGrant({ read: [], write: ['/a'], network: false }, { read: [], write: ['/a', '/a'], network: false })).toEqual({
      read: [],
      write: ['/a'],
      network: false,
    });
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

  it('user input → {answers:{}}, elicitation → {action:"decline",content:null,_meta:null}, both at once', () => {
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

  it('an unknown method is classified unknown (answered -32601 by the chat), never asked or dropped', () => {
    const c = classifyServerRequest('item/tool/somethingNew', { threadId: 't' }, ctx);
    expect(c).toEqual({
      type: 'unknown',
      method: 'item/tool/somethingNew',
      notice: 'Codex sent a request Angelia does not know (item/tool/somethingNew); it was answered "unsupported".',
    });
  });

  it('maps legacy approvals to legacy decisions', () => {
    const c = ask('execCommandApproval', { conversationId: 't', callId: 'c', command: ['rm', '-rf', 'x'], cwd: '/w', reason: null, parsedCmd: [] });
    expect(c.command).toBe('rm -rf x');
    expect(c.toWire('allow')).toEqual({ decision: 'approved' });
    expect(c.toWire('deny')).toEqual({ decision: { denied: { rejection: 'Denied by the user in Angelia' } } });
    expect(c.toWire('cancel')).toEqual({ decision: 'abort' });
  });
});

describe('paths no grant may open (approvals/privateReach.ts)', () => {
  const entry = (path: string, access: string) => ({ path: { type: 'path', path }, access });
  /** A codex 0.169.0 request for `read` and `write` paths, legacy arrays and entries both. */
  const request = (read: string[], write: string[]) => ({
    threadId: 't',
    turnId: 'u',
    itemId: 'c',
    cwd: '/h/.angelia/workspace/profiles/coder',
    reason: 'need it',
    permissions: {
      network: null,
      fileSystem: {
        read: read.length ? read : null,
        write: write.length ? write : null,
        entries: [...read.map((p) => entry(p, 'read')), ...write.map((p) => entry(p, 'write'))],
      },
    },
  });

  it("offers only the rest: the state folder and another profile's folder are refused, shown, and never echoed", () => {
    const c = ask('item/permissions/requestApproval', request(['/h/.angelia', '/data/in'], ['/h/.angelia/workspace/profiles/writer/x', '/repo/out']));
    expect(c.requested).toEqual({ read: ['/data/in'], write: ['/repo/out'], network: false });
    expect(c.refused).toEqual([
      { access: 'write', path: '/h/.angelia/workspace/profiles/writer/x', why: "profile writer's folder" },
      { access: 'read', path: '/h/.angelia', why: "Angelia's private state" },
    ]);
    expect(c.title).toBe('More access: write /repo/out; read /data/in — never granted: write /h/.angelia/workspace/profiles/writer/x, read /h/.angelia');
    expect(c.answers).toEqual(['allow', 'allowForSession', 'deny']);
    // Allow without a grant grants everything grantable: the refused paths leave both the arrays and the entries.
    for (const [a, scope] of [
      ['allow', 'turn'],
      ['allowForSession', 'session'],
    ] as const) {
      expect(c.toWire(a)).toEqual({
        permissions: { fileSystem: { read: ['/data/in'], write: ['/repo/out'], entries: [entry('/data/in', 'read'), entry('/repo/out', 'write')] } },
        scope,
      });
    }
    expect(JSON.stringify(c.toWire('allow'))).not.toContain('.angelia');
    expect(c.toWire('deny')).toEqual({ permissions: {} });
  });

  it('an explicit grant that names a refused path is refused (bad-answer), from whatever surface it comes', () => {
    const c = ask('item/permissions/requestApproval', request(['/h/.angelia/api.token', '/data/in'], []));
    const f = failureOf(() => c.toWire('allow', { grant: { read: ['/h/.angelia/api.token', '/data/in'], write: [], network: false } }));
    expect(f.app.code).toBe('bad-answer');
    expect(f.app.message).toBe(
      "read /h/.angelia/api.token (never granted: Angelia's private state): Angelia never grants it, whoever answers: grant only the other paths, or Deny",
    );
    expect(c.toWire('allow', { grant: { read: ['/data/in'], write: [], network: false } })).toMatchObject({
      permissions: { fileSystem: { read: ['/data/in'] } },
    });
  });

  it('checkGrant refuses a private path even when it is (wrongly) listed as asked, given the floor', () => {
    const asked = { read: ['/h/codex-home/skills'], write: ['/h/.ssh/keys'], network: false };
    const f = failureOf(() => checkGrant(asked, asked, { floor }));
    expect(f.app.code).toBe('bad-answer');
    expect(f.app.message).toMatch(/^write \/h\/\.ssh\/keys \(never granted: credential location\); read \/h\/codex-home\/skills \(never granted: Codex's home/);
    expect(
      failureOf(() => checkGrant(asked, { read: [], write: ['/h/.angelia/workspace/profiles/coder/.codex/hooks.json'], network: false }, { floor })).app
        .message,
    ).toMatch(/kept read-only: launch file/);
  });

  it('asks for nothing else → answered at once with an empty grant, the agent told why', () => {
    const c = classifyServerRequest('item/permissions/requestApproval', request(['/h/.angelia/sessions.json'], ['/', '~/.codex']), ctx);
    expect(c).toMatchObject({
      type: 'immediate',
      kind: 'permissions',
      result: { permissions: {}, scope: 'turn' },
      refused: [
        { access: 'write', path: '/', why: "it holds /h/.angelia (Angelia's private state)" },
        { access: 'write', path: '~/.codex', why: "Codex's home (every profile's login, threads and settings)" },
        { access: 'read', path: '/h/.angelia/sessions.json', why: "Angelia's private state" },
      ],
    });
    if (c.type !== 'immediate') throw new Error('expected immediate');
    expect(c.notice).toMatch(
      /^The agent asked for write \/ \(never granted: it holds .*Angelia never grants that, whoever answers, so it refused the request without asking you\.$/,
    );
    expect(c.agentNote).toMatch(
      /^Angelia refused your request for more access without asking the user: .*read \/h\/\.angelia\/sessions\.json \(never granted: Angelia's private state\)/,
    );
  });

  it('network alone is never refused; a request with network and a private path offers network only', () => {
    const c = ask('item/permissions/requestApproval', {
      threadId: 't',
      turnId: 'u',
      itemId: 'c',
      permissions: { network: { enabled: true }, fileSystem: { read: ['/h/.angelia'], write: null } },
    });
    expect(c.requested).toEqual({ read: [], write: [], network: true });
    expect(c.toWire('allow')).toEqual({ permissions: { network: { enabled: true } }, scope: 'turn' });
  });

  it('without a floor nothing can be checked, so every path is refused (fail closed)', () => {
    const c = classifyServerRequest('item/permissions/requestApproval', request([], ['/repo/out']), { fileChanges: new Map(), onRequest: true });
    expect(c).toMatchObject({
      type: 'immediate',
      refused: [{ access: 'write', path: '/repo/out', why: "Angelia cannot check it against the profile's floor (no launch plan)" }],
    });
  });

  it('a command whose additional permissions name a private path is declined at once (a decision cannot grant part)', () => {
    const c = classifyServerRequest(
      'item/commandExecution/requestApproval',
      {
        threadId: 't',
        turnId: 'u',
        itemId: 'i',
        command: 'cat ~/.codex/auth.json',
        cwd: '/h/.angelia/workspace/profiles/coder',
        availableDecisions: ['accept', 'cancel'],
        additionalPermissions: { network: null, fileSystem: { read: ['/h/.codex'], write: null, entries: [entry('/h/.codex', 'read')] } },
      },
      ctx,
    );
    expect(c).toMatchObject({ type: 'immediate', kind: 'command', result: { decision: 'decline' }, refused: [{ access: 'read', path: '/h/.codex' }] });
    if (c.type !== 'immediate') throw new Error('expected immediate');
    expect(c.notice).toContain('cat ~/.codex/auth.json');
    expect(c.agentNote).toMatch(/^Angelia declined your command without asking the user/);
  });

  it('an escalation (no additional permissions) is asked as before, whatever its command names', () => {
    const c = ask('item/commandExecution/requestApproval', {
      threadId: 't',
      turnId: 'u',
      itemId: 'i',
      command: 'cat /h/.angelia/api.token',
      cwd: '/w',
      availableDecisions: ['accept', 'cancel'],
    });
    expect(c).toMatchObject({
      kind: 'command',
      title: 'Run OUTSIDE the sandbox: cat /h/.angelia/api.token',
      refused: [],
      answers: ['allow', 'deny', 'cancel'],
    });
  });
});

// A granted path is resolved again by Codex at each later command, so a path the agent can replace
// with a symbolic link after the answer is never granted (approvals/privateReach.ts).
describe('paths the agent could swap for a symbolic link', () => {
  const CWD = '/h/.angelia/workspace/profiles/coder';
  const entry = (path: string, access: string) => ({ path: { type: 'path', path }, access });
  const request = (read: string[], write: string[]) => ({
    threadId: 't',
    turnId: 'u',
    itemId: 'c',
    cwd: CWD,
    reason: 'need it',
    permissions: {
      network: null,
      fileSystem: {
        read: read.length ? read : null,
        write: write.length ? write : null,
        entries: [...read.map((p) => entry(p, 'read')), ...write.map((p) => entry(p, 'write'))],
      },
    },
  });
  const already = (place: string, why: string): string => `already writable, not granted again: it lies in ${place} (${why})`;

  it("a write in the agent's own folder (the cache-dir exploit) is answered at once with an empty grant, shown as already writable", () => {
    const c = classifyServerRequest('item/permissions/requestApproval', request([], [`${CWD}/cache-dir`]), ctx);
    expect(c).toMatchObject({
      type: 'immediate',
      kind: 'permissions',
      result: { permissions: {}, scope: 'turn' },
      refused: [{ access: 'write', path: `${CWD}/cache-dir`, why: already(CWD, "the profile's folder"), already: true }],
    });
    if (c.type !== 'immediate') throw new Error('expected immediate');
    expect(c.notice).toBe(
      `The agent asked for write ${CWD}/cache-dir (${already(CWD, "the profile's folder")}). It can already write there, so Angelia answered with an empty grant without asking you (a grant on a place the agent can change could be redirected with a symbolic link).`,
    );
    expect(c.agentNote).toMatch(
      /^Angelia answered your request for more access with an empty grant without asking the user: .*You can already write there: use those paths directly, without asking for them\.$/,
    );
    // A relative name and :project_roots land in the same folder.
    expect(classifyServerRequest('item/permissions/requestApproval', request(['notes', ':project_roots/src'], []), ctx)).toMatchObject({
      type: 'immediate',
      refused: [{ already: true }, { already: true }],
    });
  });

  it('asked with an outside folder: the card offers the outside folder only, the own path is listed as already writable and never echoed', () => {
    const c = ask('item/permissions/requestApproval', request([], ['/repo/out', `${CWD}/notes`]));
    expect(c.requested).toEqual({ read: [], write: ['/repo/out'], network: false });
    expect(c.refused).toEqual([{ access: 'write', path: `${CWD}/notes`, why: already(CWD, "the profile's folder"), already: true }]);
    expect(c.title).toBe(`More access: write /repo/out — already writable: write ${CWD}/notes`);
    expect(c.toWire('allowForSession')).toEqual({
      permissions: { fileSystem: { read: null, write: ['/repo/out'], entries: [entry('/repo/out', 'write')] } },
      scope: 'session',
    });
    expect(JSON.stringify(c.toWire('allow'))).not.toContain(CWD);
    expect(failureOf(() => c.toWire('allow', { grant: { read: [], write: [`${CWD}/notes`], network: false } })).app.message).toMatch(
      /^write .*\/notes \(already writable, not granted again: /,
    );
  });

  it('a path in /tmp is refused as never granted (other programs write there)', () => {
    const c = classifyServerRequest('item/permissions/requestApproval', request(['/tmp/build/log'], []), ctx);
    expect(c).toMatchObject({
      type: 'immediate',
      refused: [{ access: 'read', path: '/tmp/build/log', why: `it lies in /tmp (${SLASH_TMP_WHY}), where a symbolic link could redirect the grant` }],
    });
    if (c.type !== 'immediate') throw new Error('expected immediate');
    expect(c.notice).toMatch(/Angelia never grants that, whoever answers/);
  });

  it("a path under the chat's earlier write grant is refused while the grant lasts, and checked again when the answer comes", () => {
    const granted: WritablePlace[] = [];
    const live = { ...ctx, granted: () => granted };
    // Asked before anything was granted: grantable.
    const pending = classifyServerRequest('item/permissions/requestApproval', request(['/repo/out/sub'], []), live);
    if (pending.type !== 'ask') throw new Error('expected ask');
    // Meanwhile another request was allowed for the session: write /repo/out.
    granted.push(...grantedPlaces({ read: [], write: ['/repo/out'], network: false }, floor));
    expect(granted).toEqual([{ path: '/repo/out', why: EARLIER_GRANT_WHY, own: true }]);
    const f = failureOf(() => pending.toWire('allow'));
    expect(f.app.code).toBe('bad-answer');
    expect(f.app.message).toBe(
      `read /repo/out/sub (${already('/repo/out', EARLIER_GRANT_WHY)}): Angelia never grants it, whoever answers: grant only the other paths, or Deny`,
    );
    expect(pending.toWire('deny')).toEqual({ permissions: {} });
    // A new request under it is refused at once; a folder beside it is still asked.
    expect(classifyServerRequest('item/permissions/requestApproval', request(['/repo/out/sub'], []), live)).toMatchObject({
      type: 'immediate',
      refused: [{ already: true }],
    });
    expect(classifyServerRequest('item/permissions/requestApproval', request(['/repo/other'], []), live)).toMatchObject({
      type: 'ask',
      requested: { read: ['/repo/other'] },
    });
  });

  it('a path that became a symbolic link between the request and the answer is refused at the answer', async () => {
    const root = await makeTestDir('grant-link');
    try {
      const data = join(root, 'data');
      await mkdir(join(root, 'elsewhere'), { recursive: true });
      await mkdir(data);
      const c = ask('item/permissions/requestApproval', request([data], []));
      expect(c.requested).toEqual({ read: [data], write: [], network: false });
      await rename(data, join(root, 'data-old'));
      await symlink(join(root, 'elsewhere'), data);
      const f = failureOf(() => c.toWire('allowForSession'));
      expect(f.app.code).toBe('bad-answer');
      expect(f.app.message).toBe(
        `read ${data} (never granted: ${data} is a symbolic link: where it leads can change after the answer): Angelia never grants it, whoever answers: grant only the other paths, or Deny`,
      );
      expect(c.toWire('deny')).toEqual({ permissions: {} });
    } finally {
      await removeTestDir(root);
    }
  });

  it("a command whose additional permissions name the agent's own folder is declined at once, the agent told to run it without them", () => {
    const c = classifyServerRequest(
      'item/commandExecution/requestApproval',
      {
        threadId: 't',
        turnId: 'u',
        itemId: 'i',
        command: 'make',
        cwd: CWD,
        availableDecisions: ['accept', 'cancel'],
        additionalPermissions: { network: null, fileSystem: { read: null, write: [`${CWD}/build`], entries: [entry(`${CWD}/build`, 'write')] } },
      },
      ctx,
    );
    expect(c).toMatchObject({
      type: 'immediate',
      kind: 'command',
      result: { decision: 'decline' },
      refused: [{ access: 'write', path: `${CWD}/build`, already: true }],
    });
    if (c.type !== 'immediate') throw new Error('expected immediate');
    expect(c.notice).toMatch(/It can already write there, so Angelia declined the command without asking you/);
    expect(c.agentNote).toMatch(/You can already write there: run the command without additional permissions\.$/);
  });
});
