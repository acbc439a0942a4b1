/**
 * codex/session.ts `rolloutUnavailable`: Codex's answers to `thread/resume` for a thread whose record is
 * missing or cannot be read, as measured on codex 0.171.0 (a rollout truncated to 0 bytes, one of garbage
 * lines, one whose first line is not JSON, one without its session metadata), and failures that are not about
 * the record.
 */
import { describe, expect, it } from 'vitest';
import { rolloutUnavailable } from '../../../src/main/core/codex/session';

const F = '/s/codex-home/sessions/2026/12/02/rollout-2026-12-02T03-10-16-01a234bb.jsonl';
const meta = `failed to read thread: thread-store internal error: failed to read session metadata ${F}: thread-store internal error: failed to read session metadata ${F}`;

describe('rolloutUnavailable', () => {
  it.each([
    ['0 bytes, or only unparsable lines', `${meta}: rollout at ${F} is empty`, { kind: 'unreadable', why: `rollout at ${F} is empty` }],
    [
      'a first line that is not JSON',
      `error resuming thread: Fatal error: Failed to initialize session: thread-store internal error: failed to resume local thread recorder: failed to parse first rollout record at ${F}: expected value at line 1 column 1`,
      { kind: 'unreadable', why: `failed to parse first rollout record at ${F}` },
    ],
    [
      'no session metadata first',
      `${meta}: rollout at ${F} does not start with session metadata`,
      { kind: 'unreadable', why: `rollout at ${F} does not start with session metadata` },
    ],
    ['missing (0.169.0 and later)', 'no rollout found for thread id 01a234bb-3f34-7cc0-b755-85a6508e3b93', { kind: 'missing' }],
    ['the thread open elsewhere', 'thread 01a234bb already has an active writer', null],
    [
      'a fork behind its rollout',
      'failed to prepare paginated fork: thread-store internal error: thread history projection for x is behind durable rollout',
      null,
    ],
    ['a timeout', 'codex app-server (pid 7) did not answer thread/resume within 120000 ms.', null],
  ])('%s', (_name, message, expected) => {
    expect(rolloutUnavailable(message)).toEqual(expected);
  });
});
