/**
 * Thumbnails of images given to the agent (docs/architecture.md "Images as input"): the ones waiting in
 * the composer for the next message (each with ×, or why it was refused), and the ones a user message
 * carried. The renderer reads no file: a waiting image is the pasted or dropped file as a `data:` URL; a
 * sent one is Angelia's private copy, read by the core (`chats:image`) and shown as a `data:` URL, which
 * is all the CSP's img-src allows besides the app itself.
 */
import { useEffect, useState, type ReactElement } from 'react';
import type { ImageRef } from '../../../../shared/images';
import { useSession } from '../../api/session';
import { withSlice } from '../../store/app';
import type { ImageDraft } from '../../store/composer';
import { removeImage } from '../../store/composerImages';
import { update, useAppStore } from '../../store/store';

const NO_DRAFTS: ImageDraft[] = [];

/** The images waiting in chat `chatId`'s composer; nothing when there are none. */
export function ComposerImages({ chatId }: { chatId: string }): ReactElement | null {
  const drafts = useAppStore((s) => s.composer.images[chatId] ?? NO_DRAFTS);
  return <ImageDraftsView drafts={drafts} onRemove={(id) => update((s) => withSlice(s, 'composer', removeImage(s.composer, chatId, id)))} />;
}

/** Waiting images as thumbnails (pure): × calls `onRemove` with the image's id; nothing when there are none. */
export function ImageDraftsView({ drafts, onRemove }: { drafts: readonly ImageDraft[]; onRemove: (id: number) => void }): ReactElement | null {
  if (drafts.length === 0) return null;
  return (
    <ul className="image-drafts" data-testid="image-drafts" aria-label="Images to send">
      {drafts.map((d) => (
        <li key={d.id} className={`image-draft image-${d.status}`} data-testid="image-draft" data-status={d.status} title={d.message ?? d.name}>
          {d.preview ? <img src={d.preview} alt={d.name} /> : <span className="image-refused-text">Not attached: {d.message}</span>}
          {d.status === 'sending' && <span className="image-busy">Attaching…</span>}
          {d.status !== 'sending' && (
            <button type="button" className="chip-x" aria-label={`Remove ${d.name}`} data-testid="image-remove" onClick={() => onRemove(d.id)}>
              ×
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}

/** Thumbnails already read, by `<chatId>\n<path>` (a copy never changes once written). */
const loaded = new Map<string, string>();

/** One sent image: its thumbnail once the core answered, else its name (and why it cannot be shown). */
function SentImage({ chatId, image }: { chatId: string; image: ImageRef }): ReactElement {
  const session = useSession();
  const key = `${chatId}\n${image.path}`;
  const [url, setUrl] = useState<string | null>(loaded.get(key) ?? null);
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    if (loaded.has(key)) return;
    let live = true;
    void session.image(chatId, image.path).then((r) => {
      if (!live) return;
      if (!r.ok) return setFailed(r.error.message);
      const data = `data:${r.value.mime};base64,${r.value.dataBase64}`;
      loaded.set(key, data);
      setUrl(data);
    });
    return () => {
      live = false;
    };
  }, [session, chatId, image.path, key]);
  return (
    <li className="sent-image" data-testid="sent-image" title={failed ?? image.name}>
      {url ? <img src={url} alt={image.name} /> : <span className="sent-image-name">{failed ? `${image.name} (not shown: ${failed})` : image.name}</span>}
    </li>
  );
}

/** The images a user message gave the agent. */
export function UserImages({ chatId, images }: { chatId: string; images: readonly ImageRef[] }): ReactElement {
  return (
    <ul className="sent-images" data-testid="sent-images">
      {images.map((i) => (
        <SentImage key={i.path} chatId={chatId} image={i} />
      ))}
    </ul>
  );
}
