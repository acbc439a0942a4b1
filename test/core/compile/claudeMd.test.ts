import { describe, expect, it } from 'vitest';
import { BLOCK_BEGIN, BLOCK_END, blockLines, duplicateNotes, placeBlock, readBlock } from '../../../src/main/core/compile/claudeMd';
import type { FileState } from '../../../src/main/core/compile/snapshot';
import { profile, tableOf } from './fixture';

const file = (text: string, nlink = 1): FileState => ({ state: 'file', text, nlink, mode: 0o644 });
const LINES = ['Capabilities Angelia gives you in this folder:', '- tests: run `npm test` when a change is finished.'];
const USER = '# Notes\n\nKeep this *exactly*.\n\n  trailing spaces  \n';

describe('CLAUDE.md managed block', () => {
  it('lines: one per capability with something to say, the when made a sentence', () => {
    const t = tableOf(profile('a', { allowed: ['dir', 'gh', 'quiet', 'sk', 'tests'] }));
    t.capabilities = {
      tests: { name: 'tests', kind: 'command', run: 'npm test', when: 'a change is finished.' },
      gh: { name: 'gh', kind: 'mcp', command: 'npx', args: [], url: null, env: [], when: 'you need issues', secrets: [] },
      quiet: { name: 'quiet', kind: 'mcp', command: 'x', args: [], url: null, env: [], when: null, secrets: [] },
      dir: { name: 'dir', kind: 'directory', path: '/h/site', when: 'you publish' },
      sk: { name: 'sk', kind: 'skill', path: '/h/sk', when: 'a login asks for a code', secrets: [] },
    };
    expect(blockLines(t, t.profiles.a!)).toEqual([
      'Capabilities Angelia gives you in this folder:',
      '- dir (folder /h/site): you publish.',
      '- gh (MCP server): you need issues.',
      '- sk (skill /sk): a login asks for a code.',
      '- tests: run `npm test` when a change is finished.',
    ]);
    expect(blockLines(t, profile('b'))).toEqual([]);
  });

  it('round trip: added after the user text, read back, replaced, removed — the user text kept byte for byte', () => {
    const added = placeBlock(file(USER), LINES, false);
    expect(added.op).toBe('add');
    expect(added.text).toBe(`${USER.replace(/\n*$/, '')}\n\n${BLOCK_BEGIN}\n${LINES.join('\n')}\n${BLOCK_END}\n`);
    expect(readBlock(added.text!)).toEqual(LINES);
    expect(placeBlock(file(added.text!), LINES, false)).toMatchObject({ op: 'none', text: null });
    const edited = `${added.text!}\nMore notes after the block.\n`;
    const changed = placeBlock(file(edited), [...LINES, '- more: x.'], false);
    expect(changed.op).toBe('replace');
    expect(readBlock(changed.text!)).toEqual([...LINES, '- more: x.']);
    expect(changed.text!.replace(/<!-- angelia:self begin[\s\S]*<!-- angelia:self end -->\n/, '')).toBe(
      edited.replace(/<!-- angelia:self begin[\s\S]*<!-- angelia:self end -->\n/, ''),
    );
    const removed = placeBlock(file(added.text!), [], false);
    expect(removed.op).toBe('remove');
    expect(removed.text).toBe(USER.replace(/\n*$/, '\n'));
  });

  it('creates CLAUDE.md holding only the block, and leaves a file without lines alone', () => {
    expect(placeBlock({ state: 'missing' }, LINES, false)).toMatchObject({ op: 'create', text: `${BLOCK_BEGIN}\n${LINES.join('\n')}\n${BLOCK_END}\n` });
    expect(placeBlock({ state: 'missing' }, [], false)).toMatchObject({ op: 'none', text: null, conflicts: [] });
    expect(placeBlock(file(USER), [], false)).toMatchObject({ op: 'none', text: null, conflicts: [] });
  });

  it('a broken marker pair refuses', () => {
    for (const text of [
      `${BLOCK_BEGIN}\nx\n`,
      `x\n${BLOCK_END}\n`,
      `${BLOCK_END}\n${BLOCK_BEGIN}\n`,
      `${BLOCK_BEGIN}\n${BLOCK_END}\n${BLOCK_BEGIN}\n${BLOCK_END}\n`,
    ]) {
      const p = placeBlock(file(text), LINES, false);
      expect(p.text).toBeNull();
      expect(p.conflicts).toEqual([expect.stringMatching(/^CLAUDE\.md has a broken marker pair: .*; fix the markers by hand first$/)]);
    }
  });

  it('a CLAUDE.md that is a link, or has another hard link, refuses', () => {
    expect(placeBlock({ state: 'link', target: '/h/.ssh/id_rsa' }, LINES, false).conflicts[0]).toContain('CLAUDE.md is a link (to /h/.ssh/id_rsa)');
    expect(placeBlock(file(USER, 2), LINES, false).conflicts[0]).toContain('CLAUDE.md has 2 hard links');
  });

  it('notes an AGENTS.md, which Codex reads instead', () => {
    expect(placeBlock(file(USER), LINES, true).notes).toEqual([expect.stringContaining('AGENTS.md exists: Codex reads it instead of CLAUDE.md')]);
  });

  it('notes a command whose first two words also appear outside the block', () => {
    const t = tableOf(profile('a', { allowed: ['tests'] }));
    t.capabilities = { tests: { name: 'tests', kind: 'command', run: 'npm test -- --watch', when: 'x' } };
    expect(duplicateNotes(t, t.profiles.a!, file('Run npm test before pushing.\n'))).toEqual([
      expect.stringMatching(/^duplicate: "npm test" \(command tests\)/),
    ]);
    expect(duplicateNotes(t, t.profiles.a!, file(`${BLOCK_BEGIN}\n- tests: run \`npm test\`\n${BLOCK_END}\n`))).toEqual([]);
  });
});
