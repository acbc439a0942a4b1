/**
 * A throw-away Angelia instance for benchmarks: `ANGELIA_STATE_DIR` in a scratch folder, `angelia init`,
 * then a table `<state>/workspace/angelia.toml` with one profile whose `cwd` is a scratch folder, and a
 * `CODEX_HOME` that points Codex at the scripted model (Angelia reads `CODEX_HOME` from its environment).
 * Everything goes through `node bin/angelia.js`, the way a user runs it; when the first `run` is refused,
 * `accept` and `compile <profile> --write` are tried once; a step that still fails makes the instance
 * "unavailable" with the reason.
 */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'smol-toml';
import { failureReason, timeRun, type TimedRun } from './proc';

/** A ready instance: runs `angelia run <profile> <prompt> --json`. */
export interface AngeliaInstance {
  ok: true;
  profile: string;
  /** Setup notes (optional steps skipped or failed). */
  notes: string[];
  run(prompt: string): Promise<TimedRun>;
}

/** Why the instance could not be used. */
export interface Unavailable { ok: false; reason: string; notes: string[] }

/** Options: the repo root, the `angelia` entry script, a scratch folder, the offline CODEX_HOME, the profile name and a trial prompt/answer. */
export interface InstanceOptions { root: string; bin: string; dir: string; codexHome: string; profile: string; prompt: string; expect: string }

/** Prepares the instance and proves one `angelia run` works (that run is the warm-up). */
export async function prepareAngelia(o: InstanceOptions): Promise<AngeliaInstance | Unavailable> {
  const notes: string[] = [];
  const bin = o.bin;
  const built = join(o.root, 'out', 'main', 'cli.js');
  if (bin === join(o.root, 'bin', 'angelia.js') && !existsSync(built)) return { ok: false, reason: 'out/main/cli.js is missing (run `npm run build`)', notes };
  const state = join(o.dir, 'state');
  const cwd = join(o.dir, 'profile-cwd');
  await mkdir(cwd, { recursive: true });
  const env: NodeJS.ProcessEnv = { ...process.env, ANGELIA_STATE_DIR: state, CODEX_HOME: o.codexHome, RUST_LOG: 'warn' };
  delete env.ANGELIA_CONFIG;
  const cli = (args: string[]): Promise<TimedRun> => timeRun(process.execPath, [bin, ...args], { cwd: o.root, env });

  const missing = (r: TimedRun, name: string): string | undefined => (/unknown command/i.test(r.stderr)
    ? `the built CLI (out/main/cli.js) has no \`${name}\` command yet; rebuild with \`npm run build\` once it lands`
    : undefined);
  const init = await cli(['init']);
  if (init.code !== 0) return { ok: false, reason: missing(init, 'init') ?? `\`angelia init\` failed: ${failureReason(init)}`, notes };
  await mkdir(join(state, 'workspace'), { recursive: true });
  await writeFile(join(state, 'workspace', 'angelia.toml'), stringify({ profiles: { [o.profile]: { cwd } } }));

  const run = (prompt: string): Promise<TimedRun> => cli(['run', o.profile, prompt, '--json']);
  let trial = await run(o.prompt);
  if (trial.code !== 0 && !missing(trial, 'run')) {
    // A fresh table may first need accepting / compiling: try those steps (unknown ones are skipped), then retry.
    notes.push(`first \`angelia run\` refused (${failureReason(trial)})`);
    for (const args of [['accept'], ['compile', o.profile, '--write']]) {
      const r = await cli(args);
      notes.push(`\`angelia ${args.join(' ')}\`: ${r.code === 0 ? 'ok' : failureReason(r)}`);
    }
    trial = await run(o.prompt);
  }
  if (trial.code !== 0) return { ok: false, reason: missing(trial, 'run') ?? `\`angelia run\` failed: ${failureReason(trial)}`, notes };
  if (!trial.stdout.includes(o.expect)) {
    return { ok: false, reason: `\`angelia run --json\` did not print the scripted answer: ${trial.stdout.slice(0, 200)}`, notes };
  }
  return { ok: true, profile: o.profile, notes, run };
}
