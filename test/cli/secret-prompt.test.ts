/**
 * The no-echo prompt of `angelia login --api-key` on a terminal (cli/secretPrompt.ts): `secretKeys`
 * table-tested (Enter, Ctrl-C, Ctrl-D, Backspace, Ctrl-U, escape sequences, pasted text, chunks), and
 * `promptSecret` on a fake terminal: raw mode on while typing and off after, nothing written but the
 * prompt and a line end, Ctrl-C resolves null, the end of input counts as Enter.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { promptSecret, secretKeys, type SecretInput, type SecretState } from '../../src/main/cli/secretPrompt';

const fresh: SecretState = { text: '', end: null };

describe('secretKeys', () => {
  const cases: { name: string; chunks: string[]; want: SecretState }[] = [
    { name: 'typed, then Enter (CR)', chunks: ['sk-', 'abc', '\r'], want: { text: 'sk-abc', end: 'entered' } },
    { name: 'pasted with its line end in one chunk (LF)', chunks: ['sk-proj-123\n'], want: { text: 'sk-proj-123', end: 'entered' } },
    { name: 'what follows Enter in the chunk is dropped', chunks: ['key\rmore'], want: { text: 'key', end: 'entered' } },
    { name: 'Ctrl-C cancels and forgets the text', chunks: ['half', '\x03'], want: { text: '', end: 'cancelled' } },
    { name: 'Ctrl-D ends like Enter', chunks: ['key\x04'], want: { text: 'key', end: 'entered' } },
    { name: 'Ctrl-D on nothing ends empty', chunks: ['\x04'], want: { text: '', end: 'entered' } },
    { name: 'Backspace (DEL) removes the last character', chunks: ['keyy\x7f\r'], want: { text: 'key', end: 'entered' } },
    { name: 'Backspace (BS) too, and on nothing does nothing', chunks: ['\b\bab\b\r'], want: { text: 'a', end: 'entered' } },
    { name: 'Backspace removes a whole non-BMP character', chunks: ['a😀\x7f\r'], want: { text: 'a', end: 'entered' } },
    { name: 'Ctrl-U clears the line', chunks: ['wrong\x15right\r'], want: { text: 'right', end: 'entered' } },
    { name: 'arrow keys (CSI and SS3) are dropped', chunks: ['a\x1b[D\x1bOCb\r'], want: { text: 'ab', end: 'entered' } },
    { name: 'bracketed-paste markers are dropped, the paste kept', chunks: ['\x1b[200~sk-1\x1b[201~\r'], want: { text: 'sk-1', end: 'entered' } },
    { name: 'a lone ESC drops itself and the next character', chunks: ['a\x1bxb\r'], want: { text: 'ab', end: 'entered' } },
    { name: 'other control characters are dropped (tab, NUL, C1)', chunks: ['a\tb\x00c\x85d\r'], want: { text: 'abcd', end: 'entered' } },
    { name: 'no end yet', chunks: ['sk-', 'ab'], want: { text: 'sk-ab', end: null } },
    { name: 'an ended prompt ignores what comes after', chunks: ['k\r', 'more\r'], want: { text: 'k', end: 'entered' } },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(c.chunks.reduce(secretKeys, fresh)).toEqual(c.want);
    });
  }
});

/** A fake terminal: records raw mode and pauses; `type` sends a chunk. */
function fakeTty(): SecretInput & { raw: boolean[]; paused: boolean; type(chunk: string): void; close(): void; listeners: () => number } {
  const em = new EventEmitter();
  const t = {
    raw: [] as boolean[],
    paused: true,
    setRawMode: (raw: boolean) => void t.raw.push(raw),
    setEncoding: () => undefined,
    on: (event: string, l: (...a: string[]) => void) => void em.on(event, l),
    off: (event: string, l: (...a: string[]) => void) => void em.off(event, l),
    resume: () => void (t.paused = false),
    pause: () => void (t.paused = true),
    type: (chunk: string) => void em.emit('data', chunk),
    close: () => void em.emit('end'),
    listeners: () => em.listenerCount('data') + em.listenerCount('end'),
  };
  return t as never;
}

describe('promptSecret', () => {
  it('reads without echo in raw mode, then restores the terminal', async () => {
    const tty = fakeTty();
    const written: string[] = [];
    const answer = promptSecret('Key: ', tty, (s) => written.push(s));
    expect(tty.raw).toEqual([true]);
    expect(tty.paused).toBe(false);
    tty.type('sk-secret');
    tty.type('-42\r');
    expect(await answer).toBe('sk-secret-42');
    expect(tty.raw).toEqual([true, false]);
    expect(tty.paused).toBe(true);
    expect(tty.listeners()).toBe(0);
    expect(written).toEqual(['Key: ', '\n']);
  });

  it('resolves null on Ctrl-C and restores the terminal', async () => {
    const tty = fakeTty();
    const answer = promptSecret('Key: ', tty, () => undefined);
    tty.type('sk-half\x03');
    expect(await answer).toBeNull();
    expect(tty.raw).toEqual([true, false]);
  });

  it('takes the end of input as Enter', async () => {
    const tty = fakeTty();
    const answer = promptSecret('Key: ', tty, () => undefined);
    tty.type('sk-typed');
    tty.close();
    expect(await answer).toBe('sk-typed');
    expect(tty.raw).toEqual([true, false]);
  });
});
