/**
 * A throw-away Angelia instance for benchmarks: `ANGELIA_STATE_DIR` in a scratch folder, `angelia init`,
 * then a table `<state>/workspace/angelia.toml` with one profile whose `cwd` is a scratch folder, and a
 * `CODEX_HOME` that points Codex at the scripted model (Angelia reads `CODEX_HOME` from its environment).
 * Everything goes through `node bin/angelia.js`, the way a user runs it; when the first `run` is refused,
 * `accept` and `compile <profile> --write` are tried once; a step that still fails makes the instance
 * "unavailable" with the reason.
 *
 * `compile()` returns the profile's compiled Codex launch (`angelia compile <profile> --json`), so a
 * baseline can run Codex exactly as Angelia does. `run(prompt, {probe: true})` runs `angelia run` with a
 * tiny preload (`--import probe.mjs`, written to the scratch folder) that timestamps the Codex child's
 * spawn, each JSON-RPC request/response on its stdio, `turn/completed`, the child's exit and Node's exit;
 * see `PROBE_SOURCE`.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { stringify } from 'smol-toml';
import { failureReason, timeRun, type TimedRun } from './proc';

/** The stable JSON of `angelia compile <profile> --json`. */
export interface CompiledLaunch {
  profile: string;
  sandboxed: boolean;
  /** Codex's whole argv after the executable, ending with "app-server". */
  codexArgs: string[];
  /** Variables Angelia adds to Codex's environment. */
  env: Record<string, string>;
  filesystem: Record<string, string>;
  warnings: unknown[];
}

/** One probe timestamp: what happened and when, ms since the `angelia` process's `performance.timeOrigin`. */
export interface ProbeMark {
  name: string;
  at: number;
}

/** A request the probe saw Angelia send (thread/start and thread/resume only), with its params. */
export interface ProbeRequest {
  method: string;
  params: Record<string, unknown>;
}

/**
 * A timed `angelia run`, plus the probe's marks and the thread requests it saw when it ran with
 * `{probe: true}` (empty otherwise or if none were written).
 */
export interface InstanceRun extends TimedRun {
  marks: ProbeMark[];
  requests: ProbeRequest[];
  /** The app-server child exactly as Angelia spawned it (probed runs only). */
  spawned?: { cmd: string; args: string[]; cwd: string; env: Record<string, string> };
}

/** A ready instance: runs `angelia run <profile> <prompt> --json`. */
export interface AngeliaInstance {
  ok: true;
  profile: string;
  /** The profile's working folder (Codex's cwd). */
  cwd: string;
  /** The instance's CODEX_HOME. */
  codexHome: string;
  /** Setup notes (optional steps skipped or failed). */
  notes: string[];
  /** `angelia run <profile> <prompt> --json` (default: the main profile; `profile`: one of `extraProfiles`). */
  run(prompt: string, opts?: { probe?: boolean; profile?: string }): Promise<InstanceRun>;
  /** `angelia compile <profile> --json`, parsed; throws with the reason when it fails. */
  compile(): Promise<CompiledLaunch>;
}

/** Why the instance could not be used. */
export interface Unavailable {
  ok: false;
  reason: string;
  notes: string[];
}

/** Options: the repo root, the `angelia` entry script, a scratch folder, the offline CODEX_HOME, the profile name and a trial prompt/answer. */
export interface InstanceOptions {
  root: string;
  bin: string;
  dir: string;
  codexHome: string;
  profile: string;
  prompt: string;
  expect: string;
  /** More profiles in the same table, each with its own folder (and so its own chat and thread). */
  extraProfiles?: string[];
}

/**
 * The preload `--import`ed into a probed `angelia run`. It replaces `child_process.spawn` (and re-syncs the
 * ESM named export, which the bundled CLI imports) with a wrapper that, for a child whose argv ends with
 * "app-server", records: `spawn`; `> method` when a request is written to its stdin; `< method` when the
 * matching response arrives on its stdout; `turn/completed`; `codex exit`. `probe` marks when the preload ran
 * (≈ Node start-up done) and `node exit` the process's `exit` event. The params of `thread/start` and
 * `thread/resume` are kept too, and the child's spawn (command, argv, cwd, environment). All are appended as one JSON line (`{marks:[[name, ms since timeOrigin],
 * …], requests:[[method, params], …]}`) to the file named by ANGELIA_BENCH_PROBE.
 */
export const PROBE_SOURCE = `import cp from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { performance } from 'node:perf_hooks';
const file = process.env.ANGELIA_BENCH_PROBE;
const marks = [];
const requests = [];
let spawned = null;
const mark = (name) => { marks.push([name, performance.now()]); };
mark('probe');
const original = cp.spawn;
cp.spawn = function (cmd, args, ...rest) {
  const child = original.call(this, cmd, args, ...rest);
  if (!Array.isArray(args) || args[args.length - 1] !== 'app-server') return child;
  mark('spawn');
  const o = rest[0] ?? {};
  spawned = { cmd, args, cwd: String(o.cwd ?? process.cwd()), env: o.env ?? process.env };
  const pending = new Map();
  const lines = (text, each) => { for (const l of text.split('\\n')) { if (!l.trim()) continue; try { each(JSON.parse(l)); } catch { /* partial line */ } } };
  const write = child.stdin.write;
  child.stdin.write = function (chunk, ...more) {
    lines(String(chunk), (m) => {
      if (m.method !== undefined && m.id !== undefined) { pending.set(m.id, m.method); mark('> ' + m.method); }
      if (m.method === 'thread/start' || m.method === 'thread/resume') requests.push([m.method, m.params]);
    });
    return write.call(this, chunk, ...more);
  };
  let buf = '';
  child.stdout.on('data', (c) => {
    buf += String(c);
    const nl = buf.lastIndexOf('\\n');
    if (nl < 0) return;
    const text = buf.slice(0, nl);
    buf = buf.slice(nl + 1);
    lines(text, (m) => {
      if (m.method === undefined && pending.has(m.id)) { mark('< ' + pending.get(m.id)); pending.delete(m.id); }
      else if (m.method === 'turn/completed') mark('turn/completed');
    });
  });
  child.once('exit', () => mark('codex exit'));
  return child;
};
syncBuiltinESMExports();
process.once('exit', () => { mark('node exit'); if (file) appendFileSync(file, JSON.stringify({ marks, requests, spawned }) + '\\n'); });
`;

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
  delete env.ANGELIA_BENCH_PROBE;
  const cli = (args: string[]): Promise<TimedRun> => timeRun(process.execPath, [bin, ...args], { cwd: o.root, env });
  const probeScript = join(o.dir, 'angelia-bench-probe.mjs');
  const probeOut = join(o.dir, 'angelia-bench-probe.jsonl');
  await writeFile(probeScript, PROBE_SOURCE);

  const missing = (r: TimedRun, name: string): string | undefined =>
    /unknown command/i.test(r.stderr)
      ? `the built CLI (out/main/cli.js) has no \`${name}\` command yet; rebuild with \`npm run build\` once it lands`
      : undefined;
  const init = await cli(['init']);
  if (init.code !== 0) return { ok: false, reason: missing(init, 'init') ?? `\`angelia init\` failed: ${failureReason(init)}`, notes };
  await mkdir(join(state, 'workspace'), { recursive: true });
  const table: Record<string, { cwd: string }> = { [o.profile]: { cwd } };
  for (const extra of o.extraProfiles ?? []) {
    const extraCwd = join(o.dir, `profile-cwd-${extra}`);
    await mkdir(extraCwd, { recursive: true });
    table[extra] = { cwd: extraCwd };
  }
  await writeFile(join(state, 'workspace', 'angelia.toml'), stringify({ profiles: table }));

  const run = async (prompt: string, opts: { probe?: boolean; profile?: string } = {}): Promise<InstanceRun> => {
    const args = ['run', opts.profile ?? o.profile, prompt, '--json'];
    if (!opts.probe) return { ...(await cli(args)), marks: [], requests: [] };
    await rm(probeOut, { force: true });
    const r = await timeRun(process.execPath, ['--import', pathToFileURL(probeScript).href, bin, ...args], {
      cwd: o.root,
      env: { ...env, ANGELIA_BENCH_PROBE: probeOut },
    });
    let marks: ProbeMark[] = [];
    let requests: ProbeRequest[] = [];
    let spawned: InstanceRun['spawned'];
    try {
      const line = (await readFile(probeOut, 'utf8')).trim().split('\n').pop() ?? '';
      const out = JSON.parse(line) as { marks: [string, number][]; requests?: [string, Record<string, unknown>][]; spawned?: InstanceRun['spawned'] | null };
      marks = out.marks.map(([name, at]) => ({ name, at }));
      requests = (out.requests ?? []).map(([method, params]) => ({ method, params }));
      spawned = out.spawned ?? undefined;
    } catch {
      // No probe output (the run died early): no phases for this run.
    }
    return { ...r, marks, requests, ...(spawned ? { spawned } : {}) };
  };
  const compile = async (): Promise<CompiledLaunch> => {
    const r = await cli(['compile', o.profile, '--json']);
    if (r.code !== 0) throw new Error(missing(r, 'compile') ?? `\`angelia compile ${o.profile} --json\` failed: ${failureReason(r)}`);
    const launch = JSON.parse(r.stdout) as CompiledLaunch;
    if (!Array.isArray(launch.codexArgs) || launch.codexArgs[launch.codexArgs.length - 1] !== 'app-server') {
      throw new Error(`\`angelia compile --json\`: codexArgs does not end with "app-server": ${r.stdout.slice(0, 200)}`);
    }
    return launch;
  };
  let trial = await run(o.prompt);
  if (trial.code !== 0 && !missing(trial, 'run')) {
    // A fresh table may first need accepting / compiling: try those steps (unknown ones are skipped), then retry.
    notes.push(`first \`angelia run\` refused (${failureReason(trial)})`);
    for (const args of [['accept'], ['compile', o.profile, ...(o.extraProfiles ?? []), '--write']]) {
      const r = await cli(args);
      notes.push(`\`angelia ${args.join(' ')}\`: ${r.code === 0 ? 'ok' : failureReason(r)}`);
    }
    trial = await run(o.prompt);
  }
  if (trial.code !== 0) return { ok: false, reason: missing(trial, 'run') ?? `\`angelia run\` failed: ${failureReason(trial)}`, notes };
  if (!trial.stdout.includes(o.expect)) {
    return { ok: false, reason: `\`angelia run --json\` did not print the scripted answer: ${trial.stdout.slice(0, 200)}`, notes };
  }
  return { ok: true, profile: o.profile, cwd, codexHome: o.codexHome, notes, run, compile };
}
