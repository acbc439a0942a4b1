/**
 * A chat's transcript, virtualized with react-virtuoso so a chat of thousands of items stays responsive:
 * only the items near the viewport are in the DOM. It opens at the end and follows new items and
 * streamed text while the reader is at the end (within 40 px); scrolling up stops the following until
 * the reader comes back down. An app turn (API `reply: "caller"`) is one folded, marked row (AppTurn.tsx).
 */
import { useCallback, useEffect, useMemo, useRef, type ReactElement } from 'react';
import { Virtuoso, type VirtuosoHandle } from 'react-virtuoso';
import type { ChatItem, ChatView } from '../../../../shared/contract';
import { useAppStore } from '../../store/store';
import { AppTurn } from './AppTurn';
import { groupAppTurns, restartableErrorId, type TranscriptEntry } from './describe';
import { Item } from './Items';

const NO_ITEMS: ChatItem[] = [];

/** How far from the end (px) the reader still counts as "at the end". */
const AT_END_PX = 40;

interface Context {
  chatId: string;
  restartable: string | null;
}

const itemKey = (_: number, entry: TranscriptEntry): string => entry.id;

function itemContent(_: number, entry: TranscriptEntry, ctx: Context): ReactElement {
  return (
    <div className="t-item">
      {entry.kind === 'app' ? (
        <AppTurn entry={entry} chatId={ctx.chatId} restartable={ctx.restartable} />
      ) : (
        <Item item={entry.item} chatId={ctx.chatId} canRestart={entry.item.id === ctx.restartable} />
      )}
    </div>
  );
}

/** The transcript of `chat` (mount one per chat: it starts at the end). */
export function Transcript({ chat }: { chat: ChatView }): ReactElement {
  const chatId = chat.id;
  const items = useAppStore((s) => s.items.byChat[chatId] ?? NO_ITEMS);
  const loaded = useAppStore((s) => s.items.loaded[chatId] === true);
  const list = useRef<VirtuosoHandle>(null);
  const scroller = useRef<HTMLElement | null>(null);
  const atEnd = useRef(true);
  const restartable = restartableErrorId(items, chat.state);
  const entries = useMemo(() => groupAppTurns(items), [items]);

  const lastTop = useRef(0);
  // Only the reader moving UP, away from the end, stops the following. A scroll event while the list
  // grows or is measured (the view moved down, or stayed, but the end moved further away) keeps it:
  // judged by distance alone, such an event could clear "at the end" with no reader involved, and the
  // view then stopped following new items for good (Virtuoso's own at-bottom state did not change back).
  const onScroll = useCallback(() => {
    const el = scroller.current;
    if (!el) return;
    const top = el.scrollTop;
    const near = el.scrollHeight - top - el.clientHeight < AT_END_PX;
    if (near) atEnd.current = true;
    else if (top < lastTop.current - 1) atEnd.current = false;
    lastTop.current = top;
  }, []);
  const setScroller = useCallback(
    (el: HTMLElement | Window | null) => {
      scroller.current?.removeEventListener('scroll', onScroll);
      scroller.current = el instanceof HTMLElement ? el : null;
      scroller.current?.addEventListener('scroll', onScroll, { passive: true });
    },
    [onScroll],
  );
  useEffect(() => () => scroller.current?.removeEventListener('scroll', onScroll), [onScroll]);
  // Streamed text and late measurements grow the list without a new item: stay at the end if the reader was there.
  const toEnd = useCallback(() => {
    requestAnimationFrame(() => {
      const el = scroller.current;
      if (el && atEnd.current && el.scrollHeight - el.scrollTop - el.clientHeight > 0.5) el.scrollTop = el.scrollHeight;
    });
  }, []);

  if (items.length === 0) {
    return (
      <div className="transcript" data-testid="transcript" data-count={0}>
        {chat.state !== 'refused' && <div className="empty">{loaded ? 'No messages yet. Say what you need, or type / for commands.' : 'Loading…'}</div>}
      </div>
    );
  }
  return (
    <div className="transcript" data-testid="transcript" data-count={items.length}>
      <Virtuoso
        ref={list}
        className="transcript-scroller"
        data={entries}
        context={{ chatId, restartable }}
        computeItemKey={itemKey}
        itemContent={itemContent}
        initialTopMostItemIndex={{ index: 'LAST', align: 'end' }}
        followOutput={(isAtBottom: boolean) => (isAtBottom || atEnd.current ? 'auto' : false)}
        atBottomThreshold={AT_END_PX}
        atBottomStateChange={(bottom: boolean) => {
          // Virtuoso's own measure of "at the end" (it knows when a height change, not the reader, moved the view).
          if (bottom) atEnd.current = true;
        }}
        totalListHeightChanged={toEnd}
        increaseViewportBy={{ top: 1600, bottom: 400 }}
        scrollerRef={setScroller}
      />
    </div>
  );
}
