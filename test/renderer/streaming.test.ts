/**
 * Streaming in the renderer: a streaming agent message is cut into markdown blocks so each delta
 * re-parses only the last one (features/chat/Items.tsx `streamingBlocks`), and deltas held for a frame
 * are merged per item (store/items.ts `mergeDeltas`).
 */
import { describe, expect, it } from 'vitest';
import { streamingBlocks } from '../../src/renderer/src/features/chat/Items';
import { mergeDeltas } from '../../src/renderer/src/store/items';

describe('streamingBlocks', () => {
  it('cuts at blank lines, and the blocks joined give the text back', () => {
    const text = 'First paragraph\nstill first.\n\nSecond **one**.\n\n\n# Heading\nLast';
    const blocks = streamingBlocks(text);
    expect(blocks).toEqual(['First paragraph\nstill first.\n', 'Second **one**.\n\n', '# Heading\nLast']);
    expect(blocks.join('\n')).toBe(text);
  });

  it('never cuts inside a fenced code block, with backticks or tildes, even an unclosed one', () => {
    const text = 'Intro\n\n```js\nconst a = 1;\n\nconst b = 2;\n```\n\nAfter\n\n~~~~\nx\n\n~~~\ny\n~~~~\n\nEnd\n\n```\nopen\n\nstill open';
    const blocks = streamingBlocks(text);
    expect(blocks).toEqual([
      'Intro\n',
      '```js\nconst a = 1;\n\nconst b = 2;\n```\n',
      'After\n',
      '~~~~\nx\n\n~~~\ny\n~~~~\n',
      'End\n',
      '```\nopen\n\nstill open',
    ]);
    expect(blocks.join('\n')).toBe(text);
  });

  it('does not cut before an indented line (a list item continued, indented code)', () => {
    const text = '- item one\n\n  more of item one\n\n- item two\n\n    code line\n\nText';
    expect(streamingBlocks(text)).toEqual(['- item one\n\n  more of item one\n', '- item two\n\n    code line\n', 'Text']);
  });

  it('keeps an empty or one-line text whole', () => {
    expect(streamingBlocks('')).toEqual(['']);
    expect(streamingBlocks('just text')).toEqual(['just text']);
    expect(streamingBlocks('\n\nafter blank start')).toEqual(['\n\nafter blank start']);
  });
});

describe('mergeDeltas', () => {
  it('joins consecutive deltas of one item and field in order, and keeps the others apart and in order', () => {
    const d = (itemId: string, field: 'text' | 'output', delta: string, chatId = 'c') => ({ chatId, itemId, field, delta });
    expect(mergeDeltas([d('a', 'text', 'He'), d('a', 'text', 'llo'), d('b', 'output', '$ ls\n'), d('a', 'text', '!'), d('a', 'text', '?', 'other')])).toEqual([
      d('a', 'text', 'Hello'),
      d('b', 'output', '$ ls\n'),
      d('a', 'text', '!'),
      d('a', 'text', '?', 'other'),
    ]);
    expect(mergeDeltas([])).toEqual([]);
  });
});
