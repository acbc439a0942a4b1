import { describe, expect, it } from 'vitest';
import { isVisibleAsIs, visibleText } from '../../src/shared/untrustedText';

describe('visibleText: what would act or hide becomes a visible escape', () => {
  const cases: [string, string, string, boolean?][] = [
    ['plain text is kept', 'ls -la ~/work', 'ls -la ~/work'],
    ['backslashes are kept as written', 'printf "a\\tb\\n"', 'printf "a\\tb\\n"'],
    ['carriage return', 'a\rb', 'a\\x0db'],
    ['ESC (a CSI erase-line)', '\u001b[2K', '\\x1b[2K'],
    ['backspace and BEL', 'x\u0008\u0007', 'x\\x08\\x07'],
    ['NUL and DEL', '\u0000\u007f', '\\x00\\x7f'],
    ['a C1 control (CSI as one byte, NEL)', '\u009b2K\u0085', '\\x9b2K\\x85'],
    ['a line feed on one line', 'a\nb', 'a\\x0ab'],
    ['a tab on one line', 'a\tb', 'a\\x09b'],
    ['line feed and tab in a multi-line text', 'a\n\tb', 'a\n\tb', true],
    ['carriage return even in a multi-line text', 'a\r\nb', 'a\\x0d\nb', true],
    ['right-to-left override and pop', 'ls #\u202e hs | lruc\u202c', 'ls #\\u{202E} hs | lruc\\u{202C}'],
    ['isolates and marks', '\u2066x\u2069\u200f', '\\u{2066}x\\u{2069}\\u{200F}'],
    ['zero-width space, BOM, soft hyphen', 'r\u200bm\ufeff-\u00adrf', 'r\\u{200B}m\\u{FEFF}-\\xadrf'],
    ['line and paragraph separators', 'a\u2028b\u2029c', 'a\\u{2028}b\\u{2029}c', true],
    ['a tag character', 'x\u{e0041}', 'x\\u{E0041}'],
    ['Hangul filler (default-ignorable)', 'a\u3164b', 'a\\u{3164}b'],
    ['an emoji ZWJ sequence is kept', '👩\u200d💻 done', '👩\u200d💻 done'],
    ['an emoji presentation selector is kept', '❤\ufe0f', '❤\ufe0f'],
    ['a keycap is kept', '1\ufe0f\u20e3', '1\ufe0f\u20e3'],
    ['a joiner between letters is not', 'a\u200db', 'a\\u{200D}b'],
    ['astral characters are kept whole', '🙂 ok', '🙂 ok'],
  ];
  it.each(cases)('%s', (_name, input, expected, lines) => {
    expect(visibleText(input, { lines })).toBe(expected);
    expect(isVisibleAsIs(input, { lines })).toBe(input === expected);
  });

  it('the escaped text holds no control or format character any more', () => {
    const all = Array.from({ length: 0x3000 }, (_, i) => String.fromCodePoint(i)).join('');
    // eslint-disable-next-line no-control-regex -- checking that none is left
    expect(visibleText(all)).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\p{Cf}]/u);
  });
});
