/**
 * The turn machine (core/chats/turn/machine.ts) as a table: rows of a state and an input, and the state
 * and effects expected. Pure: no chat, no Codex, no timers.
 */
import { describe, expect, it } from 'vitest';
import {
  busyFor,
  initialTurnState,
  step,
  type Current,
  type TurnEffect,
  type TurnInput,
  type TurnState,
  type Work,
} from '../../../src/main/core/chats/turn/machine';
import { MAX_QUEUE, noticeText } from '../../../src/main/core/chats/notices';

const msg = (text: string): Work => ({ kind: 'message', text });
const cur = (over: Partial<Current> = {}): Current => ({
  seq: 1,
  work: msg('hello'),
  era: 0,
  phase: 'starting',
  interruptSent: false,
  graceArmed: false,
  ...over,
});
const st = (over: Partial<TurnState> = {}): TurnState => ({ ...initialTurnState, seq: 1, ...over });
const full = Array.from({ length: MAX_QUEUE - 1 }, (_, i) => msg(`m${i}`));

interface Row {
  name: string;
  state: TurnState;
  input: TurnInput;
  expect: { state: Partial<TurnState>; effects: TurnEffect[]; result?: boolean };
}

const rows: Row[] = [
  {
    name: 'a message into an empty chat is queued, then the pump is asked for',
    state: initialTurnState,
    input: { kind: 'send', text: 'hi', steer: false, steerable: false },
    expect: { state: { queue: [msg('hi')] }, effects: [{ kind: 'clearIdle' }, { kind: 'changed' }, { kind: 'pump' }], result: false },
  },
  {
    name: 'the pump takes the first queued work as `starting` in this era',
    state: st({ seq: 4, era: 2, queue: [msg('a'), msg('b')] }),
    input: { kind: 'pump' },
    expect: {
      state: { seq: 5, queue: [msg('b')], current: cur({ seq: 5, era: 2, work: msg('a') }) },
      effects: [{ kind: 'startWork', seq: 5, work: msg('a') }],
    },
  },
  {
    name: 'the pump leaves running work alone',
    state: st({ current: cur(), queue: [msg('b')] }),
    input: { kind: 'pump' },
    expect: { state: { current: cur(), queue: [msg('b')] }, effects: [] },
  },
  {
    name: 'queue full: 1 running + 9 waiting refuses a tenth message, nothing changes',
    state: st({ current: cur(), queue: full }),
    input: { kind: 'enqueue', work: msg('one more') },
    expect: { state: { current: cur(), queue: full }, effects: [{ kind: 'queueFull' }] },
  },
  {
    name: 'queue full does not stop a refused steer going back to the queue (unbounded)',
    state: st({ current: cur(), queue: full }),
    input: { kind: 'enqueue', work: { kind: 'message', text: 'x', retried: true }, unbounded: true },
    expect: { state: { queue: [...full, { kind: 'message', text: 'x', retried: true }] }, effects: [{ kind: 'changed' }, { kind: 'pump' }] },
  },
  {
    name: 'stop with nothing running and nothing queued: "Nothing running."',
    state: initialTurnState,
    input: { kind: 'stop', via: '/stop', codexStarting: false },
    expect: { state: { era: 0, queue: [] }, effects: [{ kind: 'notice', notice: { code: 'nothing-running', dropped: '' } }], result: false },
  },
  {
    name: 'stop in `starting`: the era moves on, the request is never sent, the queue is dropped and named',
    state: st({ current: cur(), queue: [msg('two')] }),
    input: { kind: 'stop', via: 'Stop', codexStarting: true },
    expect: {
      state: { era: 1, queue: [], stopWhy: 'stopped with Stop', current: cur() },
      effects: [
        { kind: 'changed' },
        { kind: 'notice', notice: { code: 'stopped-unsent', what: 'the message "hello"', codexStarting: true, dropped: ' Dropped 1 queued: "two".' } },
      ],
      result: true,
    },
  },
  {
    name: 'stop in `requested` without a turn id: told; the interrupt waits for the id',
    state: st({ current: cur({ phase: 'requested' }) }),
    input: { kind: 'stop', via: '/stop', codexStarting: false },
    expect: {
      state: { era: 1, current: cur({ phase: 'requested' }) },
      effects: [{ kind: 'notice', notice: { code: 'stopping-requested', what: 'the message "hello"', dropped: '' } }],
      result: true,
    },
  },
  {
    name: 'stop in `requested` with the id known: the grace fallback is armed',
    state: st({ turnId: 't1', current: cur({ phase: 'requested' }) }),
    input: { kind: 'stop', via: '/stop', codexStarting: false },
    expect: {
      state: { era: 1, turnId: 't1', current: cur({ phase: 'requested', graceArmed: true }) },
      effects: [
        { kind: 'notice', notice: { code: 'stopping-requested', what: 'the message "hello"', dropped: '' } },
        { kind: 'ownTurn', id: 't1' },
        { kind: 'armGrace', seq: 1 },
      ],
      result: true,
    },
  },
  {
    name: 'stop in `running`: interrupt at once, then say whether it stopped',
    state: st({ turnId: 't1', current: cur({ phase: 'running' }), queue: [msg('two'), { kind: 'compact' }] }),
    input: { kind: 'stop', via: '/stop', codexStarting: false },
    expect: {
      state: { era: 1, queue: [], current: cur({ phase: 'running', interruptSent: true }) },
      effects: [{ kind: 'changed' }, { kind: 'interrupt', turnId: 't1', report: { dropped: ' Dropped 2 queued: "two", /compact.' } }],
      result: true,
    },
  },
  {
    name: 'stop of work already stopping: said so, the era stays',
    state: st({ era: 1, current: cur({ phase: 'requested' }) }),
    input: { kind: 'stop', via: 'Stop', codexStarting: false },
    expect: { state: { era: 1 }, effects: [{ kind: 'notice', notice: { code: 'already-stopping', compact: false, dropped: '' } }], result: false },
  },
  {
    name: 'era bump (/new) cancels older work: its turn/started interrupts it at once',
    state: st({ era: 1, current: cur({ phase: 'requested' }) }),
    input: { kind: 'turnId', seq: 1, id: 't9', active: true },
    expect: {
      state: { turnId: 't9', current: cur({ phase: 'running', interruptSent: true }) },
      effects: [{ kind: 'ownTurn', id: 't9' }, { kind: 'clearGrace' }, { kind: 'interrupt', turnId: 't9' }],
    },
  },
  {
    name: 'era bump: a turn/start answer of cancelled work arms the grace, not the interrupt',
    state: st({ era: 1, current: cur({ phase: 'requested' }) }),
    input: { kind: 'turnId', seq: 1, id: 't9', active: false },
    expect: {
      state: { turnId: 't9', current: cur({ phase: 'requested', graceArmed: true }) },
      effects: [
        { kind: 'ownTurn', id: 't9' },
        { kind: 'armGrace', seq: 1 },
      ],
    },
  },
  {
    name: 'the grace runs out: the one interrupt goes out',
    state: st({ era: 1, turnId: 't9', current: cur({ phase: 'requested', graceArmed: true }) }),
    input: { kind: 'graceExpired', seq: 1 },
    expect: {
      state: { current: cur({ phase: 'requested', graceArmed: true, interruptSent: true }) },
      effects: [{ kind: 'clearGrace' }, { kind: 'interrupt', turnId: 't9' }],
    },
  },
  {
    name: 'an interrupt already sent is never sent twice',
    state: st({ era: 1, turnId: 't9', current: cur({ phase: 'running', interruptSent: true }) }),
    input: { kind: 'graceExpired', seq: 1 },
    expect: { state: { current: cur({ phase: 'running', interruptSent: true }) }, effects: [{ kind: 'clearGrace' }] },
  },
  {
    name: 'a turn id of another turn is not taken',
    state: st({ turnId: 't1', current: cur({ phase: 'requested' }) }),
    input: { kind: 'turnId', seq: 1, id: 't2', active: true },
    expect: { state: { turnId: 't1', current: cur({ phase: 'requested' }) }, effects: [] },
  },
  {
    name: 'no turn id is taken while the work is still starting',
    state: st({ current: cur() }),
    input: { kind: 'turnId', seq: 1, id: 't1', active: true },
    expect: { state: { turnId: null, current: cur() }, effects: [] },
  },
  {
    name: 'turn/started of live work makes it running',
    state: st({ current: cur({ phase: 'requested' }) }),
    input: { kind: 'turnId', seq: 1, id: 't1', active: true },
    expect: { state: { turnId: 't1', current: cur({ phase: 'running' }) }, effects: [{ kind: 'ownTurn', id: 't1' }] },
  },
  {
    name: 'steer into a running turn: sent as a steer, nothing queued',
    state: st({ turnId: 't1', current: cur({ phase: 'running' }) }),
    input: { kind: 'send', text: 'also this', steer: true, steerable: true },
    expect: { state: { queue: [] }, effects: [{ kind: 'steer', text: 'also this' }], result: true },
  },
  {
    name: 'steer when nothing runs: queued as its own turn',
    state: initialTurnState,
    input: { kind: 'send', text: 'also this', steer: true, steerable: true },
    expect: { state: { queue: [msg('also this')] }, effects: [{ kind: 'clearIdle' }, { kind: 'changed' }, { kind: 'pump' }], result: false },
  },
  {
    name: 'steer into a turn still requested: queued',
    state: st({ turnId: 't1', current: cur({ phase: 'requested' }) }),
    input: { kind: 'send', text: 'x', steer: true, steerable: true },
    expect: { state: { queue: [msg('x')] }, effects: [{ kind: 'clearIdle' }, { kind: 'changed' }, { kind: 'pump' }], result: false },
  },
  {
    name: 'steer into a stopped turn: queued',
    state: st({ era: 1, turnId: 't1', current: cur({ phase: 'running' }) }),
    input: { kind: 'send', text: 'x', steer: true, steerable: true },
    expect: { state: { queue: [msg('x')] }, effects: [{ kind: 'clearIdle' }, { kind: 'changed' }, { kind: 'pump' }], result: false },
  },
  {
    name: 'turn end with work queued: the next is pumped',
    state: st({ current: cur({ phase: 'running' }), queue: [msg('b')] }),
    input: { kind: 'workDone', seq: 1 },
    expect: { state: { current: null, queue: [msg('b')] }, effects: [{ kind: 'clearGrace' }, { kind: 'pump' }] },
  },
  {
    name: 'turn end with nothing queued: drained (idle exit armed)',
    state: st({ current: cur({ phase: 'running' }) }),
    input: { kind: 'workDone', seq: 1 },
    expect: { state: { current: null }, effects: [{ kind: 'clearGrace' }, { kind: 'drained' }] },
  },
  {
    name: 'a new turn forgets the last id and stop reason',
    state: st({ turnId: 't1', stopWhy: 'stopped with /stop' }),
    input: { kind: 'turnBegins' },
    expect: { state: { turnId: null, stopWhy: null }, effects: [] },
  },
  {
    name: 'the stall watchdog interrupts and names itself',
    state: st({ turnId: 't1', current: cur({ phase: 'running' }) }),
    input: { kind: 'stall' },
    expect: { state: { stopWhy: 'stopped by the stall watchdog (turn_stall_minutes)' }, effects: [{ kind: 'interrupt', turnId: 't1' }] },
  },
  {
    name: '"Deny and stop" drops the queue and says so',
    state: st({ current: cur({ phase: 'running' }), queue: [msg('two')] }),
    input: { kind: 'denyAndStop' },
    expect: {
      state: { queue: [], era: 0 },
      effects: [{ kind: 'changed' }, { kind: 'notice', notice: { code: 'deny-and-stop-dropped', dropped: ' Dropped 1 queued: "two".' } }],
    },
  },
  {
    name: 'dispose cancels and empties',
    state: st({ current: cur(), queue: [msg('b')] }),
    input: { kind: 'dispose' },
    expect: { state: { era: 1, queue: [] }, effects: [] },
  },
  {
    name: 'a failed start drops what waited, silently (the failure names the count)',
    state: st({ current: cur(), queue: [msg('b')] }),
    input: { kind: 'startFailed' },
    expect: { state: { era: 0, queue: [], current: cur() }, effects: [] },
  },
  {
    name: 'a usage limit pauses: the chat says until when and how many wait; nothing starts',
    state: st({ queue: [msg('a'), msg('b')] }),
    input: { kind: 'pause', until: '2030-01-01T10:00:00.000Z' },
    expect: {
      state: { paused: true, queue: [msg('a'), msg('b')], current: null },
      effects: [{ kind: 'changed' }, { kind: 'notice', notice: { code: 'usage-paused', until: '2030-01-01T10:00:00.000Z', queued: 2 } }],
    },
  },
  {
    name: 'while paused the pump starts no queued work',
    state: st({ paused: true, queue: [msg('a')] }),
    input: { kind: 'pump' },
    expect: { state: { paused: true, queue: [msg('a')], current: null }, effects: [] },
  },
  {
    name: 'while paused a message still queues (the pump it asks for waits)',
    state: st({ paused: true }),
    input: { kind: 'send', text: 'later', steer: false, steerable: false },
    expect: { state: { paused: true, queue: [msg('later')] }, effects: [{ kind: 'clearIdle' }, { kind: 'changed' }, { kind: 'pump' }], result: false },
  },
  {
    name: 'work that ends while paused asks for the pump, which waits',
    state: st({ paused: true, current: cur(), queue: [msg('b')] }),
    input: { kind: 'workDone', seq: 1 },
    expect: { state: { paused: true, current: null, queue: [msg('b')] }, effects: [{ kind: 'clearGrace' }, { kind: 'pump' }] },
  },
  {
    name: 'resume with work queued: says so and pumps',
    state: st({ paused: true, queue: [msg('a')] }),
    input: { kind: 'resume' },
    expect: {
      state: { paused: false, queue: [msg('a')] },
      effects: [{ kind: 'changed' }, { kind: 'notice', notice: { code: 'usage-resumed', queued: 1 } }, { kind: 'pump' }],
    },
  },
  {
    name: 'resume with nothing queued: only the view changes',
    state: st({ paused: true }),
    input: { kind: 'resume' },
    expect: { state: { paused: false }, effects: [{ kind: 'changed' }] },
  },
  {
    name: 'resume when not paused does nothing',
    state: st({ queue: [msg('a')] }),
    input: { kind: 'resume' },
    expect: { state: { paused: false }, effects: [] },
  },
];

describe('turn machine', () => {
  it.each(rows)('$name', (row) => {
    const out = step(row.state, row.input);
    expect(out.state).toMatchObject(row.expect.state);
    expect(out.effects).toEqual(row.expect.effects);
    if ('result' in row.expect) expect(out.result).toBe(row.expect.result);
  });

  it('never changes the state it is given', () => {
    const s = st({ turnId: 't1', current: cur({ phase: 'running' }), queue: [msg('b')] });
    const copy = structuredClone(s);
    for (const r of rows) step(r.state, r.input);
    step(s, { kind: 'stop', via: '/stop', codexStarting: false });
    expect(s).toEqual(copy);
  });
});

describe('busyFor', () => {
  const busy = [
    { name: 'nothing runs or waits', state: initialTurnState, text: null },
    {
      name: 'a message starting, two queued',
      state: st({ current: cur(), queue: [msg('a'), msg('b')] }),
      text: 'A message is still starting (and 2 queued) in this chat, so /new did not run and nothing was dropped. Send /stop first (it stops the turn and drops the queue), or wait until it ends; then /new again.',
    },
    {
      name: 'a compaction',
      state: st({ current: cur({ work: { kind: 'compact' }, phase: 'running' }) }),
      text: 'A compaction is running in this chat, so /new did not run and nothing was dropped. Send /stop first (it stops the turn and drops the queue), or wait until it ends; then /new again.',
    },
    {
      name: 'cancelled work with one queued',
      state: st({ era: 1, current: cur({ phase: 'running' }), queue: [msg('a')] }),
      text: '1 queued message waits in this chat, so /new did not run and nothing was dropped. Send /stop first (it stops the turn and drops the queue), or wait until it ends; then /new again.',
    },
    { name: 'cancelled work alone', state: st({ era: 1, current: cur({ phase: 'running' }) }), text: null },
  ];
  it.each(busy)('$name', (row) => {
    const n = busyFor(row.state, '/new');
    expect(n ? noticeText(n) : null).toBe(row.text);
  });
});
