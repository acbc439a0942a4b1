/**
 * "A mode shown must be the mode in force": what a chat shows (header, list, tray, /status) while its
 * Codex runs comes from what its start was attested with; a table changed since is said plainly; a cold
 * chat shows what the accepted table applies at the next start, never an old attestation as if in force.
 */
import { describe, expect, it } from 'vitest';
import { approvalPolicyFor, deriveChatMode, type AttestedMode, type ProfileNow } from '../../../src/main/core/chats/mode';
import { chatModeLabel } from '../../../src/shared/modeLabel';
import { baseAnswers, completing, FakeConn, makeChat, notices } from './fakes';

const profile = (permissionMode: ProfileNow['permissionMode'], sandboxed: boolean): ProfileNow => ({
  permissionMode,
  sandboxed,
  approvalPolicy: approvalPolicyFor(permissionMode),
  fingerprint: JSON.stringify({ permissionMode, sandboxed }),
});
const attestedFrom = (p: ProfileNow, sandbox: AttestedMode['sandbox']): AttestedMode => ({
  permissionMode: p.permissionMode,
  approvalPolicy: p.approvalPolicy,
  sandbox,
  at: '2026-12-01T03:00:00.000Z',
  fingerprint: p.fingerprint,
});

describe('deriveChatMode', () => {
  it('running: shows what was attested, with no notice while the table still says the same', () => {
    const danger = profile('bypassPermissions', true);
    const mode = deriveChatMode({ running: true, attested: attestedFrom(danger, 'managed'), table: danger });
    expect(mode).toEqual({
      source: 'attested',
      permissionMode: 'bypassPermissions',
      approvalPolicy: 'never',
      sandbox: 'managed',
      attestedAt: '2026-12-01T03:00:00.000Z',
      tableChanged: null,
    });
    expect(chatModeLabel(mode)).toMatchObject({ text: 'managed sandbox', danger: false, source: 'attested' });
  });

  it('running + profile saved as plan: still the attested mode and approval, and "profile changed: restart this chat to apply"', () => {
    const started = attestedFrom(profile('bypassPermissions', true), 'managed');
    const mode = deriveChatMode({ running: true, attested: started, table: profile('plan', true) });
    expect(mode.source).toBe('attested');
    expect(mode.permissionMode).toBe('bypassPermissions');
    expect(mode.approvalPolicy).toBe('never');
    expect(mode.tableChanged).toBe('profile changed: restart this chat to apply (mode bypassPermissions → plan)');
    const toFull = deriveChatMode({ running: true, attested: started, table: profile('default', false) });
    expect(toFull.tableChanged).toBe(
      'profile changed: restart this chat to apply (mode bypassPermissions → default, approval never → on-request, sandbox managed → full access)',
    );
    expect(deriveChatMode({ running: true, attested: started, table: null }).tableChanged).toMatch(/^profile removed from the table/);
  });

  it('running + another field changed (same mode): still says the profile changed', () => {
    const before = profile('default', true);
    const after = { ...before, fingerprint: JSON.stringify({ before: before.fingerprint, addDirs: ['/x'] }) };
    expect(deriveChatMode({ running: true, attested: attestedFrom(before, 'managed'), table: after }).tableChanged).toBe(
      'profile changed: restart this chat to apply (other fields of the profile changed)',
    );
  });

  it('cold + sandbox off: FULL ACCESS at the next start in red, never the stale managed attestation', () => {
    const stale = attestedFrom(profile('default', true), 'managed');
    const mode = deriveChatMode({ running: false, attested: stale, table: profile('default', false) });
    expect(mode).toEqual({
      source: 'next-start',
      permissionMode: 'default',
      approvalPolicy: 'on-request',
      sandbox: 'disabled',
      attestedAt: null,
      tableChanged: null,
    });
    expect(chatModeLabel(mode)).toMatchObject({ text: 'FULL ACCESS — next start', danger: true, kind: 'disabled', source: 'next-start' });
    const sandboxed = deriveChatMode({ running: false, attested: stale, table: profile('plan', true) });
    expect(chatModeLabel(sandboxed)).toMatchObject({ text: 'not started', danger: false, source: 'next-start' });
    expect(chatModeLabel(sandboxed).title).toContain('mode plan · approval never');
  });
});

describe('Chat view and /status', () => {
  it('keep the attested mode while Codex runs, say when the profile changed, warn before full access, and Restart applies the table', async () => {
    let now = profile('default', false);
    const first = new FakeConn({ ...baseAnswers(), 'turn/start': completing() });
    // The approval policy shown is the one Codex reports on thread/resume (codex 0.169.0 `approvalPolicy`).
    const second = new FakeConn({
      ...baseAnswers(),
      'thread/resume': (p) => ({ thread: { id: p.threadId }, approvalsReviewer: 'user', sandbox: { type: 'dangerFullAccess' }, approvalPolicy: 'never' }),
      'turn/start': completing(),
    });
    const { chat } = await makeChat([first, second], {}, { profileNow: () => now });
    expect(chat.view().mode).toMatchObject({ source: 'next-start', sandbox: 'disabled', permissionMode: 'default' });

    chat.send('hello');
    await chat.idle();
    const items = chat.transcript.all();
    const warning = items.findIndex((i) => i.type === 'warning');
    expect(warning).toBeGreaterThanOrEqual(0);
    expect(items[warning]).toMatchObject({ text: expect.stringMatching(/^⚠ FULL ACCESS: the profile p has sandbox = false/) });
    // Pushed while Codex starts, before the thread starts and the message's turn runs.
    expect(warning).toBeLessThan(items.findIndex((i) => i.type === 'turnEnd'));
    expect(chat.view().mode).toMatchObject({
      source: 'attested',
      permissionMode: 'default',
      approvalPolicy: 'on-request',
      sandbox: 'disabled',
      tableChanged: null,
    });

    now = profile('plan', false);
    expect(chat.view().mode).toMatchObject({
      source: 'attested',
      permissionMode: 'default',
      approvalPolicy: 'on-request',
      tableChanged: 'profile changed: restart this chat to apply (mode default → plan, approval on-request → never)',
    });
    chat.send('/status');
    await chat.idle();
    const status = notices(chat.transcript.all()).at(-1) ?? '';
    expect(status).toContain('mode default, approval policy on-request, sandbox full access (as attested at');
    expect(status).toContain('profile changed: restart this chat to apply');

    expect(await chat.restart()).toBe(true);
    expect(first.stopped).toBe(true);
    expect(second.sent('thread/resume')).toHaveLength(1);
    expect(chat.view().mode).toMatchObject({ source: 'attested', permissionMode: 'plan', approvalPolicy: 'never', tableChanged: null });
    expect(notices(chat.transcript.all()).at(-1)).toMatch(/^Codex was restarted with the profile as the table has it now: mode plan, approval policy never/);
  });
});
