/**
 * An agent's or MCP server's text in a card (docs/security-model.md "What an agent's text can do on
 * screen"): rendered as text (never HTML), every control or invisible character — a bidi override,
 * isolate or mark, a zero-width character — shown as a visible escape (src/shared/untrustedText.ts
 * `visibleText`, so `ls #\u202E hs` cannot read backwards), inside a `<bdi>` so right-to-left text in it
 * cannot reorder the card's own words around it.
 */
import type { ReactElement } from 'react';
import { visibleText } from '../../../../shared/untrustedText';

/** `text` as shown in a card: escaped (line breaks and tabs kept) and bidi-isolated. */
export function Untrusted({ text }: { text: string }): ReactElement {
  return <bdi className="untrusted">{visibleText(text, { lines: true })}</bdi>;
}
