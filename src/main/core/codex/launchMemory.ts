/**
 * The launch memory: `<state>/private/launch/<chatId>.json`, a chat's last spawn spec, which the next
 * `angelia run` of that chat may start Codex from before its own plan is ready (prespawn.ts; docs/
 * benchmarks.md, turn overhead). Written here, through the state-file store (instance/jsonStore.ts:
 * checked against its schema, atomic, mode 600). Never read-modify-written (each launch replaces the
 * whole memory, the last launch wins), so it takes no lock.
 *
 * The reader stays in prespawn.ts with a check of its own over Node built-ins: it runs first thing in
 * `angelia run`, where loading zod (~100 ms) would cost more than the early start saves. The schema here
 * is typed against prespawn.ts's `RememberedLaunch`, so the two cannot drift apart unnoticed.
 */
import { z } from 'zod';
import { readJsonSync, writeJsonSync } from '../instance/jsonStore';
import { launchMemoryFile, stampOf, type FileStamp, type PrespawnSpec, type RememberedLaunch } from './prespawn';

const FileStampSchema = z.object({ path: z.string(), ino: z.number(), size: z.number(), mtimeMs: z.number(), ctimeMs: z.number() });

/** The shape of a launch memory file (version 3: the executable is stamped too). */
export const RememberedLaunchSchema = z.object({
  version: z.literal(3),
  bin: z.string(),
  args: z.array(z.string()),
  cwd: z.string(),
  names: z.array(z.string()),
  set: z.record(z.string(), z.string()),
  stamps: z.array(FileStampSchema),
}) satisfies z.ZodType<RememberedLaunch>;

/**
 * Remembers `spec` as chat `chatId`'s last launch (its variables' names, and the values that differ from
 * `baseEnv`; the current state of each file of `plannedFrom` and of the executable), written atomically.
 * Best effort: an error is swallowed (the next run then spawns Codex after its plan, as without this),
 * and nothing is written when a file of `plannedFrom` or the executable cannot be stat'ed.
 */
export function rememberLaunch(stateDir: string, chatId: string, spec: PrespawnSpec, baseEnv: NodeJS.ProcessEnv, plannedFrom: string[] = []): void {
  try {
    const set: Record<string, string> = {};
    for (const [k, v] of Object.entries(spec.env)) if (v !== undefined && baseEnv[k] !== v) set[k] = v;
    const names = Object.keys(spec.env).filter((k) => spec.env[k] !== undefined);
    const stamps = [...plannedFrom, spec.bin].map(stampOf);
    if (stamps.some((x) => x === null)) return;
    const memo = RememberedLaunchSchema.parse({ version: 3, bin: spec.bin, args: spec.args, cwd: spec.cwd, names, set, stamps: stamps as FileStamp[] });
    // Not fsynced: a memory lost to an OS crash only costs the next run its early start.
    writeJsonSync(launchMemoryFile(stateDir, chatId), memo, { fsync: false });
  } catch {
    // Only a speed-up: without it the next start spawns Codex after its plan.
  }
}

/** Chat `chatId`'s launch memory, checked against its schema; null when it is missing or not valid. */
export function readLaunchMemory(stateDir: string, chatId: string): RememberedLaunch | null {
  const read = readJsonSync(launchMemoryFile(stateDir, chatId), RememberedLaunchSchema);
  return read.kind === 'ok' ? read.data : null;
}
