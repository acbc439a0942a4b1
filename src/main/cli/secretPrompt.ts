/**
 * A password prompt on a terminal, for `angelia login --api-key` (cli/commands/account.ts): the terminal
 * in raw mode, nothing echoed (not even a mask), Enter ends, Ctrl-C cancels, Backspace and Ctrl-U edit.
 * `secretKeys` is the pure part (what a chunk of raw input does to the text typed so far); `promptSecret`
 * is the effect at the edge (raw mode on and off, the prompt on stderr). The secret is never written
 * anywhere. docs/security-model.md "The Codex account".
 */

/** How the prompt ended: `entered` (Enter, or Ctrl-D / end of input) or `cancelled` (Ctrl-C). */
export type SecretEnd = 'entered' | 'cancelled';

/** The text typed so far, and how the prompt ended (null: it goes on). */
export interface SecretState {
  text: string;
  end: SecretEnd | null;
}

/** A CSI escape sequence (arrow keys, bracketed-paste markers `ESC [200~` / `ESC [201~`, …). */
// eslint-disable-next-line no-control-regex -- matching ESC is the point
const CSI = /^\x1b\[[0-?]*[ -/]*[@-~]/;
/** An SS3 sequence (`ESC O A`: an arrow key on some terminals). */
// eslint-disable-next-line no-control-regex -- matching ESC is the point
const SS3 = /^\x1bO./;

/**
 * The prompt after `chunk` of raw-mode terminal input (UTF-8 text). Enter (`\r` or `\n`) ends it,
 * Ctrl-D too (end of input); Ctrl-C cancels it; what follows the end in the chunk is dropped. Backspace
 * (DEL or `\b`) removes the last character, Ctrl-U everything; escape sequences and other control
 * characters are dropped; everything else is typed. A prompt that has ended stays as it is.
 */
export function secretKeys(state: SecretState, chunk: string): SecretState {
  if (state.end !== null) return state;
  const chars = [...state.text];
  let rest = chunk;
  while (rest.length > 0) {
    const seq = CSI.exec(rest) ?? SS3.exec(rest);
    if (seq) {
      rest = rest.slice(seq[0].length);
      continue;
    }
    const c = String.fromCodePoint(rest.codePointAt(0) as number);
    rest = rest.slice(c.length);
    if (c === '\r' || c === '\n' || c === '\x04') return { text: chars.join(''), end: 'entered' };
    if (c === '\x03') return { text: '', end: 'cancelled' };
    if (c === '\x7f' || c === '\b') chars.pop();
    else if (c === '\x15') chars.length = 0;
    else if (c === '\x1b') rest = rest.slice(rest.length > 0 ? String.fromCodePoint(rest.codePointAt(0) as number).length : 0);
    else if (c >= ' ' && !(c >= '\x80' && c <= '\x9f')) chars.push(c);
  }
  return { text: chars.join(''), end: null };
}

/** The terminal input `promptSecret` reads (process.stdin on a TTY; a fake in the tests). */
export interface SecretInput {
  setRawMode(raw: boolean): unknown;
  setEncoding(encoding: BufferEncoding): unknown;
  on(event: 'data', listener: (chunk: string) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
  off(event: 'data', listener: (chunk: string) => void): unknown;
  off(event: 'end', listener: () => void): unknown;
  resume(): unknown;
  pause(): unknown;
}

/**
 * Writes `prompt` to `write` (stderr), reads one secret from the terminal `input` in raw mode without
 * echo, and resolves with it, or null when the user pressed Ctrl-C. Raw mode is switched off and a line
 * end written before it resolves; the end of input counts as Enter.
 */
export function promptSecret(prompt: string, input: SecretInput, write: (text: string) => void): Promise<string | null> {
  return new Promise((resolve) => {
    let state: SecretState = { text: '', end: null };
    const finish = (): void => {
      input.off('data', onData);
      input.off('end', onEnd);
      input.setRawMode(false);
      input.pause();
      write('\n');
      resolve(state.end === 'cancelled' ? null : state.text);
    };
    const onData = (chunk: string): void => {
      state = secretKeys(state, chunk);
      if (state.end !== null) finish();
    };
    const onEnd = (): void => {
      state = { ...state, end: 'entered' };
      finish();
    };
    write(prompt);
    input.setRawMode(true);
    input.setEncoding('utf8');
    input.on('data', onData);
    input.on('end', onEnd);
    input.resume();
  });
}
