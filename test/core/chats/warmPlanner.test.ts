import { describe, expect, it } from 'vitest';
import { planWarm, warmAtStart, type WarmChat, type WarmInput } from '../../../src/main/core/chats/warm/planner';

const cold = (id: string, lastUsed: number | null = null, extra: Partial<WarmChat> = {}): WarmChat => ({
  id,
  lastUsed,
  warm: false,
  busy: false,
  startable: true,
  generation: null,
  rssMb: null,
  ...extra,
});
const warmed = (id: string, lastUsed: number, extra: Partial<WarmChat> = {}): WarmChat =>
  cold(id, lastUsed, { warm: true, generation: 1, rssMb: 150, ...extra });
const input = (chats: WarmChat[], want: string[], extra: Partial<WarmInput> = {}): WarmInput => ({
  chats,
  want,
  budget: { agents: 3, memoryMb: 1024 },
  generation: 1,
  estimateMb: 200,
  ...extra,
});

describe('planWarm', () => {
  const cases: { name: string; in: WarmInput; out: ReturnType<typeof planWarm> }[] = [
    { name: 'a chat opened is started', in: input([cold('a'), cold('b')], ['a']), out: { start: ['a'], stop: [], restart: [] } },
    {
      name: 'a warm agent already running is left alone',
      in: input([warmed('a', 5)], ['a']),
      out: { start: [], stop: [], restart: [] },
    },
    {
      name: 'over the count: the least recently used warm agent is stopped first',
      in: input([warmed('a', 1), warmed('b', 3), warmed('c', 2), cold('d')], ['d']),
      out: { start: ['d'], stop: ['a'], restart: [] },
    },
    {
      name: 'two over: the two least recently used go, oldest first',
      in: input([warmed('a', 2), warmed('b', 1), warmed('c', 3), cold('d'), cold('e')], ['d', 'e'], { budget: { agents: 3, memoryMb: 5000 } }),
      out: { start: ['d', 'e'], stop: ['b', 'a'], restart: [] },
    },
    {
      name: 'budget 0: nothing starts, every warm agent stops',
      in: input([warmed('a', 1), cold('b')], ['b'], { budget: { agents: 0, memoryMb: 1024 } }),
      out: { start: [], stop: ['a'], restart: [] },
    },
    {
      name: 'memory ceiling 0 is off too',
      in: input([cold('b')], ['b'], { budget: { agents: 3, memoryMb: 0 } }),
      out: { start: [], stop: [], restart: [] },
    },
    {
      name: 'memory: a new agent counts the estimate; it is not started when it would not fit',
      in: input([cold('b')], ['b'], { budget: { agents: 3, memoryMb: 150 } }),
      out: { start: [], stop: [], restart: [] },
    },
    {
      name: 'memory: the wanted chat wins over the least recently used warm agent',
      in: input([warmed('a', 1, { rssMb: 600 }), warmed('c', 2, { rssMb: 300 }), cold('b')], ['b']),
      out: { start: ['b'], stop: ['a'], restart: [] },
    },
    {
      name: 'a busy chat is never started nor stopped, and does not count',
      in: input([cold('a', 9, { busy: true, rssMb: 900 }), cold('b')], ['a', 'b']),
      out: { start: ['b'], stop: [], restart: [] },
    },
    {
      name: 'a chat that cannot start (refused) is not started',
      in: input([cold('a', null, { startable: false })], ['a']),
      out: { start: [], stop: [], restart: [] },
    },
    {
      name: 'a stale warm agent kept is started again; one not kept is stopped',
      in: input([warmed('a', 5, { generation: 1 }), warmed('b', 1, { generation: 1 })], [], { generation: 2, budget: { agents: 1, memoryMb: 1024 } }),
      out: { start: [], stop: ['b'], restart: ['a'] },
    },
    {
      name: 'nothing wanted, within budget: nothing happens',
      in: input([warmed('a', 1), warmed('b', 2)], []),
      out: { start: [], stop: [], restart: [] },
    },
    {
      name: 'unknown and repeated ids in want are ignored',
      in: input([cold('a')], ['x', 'a', 'a']),
      out: { start: ['a'], stop: [], restart: [] },
    },
  ];
  for (const c of cases) it(c.name, () => expect(planWarm(c.in)).toEqual(c.out));
});

describe('warmAtStart', () => {
  it('takes the chats with a past session, most recently used first, up to the count', () => {
    const chats = [
      { id: 'a', lastUsed: 1 },
      { id: 'b', lastUsed: null },
      { id: 'c', lastUsed: 3 },
      { id: 'd', lastUsed: 2 },
    ];
    expect(warmAtStart(chats, { agents: 2, memoryMb: 1024 })).toEqual(['c', 'd']);
  });
  it('is off when either budget is 0', () => {
    expect(warmAtStart([{ id: 'a', lastUsed: 1 }], { agents: 0, memoryMb: 1024 })).toEqual([]);
    expect(warmAtStart([{ id: 'a', lastUsed: 1 }], { agents: 2, memoryMb: 0 })).toEqual([]);
  });
});
