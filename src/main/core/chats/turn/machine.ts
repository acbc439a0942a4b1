/**
 * The chat's turn machine: a pure decision `step(state, input) → { state, effects }` over the queue
 * (at most `MAX_QUEUE`, running + waiting), the era, the phases of the running work and its stop. It
 * sends nothing and starts no timer: effects are data that the chat's runner carries out (chat.ts
 * `dispatch`), as a decider whose events are applied elsewhere. The rules (chat.ts's header comment,
 * docs/architecture.md flow (b)):
 *
 * - A unit of work (a message or a `/compact`) goes through `starting` (nothing sent yet),
 *   `requested` (turn/start or thread/compact/start sent, the turn not active yet) and `running`
 *   (`turn/started` came).
 * - Every stop bumps the era; work begun in an older era is cancelled: in `starting` its request is
 *   never sent, in `requested` `turn/interrupt` goes out once the turn is active (or when the interrupt
 *   grace runs out), in `running` at once. Measured on codex 0.169.0: a `turn/interrupt` sent right
 *   after turn/start's answer fails "no active turn to interrupt", so it waits for `turn/started`.
 * - `/stop`, Stop and "Deny and stop" drop the queue and say what they dropped.
 * - The turn id is reset at every turn start and taken only for the running work.
 * - While the account's usage limit is reached (`paused`, core/usage/store.ts) no queued work starts:
 *   messages still queue, and the pump waits until `resume` (the reset time, or rate limits below 100 %).
 */
import type { ImageRef } from '../../../../shared/images';
import { MAX_QUEUE, quote, type Notice } from '../notices';

/**
 * One queued unit of work: a message for the agent, or a `/compact`. A message queued by the loopback API
 * carries its API turn id (`apiTurn`, put on its `user` and `turnEnd` items) and, for an app turn
 * (`reply: "caller"`), `app`. `retried`: not shown again as a user message (a refused steer queued as a turn).
 * `images`: Angelia's copies of the images it gives the agent (chats/images.ts), kept through the queue.
 */
export type Work = { kind: 'message'; text: string; retried?: boolean; apiTurn?: string; app?: boolean; images?: ImageRef[] } | { kind: 'compact' };

/** How far the running work got. */
export type Phase = 'starting' | 'requested' | 'running';

/**
 * The work that runs now. `seq` names it (effects and inputs about it carry it); `era` is the chat's era
 * when it began (`era !== state.era`: cancelled); `interruptSent` keeps `turn/interrupt` to one;
 * `graceArmed`: the fallback that interrupts a cancelled turn whose `turn/started` never came was armed.
 */
export interface Current {
  seq: number;
  work: Work;
  era: number;
  phase: Phase;
  interruptSent: boolean;
  graceArmed: boolean;
}

/** The machine's whole state. `turnId`: the running turn's id once known; `stopWhy`: how it was stopped. */
export interface TurnState {
  era: number;
  /** The last `seq` given to a unit of work. */
  seq: number;
  queue: readonly Work[];
  current: Current | null;
  turnId: string | null;
  stopWhy: string | null;
  /** The usage limit is reached: queued work waits (see the module comment). */
  paused: boolean;
}

/** A chat with nothing queued or running. */
export const initialTurnState: TurnState = { era: 0, seq: 0, queue: [], current: null, turnId: null, stopWhy: null, paused: false };

/** What happens to the machine. */
export type TurnInput =
  /** A message from the user; `steer` asked for, `steerable`: a process and thread run and no compaction does. */
  | { kind: 'send'; text: string; steer: boolean; steerable: boolean; images?: ImageRef[] }
  /** Queue work; `unbounded` (a refused steer, queued as the next message) skips the limit. */
  | { kind: 'enqueue'; work: Work; unbounded?: boolean }
  /** Take the next queued work when none runs. */
  | { kind: 'pump' }
  /** The running work reached a phase before `running` (a retry starts again at `starting`). */
  | { kind: 'phase'; seq: number; phase: 'starting' | 'requested' }
  /** A turn (or compaction) is about to be requested: no earlier turn id or stop reason stands for it. */
  | { kind: 'turnBegins' }
  /** The turn id came: from turn/start's answer (`active` false) or from `turn/started` (`active` true). */
  | { kind: 'turnId'; seq: number; id: string; active: boolean }
  /** The interrupt grace of cancelled work ran out. */
  | { kind: 'graceExpired'; seq: number }
  /** The running turn ended (its id is forgotten). */
  | { kind: 'turnEnds' }
  /** The running work's unit is done (whatever happened). */
  | { kind: 'workDone'; seq: number }
  /** `/stop` or Stop; `codexStarting`: a Codex start is under way. */
  | { kind: 'stop'; via: '/stop' | 'Stop'; codexStarting: boolean }
  /** The stall watchdog stops the turn. */
  | { kind: 'stall' }
  /** An approval was answered "Deny and stop": Codex interrupts the turn; the queue is dropped. */
  | { kind: 'denyAndStop' }
  /** `/new` or `/resume` switch sessions: older work is cancelled. */
  | { kind: 'switch' }
  /** The chat is disposed: older work cancelled, the queue emptied. */
  | { kind: 'dispose' }
  /** Codex could not start for the running work: what waited for it is dropped (the failure names how many). */
  | { kind: 'startFailed' }
  /** The account's usage limit is reached until `until` (ISO 8601): queued work waits. */
  | { kind: 'pause'; until: string }
  /** The usage limit is lifted: queued work goes on. */
  | { kind: 'resume' };

/** What the runner does, in order. */
export type TurnEffect =
  /** Refuse the work: the chat already holds `MAX_QUEUE` (AppFailure `queue-full`). */
  | { kind: 'queueFull' }
  /** The process is no longer idle: its idle-exit watchdog stops. */
  | { kind: 'clearIdle' }
  /** Tell the chat's watchers (the list, `idle()`). */
  | { kind: 'changed' }
  /** Feed the machine `{ kind: 'pump' }`. */
  | { kind: 'pump' }
  /** Run this unit of work (start Codex if needed, then turn/start or thread/compact/start). */
  | { kind: 'startWork'; seq: number; work: Work }
  /** Send the text (and images) into the running turn (`turn/steer`). */
  | { kind: 'steer'; text: string; images?: ImageRef[] }
  /** Send `turn/interrupt` for the running turn; with `report`, then say whether it stopped. */
  | { kind: 'interrupt'; turnId: string | null; report?: { dropped: string } }
  /** Arm the interrupt grace of the cancelled work `seq` (then feed `graceExpired`). */
  | { kind: 'armGrace'; seq: number }
  /** Stop the interrupt grace timer. */
  | { kind: 'clearGrace' }
  /** A turn id this chat ran (its items are in the transcript already). */
  | { kind: 'ownTurn'; id: string }
  /** Say something in the chat. */
  | { kind: 'notice'; notice: Notice }
  /** Nothing runs or waits any more: tell the watchers and arm the idle exit. */
  | { kind: 'drained' };

/** A step's result: the new state, the effects in order, and for `send`/`stop` the answer to the caller. */
export interface TurnStep {
  state: TurnState;
  effects: TurnEffect[];
  /** `send`: true when the text was steered. `stop`: true when something was stopped, cancelled or dropped. */
  result?: boolean;
}

/** True while the running work was begun in an older era (a stop, `/new` or `/resume` came since). */
export function cancelled(s: TurnState): boolean {
  return s.current !== null && s.current.era !== s.era;
}

/** How stopped work is named in notices: `the compaction` or `the message "…"`. */
function what(work: Work): string {
  return work.kind === 'compact' ? 'the compaction' : `the message ${shown(work)}`;
}

/** A queued message as notices name it: its text quoted, or `[N image(s)]` for a message of images alone. */
function shown(work: Extract<Work, { kind: 'message' }>): string {
  const n = work.images?.length ?? 0;
  return work.text || !n ? quote(work.text) : `[${n} image${n === 1 ? '' : 's'}]`;
}

/** The tail of a notice naming a dropped queue (` Dropped 2 queued: "two", "three".`), "" for none. */
export function droppedText(dropped: readonly Work[]): string {
  if (!dropped.length) return '';
  return ` Dropped ${dropped.length} queued: ${dropped.map((w) => (w.kind === 'message' ? shown(w) : '/compact')).join(', ')}.`;
}

/**
 * Why `/new` or `/resume` (`cmd`) cannot run now: a turn starting, running or queued, as a notice; null
 * when they can. Work already cancelled does not count (the switch waits for its end).
 */
export function busyFor(s: TurnState, cmd: string): Notice | null {
  const cur = s.current;
  const live = cur !== null && cur.era === s.era;
  const n = s.queue.length;
  if (!live && !n) return null;
  const doing = !live
    ? `${n} queued message${n === 1 ? ' waits' : 's wait'}`
    : cur.work.kind === 'compact'
      ? 'A compaction is running'
      : cur.phase === 'starting'
        ? 'A message is still starting'
        : 'A turn is running';
  return { code: 'busy', cmd, what: doing, queued: live ? n : 0 };
}

/** The turn id arrived for the work `seq` (see `TurnInput` `turnId`): taken, and a cancelled turn interrupted. */
function gotTurn(s: TurnState, seq: number, id: string, active: boolean): TurnStep {
  const cur = s.current;
  if (!cur || cur.seq !== seq || cur.phase === 'starting') return { state: s, effects: [] };
  if (s.turnId && s.turnId !== id) return { state: s, effects: [] };
  const next: Current = { ...cur, phase: active ? 'running' : cur.phase };
  const state: TurnState = { ...s, turnId: id, current: next };
  const effects: TurnEffect[] = [{ kind: 'ownTurn', id }];
  if (next.era === s.era || next.interruptSent) return { state, effects };
  if (next.phase === 'running') {
    const out = interruptCancelled(state, seq);
    return { state: out.state, effects: [...effects, ...out.effects] };
  }
  if (next.graceArmed) return { state, effects };
  return { state: { ...state, current: { ...next, graceArmed: true } }, effects: [...effects, { kind: 'armGrace', seq }] };
}

/** The one `turn/interrupt` of cancelled work `seq`, while it still runs with a known turn id. */
function interruptCancelled(s: TurnState, seq: number): TurnStep {
  const effects: TurnEffect[] = [{ kind: 'clearGrace' }];
  const cur = s.current;
  if (!cur || cur.seq !== seq || cur.interruptSent || !s.turnId) return { state: s, effects };
  return { state: { ...s, current: { ...cur, interruptSent: true } }, effects: [...effects, { kind: 'interrupt', turnId: s.turnId }] };
}

/** Queue `work` (see `TurnInput` `enqueue`). */
function enqueue(s: TurnState, work: Work, unbounded: boolean): TurnStep {
  if (!unbounded && s.queue.length + (s.current ? 1 : 0) >= MAX_QUEUE) return { state: s, effects: [{ kind: 'queueFull' }] };
  const effects: TurnEffect[] = unbounded ? [] : [{ kind: 'clearIdle' }];
  return { state: { ...s, queue: [...s.queue, work] }, effects: [...effects, { kind: 'changed' }, { kind: 'pump' }] };
}

/** `/stop` and Stop (see the module comment). */
function stop(s: TurnState, via: '/stop' | 'Stop', codexStarting: boolean): TurnStep {
  const dropped = droppedText(s.queue);
  const state: TurnState = { ...s, queue: [] };
  const effects: TurnEffect[] = dropped ? [{ kind: 'changed' }] : [];
  const cur = s.current;
  if (!cur) return { state, effects: [...effects, { kind: 'notice', notice: { code: 'nothing-running', dropped } }], result: dropped !== '' };
  if (cur.era !== s.era) {
    return {
      state,
      effects: [...effects, { kind: 'notice', notice: { code: 'already-stopping', compact: cur.work.kind === 'compact', dropped } }],
      result: dropped !== '',
    };
  }
  const stopping: TurnState = { ...state, era: s.era + 1, stopWhy: `stopped with ${via}` };
  if (cur.phase === 'starting') {
    return {
      state: stopping,
      effects: [...effects, { kind: 'notice', notice: { code: 'stopped-unsent', what: what(cur.work), codexStarting, dropped } }],
      result: true,
    };
  }
  if (cur.phase === 'requested') {
    const told: TurnEffect[] = [...effects, { kind: 'notice', notice: { code: 'stopping-requested', what: what(cur.work), dropped } }];
    // The id may be known already (turn/start answered, turn/started not yet): arm the fallback.
    if (!stopping.turnId) return { state: stopping, effects: told, result: true };
    const out = gotTurn(stopping, cur.seq, stopping.turnId, false);
    return { state: out.state, effects: [...told, ...out.effects], result: true };
  }
  return {
    state: { ...stopping, current: { ...cur, interruptSent: true } },
    effects: [...effects, { kind: 'interrupt', turnId: stopping.turnId, report: { dropped } }],
    result: true,
  };
}

/** `{ images }` when there are any, else nothing (work without images keeps its shape). */
function withImages(images: readonly ImageRef[] | undefined): { images?: ImageRef[] } {
  return images?.length ? { images: [...images] } : {};
}

/** The machine: one input applied to `s` (see `TurnInput`, `TurnEffect`). Pure: `s` is never changed. */
export function step(s: TurnState, input: TurnInput): TurnStep {
  switch (input.kind) {
    case 'send': {
      const cur = s.current;
      if (input.steer && input.steerable && s.turnId && cur?.era === s.era && cur.phase === 'running') {
        return { state: s, effects: [{ kind: 'steer', text: input.text, ...withImages(input.images) }], result: true };
      }
      return { ...enqueue(s, { kind: 'message', text: input.text, ...withImages(input.images) }, false), result: false };
    }
    case 'enqueue':
      return enqueue(s, input.work, input.unbounded === true);
    case 'pump': {
      const work = s.queue[0];
      if (s.current || s.paused || work === undefined) return { state: s, effects: [] };
      const seq = s.seq + 1;
      const current: Current = { seq, work, era: s.era, phase: 'starting', interruptSent: false, graceArmed: false };
      return { state: { ...s, seq, queue: s.queue.slice(1), current }, effects: [{ kind: 'startWork', seq, work }] };
    }
    case 'phase': {
      const cur = s.current;
      if (!cur || cur.seq !== input.seq) return { state: s, effects: [] };
      return { state: { ...s, current: { ...cur, phase: input.phase } }, effects: [] };
    }
    case 'turnBegins':
      return { state: { ...s, turnId: null, stopWhy: null }, effects: [] };
    case 'turnId':
      return gotTurn(s, input.seq, input.id, input.active);
    case 'graceExpired':
      return interruptCancelled(s, input.seq);
    case 'turnEnds':
      return { state: { ...s, turnId: null }, effects: [] };
    case 'workDone': {
      if (s.current?.seq !== input.seq) return { state: s, effects: [] };
      const state: TurnState = { ...s, current: null };
      return { state, effects: [{ kind: 'clearGrace' }, state.queue.length ? { kind: 'pump' } : { kind: 'drained' }] };
    }
    case 'stop':
      return stop(s, input.via, input.codexStarting);
    case 'stall':
      return { state: { ...s, stopWhy: 'stopped by the stall watchdog (turn_stall_minutes)' }, effects: [{ kind: 'interrupt', turnId: s.turnId }] };
    case 'denyAndStop': {
      const dropped = droppedText(s.queue);
      if (!dropped) return { state: s, effects: [] };
      return { state: { ...s, queue: [] }, effects: [{ kind: 'changed' }, { kind: 'notice', notice: { code: 'deny-and-stop-dropped', dropped } }] };
    }
    case 'switch':
      return { state: { ...s, era: s.era + 1 }, effects: [] };
    case 'dispose':
      return { state: { ...s, era: s.era + 1, queue: [] }, effects: [] };
    case 'startFailed':
      return { state: { ...s, queue: [] }, effects: [] };
    case 'pause':
      return {
        state: { ...s, paused: true },
        effects: [{ kind: 'changed' }, { kind: 'notice', notice: { code: 'usage-paused', until: input.until, queued: s.queue.length } }],
      };
    case 'resume': {
      if (!s.paused) return { state: s, effects: [] };
      const told: TurnEffect[] = s.queue.length ? [{ kind: 'notice', notice: { code: 'usage-resumed', queued: s.queue.length } }, { kind: 'pump' }] : [];
      return { state: { ...s, paused: false }, effects: [{ kind: 'changed' }, ...told] };
    }
  }
}
