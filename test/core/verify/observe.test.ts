import { describe, expect, it } from 'vitest';
import type { Probe } from '../../../src/main/core/verify/matrix';
import { CONTROL_MARK, observe, probeCommand, type RawRun } from '../../../src/main/core/verify/observe';

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
    expect(observe(probe('read'), 'file', run({ stderr: 'cat: /d/f: Permission denied\n' }))).toEqual({ outcome: 'denied', observed: 'denied: Permission denied' });
    expect(observe(probe('read'), 'file', run({ code: 0, stdout: 'SECRET' }))).toEqual({ outcome: 'allowed', observed: 'allowed: 6 bytes read' });
    expect(observe(probe('read'), 'dir', run({ code: 0, stdout: 'a\nb\n' })).observed).toBe('allowed: 2 entries listed');
    expect(observe(probe('read'), 'file', run({ code: 127, stderr: 'sh: cat: not found' }))).toEqual({ outcome: 'error', observed: 'error: exit 127: sh: cat: not found' });
    expect(observe(probe('read'), 'file', run({ timedOut: true, code: null }))).toEqual({ outcome: 'error', observed: 'error: timed out' });
    // A path that exists on the host but not in the sandbox was hidden: denied. The sandbox failing to
    // start (bwrap's own message, e.g. racing a concurrent run) is an error, whatever it says.
    expect(observe(probe('read'), 'dir', run({ code: 2, stderr: "ls: cannot access '/d/f': No such file or directory" }))).toEqual({ outcome: 'denied', observed: 'denied: No such file or directory' });
    expect(observe(probe('read'), 'file', run({ stderr: "bwrap: Can't find source path /d/x: No such file or directory" })).outcome).toBe('error');
    expect(observe(probe('read'), 'file', run({ stderr: 'Error: Permission denied (os error 13)' })).outcome).toBe('error');
  });

  it('never shows what was read', () => {
    expect(JSON.stringify(observe(probe('read-sh'), 'file', run({ code: 0, stdout: 'TOKEN-123' })))).not.toContain('TOKEN-123');
  });

  it('writes', () => {
    expect(observe(probe('write'), 'dir', run({ code: 2, stderr: 'sh: 1: cannot create /d/f/.w: Read-only file system' }), false)).toEqual({ outcome: 'denied', observed: 'denied: Read-only file system' });
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
