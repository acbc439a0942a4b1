/**
 * The policy inspector of one profile: the effective permission table now in force (every filesystem
 * entry with where it came from, network), the Codex version and enforcement it was attested against at
 * the last start (or "not started yet"), and the sandbox check: "Run probes" runs `angelia verify`
 * and shows what was blocked and what was allowed.
 */
import type { ReactElement } from 'react';
import type { PolicyView } from '../../../../shared/contract';
import { useSession } from '../../api/session';
import { useAppStore } from '../../store/store';
import { EnforcementBadge } from '../../ui/Badges';
import { NO_SANDBOX_WARNING } from '../profiles/draft';
import { IssueLines } from '../profiles/fields';
import { whenShort } from '../chat/SessionsPanel';
import { PolicyTable } from './PolicyTable';
import { ProbeTable } from './ProbeTable';

/**
 * Each running chat of the profile with what its start was attested with, and when: kept apart from the
 * table in force (a running chat keeps its grants until it restarts). Hosts without `running` fall back
 * to the last start, labelled as such.
 */
function Attestation({ view }: { view: PolicyView }): ReactElement {
  if (view.running) {
    if (view.running.length === 0) {
      return (
        <div className="attestation" data-testid="attestation" data-attested="false">
          <strong>{view.attestedCodexVersion ? 'No chat of this profile runs now.' : 'Not started yet.'}</strong>{' '}
          <span className="meta">
            The table in force below applies at the next start; Codex's answer is checked then, and each running chat's attestation shows here.
          </span>
        </div>
      );
    }
    return (
      <div className="attestation" data-testid="attestation" data-attested="true">
        <h3>Running now (as attested at each chat's start)</h3>
        {view.running.map((r) => (
          <div key={r.chatId} data-testid="running-attestation" data-chat-id={r.chatId}>
            <strong>{r.chatId}</strong> · Attested against <strong>Codex {r.codexVersion ?? '?'}</strong>
            {r.mode.attestedAt && <span> at {whenShort(r.mode.attestedAt)}</span>} · mode {r.mode.permissionMode ?? 'unknown'} · approval{' '}
            {r.mode.approvalPolicy ?? 'unknown'} · enforcement <EnforcementBadge enforcement={r.mode.sandbox} sandboxed={undefined} state="idle" />
            {r.mode.tableChanged && (
              <div className="issue issue-warning" data-testid="running-table-changed">
                {r.mode.tableChanged}
              </div>
            )}
          </div>
        ))}
      </div>
    );
  }
  if (!view.attestedCodexVersion) {
    return (
      <div className="attestation" data-testid="attestation" data-attested="false">
        <strong>Not started yet.</strong>{' '}
        <span className="meta">Codex's answer is checked at the first start of a chat on this profile; its version and enforcement show here then.</span>
      </div>
    );
  }
  return (
    <div className="attestation" data-testid="attestation" data-attested="true">
      Last start attested against <strong>Codex {view.attestedCodexVersion}</strong>
      {view.attestedAt && <span> at {whenShort(view.attestedAt)}</span>} · enforcement{' '}
      <EnforcementBadge enforcement={view.enforcement} sandboxed={undefined} state="idle" />
    </div>
  );
}

function Probes({ profile }: { profile: string }): ReactElement {
  const session = useSession();
  const run = useAppStore((s) => s.policy.verify[profile]);
  const busy = run?.status === 'loading';
  return (
    <section className="editor-section" data-testid="sandbox-check">
      <h3>Sandbox check</h3>
      <div className="meta">
        Runs small probes through <code>codex sandbox</code> with this profile's own flags: what should be blocked, and what should work.
      </div>
      <div className="probe-actions">
        <button type="button" className="btn" data-testid="run-probes" disabled={busy} onClick={() => void session.runProbes(profile)}>
          {busy ? 'Running the probes…' : run?.value ? 'Run probes again' : 'Run probes'}
        </button>
      </div>
      {run?.error && (
        <div className="issue issue-error" data-testid="probe-error">
          The probes could not run: {run.error.message}
          {run.error.fix ? ` — ${run.error.fix}` : ''}
        </div>
      )}
      {run?.value && <ProbeTable verify={run.value} />}
    </section>
  );
}

/** The inspector panel for `profile`. */
export function PolicyInspector({ profile }: { profile: string }): ReactElement {
  const session = useSession();
  const state = useAppStore((s) => s.policy.byProfile[profile]);
  const sandboxed = useAppStore((s) => s.chats.profiles[profile]?.sandboxed);
  const view = state?.value ?? null;
  return (
    <div className="pane panel" data-testid="policy-inspector" data-profile={profile}>
      <header className="pane-head panel-head">
        <button type="button" className="btn link back" onClick={() => session.closePanel()} aria-label="Back">
          ‹ Back
        </button>
        <strong className="panel-title">Policy of {profile}</strong>
        <span className="spacer" />
        <button type="button" className="btn small" data-testid="policy-edit" onClick={() => session.editProfile(profile)}>
          Edit profile
        </button>
        <button type="button" className="btn small" data-testid="policy-close" onClick={() => session.closePanel()}>
          Close
        </button>
      </header>
      <div className="panel-body">
        {!view && state?.status !== 'failed' && <div className="empty">Reading the policy…</div>}
        {state?.error && (
          <div className="refusal" role="alert" data-testid="policy-error">
            <strong>The policy could not be read.</strong>
            {state.error.message}
            {state.error.fix ? ` — ${state.error.fix}` : ''}
          </div>
        )}
        {sandboxed === false && (
          <div className="no-sandbox" data-testid="inspector-no-sandbox" role="alert">
            No sandbox. This profile {NO_SANDBOX_WARNING}: Codex gets full access and no permission table applies.
          </div>
        )}
        {view && (
          <>
            <Attestation view={view} />
            <IssueLines
              issues={[...view.errors.map((e) => ({ ...e, level: 'error' as const })), ...view.warnings.map((w) => ({ ...w, level: 'warning' as const }))]}
            />
            <section className="editor-section">
              <h3 data-testid="policy-table-heading">Table in force (applies at next start)</h3>
              <div className="meta">
                What Codex's sandbox gets for each path at the next start of a chat on this profile, and which part of the profile put it there. A chat already
                running keeps the grants it was started with (above).
              </div>
              <PolicyTable policy={view} />
            </section>
            <Probes profile={profile} />
          </>
        )}
      </div>
    </div>
  );
}
