/**
 * `npm run bench` = `tsx scripts/bench/run.ts [--runs N] [--only id,id] [--no-write] [--angelia <entry.js>]`.
 * Runs the benchmark modules listed in BENCHMARKS, prints a summary and writes each module's section into
 * `docs/benchmarks.md` (other sections are kept). Add a benchmark: write a module exporting a `Benchmark`
 * (`./benchmark.ts`) and list it below.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { repoRoot } from '../../src/main/demo/codexHome';
import { pinnedCodexBin } from '../../test/fixtures/bareCodex';
import { machineInfo, replaceSection, type Benchmark } from './benchmark';
import { turnOverhead } from './turnOverhead';

/** Every benchmark, in run order. */
export const BENCHMARKS: Benchmark[] = [turnOverhead];

const HEADER = `# Benchmarks

Written by \`npm run bench\` (\`scripts/bench/run.ts\`); each section is replaced when its benchmark runs again.
Every figure is given as min, median and max over the stated number of runs, in milliseconds.
`;

interface Args { runs: number; only?: string[]; write: boolean; angelia?: string }

function parseArgs(argv: string[]): Args {
  const args: Args = { runs: 7, write: true };
  for (let i = 0; i < argv.length; i += 1) {
    const a = argv[i];
    if (a === '--runs') args.runs = Number(argv[++i]);
    else if (a === '--only') args.only = (argv[++i] ?? '').split(',').filter(Boolean);
    else if (a === '--no-write') args.write = false;
    else if (a === '--angelia') args.angelia = argv[++i];
    else throw new Error(`unknown argument ${a}; usage: run.ts [--runs N>=5] [--only ${BENCHMARKS.map((b) => b.id).join(',')}] [--no-write] [--angelia path/to/angelia.js]`);
  }
  if (!Number.isInteger(args.runs) || args.runs < 5) throw new Error('--runs must be an integer ≥ 5');
  return args;
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  const root = repoRoot();
  const chosen = args.only ? BENCHMARKS.filter((b) => args.only?.includes(b.id)) : BENCHMARKS;
  if (chosen.length === 0) throw new Error(`no benchmark matches --only ${args.only?.join(',')}`);
  const machine = machineInfo(pinnedCodexBin());
  const log = (line: string): void => {
    process.stderr.write(`${line}\n`);
  };
  const docPath = join(root, 'docs', 'benchmarks.md');
  let doc = existsSync(docPath) ? await readFile(docPath, 'utf8') : HEADER;
  for (const bench of chosen) {
    log(`== ${bench.title}`);
    const angeliaBin = resolve(args.angelia ?? join(root, 'bin', 'angelia.js'));
    const result = await bench.run({ runs: args.runs, root, angeliaBin, machine, log });
    process.stdout.write(`\n${bench.title}\n${result.summary}\n`);
    doc = replaceSection(doc, bench.id, result.markdown);
  }
  if (args.write) {
    await mkdir(dirname(docPath), { recursive: true });
    await writeFile(docPath, doc);
    process.stdout.write(`\nwrote ${docPath}\n`);
  }
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`bench: ${e instanceof Error ? e.stack ?? e.message : String(e)}\n`);
    process.exitCode = 1;
  },
);
