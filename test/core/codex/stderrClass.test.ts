import { describe, expect, it } from 'vitest';
import { classifyStderr, exitCause, stderrCause } from '../../../src/main/core/codex/stderrClass';
import { crashDetail } from '../../../src/main/core/chats/process';

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

// Start-up lines as codex 0.171.0 printed them on Linux in a folder with a `.codex/` of its own (ANSI colours removed).
const TRUST = [
  '2026-12-02T03:19:14.768650Z ERROR codex_app_server: Project-local config, hooks, and exec policies are disabled in the following folders until the project is trusted, but skills still load.',
  '    1. /w/work/.codex',
  '       To load project-local config, hooks, and exec policies, add /w as a trusted project in /w/codex-home/config.toml.',
  '',
];
const NO_BWRAP_171 =
  '2026-12-02T03:19:14.769993Z ERROR codex_app_server: Codex could not find bubblewrap on PATH. Install bubblewrap with your OS package manager. See the sandbox prerequisites: https://developers.openai.com/codex/concepts/sandboxing#prerequisites. Codex will use the bundled bubblewrap in the meantime.';
const PLUGINS_WARN =
  "2026-12-02T03:19:15.068475Z  WARN codex_core_plugins::startup_sync: git sync failed for curated plugin sync; falling back to GitHub HTTP error=git ls-remote curated plugins repo failed with status exit status: 128: fatal: unable to access 'https://github.com/openai/plugins.git/': Could not resolve host: github.com";

describe('routine start-up lines of codex 0.171.0 are never a cause', () => {
  it.each([
    ['the trust notice and its indented continuation lines, alone', TRUST, null],
    ['the start-up notices of every start', [...TRUST, NO_BWRAP_171, PLUGINS_WARN], null],
    [
      'an ERROR log line after them',
      [...TRUST, NO_BWRAP_171, '2026-12-02T03:19:20.000000Z ERROR codex_core::rollout: failed to write rollout: disk full'],
      '2026-12-02T03:19:20.000000Z ERROR codex_core::rollout: failed to write rollout: disk full',
    ],
    ['an Error: line after them', [...TRUST, PLUGINS_WARN, 'Error: failed to load the thread store', ...BACKTRACE], 'Error: failed to load the thread store'],
    ['a panic after them', [...TRUST, "thread 'main' panicked at core/src/x.rs:1:1:", 'boom'], "thread 'main' panicked at core/src/x.rs:1:1:\nboom"],
    ['nothing at all', [], null],
  ])('%s', (_name, lines, cause) => {
    expect(stderrCause(lines.join('\n'))).toBe(cause);
  });

  it('a crash after a start in such a folder shows no detail: the exit code alone', () => {
    const tail = [...TRUST, NO_BWRAP_171, PLUGINS_WARN].join('\n');
    expect(crashDetail({ code: 1, signal: null, stderrTail: tail, cause: stderrCause(tail) })).toBeNull();
  });

  it('classifies the indented lines as the continuation of their log line', () => {
    expect(classifyStderr(TRUST.join('\n')).map((l) => [l.kind, l.level, l.continuation ?? false])).toEqual([
      ['notice', 'ERROR', false],
      ['notice', 'ERROR', true],
      ['notice', 'ERROR', true],
    ]);
    // A `Caused by:` block under an Error line stays the Error's own.
    expect(classifyStderr(['Error: x', 'Caused by:', '    permission denied'].join('\n')).map((l) => l.kind)).toEqual(['fatal', 'other', 'other']);
  });
});
