/**
 * Names a question id or a form field may not take: `__proto__`, `constructor`, `prototype` would reach
 * JavaScript object prototypes where answers are looked up and written. A request naming one is
 * answered at once (a question gets the empty answer, a form is declined) and the chat is told why
 * (questions.ts, elicitation.ts). docs/architecture.md, "Questions and elicitations".
 */

/** Names a question id or a form field may not take (they are Object.prototype's, or reach it). */
export const RESERVED_NAMES: readonly string[] = ['__proto__', 'constructor', 'prototype'];

/** The first name of `names` that is reserved (`RESERVED_NAMES`), or null. */
export function reservedName(names: Iterable<string>): string | null {
  for (const n of names) if (RESERVED_NAMES.includes(n)) return n;
  return null;
}
