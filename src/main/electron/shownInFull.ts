/**
 * Whether the tray or a notification shows a request in full (docs/security-model.md "What an agent's
 * text can do on screen"). A positive answer — Allow, or a question's option — is offered there only when
 * everything the request says (its command, folder, paths, reason, question and options; the title is a
 * summary the core makes of those) is shown unchanged: nothing cut, nothing escaped (an invisible or
 * control character: src/shared/untrustedText.ts), no run of blanks that could push the rest out of
 * sight. Otherwise only Deny (Skip, Decline) and "Show in window…". Pure; no Electron.
 */
import { isVisibleAsIs, visibleText } from '../../shared/untrustedText';

/** Longest run of spaces or tabs a request may hold and still be judged outside the window. */
export const MAX_BLANK_RUN = 16;

/** What the tray or a notification says when a request is not shown in full. */
export const NOT_IN_FULL = 'Not shown in full here: open it in Angelia to see all of it.';

/** The prefix of a question's option on a button or tray row, so no option reads as an approval's Allow. */
export const OPTION_PREFIX = 'Answer: ';

/**
 * True when `text` (a request's detail, `\n`-separated lines) can be judged as shown: visible as it is
 * (`isVisibleAsIs`, line feeds and tabs allowed), no run of more than `MAX_BLANK_RUN` spaces or tabs,
 * and never two blank lines in a row.
 */
export function judgeable(text: string): boolean {
  if (!isVisibleAsIs(text, { lines: true })) return false;
  if (new RegExp(`[ \\t]{${MAX_BLANK_RUN + 1}}`).test(text)) return false;
  return !/\n[ \t]*\n[ \t]*\n/.test(text);
}

/** A text as tray rows: the rows, and whether they show it in full. */
export interface Rows {
  rows: string[];
  /** True when every line is there unchanged (judgeable, nothing cut). */
  complete: boolean;
}

/**
 * `text` as one-line rows of at most `width` code points (pure): each line escaped (`visibleText`),
 * a longer line wrapped onto further rows (cut between code points, never inside a surrogate pair), at
 * most `maxRows` rows. `complete` is false when a row was left out or the text is not `judgeable`;
 * the caller then says so (`NOT_IN_FULL`) and offers no positive answer.
 */
export function wrapRows(text: string, width: number, maxRows: number): Rows {
  const rows: string[] = [];
  let cut = false;
  for (const line of text.split('\n')) {
    const points = Array.from(visibleText(line));
    for (let i = 0; i < Math.max(points.length, 1) && !cut; i += width) {
      if (rows.length === maxRows) cut = true;
      else rows.push(points.slice(i, i + width).join(''));
    }
    if (cut) break;
  }
  return { rows, complete: !cut && judgeable(text) };
}
