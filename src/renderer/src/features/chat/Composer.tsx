/**
 * The composer: a textarea, Send (Queue while a turn runs) and, while a turn runs, Steer. Enter sends
 * (into the queue when a turn runs), Ctrl/Cmd+Enter steers into the running turn, Shift+Enter adds a
 * line. The text goes as typed, leading spaces and all (only the blank end is dropped, such as the
 * space after an attached file's path); an all-blank text is not sent. Typing
 * "/" shows the chat commands, and a "/" text that names none says to start it with "//". Disabled, with the reason, when the chat's agent was
 * refused or the link to Angelia is down. The text is kept per chat in the store; files dropped on the
 * chat show one line each above it ("Attached → .inbox/x.txt") and their paths go into the text. Above
 * the row, the chat's context meter (tokens, how full; from 90 % a button that sends /compact). A pasted
 * or dropped image waits above the text as a thumbnail (× removes it) and goes with the next message as
 * an image the agent sees (ImageThumbs.tsx, api/attachImages.ts); a message may then have no text.
 */
import { useRef, useState, type ClipboardEvent, type KeyboardEvent, type ReactElement } from 'react';
import type { ChatView } from '../../../../shared/contract';
import { useSession } from '../../api/session';
import { withSlice } from '../../store/app';
import { clearAttached, setText as setComposerText, type AttachLine, type ImageDraft } from '../../store/composer';
import { canSend, readyImages, removeImage } from '../../store/composerImages';
import { update, useAppStore } from '../../store/store';
import { pausedText } from '../../../../shared/usageText';
import { ContextMeterView } from '../usage/Meters';
import { useNow } from '../usage/useNow';
import { CommandHintList } from './CommandHintList';
import { ComposerImages } from './ImageThumbs';
import { COMMAND_HINTS, commandHints, completeCommand, slashTip, type CommandHint } from './commands';
import { turnRunning } from './describe';

/** Why sending is off for this chat, or null when it is on. */
export function sendBlockedReason(chat: ChatView, connected: boolean): string | null {
  if (chat.state === 'refused') return 'Sending is off: this agent was refused to start (the reason and the fix are above).';
  if (!connected) return 'Not connected to Angelia — reconnecting…';
  return null;
}

/**
 * The line under the composer saying what waits in the queue; null when nothing does. The steer hint
 * only while a turn runs (`canSteer`): a turn still starting cannot be steered. `paused` ("paused until
 * 14:05", src/shared/usageText.ts `pausedText`) while the account's usage limit holds the queue: then
 * it waits for the reset, not for a turn (docs/architecture.md "Usage").
 */
export function queuedLine(queued: number, canSteer = true, paused: string | null = null): string | null {
  if (queued <= 0) return null;
  const when = paused ? `the usage limit resets (${paused})` : 'the current turn ends';
  return `${queued} queued — ${queued === 1 ? 'it goes' : 'they go'} in when ${when}.${canSteer ? ' Ctrl+Enter steers into the running turn instead.' : ''}`;
}

const isFullCommand = (text: string): boolean => COMMAND_HINTS.some((c) => `/${c.name}` === text.trimEnd().toLowerCase());

/** True when `text` has something to send (an all-blank text is never sent; anything else goes as typed). */
export function sendable(text: string): boolean {
  return text.trim() !== '';
}

/** What is sent for the composer's `text`: as typed, with only the trailing blanks dropped (the start is never touched). */
export function outgoing(text: string): string {
  return text.trimEnd();
}

const NO_LINES: AttachLine[] = [];
const NO_IMAGES: ImageDraft[] = [];

function AttachLines({ chatId }: { chatId: string }): ReactElement | null {
  const lines = useAppStore((s) => s.composer.attached[chatId] ?? NO_LINES);
  if (lines.length === 0) return null;
  return (
    <ul className="attach-lines" data-testid="attach-lines">
      {lines.map((l) => (
        <li key={l.id} className={`attach-line attach-${l.status}`} data-testid="attach-line" data-status={l.status}>
          {l.status === 'sending' && <span>Attaching {l.name}…</span>}
          {l.status === 'attached' && (
            <span>
              Attached → <code>{l.path}</code>
            </span>
          )}
          {l.status === 'refused' && <span>Not attached: {l.message}</span>}
          {l.status !== 'sending' && (
            <button
              type="button"
              className="chip-x"
              aria-label="Dismiss"
              onClick={() => update((s) => withSlice(s, 'composer', clearAttached(s.composer, chatId, l.id)))}
            >
              ×
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}

/** The composer of one chat. */
export function Composer({ chat }: { chat: ChatView }): ReactElement {
  const session = useSession();
  const connected = useAppStore((s) => s.connection === 'open');
  const text = useAppStore((s) => s.composer.text[chat.id] ?? '');
  const drafts = useAppStore((s) => s.composer.images[chat.id] ?? NO_IMAGES);
  const images = readyImages(drafts);
  const setText = (next: string): void => update((s) => withSlice(s, 'composer', setComposerText(s.composer, chat.id, next)));
  const [sending, setSending] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const [active, setActive] = useState(0);
  const [hintsClosed, setHintsClosed] = useState(false);
  const input = useRef<HTMLTextAreaElement>(null);
  const blocked = sendBlockedReason(chat, connected);
  const running = turnRunning(chat);
  const hints = blocked || hintsClosed ? [] : commandHints(text);
  const tip = blocked ? null : slashTip(text);
  const now = useNow();
  const queued = queuedLine(chat.queued, running, pausedText(chat.pausedUntil, now));

  const edit = (next: string): void => {
    setText(next);
    setActive(0);
    setHintsClosed(false);
  };

  const pick = (h: CommandHint): void => {
    edit(completeCommand(h));
    input.current?.focus();
  };

  const send = async (steer: boolean): Promise<void> => {
    if (!canSend(text, drafts) || blocked || sending) return;
    setSending(true);
    setNote(null);
    // As typed: " /x" and "//x" mean something to the core, so only the blank end goes.
    const r = await session.send(chat.id, sendable(text) ? outgoing(text) : '', { steer: steer && running, images });
    setSending(false);
    if (!r.ok) {
      setNote(`Not sent: ${r.error.message}${r.error.fix ? ` — ${r.error.fix}` : ''}`);
      return;
    }
    edit('');
    update((s) => withSlice(s, 'composer', removeImage(clearAttached(s.composer, chat.id), chat.id)));
    if (steer && running && !r.value.steered && !r.value.command) setNote('The turn could not take it; it waits in the queue as the next message.');
  };

  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>): void => {
    if (e.nativeEvent.isComposing) return;
    const choice = hints[active] ?? hints[0];
    if (hints.length > 0 && (e.key === 'ArrowDown' || e.key === 'ArrowUp')) {
      e.preventDefault();
      setActive((a) => (a + (e.key === 'ArrowDown' ? 1 : hints.length - 1)) % hints.length);
      return;
    }
    if (hints.length > 0 && e.key === 'Escape') {
      e.preventDefault();
      setHintsClosed(true);
      return;
    }
    if (choice && (e.key === 'Tab' || (e.key === 'Enter' && !e.shiftKey && !isFullCommand(text)))) {
      e.preventDefault();
      pick(choice);
      return;
    }
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      void send(e.ctrlKey || e.metaKey);
    }
  };

  // A pasted image (or file) is attached like a dropped one; a plain-text paste is left to the textarea.
  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>): void => {
    const files = Array.from(e.clipboardData.files);
    if (files.length === 0 || blocked) return;
    e.preventDefault();
    void session.attach(chat.id, files);
  };

  const disabled = blocked !== null || sending || !canSend(text, drafts);
  return (
    <div className="composer">
      {blocked && (
        <div className="composer-blocked" data-testid="composer-blocked">
          {blocked}
        </div>
      )}
      {note && (
        <div className="composer-note" data-testid="composer-note" role="status">
          {note}
        </div>
      )}
      {queued && (
        <div className="composer-note composer-queued" data-testid="composer-queued" role="status">
          {queued}
        </div>
      )}
      <AttachLines chatId={chat.id} />
      <ComposerImages chatId={chat.id} />
      {hints.length > 0 && <CommandHintList hints={hints} active={Math.min(active, hints.length - 1)} onPick={pick} />}
      {tip && (
        <div className="composer-note composer-tip meta" data-testid="slash-tip" role="status">
          {tip}
        </div>
      )}
      <ContextMeterView usage={chat.usage} canCompact={blocked === null} onCompact={() => void session.send(chat.id, '/compact')} />
      <div className="composer-row">
        <textarea
          ref={input}
          data-testid="composer-input"
          value={text}
          rows={2}
          placeholder={
            blocked ? '' : running ? 'Enter queues it for the next turn · Ctrl+Enter steers it into this one' : `Message ${chat.profile}, or / for commands`
          }
          disabled={blocked !== null}
          onChange={(e) => edit(e.target.value)}
          onKeyDown={onKey}
          onPaste={onPaste}
          aria-label="Message"
        />
        <div className="composer-buttons">
          {running && (
            <button
              type="button"
              className="btn steer"
              data-testid="steer-button"
              disabled={disabled}
              title="Send into the running turn (Ctrl+Enter)"
              onClick={() => void send(true)}
            >
              Steer
            </button>
          )}
          <button
            type="button"
            className="btn primary"
            data-testid="send-button"
            disabled={disabled}
            title={running ? 'Queue for when the turn ends (Enter)' : 'Send (Enter)'}
            onClick={() => void send(false)}
          >
            {running ? 'Queue' : 'Send'}
          </button>
        </div>
      </div>
    </div>
  );
}
