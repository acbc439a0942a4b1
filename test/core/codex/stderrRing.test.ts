import { describe, expect, it } from 'vitest';
import { StderrRing } from '../../../src/main/core/codex/stderrRing';

describe('StderrRing', () => {
  it('keeps the last lines, without ANSI colour codes, CR or blank lines', () => {
    const ring = new StderrRing(1024);
    ring.push(Buffer.from('\u001b[2m2026-11-30T18:52:48Z\u001b[0m \u001b[31mERROR\u001b[0m codex: one\r\n\n'));
    ring.push(Buffer.from('Error: two\nStack backtrace:\n'));
    expect(ring.tail(2)).toBe('Error: two\nStack backtrace:');
    expect(ring.tail(10)).toBe('2026-11-30T18:52:48Z ERROR codex: one\nError: two\nStack backtrace:');
  });

  it('stays within its budget and never starts with half a surrogate pair', () => {
    const ring = new StderrRing(10);
    for (let i = 0; i < 50; i++) ring.push(Buffer.from('😀😀😀\n'));
    const text = ring.text();
    expect(text.length).toBeLessThanOrEqual(10);
    const first = text.charCodeAt(0);
    expect(first >= 0xdc00 && first <= 0xdfff).toBe(false);
    expect(text.endsWith('😀😀😀\n')).toBe(true);
  });

  it('decodes a character split across chunks and flushes a truncated one as U+FFFD at the end', () => {
    const ring = new StderrRing(100);
    const bytes = Buffer.from('猫', 'utf8');
    ring.push(bytes.subarray(0, 1));
    ring.push(bytes.subarray(1));
    ring.push(Buffer.from([0xf0, 0x9f]));
    ring.end();
    expect(ring.text()).toBe('猫\ufffd');
  });
});
