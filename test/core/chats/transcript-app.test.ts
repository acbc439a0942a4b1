/**
 * The chat's last line (Transcript `lastLine`, shown in the chat list and the tray) leaves app turns out:
 * an app turn's answer is for the program that asked (API `reply: "caller"`), so the line stays the last
 * normal one while the app turn runs and after it ended; the next normal turn counts again.
 */
import { describe, expect, it } from 'vitest';
import { Transcript } from '../../../src/main/core/chats/transcript';

describe('Transcript lastLine and app turns', () => {
  it("skips every item from an app turn's user item to its turn end", () => {
    const t = new Transcript('c', () => undefined);
    t.push({ type: 'user', id: 'u1', text: 'hello', via: 'turn' });
    t.push({ type: 'agent', id: 'a1', text: 'Hi there', done: true });
    t.push({ type: 'turnEnd', id: 'e1', status: 'completed', reason: null });
    expect(t.lastLine()).toBe('Hi there');
    t.push({ type: 'user', id: 'u2', text: 'status for the app', via: 'turn', app: true, apiTurn: 'T' });
    t.push({ type: 'agent', id: 'a2', text: 'streaming', done: false });
    expect(t.lastLine()).toBe('Hi there');
    t.upsert({ type: 'agent', id: 'a2', text: 'all good', done: true });
    t.push({ type: 'notice', id: 'n2', text: 'a notice inside the app turn' });
    t.push({ type: 'turnEnd', id: 'e2', status: 'completed', reason: null, apiTurn: 'T' });
    expect(t.lastLine()).toBe('Hi there');
    t.push({ type: 'notice', id: 'n3', text: 'after it' });
    expect(t.lastLine()).toBe('after it');
    t.push({ type: 'user', id: 'u3', text: 'next', via: 'turn' });
    expect(t.lastLine()).toBe('next');
  });

  it('a steer inside an app turn does not end it', () => {
    const t = new Transcript('c', () => undefined);
    t.push({ type: 'user', id: 'u0', text: 'before', via: 'turn' });
    t.push({ type: 'user', id: 'u1', text: 'app', via: 'turn', app: true });
    t.push({ type: 'user', id: 's1', text: 'steered', via: 'steer' });
    t.push({ type: 'agent', id: 'a1', text: 'answer', done: true });
    expect(t.lastLine()).toBe('before');
  });
});
