/**
 * How a composer line is read (core/chats/commands.ts `parseCommand`): a known command, `//` to send a
 * text that starts with "/", and every other `/word` answered "unknown command"; and
 * the /help and /status texts that go with it.
 */
import { describe, expect, it } from 'vitest';
import { helpText, parseCommand, SLASH_ESCAPE_HINT, statusText } from '../../../src/main/core/chats/commands';

describe('parseCommand', () => {
  it('a known command, any case, with the rest of the line as its argument', () => {
    expect(parseCommand('/new')).toEqual({ name: 'new', arg: '' });
    expect(parseCommand('/Resume  2  ')).toEqual({ name: 'resume', arg: '2' });
    expect(parseCommand('/model gpt-5.5\n')).toEqual({ name: 'model', arg: 'gpt-5.5' });
  });

  it('"//text" goes to the agent as "/text"', () => {
    expect(parseCommand('//usr is missing')).toEqual({ message: '/usr is missing' });
    expect(parseCommand('//new')).toEqual({ message: '/new' });
    expect(parseCommand('//')).toEqual({ message: '/' });
  });

  it('any other /word is unknown, alone or followed by text (a typo never reaches the agent); a path is a message', () => {
    expect(parseCommand('/frobnicate')).toEqual({ unknown: '/frobnicate' });
    expect(parseCommand('/usr is missing')).toEqual({ unknown: '/usr' });
    expect(parseCommand('/modle gpt-5.5')).toEqual({ unknown: '/modle' });
    expect(parseCommand('/usr/bin is missing')).toBeNull();
    expect(parseCommand('/etc/hosts has a typo')).toBeNull();
    expect(parseCommand('/README.md is stale')).toBeNull();
    expect(parseCommand('/help/me')).toBeNull();
    expect(parseCommand('/')).toEqual({ unknown: '/' });
  });

  it('text that does not start with "/" is a message, a leading space included', () => {
    expect(parseCommand('hello /new')).toBeNull();
    expect(parseCommand(' /usr is missing')).toBeNull();
    expect(parseCommand('')).toBeNull();
  });
});

describe('texts', () => {
  it('/help names the // escape', () => {
    expect(helpText().split('\n').at(-1)).toBe('To send the agent a message that starts with "/", start it with "//" (//usr is missing → /usr is missing).');
    expect(SLASH_ESCAPE_HINT).toBe('start with // to send it as a message');
  });

  it('/status before the first start says "codex not started yet"; whether Codex runs, and why not when known (refused, crashed)', () => {
    const base = {
      profile: 'p',
      session: null,
      codexVersion: null,
      model: null,
      modelSource: 'codex default',
      effort: null,
      effortSource: null,
      sandbox: 'not started yet',
      codexRunning: false,
      refusal: null,
      down: null,
      queued: 0,
      running: false,
      sessions: 0,
    };
    expect(statusText(base).split('\n')[0]).toBe('angelia · profile p · no session yet · codex not started yet');
    const cold = statusText({
      ...base,
      codexVersion: '0.169.0',
      model: 'gpt-5.5',
      effort: 'low',
      effortSource: 'default of gpt-5.5',
      down: 'it crashed; Restart or the next message starts it again',
    });
    expect(cold.split('\n').slice(0, 2)).toEqual([
      'angelia · profile p · no session yet · codex 0.169.0 · model gpt-5.5 (codex default) · effort low (default of gpt-5.5)',
      'Codex stopped (it crashed; Restart or the next message starts it again) · 0 queued',
    ]);
    expect(statusText(base).split('\n')[1]).toBe('0 queued');
    expect(statusText({ ...base, codexVersion: '0.171.0', codexRunning: true, running: true }).split('\n')[1]).toBe(
      'Codex running · a turn is running · 0 queued',
    );
    expect(statusText({ ...base, codexVersion: '0.171.0' }).split('\n')[1]).toBe('Codex not running · 0 queued');
    const refused = statusText({ ...base, refusal: 'Codex is not signed in. Fix: Sign in with `angelia login`.', down: 'it crashed' });
    expect(refused.split('\n')[1]).toBe('Codex not started: Codex is not signed in. Fix: Sign in with `angelia login`. · 0 queued');
  });
});
