/**
 * Atomic file writes (temp file + rename through write-file-atomic), with an optional `.bak` copy of
 * the version being replaced. Used for the table, the accepted copy and every private state file.
 */
import { readFile } from 'node:fs/promises';
import writeFileAtomic from 'write-file-atomic';
import { asWriteError } from './writeError';

/** Options of `atomicWrite`. */
export interface AtomicWriteOptions {
  /** File mode of the new file (default 0o600: private). */
  mode?: number;
  /** Keep the previous content as `<file>.bak` (written atomically, same mode) before replacing it. */
  backup?: boolean;
}

/**
 * Writes `data` to `file` atomically: readers see the old content or the new one, never a part.
 * With `backup: true` and an existing file, its current bytes are first written to `<file>.bak`.
 * Throws a WriteError naming `file` and the cause in words (writeError.ts; errno `code` kept: ENOENT when
 * the folder is missing, ENOSPC, EACCES …); a missing `file` with `backup: true` is not an error.
 */
export async function atomicWrite(file: string, data: string | Buffer, options: AtomicWriteOptions = {}): Promise<void> {
  try {
    await writeAtomically(file, data, options);
  } catch (e) {
    throw asWriteError(file, e);
  }
}

async function writeAtomically(file: string, data: string | Buffer, options: AtomicWriteOptions): Promise<void> {
  const mode = options.mode ?? 0o600;
  if (options.backup) {
    let previous: Buffer | null = null;
    try {
      previous = await readFile(file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    if (previous !== null) await writeFileAtomic(`${file}.bak`, previous, { mode });
  }
  await writeFileAtomic(file, data, { mode });
}
