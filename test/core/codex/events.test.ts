/**
 * The notification decoder (codex/events.ts, codex 0.169.0 `ServerNotification`): a routed method with
 * readable params gives its typed event with the ids it carries; any other method an `unrouted` event,
 * counted per method; a routed method whose params fail its schema an `unrouted` event marked
 * malformed, counted and reported once per method.
 */
import { describe, expect, it } from 'vitest';
import { decodeNotification, EventDecoder, ROUTED_METHODS } from '../../../src/main/core/codex/events';

const T = 'thr-1';

describe('decodeNotification: a routed method gives its typed event', () => {
  const cases: Array<[string, unknown, unknown]> = [
    [
      'turn/started',
      { threadId: T, turn: { id: 'turn-1', status: 'inProgress' } },
      { method: 'turn/started', threadId: T, turnId: 'turn-1', params: { turn: { id: 'turn-1' } } },
    ],
    [
      'turn/completed',
      { threadId: T, turn: { id: 'turn-1', status: 'failed', error: { message: 'boom', codexErrorInfo: 'usageLimitExceeded' } } },
      {
        method: 'turn/completed',
        threadId: T,
        turnId: 'turn-1',
        params: { turn: { turnId: 'turn-1', status: 'failed', message: 'boom', errorInfo: 'usageLimitExceeded' } },
      },
    ],
    [
      'turn/completed',
      { threadId: T, turn: 'odd' },
      { method: 'turn/completed', threadId: T, turnId: null, params: { turn: { turnId: null, status: 'completed', message: null, errorInfo: null } } },
    ],
    [
      'item/completed',
      { threadId: T, turnId: 'turn-1', item: { type: 'agentMessage', id: 'm1', text: 'hi' } },
      { method: 'item/completed', threadId: T, turnId: 'turn-1', params: { item: { type: 'agentMessage', id: 'm1', text: 'hi' } } },
    ],
    [
      'item/started',
      { threadId: T, item: { type: 'userMessage', id: 'u1', content: [{ type: 'text', text: 'a' }, { type: 'image', url: 'x' }, 3] } },
      { method: 'item/started', threadId: T, turnId: null, params: { item: { type: 'userMessage', id: 'u1', text: 'a\n[image]' } } },
    ],
    [
      'item/started',
      {
        threadId: T,
        item: { type: 'fileChange', id: 'f1', changes: [{ path: '/w/a', kind: { type: 'add' }, diff: '+x' }, { kind: 'delete' }], status: 'inProgress' },
      },
      {
        method: 'item/started',
        threadId: T,
        turnId: null,
        params: {
          item: {
            type: 'fileChange',
            id: 'f1',
            status: 'inProgress',
            changes: [
              { path: '/w/a', kind: 'add', diff: '+x' },
              { path: '?', kind: 'delete', diff: '' },
            ],
          },
        },
      },
    ],
    [
      'item/completed',
      { threadId: T, item: { type: 'webSearch', id: 'w1' } },
      { method: 'item/completed', threadId: T, turnId: null, params: { item: { type: 'other', kind: 'webSearch', id: 'w1' } } },
    ],
    [
      'item/agentMessage/delta',
      { threadId: T, turnId: 'turn-1', itemId: 'm1', delta: 'he' },
      { method: 'item/agentMessage/delta', threadId: T, turnId: 'turn-1', params: { itemId: 'm1', delta: 'he' } },
    ],
    [
      'item/commandExecution/outputDelta',
      { threadId: T, itemId: 'c1', delta: 'out' },
      { method: 'item/commandExecution/outputDelta', threadId: T, turnId: null, params: { itemId: 'c1', delta: 'out' } },
    ],
    [
      'thread/status/changed',
      { threadId: T, status: { type: 'active', activeFlags: ['waitingOnApproval', 7] } },
      { method: 'thread/status/changed', threadId: T, turnId: null, params: { activeFlags: ['waitingOnApproval'] } },
    ],
    [
      'thread/status/changed',
      { threadId: T, status: { type: 'idle' } },
      { method: 'thread/status/changed', threadId: T, turnId: null, params: { activeFlags: [] } },
    ],
    [
      'error',
      { threadId: T, turnId: 'turn-1', willRetry: true, error: { message: 'overloaded' } },
      { method: 'error', threadId: T, turnId: 'turn-1', params: { willRetry: true, message: 'overloaded' } },
    ],
    ['error', { threadId: T, error: 'text' }, { method: 'error', threadId: T, turnId: null, params: { willRetry: false, message: null } }],
    [
      'mcpServer/startupStatus/updated',
      { name: 'docs', status: 'failed', error: 'no binary' },
      { method: 'mcpServer/startupStatus/updated', threadId: null, turnId: null, params: { name: 'docs', status: 'failed', error: 'no binary' } },
    ],
    ['serverRequest/resolved', { threadId: T, requestId: 4 }, { method: 'serverRequest/resolved', threadId: T, turnId: null, params: { requestId: 4 } }],
    [
      // As codex 0.169.0 sent it for the scripted model's rate-limit headers.
      'account/rateLimits/updated',
      {
        rateLimits: {
          limitId: 'codex',
          primary: { usedPercent: 42, windowDurationMins: 300, resetsAt: 1796164423 },
          secondary: { usedPercent: 8, windowDurationMins: 10080, resetsAt: null },
          credits: null,
          planType: null,
          rateLimitReachedType: null,
        },
      },
      {
        method: 'account/rateLimits/updated',
        threadId: null,
        turnId: null,
        params: {
          rateLimits: {
            primary: { usedPercent: 42, windowDurationMins: 300, resetsAt: 1796164423 },
            secondary: { usedPercent: 8, windowDurationMins: 10080, resetsAt: null },
            rateLimitReachedType: null,
          },
        },
      },
    ],
    [
      'account/rateLimits/updated',
      { rateLimits: { primary: null, secondary: 'odd', rateLimitReachedType: 'rate_limit_reached' } },
      {
        method: 'account/rateLimits/updated',
        threadId: null,
        turnId: null,
        params: { rateLimits: { primary: null, secondary: null, rateLimitReachedType: 'rate_limit_reached' } },
      },
    ],
    [
      'thread/tokenUsage/updated',
      {
        threadId: T,
        turnId: 'turn-1',
        tokenUsage: {
          total: { totalTokens: 220, inputTokens: 200, cachedInputTokens: 0, cacheWriteInputTokens: 0, outputTokens: 20, reasoningOutputTokens: 0 },
          last: { totalTokens: 110, inputTokens: 100, cachedInputTokens: 0, cacheWriteInputTokens: 0, outputTokens: 10, reasoningOutputTokens: 0 },
          modelContextWindow: 258400,
        },
      },
      {
        method: 'thread/tokenUsage/updated',
        threadId: T,
        turnId: 'turn-1',
        params: {
          tokenUsage: {
            total: { totalTokens: 220, inputTokens: 200, outputTokens: 20 },
            last: { totalTokens: 110, inputTokens: 100, outputTokens: 10 },
            modelContextWindow: 258400,
          },
        },
      },
    ],
    [
      'account/login/completed',
      { loginId: null, success: true, error: null, onboardingEntrypoint: null },
      { method: 'account/login/completed', threadId: null, turnId: null, params: { loginId: null, success: true, error: null } },
    ],
    [
      'account/login/completed',
      { loginId: 'l-1', success: false, error: 'Login server error: Login was not completed' },
      {
        method: 'account/login/completed',
        threadId: null,
        turnId: null,
        params: { loginId: 'l-1', success: false, error: 'Login server error: Login was not completed' },
      },
    ],
    [
      'account/updated',
      { authMode: 'apikey', planType: null },
      { method: 'account/updated', threadId: null, turnId: null, params: { authMode: 'apikey', planType: null } },
    ],
    [
      'turn/diff/updated',
      { threadId: T, turnId: 'turn-1', diff: 'diff --git a/a.txt b/a.txt\n' },
      { method: 'turn/diff/updated', threadId: T, turnId: 'turn-1', params: { diff: 'diff --git a/a.txt b/a.txt\n' } },
    ],
  ];
  it.each(cases)('%s %j', (method, params, event) => {
    expect(decodeNotification(method, params)).toEqual({ event, problem: null });
  });
});

describe('decodeNotification: an unrouted method', () => {
  it.each([['turn/plan/updated'], ['item/plan/delta'], ['codex/event/something_new']])('%s becomes an unrouted event carrying its ids', (method) => {
    expect(decodeNotification(method, { threadId: T, turnId: 'turn-1' })).toEqual({
      event: { method: 'unrouted', name: method, why: 'unrouted', threadId: T, turnId: 'turn-1' },
      problem: null,
    });
  });
});

describe('decodeNotification: a routed method with unreadable params', () => {
  const cases: Array<[string, unknown, RegExp]> = [
    ['turn/started', { threadId: T, turn: {} }, /turn\.id/],
    ['item/completed', { threadId: T, item: 'not an item' }, /item/],
    ['item/agentMessage/delta', { threadId: T, itemId: 'm1' }, /delta/],
    ['thread/status/changed', { threadId: T, status: 'active' }, /status/],
    ['turn/completed', null, /\(params\)/],
    ['account/rateLimits/updated', { rateLimits: null }, /rateLimits/],
    ['thread/tokenUsage/updated', { threadId: T, tokenUsage: { total: {}, last: {} } }, /tokenUsage\.total/],
    ['turn/diff/updated', { threadId: T, turnId: 'turn-1', diff: null }, /diff/],
  ];
  it.each(cases)('%s %j is malformed, named, and not routed', (method, params, field) => {
    const { event, problem } = decodeNotification(method, params);
    expect(event).toMatchObject({ method: 'unrouted', name: method, why: 'malformed' });
    expect(problem).toMatch(new RegExp(`^codex sent ${method.replace(/\//g, '\\/')} with params Angelia cannot read`));
    expect(problem).toMatch(field);
  });
});

describe('EventDecoder', () => {
  it('counts unrouted and malformed notifications per method and reports the first malformed one of each method', () => {
    const lines: string[] = [];
    const d = new EventDecoder((l) => lines.push(l));
    d.decode('turn/plan/updated', { threadId: T });
    d.decode('turn/plan/updated', { threadId: T });
    d.decode('item/plan/delta', { threadId: T });
    d.decode('item/agentMessage/delta', { threadId: T });
    d.decode('item/agentMessage/delta', { threadId: T });
    d.decode('turn/started', { threadId: T, turn: {} });
    expect(d.decode('turn/started', { threadId: T, turn: { id: 'x' } })).toMatchObject({ method: 'turn/started', turnId: 'x' });
    expect(d.counts()).toEqual({
      unrouted: { 'turn/plan/updated': 2, 'item/plan/delta': 1 },
      malformed: { 'item/agentMessage/delta': 2, 'turn/started': 1 },
    });
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/item\/agentMessage\/delta/);
    expect(lines[1]).toMatch(/turn\/started/);
  });

  it('routes exactly the allowlisted methods', () => {
    expect(new Set(ROUTED_METHODS).size).toBe(ROUTED_METHODS.length);
    for (const m of ROUTED_METHODS) expect(decodeNotification(m, {}).event).not.toMatchObject({ why: 'unrouted' });
  });
});
