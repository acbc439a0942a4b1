/**
 * The heavy suites' results for `npm run reliability` (scripts/reliability/run.ts): each suite writes one
 * JSON file into the folder named by the env `RELIABILITY_OUT` (nothing when it is unset), which the
 * script reads to write docs/reliability.md. Figures flow as data, never parsed from console output.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** One suite's summary: what ran, what was injected, what held (named counts), and the failures. */
export interface SuiteSummary {
  suite: string;
  title: string;
  /** Cases run (runs, turns, injected writes …). */
  cases: number;
  /** Faults injected, by kind. */
  faults: Record<string, number>;
  /** What held, as counts named in words ("0 lost"): label → value. */
  held: Record<string, number | string>;
  failures: string[];
  /** Free extra facts (seed, durations, memory). */
  facts: Record<string, number | string>;
  startedAt: string;
  finishedAt: string;
}

/** Writes `summary` to `$RELIABILITY_OUT/<suite>.json` when the env names a folder; answers the path or null. */
export function writeSummary(summary: SuiteSummary): string | null {
  const dir = process.env.RELIABILITY_OUT;
  if (!dir) return null;
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${summary.suite}.json`);
  writeFileSync(file, JSON.stringify(summary, null, 2) + '\n');
  return file;
}

/**
 * `text` on one line for a report: whitespace runs become one space, folders of absolute paths are dropped
 * (`/work/x/node_modules/@openai/codex/bin/codex` → `…/codex`: the machine's layout is no finding), and
 * past `max` characters it is cut at a word with "…" — never mid-word.
 */
export function brief(text: string, max = 200): string {
  const flat = text
    .replace(/\s+/g, ' ')
    .replace(/(^|[\s("'=])\/(?:[^\s/()"']+\/)+(?=[^\s/()"']+)/g, '$1…/')
    .trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  const at = cut.lastIndexOf(' ');
  return `${(at > max / 2 ? cut.slice(0, at) : cut).replace(/[\s,;:]+$/, '')}…`;
}

/** A Codex exec tool output (`Chunk ID: … Process exited with code N … Output: …`) as `exit N: <output>`. */
export function execOutputLine(out: string, max = 160): string {
  const m = /Process exited with code (-?\d+)[\s\S]*?Output:\s*([\s\S]*)$/.exec(out);
  return brief(m ? `exit ${m[1]}: ${m[2]}` : out, max);
}
