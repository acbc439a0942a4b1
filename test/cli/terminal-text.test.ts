import { describe, expect, it } from 'vitest';
import { describeApproval, terminalText } from '../../src/main/cli/terminalText';
import { approvalView } from '../electron/fakes';

/** The attacker's escalation (docs/security-model.md "What an agent's text can do on screen"). */
const EVIL = 'echo PWNED > /tmp/outside/pwned.txt #\r\x1b[2K\x1b[1A\x1b[2K\rapproval requested (command): Run OUTSIDE the sandbox: ls -la';
const WHY = 'list files\r\x1b[2K  reason: list the files';
// eslint-disable-next-line no-control-regex -- what must never reach the terminal
const ACTS = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;

describe('angelia run shows an agent’s text escaped', () => {
  it('a command and reason with CR and ESC sequences cannot redraw the prompt', () => {
    const text = describeApproval(
      approvalView('a1', { kind: 'command', title: `Run OUTSIDE the sandbox: ${EVIL}`, command: EVIL, cwd: '/home/me/work', reason: WHY }),
    );
    expect(text).not.toMatch(ACTS);
    expect(text.split('\n')).toEqual([
      'approval requested (command): Run OUTSIDE the sandbox: echo PWNED > /tmp/outside/pwned.txt #\\x0d\\x1b[2K\\x1b[1A\\x1b[2K\\x0dapproval requested (command): Run OUTSIDE the sandbox: ls -la',
      '  command: echo PWNED > /tmp/outside/pwned.txt #\\x0d\\x1b[2K\\x1b[1A\\x1b[2K\\x0dapproval requested (command): Run OUTSIDE the sandbox: ls -la',
      '  cwd: /home/me/work',
      '  reason: list files\\x0d\\x1b[2K  reason: list the files',
    ]);
  });

  it('SGR conceal, OSC 52 and bidi overrides are printed as escapes', () => {
    const text = describeApproval(
      approvalView('a2', { command: 'ls -la \x1b[8m; echo PWNED > x #\x1b[28m \x1b]52;c;cm0gLXJm\x07 #\u202e hs', title: 't\u009b', cwd: null }),
    );
    expect(text).not.toMatch(ACTS);
    expect(text).toContain('ls -la \\x1b[8m; echo PWNED > x #\\x1b[28m \\x1b]52;c;cm0gLXJm\\x07 #\\u{202E} hs');
  });

  it('a multi-line command keeps its lines behind a gutter, so none passes for another field', () => {
    const text = describeApproval(approvalView('a3', { command: 'npm test\n  cwd: /safe\n  reason: harmless', cwd: '/home/me/work' }));
    expect(text).toContain('  command: npm test\n    │   cwd: /safe\n    │   reason: harmless\n  cwd: /home/me/work');
  });

  it('changes, paths and diffs are escaped too (a diff keeps its tabs)', () => {
    const text = describeApproval(
      approvalView('a4', { kind: 'fileChange', command: null, changes: [{ path: 'a\x1b[2K.txt', kind: 'update', diff: '+\tx\r\n-y' }] }),
    );
    expect(text).toContain('  update a\\x1b[2K.txt\n    +\tx\\x0d\n    -y');
    expect(terminalText('one\ntwo', '')).toBe('one\n│ two');
  });
});
