/**
 * The one image sniff (src/shared/images.ts): the type by the file's first bytes, never by its name;
 * and the contract's `chats:send` shape with images (text may then be empty, never both missing).
 */
import { describe, expect, it } from 'vitest';
import { IMAGE_TYPES, sniffImage, SNIFF_BYTES } from '../../src/shared/images';
import { invokeTable } from '../../src/shared/contract';

const bytes = (...parts: (number[] | string)[]): Uint8Array =>
  Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? [...Buffer.from(p, 'latin1')] : p)));

describe('sniffImage', () => {
  it.each([
    ['png', bytes([0x89], 'PNG', [0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), 'image/png'],
    ['jpeg', bytes([0xff, 0xd8, 0xff, 0xe0, 0, 16], 'JFIF'), 'image/jpeg'],
    ['gif87a', bytes('GIF87a', [1, 0, 1, 0]), 'image/gif'],
    ['gif89a', bytes('GIF89a', [1, 0, 1, 0]), 'image/gif'],
    ['webp', bytes('RIFF', [36, 0, 0, 0], 'WEBPVP8 '), 'image/webp'],
    ['text named .png', bytes('not an image at all'), null],
    ['RIFF but not WebP', bytes('RIFF', [36, 0, 0, 0], 'WAVEfmt '), null],
    ['GIF of another version', bytes('GIF90a', [1, 0]), null],
    ['a PNG signature cut short', bytes([0x89], 'PNG', [0x0d, 0x0a]), null],
    ['empty', bytes(), null],
    ['svg (not given to the agent)', bytes('<svg xmlns="http://www.w3.org/2000/svg">'), null],
  ])('%s', (_name, data, want) => {
    expect(sniffImage(data)).toBe(want);
  });

  it('needs no more than SNIFF_BYTES bytes and answers only listed types', () => {
    const webp = bytes('RIFF', [36, 0, 0, 0], 'WEBPVP8 ');
    expect(sniffImage(webp.slice(0, SNIFF_BYTES))).toBe('image/webp');
    expect(IMAGE_TYPES).toEqual(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
  });
});

describe('chats:send with images', () => {
  const input = invokeTable['chats:send'].input;
  it.each([
    ['text alone', { chatId: 'c', text: 'hi' }, true],
    ['images with text', { chatId: 'c', text: 'look', images: ['/p/.inbox/a.png'] }, true],
    ['images with no text', { chatId: 'c', text: '', images: ['/p/.inbox/a.png'] }, true],
    ['no text, no images', { chatId: 'c', text: '' }, false],
    ['an empty image list', { chatId: 'c', text: 'x', images: [] }, false],
    ['eleven images', { chatId: 'c', text: 'x', images: Array.from({ length: 11 }, (_, i) => `/p/.inbox/${i}.png`) }, false],
    ['an unknown key', { chatId: 'c', text: 'x', image: '/p/a.png' }, false],
  ])('%s', (_name, value, ok) => {
    expect(input.safeParse(value).success).toBe(ok);
  });
});
