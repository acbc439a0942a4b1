/**
 * The managed block of `<cwd>/CLAUDE.md` (written by compile): between two `angelia:self` markers,
 * compile keeps one line per allowed capability that has something to say (a command to run, an MCP
 * server, a folder, a skill — each with its `when`). Everything outside the markers is the user's and
 * is kept byte for byte. A broken marker pair, or a CLAUDE.md that is a link or has another hard link,
 * refuses. Codex reads CLAUDE.md through `project_doc_fallback_filenames`, but reads AGENTS.md instead
 * when one exists, hence the note. Pure.
 */
import type { LoadedTable, ResolvedProfile } from '../table/load';
import { allowedCapabilities } from '../table/types';
import type { FileState } from './snapshotTypes';

/** The file compile keeps a block in, relative to the profile's folder. */
export const CLAUDE_MD = 'CLAUDE.md';
/** The file Codex reads first (then CLAUDE.md is ignored). */
export const AGENTS_MD = 'AGENTS.md';
/** The opening marker line. */
export const BLOCK_BEGIN = '<!-- angelia:self begin (kept by angelia compile: edit the table, not these lines) -->';
/** The closing marker line. */
export const BLOCK_END = '<!-- angelia:self end -->';

const MARKER = /<!--\s*angelia:self\s+(begin|end)\b/;

function sentence(s: string): string {
  return s.trim().replace(/[.\s]+$/, '');
}

/** The block's lines for `profile` (without the markers); [] when no capability needs a line. */
export function blockLines(table: Pick<LoadedTable, 'capabilities'>, profile: ResolvedProfile): string[] {
  const lines: string[] = [];
  for (const cap of allowedCapabilities(table, profile)) {
    if (cap.kind === 'command') lines.push(`- ${cap.name}: run \`${cap.run}\` when ${sentence(cap.when)}.`);
    else if (cap.when === null) continue;
    else if (cap.kind === 'mcp') lines.push(`- ${cap.name} (MCP server): ${sentence(cap.when)}.`);
    else if (cap.kind === 'directory') lines.push(`- ${cap.name} (folder ${cap.path}): ${sentence(cap.when)}.`);
    else lines.push(`- ${cap.name} (skill /${cap.name}): ${sentence(cap.when)}.`);
  }
  return lines.length > 0 ? ['Capabilities Angelia gives you in this folder:', ...lines] : [];
}

/** Where the block is in a text: line indexes of the markers, none, or broken (with why). */
export type BlockPosition = { kind: 'none' } | { kind: 'block'; begin: number; end: number } | { kind: 'broken'; why: string };

/** Finds the marker pair in `text` (split on `\n`). */
export function findBlock(text: string): BlockPosition {
  const lines = text.split('\n');
  const begins: number[] = [];
  const ends: number[] = [];
  lines.forEach((line, i) => {
    const m = MARKER.exec(line);
    if (m) (m[1] === 'begin' ? begins : ends).push(i);
  });
  if (begins.length === 0 && ends.length === 0) return { kind: 'none' };
  if (begins.length !== 1 || ends.length !== 1)
    return { kind: 'broken', why: `${begins.length} begin and ${ends.length} end angelia:self markers (exactly one of each is needed)` };
  if (ends[0]! < begins[0]!) return { kind: 'broken', why: 'the angelia:self end marker comes before the begin marker' };
  return { kind: 'block', begin: begins[0]!, end: ends[0]! };
}

/** The lines between the markers of `text` (null when there is no intact block). */
export function readBlock(text: string): string[] | null {
  const pos = findBlock(text);
  return pos.kind === 'block' ? text.split('\n').slice(pos.begin + 1, pos.end) : null;
}

/** The result of placing the block into CLAUDE.md. */
export interface BlockPlan {
  /** New text, or null when the file stays as it is (or on a conflict). */
  text: string | null;
  op: 'create' | 'add' | 'replace' | 'remove' | 'none';
  conflicts: string[];
  notes: string[];
}

/**
 * Places `lines` (from `blockLines`) into the CLAUDE.md `current`: replaces the lines between the
 * markers, appends a new block (after a blank line), creates the file, or removes the block when
 * `lines` is empty. `agentsMd`: an AGENTS.md exists beside it.
 */
export function placeBlock(current: FileState, lines: readonly string[], agentsMd: boolean): BlockPlan {
  const notes = agentsMd
    ? [
        `${AGENTS_MD} exists: Codex reads it instead of ${CLAUDE_MD}, so this profile's ${CLAUDE_MD} (and its managed block) is not read; merge them and remove ${AGENTS_MD}`,
      ]
    : [];
  const refuse = (why: string): BlockPlan => ({ text: null, op: 'none', conflicts: [`${CLAUDE_MD} ${why}`], notes });
  if (current.state === 'link')
    return refuse(
      `is a link (to ${current.target}); Codex would read the file it points to into the agent's instructions: replace it with a plain file by hand`,
    );
  if (current.state === 'other') return refuse(`is ${current.what}, not a plain file; fix it by hand first`);
  if (current.state === 'error') return refuse(`cannot be read (${current.code}); fix it by hand first`);
  const block = [BLOCK_BEGIN, ...lines, BLOCK_END];
  if (current.state === 'missing') {
    return lines.length === 0 ? { text: null, op: 'none', conflicts: [], notes } : { text: `${block.join('\n')}\n`, op: 'create', conflicts: [], notes };
  }
  if (current.nlink > 1) return refuse(`has ${current.nlink} hard links; compile writes only files with one link: replace it with a copy by hand`);
  const pos = findBlock(current.text);
  if (pos.kind === 'broken') return refuse(`has a broken marker pair: ${pos.why}; fix the markers by hand first`);
  const all = current.text.split('\n');
  if (pos.kind === 'none') {
    if (lines.length === 0) return { text: null, op: 'none', conflicts: [], notes };
    const body = current.text.replace(/\n*$/, '');
    return { text: `${body}${body.length > 0 ? '\n\n' : ''}${block.join('\n')}\n`, op: 'add', conflicts: [], notes };
  }
  const inner = all.slice(pos.begin + 1, pos.end);
  if (lines.length === 0) {
    const before = all.slice(0, pos.begin);
    const after = all.slice(pos.end + 1);
    if (before.length > 0 && before[before.length - 1] === '' && (after.length === 0 || after[0] === '')) before.pop();
    return { text: [...before, ...after].join('\n'), op: 'remove', conflicts: [], notes };
  }
  if (inner.length === lines.length && inner.every((l, i) => l === lines[i])) return { text: null, op: 'none', conflicts: [], notes };
  return { text: [...all.slice(0, pos.begin + 1), ...lines, ...all.slice(pos.end)].join('\n'), op: 'replace', conflicts: [], notes };
}

/**
 * Notes for commands whose first two words also appear in CLAUDE.md outside the managed block (the
 * agent would read two instructions for one tool).
 */
export function duplicateNotes(table: Pick<LoadedTable, 'capabilities'>, profile: ResolvedProfile, current: FileState): string[] {
  if (current.state !== 'file') return [];
  const pos = findBlock(current.text);
  const all = current.text.split('\n');
  const outside = pos.kind === 'block' ? [...all.slice(0, pos.begin), ...all.slice(pos.end + 1)].join('\n') : current.text;
  const out: string[] = [];
  for (const cap of allowedCapabilities(table, profile)) {
    if (cap.kind !== 'command') continue;
    const words = cap.run.trim().split(/\s+/).slice(0, 2).join(' ');
    if (words && outside.includes(words))
      out.push(`duplicate: "${words}" (command ${cap.name}) also appears in ${CLAUDE_MD} outside the managed block; keep one of them`);
  }
  return out;
}
