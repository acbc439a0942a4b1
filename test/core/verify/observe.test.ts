import { describe, expect, it } from 'vitest';
import type { Probe } from '../../../src/main/core/verify/matrix';
import { CONTROL_MARK, observe, probeCommand, SCAN_DONE, scanVerdict, type RawRun } from '../../../src/main/core/verify/observe';

const probe = (op: Probe['op'], over: Partial<Probe> = {}): Probe => ({ name: 'p', path: '/d/f', op, expected: 'denied', mustExist: true, ...over });
const run = (over: Partial<RawRun> = {}): RawRun => ({ code: 1, stdout: '', stderr: '', timedOut: false, ...over });

describe('probeCommand', () => {
  it('builds each command, never destroying what it writes to', () => {
    expect(probeCommand(probe('read'), 'file', '.w', 'node')).toEqual(['cat', '/d/f']);
    expect(probeCommand(probe('read'), 'dir', '.w', 'node')).toEqual(['ls', '-A', '/d/f']);
    expect(probeCommand(probe('read-sh'), 'file', '.w', 'node')).toEqual(['sh', '-c', 'cat "$1"', 'sh', '/d/f']);
    expect(probeCommand(probe('read-link', { via: '/cwd/l' }), 'file', '.w', 'node')).toEqual(['cat', '/cwd/l']);
    expect(probeCommand(probe('write'), 'dir', '.w', 'node')).toEqual(['sh', '-c', 'printf angelia-verify > "$1"', 'sh', '/d/f/.w']);
    expect(probeCommand(probe('write'), 'file', '.w', 'node')).toEqual(['sh', '-c', ': >> "$1"', 'sh', '/d/f']);
    expect(probeCommand(probe('connect', { path: '127.0.0.1:99' }), 'other', '.w', 'node').slice(-2)).toEqual(['127.0.0.1', '99']);
    expect(probeCommand(probe('connect', { path: '/s.sock' }), 'other', '.w', 'node').at(-1)).toBe('/s.sock');
  });
});

describe('observe: denied only on an access error; anything else that fails is an error', () => {
  it('reads', () => {
    expect(observe(probe('read'), 'file', run({ stderr: 'cat: /d/f: Permission denied\n' }))).toEqual({
      outcome: 'denied',
      observed: 'denied: Permission denied',
    });
    expect(observe(probe('read'), 'file', run({ code: 0, stdout: 'SECRET' }))).toEqual({ outcome: 'allowed', observed: 'allowed: 6 bytes read' });
    expect(observe(probe('read'), 'dir', run({ code: 0, stdout: 'a\nb\n' })).observed).toBe('allowed: 2 entries listed');
    expect(observe(probe('read'), 'file', run({ code: 127, stderr: 'sh: cat: not found' }))).toEqual({
      outcome: 'error',
      observed: 'error: exit 127: sh: cat: not found',
    });
    expect(observe(probe('read'), 'file', run({ timedOut: true, code: null }))).toEqual({ outcome: 'error', observed: 'error: timed out' });
    // A path that exists on the host but not in the sandbox was hidden: denied. The sandbox failing to
    // start (bwrap's own message, e.g. racing a concurrent run) is an error, whatever it says.
    expect(observe(probe('read'), 'dir', run({ code: 2, stderr: "ls: cannot access '/d/f': No such file or directory" }))).toEqual({
      outcome: 'denied',
      observed: 'denied: No such file or directory',
    });
    expect(observe(probe('read'), 'file', run({ stderr: "bwrap: Can't find source path /d/x: No such file or directory" })).outcome).toBe('error');
    expect(observe(probe('read'), 'file', run({ stderr: 'Error: Permission denied (os error 13)' })).outcome).toBe('error');
  });

  it('never shows what was read', () => {
    expect(JSON.stringify(observe(probe('read-sh'), 'file', run({ code: 0, stdout: 'TOKEN-123' })))).not.toContain('TOKEN-123');
  });

  it('writes', () => {
    expect(observe(probe('write'), 'dir', run({ code: 2, stderr: 'sh: 1: cannot create /d/f/.w: Read-only file system' }), false)).toEqual({
      outcome: 'denied',
      observed: 'denied: Read-only file system',
    });
    expect(observe(probe('write'), 'dir', run({ code: 0 }), true)).toEqual({ outcome: 'allowed', observed: 'allowed: written' });
    expect(observe(probe('write'), 'dir', run({ code: 0 }), false).outcome).toBe('error');
    expect(observe(probe('write'), 'dir', run({ code: 1, stderr: 'x' }), true).outcome).toBe('allowed');
  });

  it('connects', () => {
    expect(observe(probe('connect'), 'other', run({ code: 3, stdout: 'ERR EPERM\n' }))).toEqual({ outcome: 'denied', observed: 'denied: not reached (EPERM)' });
    expect(observe(probe('connect'), 'other', run({ code: 0, stdout: 'CONNECTED\n' })).outcome).toBe('allowed');
    expect(observe(probe('connect'), 'other', run({ code: 126, stderr: 'sh: node: Permission denied' })).outcome).toBe('error');
  });

  it('the control must print its mark', () => {
    expect(observe(probe('run'), 'dir', run({ code: 0, stdout: `${CONTROL_MARK}\n` })).outcome).toBe('allowed');
    expect(observe(probe('run'), 'dir', run({ code: 1, stderr: 'bwrap: No permissions to create new namespace' })).outcome).toBe('error');
  });
});

describe('the HOME scan: nothing readable but the grants', () => {
  const spec = { grants: ['/h/ws/coder', '/h/.local/bin'], denies: ['/h/.ssh', '/h/.angelia/private'], carveOuts: ['/h/.codex/tmp'] };
  const scan = probe('scan', { path: '/h', expected: 'denied', scan: spec });

  it('runs a script that leaves out each grant, and names every other path by kind, never its contents', () => {
    const cmd = probeCommand(scan, 'dir', '.w', 'node');
    expect(cmd.slice(0, 2)).toEqual(['sh', '-c']);
    expect(cmd.slice(3)).toEqual(['sh', '/h', '-path', '/h/ws/coder', '-o', '-path', '/h/.local/bin']);
    expect(cmd[2]).toContain(SCAN_DONE);
    expect(probeCommand(probe('scan', { path: '/h', scan: { ...spec, grants: ['/elsewhere'] } }), 'dir', '.w', 'node').slice(3)).toEqual([
      'sh',
      '/h',
      '-false',
    ]);
  });

  it('passes for grants, the folders on the way to them, empty deny mount points and Codex helper links', () => {
    const out = [
      'D /h/ws',
      'D /h/.local',
      'd /h/.ssh',
      'f /h/.angelia/private',
      'D /h/.angelia',
      'L /h/.codex/tmp/arg0/apply_patch',
      'D /h/.codex',
      SCAN_DONE,
    ].join('\n');
    expect(observe(scan, 'dir', run({ code: 0, stdout: out }))).toEqual({
      outcome: 'denied',
      observed: 'denied: nothing but the grants (0 granted, 4 folders on the way, 2 empty deny mount points, 1 Codex helper links)',
    });
    expect(scanVerdict(out, spec).seen.find((s) => s.path === '/h/.codex')).toMatchObject({ as: 'way' });
  });

  it('fails on anything else a command can see, a readable file in a deny mount point included; a scan cut short is an error', () => {
    const out = ['D /h/.gemini', 'F /h/.gemini/oauth_creds.json', 'f /h/.bash_history', 'F /h/.ssh/id_rsa', SCAN_DONE].join('\n');
    expect(scanVerdict(out, spec).notGranted).toEqual(['/h/.gemini', '/h/.gemini/oauth_creds.json', '/h/.bash_history', '/h/.ssh/id_rsa']);
    expect(observe(scan, 'dir', run({ code: 0, stdout: out }))).toEqual({
      outcome: 'allowed',
      observed: 'allowed: 4 not granted: /h/.gemini, /h/.gemini/oauth_creds.json, /h/.bash_history, …',
    });
    expect(observe(scan, 'dir', run({ code: 1, stdout: 'D /h/ws\n' })).outcome).toBe('error');
  });

  it('a write to a folder that does not exist in the sandbox (dash: "Directory nonexistent") is denied', () => {
    expect(observe(probe('write', { path: '/tmp' }), 'dir', run({ code: 2, stderr: 'sh: 1: cannot create /tmp/.w: Directory nonexistent' }), false)).toEqual({
      outcome: 'denied',
      observed: 'denied: Directory nonexistent',
    });
  });
});
