/**
 * The record of the Codex children Angelia runs, `<state>/private/children.json` (mode 600, written
 * atomically, in the private folder: instance/paths.ts PRIVATE_DIR says why),
 * and the reaping of orphans when an Angelia process starts (needed because a SIGKILLed Angelia leaves its
 * `codex app-server` children, their sandbox helpers and commands running).
 *
 * Each child is recorded as soon as it is spawned (before `initialize`) with its identity (pid + start
 * time, see identity.ts), its process group and session, the boot it ran in, the chat it serves and the
 * identity of the Angelia process that owns it; the entry is removed when the child has exited. File
 * format: `{"version":1,"children":[ChildRecord…]}`. Every change is a synchronous read-modify-write
 * under the state-file lock (instance/jsonStore.ts), so two Angelia processes on one state folder
 * (`angelia serve` and `angelia run`) never lose each other's entries.
 */
import { z } from 'zod';
import { AppFailure } from '../../../shared/result';
import { JsonLockError, readJsonSync, updateJsonSync, type JsonRead } from '../instance/jsonStore';
import { privateFile } from '../instance/paths';
import { bootId, processInfo } from './identity';
import type { ChildTracker } from './launcher';

/** The file name of the record in the state folder's private folder. */
export const CHILDREN_FILE_NAME = 'children.json';

/** `<stateDir>/private/children.json` (the same path as InstancePaths `childrenFile`). */
export function childrenFile(stateDir: string): string {
  return privateFile(stateDir, CHILDREN_FILE_NAME);
}

const Identity = z.object({ pid: z.number().int().positive(), startTime: z.string().nullable() });

const ChildRecordSchema = z.object({
  pid: z.number().int().positive(),
  /** null: the identity could not be read when spawned (unsupported platform); such a child is never killed. */
  startTime: z.string().nullable(),
  pgid: z.number().int(),
  sid: z.number().int(),
  /** Linux boot id when recorded (pids and start times only mean something within one boot); null elsewhere. */
  boot: z.string().nullable(),
  chatId: z.string(),
  bin: z.string(),
  /** The Angelia process that spawned the child. */
  owner: Identity,
  /** ISO time of the spawn. */
  recordedAt: z.string(),
});

/** One recorded child. */
export type ChildRecord = z.infer<typeof ChildRecordSchema>;

const FileSchema = z.object({ version: z.literal(1), children: z.array(ChildRecordSchema) });

let self: z.infer<typeof Identity> | null = null;

/** This process's identity as an owner (pid + start time; start time null when it cannot be read). */
export function ownerIdentity(): z.infer<typeof Identity> {
  self ??= { pid: process.pid, startTime: processInfo(process.pid)?.startTime ?? null };
  return self;
}

/** Reads and changes `children.json`. Every method is synchronous. */
export class ChildLedger {
  constructor(readonly file: string) {}

  /**
   * The recorded children (empty when the file does not exist). Throws AppFailure `state-file` naming the
   * file when it cannot be read or is not a valid record.
   */
  list(): ChildRecord[] {
    const read = readJsonSync(this.file, FileSchema);
    if (read.kind === 'missing') return [];
    if (read.kind !== 'ok') throw this.badRead(read);
    return read.data.children;
  }

  /**
   * Applies `change` to the list as it is on disk, under the state-file lock, and writes the result
   * (mode 600, atomically) when it differs, creating the folder (mode 700) when it is missing. Throws
   * AppFailure `state-file` when the file does not load, and the fs error when it cannot be written.
   */
  update(change: (list: ChildRecord[]) => ChildRecord[]): void {
    try {
      updateJsonSync(
        this.file,
        FileSchema,
        (data) => {
          const before = data.children;
          const after = change([...before]);
          if (after.length === before.length && after.every((r, i) => r === before[i])) return { result: undefined, write: false };
          data.children = after;
          return { result: undefined };
        },
        {
          initial: () => ({ version: 1 as const, children: [] }),
          failure: (read) => this.badRead(read),
          // Atomic but not fsynced: the record only has to outlive an Angelia process, not the OS (after a
          // reboot every child is gone and the boot id differs). An fsync here cost ~10 ms at every spawn and
          // exit of a Codex process (docs/benchmarks.md).
          fsync: false,
        },
      );
    } catch (e) {
      if (e instanceof JsonLockError)
        throw this.failure(e.kind === 'timeout' ? `stays locked (${e.lock})` : `cannot be locked: ${(e.cause as Error)?.message}`);
      throw e;
    }
  }

  /** Adds `record`, replacing an entry with the same pid. */
  add(record: ChildRecord): void {
    this.update((list) => [...list.filter((r) => r.pid !== record.pid), record]);
  }

  /** Removes the entry of pid `pid` started at `startTime` (any entry of that pid when `startTime` is null). */
  remove(pid: number, startTime: string | null): void {
    this.update((list) => list.filter((r) => !(r.pid === pid && (startTime === null || r.startTime === startTime))));
  }

  private badRead(read: Exclude<JsonRead<unknown>, { kind: 'ok' } | { kind: 'missing' }>): AppFailure {
    if (read.kind === 'unreadable') return this.failure(`cannot be read: ${read.error.message}`);
    if (read.kind === 'not-json') return this.failure(`is not valid JSON: ${read.error.message}`);
    return this.failure(`is not a record of Codex children: ${read.issues[0]?.message ?? 'invalid'}`);
  }

  private failure(what: string): AppFailure {
    return new AppFailure({
      code: 'state-file',
      message: `the record of running Codex processes ${what}`,
      where: this.file,
      fix: 'look for leftover Codex processes (ps -eo pid,sid,args | grep codex) and end them, then delete the file',
    });
  }
}

/**
 * A launcher tracker that records each child of chat `chatId` in `file` when it is spawned and removes it
 * when it has exited. `spawned` throws (and the launch is refused) when the record cannot be written;
 * failures to remove are ignored (the next reap drops an entry whose process is gone).
 */
export function childTracker(file: string, meta: { chatId: string; bin: string }): ChildTracker {
  const ledger = new ChildLedger(file);
  const started = new Map<number, string | null>();
  return {
    spawned(pid) {
      const info = processInfo(pid);
      started.set(pid, info?.startTime ?? null);
      try {
        ledger.add({
          pid,
          startTime: info?.startTime ?? null,
          pgid: info?.pgid ?? pid,
          sid: info?.sid ?? pid,
          boot: bootId(),
          chatId: meta.chatId,
          bin: meta.bin,
          owner: ownerIdentity(),
          recordedAt: new Date().toISOString(),
        });
      } catch (e) {
        throw new Error(`cannot record the Codex process ${pid} in ${file}: ${(e as Error).message}. Check that the state folder is writable.`, { cause: e });
      }
    },
    exited(pid) {
      try {
        ledger.remove(pid, started.get(pid) ?? null);
      } catch {
        // The next reap drops it: its process is gone.
      }
      started.delete(pid);
    },
  };
}
