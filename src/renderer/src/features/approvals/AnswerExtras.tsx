/**
 * What may go with an answer: the grant checkboxes of a permissions request (every folder, and network,
 * checked at first; Allow grants what stays checked) and the "Deny with a reason…" field (the reason
 * reaches the agent after the decline). Also the lines a settled card shows: what was granted, and the
 * reason given.
 */
import { useState, type KeyboardEvent, type ReactElement } from 'react';
import type { ApprovalView } from '../../../../shared/contract';
import { grantedLines, type AccessLine } from './describe';

/** The longest reason the core accepts (the contract's `approvals:answer` limit). */
export const MAX_REASON = 4000;

/** One checkbox per requested entry; `unchecked` holds the keys the user cleared. */
export function GrantPicker({
  lines,
  unchecked,
  onToggle,
  disabled,
}: {
  lines: AccessLine[];
  unchecked: ReadonlySet<string>;
  onToggle: (key: string) => void;
  disabled: boolean;
}): ReactElement {
  return (
    <fieldset className="grant-picker" data-testid="grant-picker">
      <legend className="meta">Allow grants what stays checked:</legend>
      {lines.map((l) => (
        <label key={l.key} className={`grant-option ${l.sign === '+' ? 'diff-add' : 'diff-ctx'}`} data-testid="grant-option" data-key={l.key}>
          <input type="checkbox" checked={!unchecked.has(l.key)} disabled={disabled} onChange={() => onToggle(l.key)} />
          <code>
            {l.sign} {l.text}
          </code>
        </label>
      ))}
    </fieldset>
  );
}

/** The reason field of "Deny with a reason…": Enter (or the button) denies with it, Escape closes it. */
export function DenyReasonForm({ busy, onDeny, onClose }: { busy: boolean; onDeny: (reason: string) => void; onClose: () => void }): ReactElement {
  const [reason, setReason] = useState('');
  const text = reason.trim();
  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>): void => {
    if (e.key === 'Escape') onClose();
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      if (text) onDeny(text);
    }
  };
  return (
    <div className="deny-reason" data-testid="deny-reason-form">
      <textarea
        data-testid="deny-reason-input"
        value={reason}
        rows={2}
        maxLength={MAX_REASON}
        // The field opens on a click that asked for it, so taking the focus is expected.
        autoFocus
        placeholder="Why not, or what to do instead (the agent reads this after the Deny)"
        aria-label="Reason for the Deny"
        onChange={(e) => setReason(e.target.value)}
        onKeyDown={onKey}
      />
      <div className="deny-reason-buttons">
        <button type="button" className="btn" data-testid="deny-reason-send" disabled={busy || text === ''} onClick={() => onDeny(text)}>
          Deny with this reason
        </button>
        <button type="button" className="btn link" onClick={onClose}>
          Cancel
        </button>
      </div>
    </div>
  );
}

/** What a settled card adds under its status: what was granted (and left out), and the reason given with a Deny. */
export function SettledDetails({ view }: { view: ApprovalView }): ReactElement | null {
  const grant = view.granted ? grantedLines(view.requested, view.granted) : null;
  if (!grant && !view.denyReason) return null;
  return (
    <div className="approval-details">
      {grant && (
        <div className="approval-granted" data-testid="approval-granted">
          {grant.granted}
        </div>
      )}
      {grant?.notGranted && (
        <div className="approval-not-granted" data-testid="approval-not-granted">
          {grant.notGranted}
        </div>
      )}
      {view.denyReason && (
        <div className="approval-deny-reason" data-testid="approval-deny-reason">
          Reason given: “{view.denyReason}”
        </div>
      )}
    </div>
  );
}
