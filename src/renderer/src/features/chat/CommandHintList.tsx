/**
 * The small list of chat commands shown above the composer while a "/command" is being typed: each
 * with its arguments and one line on what it does. Picking one fills the composer; the core answers
 * the command once it is sent. (The composer's tip under the list says how to send text that begins
 * with "/" instead.)
 */
import type { ReactElement } from 'react';
import type { CommandHint } from './commands';

/** The hint list. `active` is the highlighted row (Tab or Enter picks it); `onPick` fills the composer. */
export function CommandHintList({ hints, active, onPick }: { hints: readonly CommandHint[]; active: number; onPick: (h: CommandHint) => void }): ReactElement {
  return (
    <ul className="command-hints" data-testid="command-hints" role="listbox" aria-label="Commands">
      {hints.map((h, i) => (
        <li
          key={h.name}
          role="option"
          aria-selected={i === active}
          className={`command-hint${i === active ? ' active' : ''}`}
          data-testid="command-hint"
          data-command={h.name}
          // mousedown, not click: the textarea keeps the focus.
          onMouseDown={(e) => {
            e.preventDefault();
            onPick(h);
          }}
        >
          <code className="command-hint-name">/{h.name}</code>
          {h.args && <code className="command-hint-args"> {h.args}</code>}
          <span className="command-hint-desc">{h.description}</span>
        </li>
      ))}
      <li className="command-hints-foot meta" aria-hidden="true">
        Tab picks · Enter sends a full command · answered by Angelia, no model tokens
      </li>
    </ul>
  );
}
