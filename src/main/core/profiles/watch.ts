/**
 * Watches the table file for changes made on disk (by hand, by an agent that can write the workspace, or
 * by Angelia's own editor) with chokidar. The folder holding the table is watched (depth 0) and every
 * other name in it ignored, so a replacement by rename — how editors and write-file-atomic save — is
 * seen as well as an in-place write, an unlink and a re-creation. Events are debounced: one call of
 * `onChange` after `debounceMs` (default 300 ms) of quiet. The watch does not keep the process alive.
 *
 * chokidar 4 drops a `change` of a path that comes within 50 ms of the last one it emitted for it (and one
 * within 5 ms at the fs.watch level), with no trailing event: a second save soon after the first was never
 * seen, and the table or account shown stayed the first save's. So after each call of `onChange` the
 * file is looked at again once that window has passed (`VERIFY_MS`): when its stat differs from the
 * one taken just before the call, `onChange` is called again.
 */
import { stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { FSWatcher } from 'chokidar';

/** After a call of `onChange`, when the file is looked at again: past chokidar's 50 ms `change` throttle. */
const VERIFY_MS = 100;

/** What identifies a version of `file` on disk: inode, size, modification and change times; `missing` when absent. */
async function signature(file: string): Promise<string> {
  try {
    const s = await stat(file);
    return `${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}`;
  } catch {
    return 'missing';
  }
}

/** A running watch. */
export interface TableWatch {
  /** Stops watching (pending debounced calls are dropped). Never rejects. */
  close(): Promise<void>;
}

/**
 * Starts watching `file` and resolves once chokidar is ready (changes after that are seen). `onChange`
 * is called after each burst of changes to the file (its rejection is ignored; the look again for a
 * dropped change waits for it to settle), also for a change chokidar did not report (module comment).
 */
export async function watchTable(file: string, onChange: () => unknown, opts: { debounceMs?: number } = {}): Promise<TableWatch> {
  const target = resolve(file);
  const dir = dirname(target);
  const debounceMs = opts.debounceMs ?? 300;
  let timer: NodeJS.Timeout | null = null;
  let verify: NodeJS.Timeout | null = null;
  let closed = false;
  // chokidar is loaded when a watch starts, not with the core (`angelia run` never watches).
  const { watch } = await import('chokidar');
  const watcher: FSWatcher = watch(dir, {
    depth: 0,
    ignoreInitial: true,
    // Never what keeps a process alive (a CLI command that fails before `shutdown` must still exit).
    persistent: false,
    ignored: (p: string) => {
      const abs = resolve(p);
      return abs !== dir && abs !== target;
    },
  });
  const fire = (): void => {
    if (closed) return;
    if (timer) clearTimeout(timer);
    if (verify) clearTimeout(verify);
    verify = null;
    timer = setTimeout(() => {
      timer = null;
      void run();
    }, debounceMs);
  };
  // One call of onChange, then the look again that catches a change chokidar dropped (module comment).
  const run = async (): Promise<void> => {
    if (closed) return;
    const seen = await signature(target);
    if (closed) return;
    await Promise.resolve()
      .then(onChange)
      .catch(() => undefined);
    if (closed || timer) return;
    verify = setTimeout(() => {
      verify = null;
      void signature(target).then((now) => {
        if (!closed && !timer && now !== seen) fire();
      });
    }, VERIFY_MS).unref();
  };
  watcher.on('all', (_event, path) => {
    if (resolve(path) === target) fire();
  });
  watcher.on('error', () => undefined);
  await new Promise<void>((done) => watcher.once('ready', () => done()));
  return {
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      if (verify) clearTimeout(verify);
      await watcher.close().catch(() => undefined);
    },
  };
}
