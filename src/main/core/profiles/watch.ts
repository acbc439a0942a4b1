/**
 * Watches the table file for changes made on disk (by hand, by an agent that can write the workspace, or
 * by Angelia's own editor) with chokidar. The folder holding the table is watched (depth 0) and every
 * other name in it ignored, so a replacement by rename — how editors and write-file-atomic save — is
 * seen as well as an in-place write, an unlink and a re-creation. Events are debounced: one call of
 * `onChange` after `debounceMs` (default 300 ms) of quiet. The watch does not keep the process alive.
 */
import { dirname, resolve } from 'node:path';
import type { FSWatcher } from 'chokidar';

/** A running watch. */
export interface TableWatch {
  /** Stops watching (pending debounced calls are dropped). Never rejects. */
  close(): Promise<void>;
}

/**
 * Starts watching `file` and resolves once chokidar is ready (changes after that are seen). `onChange`
 * is called (not awaited; its rejection is ignored) after each burst of changes to the file.
 */
export async function watchTable(file: string, onChange: () => unknown, opts: { debounceMs?: number } = {}): Promise<TableWatch> {
  const target = resolve(file);
  const dir = dirname(target);
  const debounceMs = opts.debounceMs ?? 300;
  let timer: NodeJS.Timeout | null = null;
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
    timer = setTimeout(() => {
      timer = null;
      if (!closed)
        void Promise.resolve()
          .then(onChange)
          .catch(() => undefined);
    }, debounceMs);
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
      await watcher.close().catch(() => undefined);
    },
  };
}
