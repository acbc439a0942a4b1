/**
 * The effective permission table of a profile: one row per path with what Codex's sandbox gets (read,
 * write, deny), where the entry comes from (`floor`, `cwd`, `add_dirs`, `capability:<name>`…) and its
 * note. A path that is a link shows its target: Codex binds the target, not the link.
 * Also the network line and the `-c` flags the profile compiles to.
 */
import type { ReactElement } from 'react';
import type { PolicyEntry, ProfilePreview } from '../../../../shared/contract';

/** The plain words for each origin the core reports; others are shown as they come. */
const ORIGIN_LABEL: Record<string, string> = {
  floor: 'always (floor)',
  cwd: 'its folder',
  add_dirs: 'add_dirs',
  mode: 'the mode',
  shared: 'shared folders',
  common: '_common/',
  cache: 'its package cache',
  codex: 'Codex itself',
};

/** The label of an origin ("capability:git" → "capability git"). */
export function originLabel(origin: string): string {
  if (origin.startsWith('capability:')) return `capability ${origin.slice('capability:'.length)}`;
  return ORIGIN_LABEL[origin] ?? origin;
}

function EntryRow({ entry }: { entry: PolicyEntry }): ReactElement {
  return (
    <tr data-testid="policy-entry" data-path={entry.path} data-access={entry.access} data-origin={entry.origin}>
      <td className="pe-path">
        <code>{entry.path}</code>
        {entry.symlinkTarget && (
          <div className="pe-link" data-testid="policy-symlink">
            → <code>{entry.symlinkTarget}</code> <span className="meta">(a link: Codex binds the target, not the link)</span>
          </div>
        )}
        {entry.note && <div className="meta pe-note">{entry.note}</div>}
      </td>
      <td>
        <span className={`badge access-${entry.access}`}>{entry.access}</span>
      </td>
      <td className="pe-origin" title={entry.origin}>
        {originLabel(entry.origin)}
      </td>
    </tr>
  );
}

/** The entries, network and Codex flags of a preview or a policy. */
export function PolicyTable({ policy }: { policy: Pick<ProfilePreview, 'entries' | 'network' | 'codexArgs'> }): ReactElement {
  return (
    <div className="policy-table" data-testid="policy-table">
      {policy.entries.length === 0 ? (
        <div className="meta">No filesystem entries: without a sandbox nothing is restricted.</div>
      ) : (
        <table className="entries">
          <thead>
            <tr>
              <th>Path</th>
              <th>Access</th>
              <th>Because of</th>
            </tr>
          </thead>
          <tbody>
            {policy.entries.map((e) => (
              <EntryRow key={`${e.path}:${e.access}:${e.origin}`} entry={e} />
            ))}
          </tbody>
        </table>
      )}
      <div className="policy-network" data-testid="policy-network">
        <strong>Network:</strong> {policy.network.enabled ? 'on' : 'off'}
        {policy.network.note && <span className="meta"> — {policy.network.note}</span>}
      </div>
      {policy.codexArgs.length > 0 && (
        <details className="codex-args">
          <summary className="meta">The flags Codex is started with</summary>
          <pre>{policy.codexArgs.join(' ')}</pre>
        </details>
      )}
    </div>
  );
}
