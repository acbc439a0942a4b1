/**
 * Text an agent or an MCP server wrote (commands, reasons, questions, options, messages, and the titles
 * made from them), made safe to show (docs/security-model.md "What an agent's text can do on screen"):
 * every character that would act instead of show — C0 and C1 controls and DEL (on a terminal CR,
 * backspace and ESC sequences erase and redraw what was printed) — and every invisible one — format
 * characters (Unicode Cf: bidi marks, embeddings, overrides and isolates, zero-width characters, tag
 * characters), the line and paragraph separators, and the other default-ignorable code points — becomes a
 * visible escape (`\x1b`, `\u{202E}`), so what is shown is what was sent. An emoji's own joiner and
 * presentation selector are kept. Pure; the CLI, the tray, the notifications and the window's cards use it.
 */

/** Characters shown as an escape: controls, DEL, separators, format and default-ignorable code points. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is matched
const ESCAPED = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\p{Cf}\p{Default_Ignorable_Code_Point}]/gu;
/** What an emoji's joiner or presentation selector may follow (kept there, so emoji sequences survive). */
const PICTOGRAPH = /^[\p{Extended_Pictographic}\p{Emoji_Modifier}\ufe0f]$/u;

/**
 * Whether the invisible `c` at `offset` of `s` is an emoji's glue (kept as it is): U+FE0E/U+FE0F after a
 * pictograph (or a keycap base followed by U+20E3), ZERO WIDTH JOINER between two pictographs.
 */
function isEmojiGlue(c: string, offset: number, s: string): boolean {
  if (c !== '\u200d' && c !== '\ufe0e' && c !== '\ufe0f') return false;
  const prev = Array.from(s.slice(Math.max(0, offset - 2), offset)).pop() ?? '';
  const next = String.fromCodePoint(s.codePointAt(offset + 1) ?? 32);
  if (c === '\u200d') return PICTOGRAPH.test(prev) && /^\p{Extended_Pictographic}$/u.test(next);
  return PICTOGRAPH.test(prev) || (/^[#*0-9]$/.test(prev) && next === '\u20e3');
}

/** How one character is shown: `\xNN` for a control (ESC is `\x1b`), `\u{XXXX}` for anything else. */
function escapeOf(c: string): string {
  const cp = c.codePointAt(0) ?? 0;
  return cp <= 0xff ? `\\x${cp.toString(16).padStart(2, '0')}` : `\\u{${cp.toString(16).toUpperCase()}}`;
}

/** Options of `visibleText`. */
export interface VisibleTextOptions {
  /** Keep line feeds and tabs as they are (a multi-line body); otherwise they are escaped too (one line). */
  lines?: boolean;
}

/**
 * `text` with every control, separator and invisible character replaced by a visible escape (file
 * comment): `"a\rb"` → `"a\\x0db"`, `"\u001b[2K"` → `"\\x1b[2K"`, `"x\u202Ey"` → `"x\\u{202E}y"`.
 * With `lines`, `\n` and `\t` stay. Visible characters, backslashes included, are kept as written.
 */
export function visibleText(text: string, opts: VisibleTextOptions = {}): string {
  return text.replace(ESCAPED, (c: string, offset: number, s: string) => {
    if (opts.lines && (c === '\n' || c === '\t')) return c;
    return isEmojiGlue(c, offset, s) ? c : escapeOf(c);
  });
}

/** True when `visibleText(text, opts)` is `text` itself: nothing in it would act or hide. */
export function isVisibleAsIs(text: string, opts: VisibleTextOptions = {}): boolean {
  return visibleText(text, opts) === text;
}
