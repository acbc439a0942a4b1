/**
 * The chat list's one-line preview of a chat's last line, as plain text: the line is Markdown (agent
 * replies are), so `**bold**`, `` `code` ``, links, headings and list markers are read by the same
 * CommonMark parser react-markdown uses (mdast-util-from-markdown, via remark-parse) and only their text
 * is kept. The core cuts the line at 120 characters, so an emphasis or code span may be left open: the
 * markers such a cut leaves behind are dropped too. Pure.
 */
import { fromMarkdown } from 'mdast-util-from-markdown';
import { toString } from 'mdast-util-to-string';

/** Marker runs that only survive parsing when left unclosed by a cut: `**`, `__`, `~~` and backticks. */
const LEFTOVER_MARKERS = /\*\*+|__+|~~+|`+/g;

/**
 * `markdown` as one line of plain text: the text of its inline content (link text, image alt, code
 * without backticks; raw HTML tags left out), whitespace collapsed. A line that is only markup (a rule
 * such as `---`) comes back as it was, collapsed; never throws.
 */
export function plainPreview(markdown: string): string {
  const collapsed = markdown.replace(/\s+/g, ' ').trim();
  if (collapsed === '') return '';
  let text: string;
  try {
    text = toString(fromMarkdown(collapsed), { includeHtml: false });
  } catch {
    text = collapsed;
  }
  const plain = text.replace(LEFTOVER_MARKERS, '').replace(/\s+/g, ' ').trim();
  return plain === '' ? collapsed : plain;
}
