/**
 * The composer: a textarea and Send. Enter sends, Shift+Enter adds a line. Disabled, with the reason,
 * when the chat's agent was refused or the link to Angelia is down.
 */
import { useState, type KeyboardEvent, type ReactElement } from 'react';
import type { ChatView } from '../../../../shared/contract';
import { useSession } from '../../api/session';
import { useAppStore } from '../../store/store';

/** Why sending is off for this chat, or null when it is on. */
export function sendBlockedReason(chat: ChatView, connected: boolean): string | null {
  if (chat.state === 'refused') return 'Sending is off: this agent was refused to start (the reason and the fix are above).';
  if (!connected) return 'Not connected to Angelia — reconnecting…';
  return null;
}

/** The composer of one chat. */
export function Composer({ chat }: { chat: ChatView }): ReactElement {
  const session = useSession();
  const connected = useAppStore((s) => s.connection === 'open');
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const blocked = sendBlockedReason(chat, connected);

  const send = async (): Promise<void> => {
    const body = text.trim();
    if (body === '' || blocked || sending) return;
    setSending(true);
    setNote(null);
    const r = await session.send(chat.id, body);
    setSending(false);
    if (!r.ok) {
      setNote(`Not sent: ${r.error.message}${r.error.fix ? ` — ${r.error.fix}` : ''}`);
      return;
    }
    setText('');
    if (r.value.queued > 0) setNote(`Queued (${r.value.queued} waiting): it goes in when the current turn ends.`);
  };

  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>): void => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void send();
    }
  };

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
      <div className="composer-row">
        <textarea
          data-testid="composer-input"
          value={text}
          rows={2}
          placeholder={blocked ? '' : chat.state === 'working' ? 'Message (queued until the turn ends)' : `Message ${chat.profile}`}
          disabled={blocked !== null}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKey}
          aria-label="Message"
        />
        <button type="button" className="btn primary" data-testid="send-button" disabled={blocked !== null || sending || text.trim() === ''} onClick={() => void send()}>
          Send
        </button>
      </div>
    </div>
  );
}
