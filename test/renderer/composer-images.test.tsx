/**
 * Images in the window (docs/architecture.md "Images as input"): the composer's waiting images (pure
 * transitions of store/composerImages.ts, the refusals of api/attachImages.ts), their thumbnails with ×,
 * Send enabled by images alone, and the thumbnails of a sent user message. Rendered to static HTML.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { imageRefusal } from '../../src/renderer/src/api/attachImages';
import { SessionContext, type Session } from '../../src/renderer/src/api/session';
import { ImageDraftsView } from '../../src/renderer/src/features/chat/ImageThumbs';
import { Item } from '../../src/renderer/src/features/chat/Items';
import { initialComposer, type ComposerSlice } from '../../src/renderer/src/store/composer';
import { canSend, imageAttached, imageRefused, imagesPending, imageStarted, readyImages, removeImage } from '../../src/renderer/src/store/composerImages';
import { MAX_IMAGE_BYTES } from '../../src/shared/images';
import { ok, err } from '../../src/shared/result';

const PREVIEW = 'data:image/png;base64,iVBORw0KGgo=';

describe('the composer images (pure)', () => {
  it('an image goes sending → ready, in order; a refusal keeps its words and fix', () => {
    let s: ComposerSlice = initialComposer;
    s = imageStarted(s, 'c', 1, 'a.png', PREVIEW);
    s = imageStarted(s, 'c', 2, 'b.png', PREVIEW);
    expect(imagesPending(s.images.c!)).toBe(true);
    s = imageAttached(s, 'c', 2, ok({ path: '/p/.inbox/b.png' }));
    s = imageAttached(s, 'c', 1, ok({ path: '/p/.inbox/a.png' }));
    expect(readyImages(s.images.c!)).toEqual(['/p/.inbox/a.png', '/p/.inbox/b.png']);
    expect(imagesPending(s.images.c!)).toBe(false);
    s = imageStarted(s, 'c', 3, 'c.png', PREVIEW);
    s = imageAttached(s, 'c', 3, err('attach-inbox', '.inbox is a symbolic link', { fix: 'remove it' }));
    expect(s.images.c![2]).toMatchObject({ status: 'refused', message: '.inbox is a symbolic link — remove it' });
    expect(readyImages(s.images.c!)).toHaveLength(2);
  });

  it('× removes one; after a send every image not still attaching goes; a removed one stays removed', () => {
    let s: ComposerSlice = initialComposer;
    s = imageStarted(s, 'c', 1, 'a.png', PREVIEW);
    s = imageAttached(s, 'c', 1, ok({ path: '/p/.inbox/a.png' }));
    s = imageRefused(s, 'c', 2, 'big.png', 'too big');
    s = imageStarted(s, 'c', 3, 'c.png', PREVIEW);
    expect(removeImage(s, 'c', 9)).toBe(s);
    const sent = removeImage(s, 'c');
    expect(sent.images.c!.map((d) => d.id)).toEqual([3]);
    const removed = removeImage(s, 'c', 3);
    expect(imageAttached(removed, 'c', 3, ok({ path: '/p/.inbox/c.png' }))).toBe(removed);
    expect(removeImage(initialComposer, 'c')).toBe(initialComposer);
  });

  it.each([
    ['a small image', 'a.png', 1000, 0, null],
    ['over 10 MiB', 'big.png', MAX_IMAGE_BYTES + 1, 0, 'big.png is 10.1 MB; images over 10 MB are refused'],
    ['an eleventh image', 'k.png', 10, 10, 'at most 10 images go with one message'],
    ['a name over 255 characters', `${'x'.repeat(252)}.png`, 10, 0, 'the file name is longer than 255 characters'],
  ])('imageRefusal: %s', (_name, name, size, waiting, want) => {
    expect(imageRefusal(name, size, waiting)).toBe(want);
  });
});

describe('rendered', () => {
  const session = {} as Session;
  it('the waiting images show as thumbnails with ×; one attaching has none; a refused one says why', () => {
    let s = imageStarted(initialComposer, 'demo', 1, 'shot.png', PREVIEW);
    s = imageAttached(s, 'demo', 1, ok({ path: '/p/.inbox/shot.png' }));
    s = imageStarted(s, 'demo', 2, 'next.png', PREVIEW);
    s = imageRefused(s, 'demo', 3, 'big.png', 'big.png is 12.0 MB; images over 10 MB are refused');
    const html = renderToStaticMarkup(<ImageDraftsView drafts={s.images.demo!} onRemove={() => {}} />);
    expect(html).toContain(`<img src="${PREVIEW}" alt="shot.png"/>`);
    expect(html.match(/data-testid="image-remove"/g)).toHaveLength(2);
    expect(html).toContain('aria-label="Remove shot.png"');
    expect(html).toContain('Attaching…');
    expect(html).toContain('Not attached: big.png is 12.0 MB; images over 10 MB are refused');
    expect(renderToStaticMarkup(<ImageDraftsView drafts={[]} onRemove={() => {}} />)).toBe('');
  });

  it.each([
    ['text alone', 'hi', [], true],
    ['nothing', '  ', [], false],
    ['a ready image and no text', '', ['ready'], true],
    ['a ready image and one still attaching', 'hi', ['ready', 'sending'], false],
    ['only a refused image', '', ['refused'], false],
  ] as const)('canSend: %s', (_name, text, states, want) => {
    let s: ComposerSlice = initialComposer;
    states.forEach((st, i) => {
      if (st === 'refused') s = imageRefused(s, 'c', i, 'x.png', 'no');
      else s = imageStarted(s, 'c', i, 'x.png', PREVIEW);
      if (st === 'ready') s = imageAttached(s, 'c', i, ok({ path: `/p/.inbox/${i}.png` }));
    });
    expect(canSend(text, s.images.c ?? [])).toBe(want);
  });

  it("a sent message's images are listed by name until the core's bytes arrive (chats:image)", () => {
    const html = renderToStaticMarkup(
      <SessionContext.Provider value={session}>
        <Item
          chatId="demo"
          item={{ type: 'user', id: 'u1', text: 'what is this?', via: 'turn', images: [{ path: '/s/private/images/u/shot.png', name: 'shot.png' }] }}
        />
      </SessionContext.Provider>,
    );
    expect(html).toContain('data-testid="sent-images"');
    expect(html).toContain('shot.png');
    expect(html).toContain('what is this?');
    const plain = renderToStaticMarkup(
      <SessionContext.Provider value={session}>
        <Item chatId="demo" item={{ type: 'user', id: 'u2', text: 'hi', via: 'turn' }} />
      </SessionContext.Provider>,
    );
    expect(plain).not.toContain('sent-images');
  });
});
