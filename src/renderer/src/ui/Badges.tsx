/**
 * Status badges: the agent's state, who enforces its sandbox (full access is always red) and what it is
 * doing right now.
 */
import type { ReactElement } from 'react';
import type { AgentState, ChatMode, Enforcement } from '../../../shared/contract';
import { AGENT_STATE_LABEL as STATE_LABEL, chatModeLabel } from '../../../shared/modeLabel';

/** The agent's state. */
export function StateBadge({ state }: { state: AgentState }): ReactElement {
  return (
    <span className={`badge state-${state}`} data-testid="state-badge">
      {STATE_LABEL[state]}
    </span>
  );
}

/**
 * The enforcement in force. Before the first start it is unknown, except that a profile with
 * `sandbox = false` will run with full access, which is said at once. A refused agent that never
 * started shows no enforcement at all.
 */
export function EnforcementBadge({
  enforcement,
  sandboxed,
  state,
  mode,
}: {
  enforcement: Enforcement | null;
  sandboxed: boolean | undefined;
  state: AgentState;
  mode?: ChatMode;
}): ReactElement | null {
  if (mode) return <ModeBadge mode={mode} state={state} />;
  const effective = enforcement ?? (sandboxed === false ? 'disabled' : null);
  if (effective === null && state === 'refused') return null;
  if (effective === 'managed') {
    return (
      <span className="badge enf-managed" data-testid="enforcement-badge" title="Codex's own OS sandbox enforces this profile">
        managed sandbox
      </span>
    );
  }
  if (effective === 'disabled') {
    return (
      <span className="badge enf-disabled" data-testid="enforcement-badge" title="No sandbox: this agent can do anything you can">
        FULL ACCESS
      </span>
    );
  }
  if (effective === 'external') {
    return (
      <span className="badge enf-external" data-testid="enforcement-badge" title="Enforced outside Codex: Angelia cannot vouch for it">
        ⚠ external sandbox
      </span>
    );
  }
  return (
    <span className="badge enf-unknown" data-testid="enforcement-badge" title="Shown once the agent has started">
      not started
    </span>
  );
}

/**
 * A chat's sandbox from its `ChatMode` (shared/modeLabel.ts): attested while its Codex runs, else what
 * the next start applies ("FULL ACCESS — next start" in red for `sandbox = false`). A refused chat whose
 * next start would be sandboxed shows nothing.
 */
export function ModeBadge({ mode, state }: { mode: ChatMode; state: AgentState }): ReactElement | null {
  const label = chatModeLabel(mode);
  if (state === 'refused' && mode.source === 'next-start' && !label.danger) return null;
  return (
    <span className={`badge enf-${label.kind}`} data-testid="enforcement-badge" data-source={label.source} title={label.title}>
      {label.warning && label.kind !== 'disabled' ? '⚠ ' : ''}
      {label.text}
    </span>
  );
}

/** What the agent is doing beyond its state ("Compacting…"); nothing when null. */
export function ActivityBadge({ activity }: { activity: string | null }): ReactElement | null {
  if (!activity) return null;
  return (
    <span className="badge activity" data-testid="activity-badge" title={activity}>
      {activity}
    </span>
  );
}
