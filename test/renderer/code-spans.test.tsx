/**
 * Angelia's own sentences name commands in backticks (the CLI prints them so); the window shows those
 * parts as code: a refused start's "Sign in with `angelia login`" shows no backtick. Raw output in an
 * error's several-line detail is shown as written.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { SessionContext, type Session } from '../../src/renderer/src/api/session';
import { Item } from '../../src/renderer/src/features/chat/Items';
import { codeSpans } from '../../src/renderer/src/ui/CodeSpans';

describe('codeSpans', () => {
  it('splits on pairs of backticks; an unpaired one stays literal', () => {
    expect(codeSpans('Sign in with `angelia login`, then send.')).toEqual([
      { code: false, text: 'Sign in with ' },
      { code: true, text: 'angelia login' },
      { code: false, text: ', then send.' },
    ]);
    expect(codeSpans('no code here')).toEqual([{ code: false, text: 'no code here' }]);
    expect(codeSpans('a `b` c `d')).toEqual([
      { code: false, text: 'a ' },
      { code: true, text: 'b' },
      { code: false, text: ' c `d' },
    ]);
    expect(codeSpans('`x`')).toEqual([{ code: true, text: 'x' }]);
  });
});

describe('the chat shows backticked commands as code', () => {
  const render = (item: Parameters<typeof Item>[0]['item']): string =>
    renderToStaticMarkup(
      <SessionContext.Provider value={{} as Session}>
        <Item item={item} chatId="coder" />
      </SessionContext.Provider>,
    );

  it('a refused start (not signed in): message and one-line detail', () => {
    const html = render({
      type: 'error',
      id: 'e1',
      kind: 'startFailed',
      message: "This chat's agent was not started: Codex is not signed in. Fix: Sign in with `angelia login` (ChatGPT in the browser; `--device-code`).",
      detail: 'Sign in with `angelia login`, then send the message again.',
    });
    expect(html).toContain('<code>angelia login</code>');
    expect(html).toContain('<code>--device-code</code>');
    expect(html).not.toContain('`');
  });

  it('a notice, and a several-line detail kept as written', () => {
    expect(render({ type: 'notice', id: 'n1', text: 'Signed out: run `angelia login` to sign in again.' })).toContain('<code>angelia login</code>');
    const raw = render({ type: 'error', id: 'e2', message: 'Codex exited', detail: 'line one `x`\nline two' });
    expect(raw).toContain('line one `x`\nline two');
  });
});
