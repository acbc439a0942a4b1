import { describe, expect, it } from 'vitest';
import { ResponseError } from 'vscode-jsonrpc/node';
import { DEFAULT_RETRY, isOverloaded, retryDelayMs } from '../../../src/main/core/codex/retry';

describe('overload retry', () => {
  it('recognises -32001 by its code whatever the message or data', () => {
    expect(isOverloaded(new ResponseError(-32001, 'Server overloaded; retry later.'))).toBe(true);
    expect(isOverloaded(new ResponseError(-32001, 'other text', { codex_error_info: null }))).toBe(true);
    expect(isOverloaded(new ResponseError(-32600, 'Server overloaded; retry later.'))).toBe(false);
    expect(isOverloaded(new Error('-32001'))).toBe(false);
  });

  it('doubles the delay per try, capped, jittered between half and all of it', () => {
    const policy = { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 500 };
    expect([1, 2, 3, 4].map((a) => retryDelayMs(a, policy, () => 0))).toEqual([50, 100, 200, 250]);
    expect([1, 2, 3, 4].map((a) => retryDelayMs(a, policy, () => 0.999999))).toEqual([100, 200, 400, 500]);
  });
});
