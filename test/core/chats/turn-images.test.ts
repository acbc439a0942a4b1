/**
 * A message's images through the turn machine (chats/turn/machine.ts) and into Codex's input
 * (chats/turn/run.ts `userInput`, codex 0.169.0 `UserInput`): queued, steered and dropped messages keep
 * their images; the input is the text, then one `localImage` per image.
 */
import { describe, expect, it } from 'vitest';
import { droppedText, initialTurnState, step, type TurnState } from '../../../src/main/core/chats/turn/machine';
import { userInput } from '../../../src/main/core/chats/turn/run';
import type { ImageRef } from '../../../src/shared/images';

const shot: ImageRef = { path: '/s/private/images/u1/shot.png', name: 'shot.png' };
const photo: ImageRef = { path: '/s/private/images/u2/photo.jpg', name: 'photo.jpg' };

/** A state with a turn running (id known) and nothing queued. */
const runningState = (): TurnState => ({
  ...initialTurnState,
  seq: 1,
  turnId: 't1',
  current: { seq: 1, work: { kind: 'message', text: 'first' }, era: 0, phase: 'running', interruptSent: false, graceArmed: false },
});

describe('the machine keeps a message its images', () => {
  it('a send with images is queued with them and started with them', () => {
    const out = step(initialTurnState, { kind: 'send', text: 'look', steer: false, steerable: false, images: [shot, photo] });
    expect(out.state.queue).toEqual([{ kind: 'message', text: 'look', images: [shot, photo] }]);
    const pumped = step(out.state, { kind: 'pump' });
    expect(pumped.effects).toEqual([{ kind: 'startWork', seq: 1, work: { kind: 'message', text: 'look', images: [shot, photo] } }]);
  });

  it('a send with no images keeps the shape it always had', () => {
    expect(step(initialTurnState, { kind: 'send', text: 'hi', steer: false, steerable: false, images: [] }).state.queue).toEqual([
      { kind: 'message', text: 'hi' },
    ]);
  });

  it('a steer carries its images into the effect; one queued while a turn runs waits with them', () => {
    const s = runningState();
    expect(step(s, { kind: 'send', text: 'also this', steer: true, steerable: true, images: [shot] }).effects).toEqual([
      { kind: 'steer', text: 'also this', images: [shot] },
    ]);
    const queued = step(s, { kind: 'send', text: '', steer: false, steerable: true, images: [shot] });
    expect(queued.state.queue).toEqual([{ kind: 'message', text: '', images: [shot] }]);
  });

  it('a dropped message of images alone is named by its count', () => {
    expect(
      droppedText([
        { kind: 'message', text: '', images: [shot, photo] },
        { kind: 'message', text: 'two', images: [shot] },
      ]),
    ).toBe(' Dropped 2 queued: [2 images], "two".');
  });
});

describe('userInput', () => {
  it.each([
    ['text alone', 'hi', [], [{ type: 'text', text: 'hi', text_elements: [] }]],
    [
      'text and images',
      'look',
      [shot, photo],
      [
        { type: 'text', text: 'look', text_elements: [] },
        { type: 'localImage', path: shot.path },
        { type: 'localImage', path: photo.path },
      ],
    ],
    ['images alone (no empty text part)', '', [shot], [{ type: 'localImage', path: shot.path }]],
    ['nothing at all still sends the text part', '', [], [{ type: 'text', text: '', text_elements: [] }]],
  ])('%s', (_name, text, images, want) => {
    expect(userInput(text, images)).toEqual(want);
  });
});
