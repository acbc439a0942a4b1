/**
 * `npm run reliability [-- <suite>…] [--no-write] [--fc-runs N] [--kill-seed N] [--load-seed N]`
 * (= `tsx scripts/reliability/run.ts …`). Runs the heavy suites one after another — Codex killed at random
 * points (test/reliability/kill.test.ts), disk faults (test/integration/fault-disk.test.ts), the load run
 * (test/reliability/load.test.ts) and the property tests with many cases (test/properties/, `FC_RUNS`) —
 * each a vitest run with `RELIABILITY_OUT` naming a fresh folder, reads the JSON summaries the tests
 * write there (never their console output), and writes docs/reliability.md (report.ts). A suite not run this
 * time keeps its last run (kept in `.angelia-test/reliability-last/<suite>.json`); while a suite has no run on
 * this machine the report goes to stdout and docs/reliability.md is left as it is. Builds first
 * when out/ is missing (the load run drives the built `angelia serve`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageRoot } from '../../src/main/core/instance/program';
import { pinnedCodexBin } from '../../test/fixtures/bareCodex';
import type { SuiteSummary } from '../../test/reliability/summary';
import { machineInfo } from '../bench/benchmark';
import { propertiesSummary, renderReport, type PropertyFileSummary, type SuiteRun } from './report';

const SUITES = ['kill', 'disk', 'load', 'properties'] as const;
type SuiteId = (typeof SUITES)[number];

const HEADER = `# Reliability

Written by \`npm run reliability\` (\`scripts/reliability/run.ts\`; one suite: \`npm run reliability -- <kill|disk|load|properties>\`,
options \`--fc-runs N\`, \`--kill-seed N\`, \`--load-seed N\`, \`--no-write\`). Each suite runs on real Codex and its real sandbox
with the scripted model where it needs Codex, writes a JSON summary of what it ran, injected and found, and this file is
rebuilt from those summaries. Faults are injected, never waited for: Codex killed with SIGKILL by its recorded pid at seeded
random points of a turn; ENOSPC, EACCES and EROFS injected at the fs layer the writers use (we run as root: chmod stops no
write); approvals answered through the loopback API at seeded random delays while 20 chats run. The seeds are given, so a
run can be repeated. Suites and what each checks: test/reliability/ (kill, load), test/integration/fault-disk.test.ts, test/properties/.
`;

interface Args {
  suites: SuiteId[];
  write: boolean;
  fcRuns: number;
  killSeed: number;
  loadSeed: number;
}

/** Parses the command line; throws with the usage on a bad argument. */
export function parseArgs(argv: string[]): Args {
  const seed = () => Math.floor(Math.random() * 2 ** 31);
  const args: Args = { suites: [], write: true, fcRuns: 10_000, killSeed: seed(), loadSeed: seed() };
  for (let i = 0; i < argv.length; i += 1) {
    const a = argv[i] as string;
    if (a === '--no-write') args.write = false;
    else if (a === '--fc-runs') args.fcRuns = Number(argv[++i]);
    else if (a === '--kill-seed') args.killSeed = Number(argv[++i]);
    else if (a === '--load-seed') args.loadSeed = Number(argv[++i]);
    else if ((SUITES as readonly string[]).includes(a)) args.suites.push(a as SuiteId);
    else
      throw new Error(
        `unknown argument ${a}\nusage: npm run reliability [-- ${SUITES.join('|')} …] [--fc-runs N] [--kill-seed N] [--load-seed N] [--no-write]`,
      );
  }
  if (!Number.isInteger(args.fcRuns) || args.fcRuns < 1) throw new Error('--fc-runs takes a positive integer');
  if (!args.suites.length) args.suites = [...SUITES];
  return args;
}

/** The vitest command line and extra env of a suite. */
function suiteCommand(id: SuiteId, a: Args): { argv: string[]; env: Record<string, string> } {
  const heavy = ['-c', 'vitest.reliability.config.ts'];
  switch (id) {
    case 'kill':
      return { argv: [...heavy, 'test/reliability/kill.test.ts'], env: { KILL_SEED: String(a.killSeed) } };
    case 'load':
      return { argv: [...heavy, 'test/reliability/load.test.ts'], env: { LOAD_SEED: String(a.loadSeed) } };
    case 'disk':
      return { argv: ['test/integration/fault-disk.test.ts', '--maxWorkers=1'], env: {} };
    case 'properties':
      return { argv: ['test/properties', '--maxWorkers=1', '--testTimeout=3600000'], env: { FC_RUNS: String(a.fcRuns) } };
  }
}

function readJson<T>(file: string): T | null {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    return null;
  }
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  const root = packageRoot();
  if (!existsSync(join(root, 'out', 'main', 'cli.js'))) {
    process.stderr.write('== out/ is missing: npx electron-vite build\n');
    const b = spawnSync(process.execPath, [join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'], { cwd: root, stdio: 'inherit' });
    if (b.status !== 0) throw new Error('electron-vite build failed');
  }
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: string };
  const machine = machineInfo(pinnedCodexBin(), pkg.version);
  const loads: number[][] = [loadavg()];
  const outBase = join(root, '.angelia-test', `reliability-${Date.now()}`);
  const runs: SuiteRun[] = [];
  for (const id of args.suites) {
    const out = join(outBase, id);
    mkdirSync(out, { recursive: true });
    const { argv, env } = suiteCommand(id, args);
    const command = `${Object.entries(env)
      .map(([k, v]) => `${k}=${v} `)
      .join('')}npx vitest run ${argv.join(' ')}`;
    process.stderr.write(`== ${id}: ${command}\n`);
    const startedAt = new Date().toISOString();
    const t0 = Date.now();
    const r = spawnSync(process.execPath, [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...argv], {
      cwd: root,
      env: { ...process.env, ...env, RELIABILITY_OUT: out },
      stdio: 'inherit',
    });
    loads.push(loadavg());
    const seconds = Math.round((Date.now() - t0) / 1000);
    let summary: SuiteSummary | null;
    if (id === 'properties') {
      const files = readdirSync(out)
        .filter((f) => f.startsWith('properties-') && f.endsWith('.json'))
        .map((f) => readJson<PropertyFileSummary>(join(out, f)))
        .filter((f): f is PropertyFileSummary => f !== null);
      summary = files.length ? propertiesSummary(files, args.fcRuns, startedAt, new Date().toISOString()) : null;
    } else summary = readJson<SuiteSummary>(join(out, `${id}.json`));
    runs.push({ id, command, exitCode: r.status, seconds, summary });
    process.stderr.write(
      `== ${id}: exit ${r.status}, ${seconds} s, ${summary ? `${summary.cases} cases, ${summary.failures.length} failures` : 'no summary'}\n`,
    );
  }
  // Suites not run this time: their last run, so one suite can be run again alone.
  const last = join(root, '.angelia-test', 'reliability-last');
  mkdirSync(last, { recursive: true });
  for (const r of runs) writeFileSync(join(last, `${r.id}.json`), JSON.stringify(r, null, 2));
  const all = SUITES.map((id) => runs.find((r) => r.id === id) ?? readJson<SuiteRun>(join(last, `${id}.json`))).filter((r): r is SuiteRun => r !== null);
  const load = `Load average (1/5/15 min) at the start and after each suite: ${loads.map((l) => l.map((x) => x.toFixed(2)).join('/')).join(', ')} (the machine is loaded on purpose: the tests wait on conditions).`;
  const doc = renderReport(all, { ...machine, date: new Date().toISOString() }, load, HEADER);
  // docs/reliability.md holds every suite: one with no run on this machine would drop its committed figures.
  const missing = SUITES.filter((id) => !all.some((r) => r.id === id));
  if (args.write && missing.length === 0) {
    writeFileSync(join(root, 'docs', 'reliability.md'), doc);
    process.stderr.write(`wrote docs/reliability.md\n`);
  } else {
    process.stdout.write(doc);
    if (args.write)
      process.stderr.write(
        `docs/reliability.md not written: no run of ${missing.join(', ')} on this machine yet (the report above has the suites run); \`npm run reliability\` runs them all and writes it\n`,
      );
  }
  return runs.every((r) => r.exitCode === 0 && r.summary && r.summary.failures.length === 0) ? 0 : 1;
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(fileURLToPath(import.meta.url));
if (isMain)
  main().then(
    (code) => {
      process.exitCode = code;
      setTimeout(() => process.exit(code), 500).unref();
    },
    (e: unknown) => {
      process.stderr.write(`reliability: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exitCode = 1;
    },
  );
