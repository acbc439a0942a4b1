/**
 * `angelia verify` output: the report as a text table (probe, path, op, expected, observed, pass) or
 * as the stable JSON object `{"profile","codexVersion","probes":[{"name","path","op","expected",
 * "observed","pass"}],"pass"}` (row `pass` is null for a skipped probe). Pure.
 */
import type { VerifyReport } from './run';

/** The stable `--json` text (one line, no trailing newline): exactly these keys, in this order. */
export function reportJson(r: VerifyReport): string {
  return JSON.stringify({
    profile: r.profile,
    codexVersion: r.codexVersion,
    probes: r.probes.map(({ name, path, op, expected, observed, pass }) => ({ name, path, op, expected, observed, pass })),
    pass: r.pass,
  });
}

function mark(pass: boolean | null): string {
  return pass === null ? 'skip' : pass ? 'ok' : 'FAIL';
}

/**
 * The report as aligned text lines ending with `\n`: the probes that ran as a table, then the probes
 * that did not run (their path does not exist) as a list, then a one-line verdict.
 */
export function reportText(r: VerifyReport): string {
  const head = ['probe', 'path', 'op', 'expected', 'observed', 'pass'];
  const ran = r.probes.filter((p) => p.pass !== null);
  const skipped = r.probes.filter((p) => p.pass === null);
  const cells = ran.map((p) => [p.name, p.path, p.op, p.expected, p.observed, mark(p.pass)]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]): string => c.map((x, i) => (i === c.length - 1 ? x : x.padEnd(widths[i]!))).join('  ');
  const failed = ran.filter((p) => p.pass === false).length;
  const notRun = skipped.length ? `, ${skipped.length} not run` : '';
  const verdict = r.pass ? `PASS: ${ran.length} probes held${notRun}` : `FAIL: ${failed} of ${ran.length} probes did not hold${notRun}`;
  return [
    `profile ${r.profile} · codex ${r.codexVersion ?? 'version unknown'} · each probe ran in \`codex sandbox\` with the profile's compiled flags`,
    line(head),
    ...cells.map(line),
    ...(skipped.length ? [`not run (${skipped.length}):`, ...skipped.map((p) => `  ${p.name}: ${p.path} (${p.op}) - ${p.observed.replace(/^skipped: /, '')}`)] : []),
    verdict,
    '',
  ].join('\n');
}
