/**
 * What the CLI prints of an agent's or an MCP server's text (docs/security-model.md "What an agent's text
 * can do on screen"): every such string goes through `visibleText` (src/shared/untrustedText.ts), so a
 * carriage return, backspace or ESC sequence in a command, reason or message is printed as `\x0d`,
 * `\x08`, `\x1b[2K` instead of erasing and redrawing the approval prompt, and a bidi override as
 * `\u{202E}` instead of reordering it. A multi-line text keeps its lines, each further one behind a
 * gutter (`│`), so no line of it can pass for another field of the prompt. Pure.
 */
import type { ApprovalView } from '../../shared/contract';
import { visibleText } from '../../shared/untrustedText';

/** The gutter in front of each further line of a multi-line field. */
export const GUTTER = '│ ';

/**
 * `text` made safe for a terminal (visibleText, line feeds and tabs kept), each line after the first
 * starting with `indent` and the gutter.
 */
export function terminalText(text: string, indent = '  '): string {
  return visibleText(text, { lines: true }).split('\n').join(`\n${indent}${GUTTER}`);
}

/** One line of untrusted text for a terminal: line feeds and tabs escaped too. */
export function terminalLine(text: string): string {
  return visibleText(text);
}

/**
 * A pending request as `angelia run --approve ask` shows it before its `[y]es / [n]o` prompt: the
 * kind and title, the command, folder and reason, each change with its diff, the access asked and
 * refused; every string from the agent or a server escaped (terminalText).
 */
export function describeApproval(v: ApprovalView): string {
  const lines = [`approval requested (${v.kind}): ${terminalLine(v.title)}`];
  if (v.command) lines.push(`  command: ${terminalText(v.command, '    ')}`);
  if (v.cwd) lines.push(`  cwd: ${terminalLine(v.cwd)}`);
  if (v.reason) lines.push(`  reason: ${terminalText(v.reason, '    ')}`);
  for (const c of v.changes)
    lines.push(
      `  ${terminalLine(c.kind)} ${terminalLine(c.path)}\n${c.diff
        .split('\n')
        .map((l) => `    ${visibleText(l, { lines: true })}`)
        .join('\n')}`,
    );
  if (v.requested)
    lines.push(
      ...v.requested.write.map((w) => `  + write ${terminalLine(w)}, this turn only`),
      ...v.requested.read.map((r) => `  + read ${terminalLine(r)}, this turn only`),
    );
  for (const r of v.refused ?? []) lines.push(`  ✗ ${r.access} ${terminalLine(r.path)}: never granted (${terminalLine(r.why)})`);
  return lines.join('\n');
}
