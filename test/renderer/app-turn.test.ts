/**
 * App turns in the transcript (src/renderer/src/features/chat/describe.ts `groupAppTurns`,
 * `appTurnLine`): a turn given with the API's `reply: "caller"` is folded into one row, from its user
 * item to its turn end; a steer or a deny reason inside it stays in it; a turn that never told its end
 * is closed by the next turn's user item; every other item is a row of its own.
 */
import { describe, expect, it } from 'vitest';
import type { ChatItem } from '../../src/shared/contract';
import { appTurnLine, groupAppTurns } from '../../src/renderer/src/features/chat/describe';

const user = (id: string, text: string, extra: Partial<Extract<ChatItem, { type: 'user' }>> = {}): ChatItem => ({
  type: 'user',
  id,
  text,
  via: 'turn',
  ...extra,
});
const agent = (id: string, text: string): ChatItem => ({ type: 'agent', id, text, done: true });
const end = (id: string, status: 'completed' | 'failed' | 'interrupted' = 'completed'): ChatItem => ({ type: 'turnEnd', id, status, reason: null });

describe('groupAppTurns', () => {
  it('folds an app turn from its user item to its turn end, and leaves the others one row each', () => {
    const items = [
      user('u1', 'hi'),
      agent('a1', 'hello'),
      end('e1'),
      user('u2', 'status?', { app: true, apiTurn: 'T' }),
      agent('a2', 'fine'),
      user('s2', 'more', { via: 'steer' }),
      end('e2'),
      agent('late', 'x'),
    ];
    const rows = groupAppTurns(items);
    expect(rows.map((r) => r.id)).toEqual(['u1', 'a1', 'e1', 'app-u2', 'late']);
    const app = rows[3]!;
    expect(app.kind === 'app' && app.items.map((i) => i.id)).toEqual(['a2', 's2', 'e2']);
    expect(app.kind === 'app' && app.end?.id).toBe('e2');
    expect(app.kind === 'app' && appTurnLine(app)).toEqual({ asked: 'status?', status: 'answered' });
  });

  it('an app turn still running has no end; one the next turn cut off ends there', () => {
    const running = groupAppTurns([user('u1', 'first line\nsecond', { app: true }), agent('a1', '…')]);
    expect(running).toHaveLength(1);
    expect(running[0]!.kind === 'app' && appTurnLine(running[0]!)).toEqual({ asked: 'first line', status: 'running' });
    const cut = groupAppTurns([user('u1', 'a', { app: true }), agent('a1', 'x'), user('u2', 'b'), end('e2', 'failed')]);
    expect(cut.map((r) => r.id)).toEqual(['app-u1', 'u2', 'e2']);
  });

  it('says failed and stopped, and shortens a long request to 80 characters', () => {
    const failed = groupAppTurns([user('u', 'x'.repeat(100), { app: true }), end('e', 'failed')])[0]!;
    expect(failed.kind === 'app' && appTurnLine(failed)).toEqual({ asked: `${'x'.repeat(79)}…`, status: 'failed' });
    const stopped = groupAppTurns([user('u', 'y', { app: true }), end('e', 'interrupted')])[0]!;
    expect(stopped.kind === 'app' && appTurnLine(stopped).status).toBe('stopped');
  });
});
