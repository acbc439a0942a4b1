import { describe, expect, it } from 'vitest';
import { classifyStderr, exitCause, stderrCause } from '../../../src/main/core/codex/stderrClass';

// Lines as codex-cli 0.169.0 printed them on Linux (ANSI colours removed, as StderrRing.tail does).
const PATH_ALIAS =
  'WARNING: proceeding, even though we could not create PATH aliases: Refusing to create helper binaries under temporary dir "/tmp" (codex_home: AbsolutePathBuf("/tmp/exp/ch"))';
const NO_BWRAP =
  '2026-11-30T19:26:47.284641Z ERROR codex_app_server: Codex could not find bubblewrap on PATH. Install bubblewrap with your OS package manager.';
const REMOTE_WARN =
  '2026-11-30T19:26:47.287989Z  WARN codex_app_server_transport::transport::remote_control::websocket: app-server remote control websocket loop stopped before client name was ready';
const INFO = '2026-11-30T19:26:47.314963Z  INFO fs.read_file{sandboxed=false}: codex_exec_server::local_file_system: new';
const BACKTRACE = ['', 'Stack backtrace:', '   0: <unknown>', '   1: <unknown>', '   2: <unknown>'];

describe('the cause of a Codex exit, read from its stderr', () => {
  it('is the fatal Error line, not the warnings and bubblewrap notices before it nor the backtrace after it', () => {
    const text = [PATH_ALIAS, NO_BWRAP, 'Error: config defines `[permissions]` profiles but does not set `default_permissions`', ...BACKTRACE].join('\n');
    expect(stderrCause(text)).toBe('Error: config defines `[permissions]` profiles but does not set `default_permissions`');
  });

  it('keeps the line that continues the Error line', () => {
    const text = [PATH_ALIAS, 'Error: invalid type: integer `42`, expected a string', 'in `model_reasoning_effort`', '', '', ...BACKTRACE].join('\n');
    expect(stderrCause(text)).toBe('Error: invalid type: integer `42`, expected a string\nin `model_reasoning_effort`');
  });

  it('keeps a "Caused by:" block of an anyhow error, but not the backtrace', () => {
    const text = ['Error: failed to start the thread', '', 'Caused by:', '    permission denied', ...BACKTRACE].join('\n');
    expect(stderrCause(text)).toBe('Error: failed to start the thread\nCaused by:\npermission denied');
  });

  it('names a Rust panic with its message', () => {
    const text = [
      REMOTE_WARN,
      "thread 'tokio-runtime-worker' panicked at core/src/codex.rs:12:5:",
      'index out of bounds',
      'note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace',
    ].join('\n');
    expect(stderrCause(text)).toBe("thread 'tokio-runtime-worker' panicked at core/src/codex.rs:12:5:\nindex out of bounds");
  });

  it('without an Error line, is the last plain line', () => {
    expect(stderrCause([INFO, 'fatal: simulated crash', REMOTE_WARN].join('\n'))).toBe('fatal: simulated crash');
  });

  it('without any plain line, is the last ERROR log line that is no bubblewrap notice', () => {
    const lost = '2026-11-30T19:27:00.000000Z ERROR codex_core::rollout: failed to write rollout: disk full';
    expect(stderrCause([NO_BWRAP, lost, REMOTE_WARN].join('\n'))).toBe(lost);
  });

  it('is nothing when stderr only holds warnings, info logs and bubblewrap notices', () => {
    expect(stderrCause([PATH_ALIAS, NO_BWRAP, REMOTE_WARN, INFO, "bwrap: Can't mount proc on /newroot/proc: Operation not permitted"].join('\n'))).toBeNull();
    expect(stderrCause('')).toBeNull();
  });

  it('classifies each kind of line', () => {
    expect(classifyStderr([PATH_ALIAS, NO_BWRAP, REMOTE_WARN, INFO, 'Error: x', ...BACKTRACE, 'plain\r'].join('\n')).map((l) => l.kind)).toEqual([
      'warning',
      'sandbox',
      'warning',
      'log',
      'fatal',
      'backtrace',
      'backtrace',
      'backtrace',
      'backtrace',
      'other',
    ]);
  });

  it('prefers the cause the launcher computed from the whole stderr over the short tail', () => {
    expect(exitCause({ stderrTail: '   7: <unknown>', cause: 'Error: from the whole stderr' })).toBe('Error: from the whole stderr');
    expect(exitCause({ stderrTail: 'Error: only in the tail' })).toBe('Error: only in the tail');
  });
});
