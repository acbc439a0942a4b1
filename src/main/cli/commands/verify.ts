import { parseArgs } from 'node:util';
import type { CliCommand } from '../command';
import { isUnknownName } from '../exit';
import { toAppError } from '../../../shared/result';
import { resolveInstance } from '../../core/instance/paths';
import { formatFailure } from '../../core/table/errors';
import { reportJson, reportText } from '../../core/verify/report';
import { verifyProfile } from '../../core/verify/run';

const USAGE = 'usage: angelia verify <profile> [--json]\n';

/**
 * `angelia verify <profile> [--json]` (README "Security"): runs the probe matrix of
 * core/verify through `codex sandbox` with the profile's compiled flags and environment, on the
 * accepted table. Prints the table of probes (probe, path, op, expected, observed, pass) or, with
 * `--json`, exactly `{"profile","codexVersion","probes":[…],"pass"}`. Exit 0 when every probe that ran
 * held, 1 when any did not (or verify could not run: `verify error: …`, or with `--json`
 * `{"profile","error"}`), 2 on bad usage or an unknown profile (still `verify error: …`).
 */
export const verify: CliCommand = {
  summary: "prove a profile's sandbox on this machine: verify <profile> [--json]",
  exits: { 0: 'every probe that ran held', 1: 'a probe did not hold, or verify could not run', 2: 'usage error, or an unknown profile' },
  async run(argv) {
    let json: boolean;
    let names: string[];
    try {
      const parsed = parseArgs({ args: argv, options: { json: { type: 'boolean' } }, strict: true, allowPositionals: true });
      json = parsed.values.json ?? false;
      names = parsed.positionals;
    } catch (e) {
      process.stderr.write(`verify: ${e instanceof Error ? e.message : String(e)}\n${USAGE}`);
      return 2;
    }
    const [profile] = names;
    if (!profile || names.length !== 1) {
      process.stderr.write(`verify: name exactly one profile\n${USAGE}`);
      return 2;
    }
    try {
      const report = await verifyProfile({ paths: resolveInstance(process.env), env: process.env, profile });
      process.stdout.write(json ? `${reportJson(report)}\n` : reportText(report));
      return report.pass ? 0 : 1;
    } catch (e) {
      if (json) process.stdout.write(`${JSON.stringify({ profile, error: toAppError(e) })}\n`);
      else process.stderr.write(`verify error: ${formatFailure(e)}\n`);
      // An unknown profile is a usage error, as in every command (cli/exit.ts).
      return isUnknownName(e) ? 2 : 1;
    }
  },
};
