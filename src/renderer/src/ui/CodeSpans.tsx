/**
 * Angelia's own sentences (a notice, an error, a refusal's fix) name commands in backticks, as the CLI
 * prints them: `angelia login`. In the window the backticked parts are shown as code, not as backticks.
 * Text only: nothing else is parsed, and an unpaired backtick stays as written.
 */
import type { ReactElement } from 'react';

/** `text` split into plain and code parts: odd parts were between a pair of backticks. */
export function codeSpans(text: string): { code: boolean; text: string }[] {
  const parts = text.split('`');
  // An even number of parts means an odd number of backticks: the last one has no pair and stays literal.
  const paired = parts.length % 2 === 1 ? parts : [...parts.slice(0, -2), `${parts.at(-2)}\`${parts.at(-1)}`];
  return paired.map((t, i) => ({ code: i % 2 === 1, text: t })).filter((p) => p.text !== '' || p.code);
}

/** Renders `text` with its backticked parts as `<code>`. */
export function CodeSpans({ text }: { text: string }): ReactElement {
  return <>{codeSpans(text).map((p, i) => (p.code ? <code key={i}>{p.text}</code> : <span key={i}>{p.text}</span>))}</>;
}
