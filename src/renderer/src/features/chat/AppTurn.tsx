/**
 * An app turn folded into one row of the transcript (describe.ts `groupAppTurns`): a turn a program gave
 * this chat over the local API with `reply: "caller"`. It ran in the chat's thread, but its answer went
 * to that program, so it is not shown as a reply: one marked row, "App turn · <what it asked> · <status>",
 * open while it runs (an approval it needs stays in sight) and folded once it ended; opening it shows
 * the request and every item of the turn.
 */
import type { ReactElement } from 'react';
import { appTurnLine, type TranscriptEntry } from './describe';
import { Item } from './Items';

/** The folded row of one app turn of chat `chatId`. `restartable`: the id of the error item whose Restart is live. */
export function AppTurn({
  entry,
  chatId,
  restartable,
}: {
  entry: Extract<TranscriptEntry, { kind: 'app' }>;
  chatId: string;
  restartable: string | null;
}): ReactElement {
  const { asked, status } = appTurnLine(entry);
  return (
    <details className={`app-turn app-${status}`} data-testid="app-turn" data-status={status} open={entry.end === null}>
      <summary>
        <span className="badge app-badge">App turn</span> <span className="app-asked">{asked}</span>{' '}
        <span className="meta">· {status}, answer sent to the program that asked</span>
      </summary>
      <div className="app-turn-body">
        <div className="user" data-testid="user-message" data-via="app">
          {entry.user.text}
        </div>
        {entry.items.map((item) => (
          <Item key={item.id} item={item} chatId={chatId} canRestart={item.id === restartable} />
        ))}
      </div>
    </details>
  );
}
