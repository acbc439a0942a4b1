/**
 * `angelia verify` output: the report as a text table (probe, path, op, expected, observed, pass) or
 * as the stable JSON object `{"profile","codexVersion","probes":[{"name","path","op","expected",
 * "observed","pass"}],"pass"}` (row `pass` is null for a skipped probe), which only gains fields:
 * `home` (run.ts HomeScan: what a command sees in HOME) when the scan ran. Pure.
 */
import type { VerifyReport } from './run';

/** The stable `--json` text (one line, no trailing newline): these keys, in this order, then `home` when there is one. */
export function reportJson(r: VerifyReport): string {
  return JSON.stringify({
    profile: r.profile,
    codexVersion: r.codexVersion,
    probes: r.probes.map(({ name, path, op, expected, observed, pass }) => ({ name, path, op, expected, observed, pass })),
    pass: r.pass,
    ...(r.home ? { home: { root: r.home.root, grants: r.home.grants, seen: r.home.seen, notGranted: r.home.notGranted } } : {}),
  });
}

/** The HOME part of the text report: what the agent reads there (the grants), and what else it saw and why. */
function homeLines(home: NonNullable<VerifyReport['home']>): string[] {
  const other = home.seen.filter((s) => s.as !== 'grant');
  const count = (as: string): number => other.filter((s) => s.as === as).length;
  return [
    `HOME ${home.root}: a command reads ${home.notGranted.length === 0 ? 'nothing but' : 'MORE than'} the grants:`,
    ...(home.grants.length ? home.grants.map((g) => `  granted  ${g}`) : ['  (nothing granted in HOME)']),
    `  also seen: ${count('way')} folders on the way to them, ${count('denied')} empty deny mount points (kept for escalated commands), ${count('carve-out')} Codex helper links`,
    ...home.notGranted.map((p) => `  NOT GRANTED  ${p}`),
  ];
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
    ...(skipped.length
      ? [`not run (${skipped.length}):`, ...skipped.map((p) => `  ${p.name}: ${p.path} (${p.op}) - ${p.observed.replace(/^skipped: /, '')}`)]
      : []),
    ...(r.home ? homeLines(r.home) : []),
    verdict,
    '',
  ].join('\n');
}
