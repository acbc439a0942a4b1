/**
 * `npm run bench [-- <id>…] [--runs N] [--quick] [--no-write] [--no-build] [--angelia <entry.js>]`
 * (= `tsx scripts/bench/run.ts …`). Runs the benchmark modules listed in BENCHMARKS (all, or the ids
 * given), prints each summary and every target's verdict, and writes each module's section into
 * `docs/benchmarks.md` (other sections are kept) plus the summary section of verdicts. Before measuring it
 * builds (`electron-vite build`) when `out/` is missing or older than `src/` (`--no-build` skips that).
 * Add a benchmark: write a module exporting a `Benchmark` (`./benchmark.ts`) and list it below.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageRoot as repoRoot } from '../../src/main/core/instance/program';
import { pinnedCodexBin } from '../../test/fixtures/bareCodex';
import { agentStart } from './agentStart';
import { approvalRelay } from './approvalRelay';
import { machineInfo, replaceSection, summarySection, type Benchmark } from './benchmark';
import { hostReady } from './hostReady';
import { manyAgents } from './manyAgents';
import { renderer } from './renderer';
import { turnOverhead } from './turnOverhead';
import { warmChat } from './warmChat';
import { warmStart } from './warmStart';

/** Every benchmark, in run order. */
// many-agents last: its 20 app-servers leave the machine loaded for a minute after they stop.
export const BENCHMARKS: Benchmark[] = [turnOverhead, agentStart, approvalRelay, renderer, hostReady, manyAgents, warmChat, warmStart];

const HEADER = `# Benchmarks

Written by \`npm run bench\` (\`scripts/bench/run.ts\`; one benchmark: \`npm run bench -- <id>\`, options \`--runs N\`,
\`--quick\`, \`--no-build\`); each section is replaced when its benchmark runs again, and the summary below is
rebuilt from the sections. Angelia's own cost is measured against a bare baseline run interleaved in the same
process tree, with the scripted model (so the model's time is out of the picture); every figure gives n, min,
median (or p50/p95/p99) and max, the machine, the versions, the date, the load average while it ran, and the
target with PASS or MISS. On a loaded machine Codex's own time (\`thread/start\`, \`thread/resume\`) varies from
run to run by more than Angelia's whole cost, so the turn-overhead and agent-start sections also give Angelia's
own time, phase by phase, which does not depend on it.
`;

interface Args {
  runs: number;
  ids: string[];
  write: boolean;
  build: boolean;
  quick: boolean;
  angelia?: string;
}

function usage(): string {
  return `usage: npm run bench [-- <id>…] [--runs N>=3] [--quick] [--no-write] [--no-build] [--angelia path/to/angelia.js]\nids: ${BENCHMARKS.map((b) => b.id).join(', ')}`;
}

/** Parses the command line; throws with the usage on a bad argument. */
export function parseArgs(argv: string[]): Args {
  const args: Args = { runs: 7, ids: [], write: true, build: true, quick: false };
  for (let i = 0; i < argv.length; i += 1) {
    const a = argv[i] as string;
    if (a === '--runs') args.runs = Number(argv[++i]);
    else if (a === '--only') args.ids.push(...(argv[++i] ?? '').split(',').filter(Boolean));
    else if (a === '--no-write') args.write = false;
    else if (a === '--no-build') args.build = false;
    else if (a === '--quick') args.quick = true;
    else if (a === '--angelia') args.angelia = argv[++i];
    else if (a === '--help' || a === '-h') throw new Error(usage());
    else if (!a.startsWith('-')) args.ids.push(...a.split(',').filter(Boolean));
    else throw new Error(`unknown argument ${a}\n${usage()}`);
  }
  if (!Number.isInteger(args.runs) || args.runs < 3) throw new Error(`--runs must be an integer ≥ 3\n${usage()}`);
  const unknown = args.ids.filter((id) => !BENCHMARKS.some((b) => b.id === id));
  if (unknown.length) throw new Error(`no benchmark named ${unknown.join(', ')}\n${usage()}`);
  return args;
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/** True when the build (out/main/cli.js, out/renderer/index.html) is missing or older than src/. */
function buildIsStale(root: string): boolean {
  const outs = [join(root, 'out', 'main', 'cli.js'), join(root, 'out', 'renderer', 'index.html')];
  if (outs.some((p) => !existsSync(p))) return true;
  const built = Math.min(...outs.map((p) => statSync(p).mtimeMs));
  return newestMtime(join(root, 'src')) > built;
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  const root = repoRoot();
  const log = (line: string): void => {
    process.stderr.write(`${line}\n`);
  };
  if (args.build && buildIsStale(root)) {
    log('== out/ is missing or older than src/: npx electron-vite build');
    const b = spawnSync(process.execPath, [join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'], { cwd: root, stdio: 'inherit' });
    if (b.status !== 0) throw new Error('electron-vite build failed');
  }
  const chosen = args.ids.length ? BENCHMARKS.filter((b) => args.ids.includes(b.id)) : BENCHMARKS;
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: string };
  const machine = machineInfo(pinnedCodexBin(), pkg.version);
  const docPath = join(root, 'docs', 'benchmarks.md');
  let doc = existsSync(docPath) ? await readFile(docPath, 'utf8') : HEADER;
  if (!doc.startsWith(HEADER)) doc = `${HEADER}${doc.replace(/^# Benchmarks\n[\s\S]*?(?=<!-- bench:|$)/, '\n')}`;
  const verdictsOut: string[] = [];
  const angeliaBin = resolve(args.angelia ?? join(root, 'bin', 'angelia.js'));
  for (const bench of chosen) {
    log(`== ${bench.title}`);
    const t0 = Date.now();
    let body: string;
    try {
      const result = await bench.run({ runs: args.runs, quick: args.quick, root, angeliaBin, machine: { ...machine, date: new Date().toISOString() }, log });
      process.stdout.write(`\n${bench.title}\n${result.summary}\n`);
      for (const v of result.verdicts ?? [])
        verdictsOut.push(`${v.pass === undefined ? 'NOT MEASURED' : v.pass ? 'PASS' : 'MISS'}  ${v.target}: ${v.measured}`);
      body = result.markdown + (args.quick ? '\n\n_Quick run (`--quick`): fewer samples than the full suite; figures for validation only._' : '');
    } catch (e) {
      const why = e instanceof Error ? (e.stack ?? e.message) : String(e);
      log(`bench ${bench.id} failed: ${why}`);
      verdictsOut.push(`NOT MEASURED  ${bench.title}: the benchmark failed (${why.split('\n')[0]})`);
      body = `## ${bench.title}\n\nNot measured: the benchmark failed on ${machine.date}: ${why.split('\n')[0]}`;
    }
    log(`== ${bench.id} took ${Math.round((Date.now() - t0) / 1000)} s`);
    doc = replaceSection(doc, bench.id, body);
  }
  const summary = summarySection(
    doc,
    BENCHMARKS.map((b) => ({ id: b.id, title: b.title })),
  );
  doc = doc.includes('<!-- bench:summary:start -->')
    ? replaceSection(doc, 'summary', summary)
    : doc.replace(HEADER, `${HEADER}\n<!-- bench:summary:start -->\n${summary}\n<!-- bench:summary:end -->\n`);
  process.stdout.write(`\nTargets:\n${verdictsOut.map((l) => `  ${l}`).join('\n')}\n`);
  if (args.write) {
    await mkdir(dirname(docPath), { recursive: true });
    await writeFile(docPath, doc);
    process.stdout.write(`\nwrote ${docPath}\n`);
  }
  return 0;
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(fileURLToPath(import.meta.url));
if (isMain)
  main().then(
    (code) => {
      process.exitCode = code;
      // Lingering handles (a browser, a socket) must not keep the suite alive.
      setTimeout(() => process.exit(code), 500).unref();
    },
    (e: unknown) => {
      process.stderr.write(`bench: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exitCode = 1;
    },
  );
