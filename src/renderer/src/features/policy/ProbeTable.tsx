/**
 * The sandbox check (`angelia verify`): one row per probe run in the real sandbox with the profile's
 * own flags — what was tried, what was expected, what happened, and pass or fail.
 */
import type { ReactElement } from 'react';
import type { VerifyView } from '../../../../shared/contract';

/** One probe's verdict as a word. */
export function verdict(pass: boolean | null): string {
  return pass === null ? 'not run' : pass ? 'pass' : 'FAIL';
}

/** The probe table of a verify run. */
export function ProbeTable({ verify }: { verify: VerifyView }): ReactElement {
  const failed = verify.probes.filter((p) => p.pass === false).length;
  return (
    <div className="probes" data-testid="probe-table" data-pass={verify.pass}>
      <div className={`probes-summary ${verify.pass ? 'ok' : 'bad'}`} data-testid="probe-summary">
        {verify.pass
          ? `All ${verify.probes.length} probes behaved as the profile says.`
          : `${failed} of ${verify.probes.length} probes did not behave as the profile says.`}
        {verify.codexVersion && <span className="meta"> Codex {verify.codexVersion}.</span>}
      </div>
      <table className="entries">
        <thead>
          <tr>
            <th>Probe</th>
            <th>Expected</th>
            <th>Observed</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {verify.probes.map((p, i) => (
            <tr key={`${p.name}:${i}`} data-testid="probe-row" data-pass={String(p.pass)}>
              <td className="pe-path">
                <div>{p.name}</div>
                <code className="meta">
                  {p.op} {p.path}
                </code>
              </td>
              <td>{p.expected}</td>
              <td>{p.observed}</td>
              <td>
                <span className={`badge probe-${p.pass === null ? 'skip' : p.pass ? 'pass' : 'fail'}`}>{verdict(p.pass)}</span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
