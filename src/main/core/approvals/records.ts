/**
 * The durable record of each approval request: `<recordDir>/<id>.json` (the chat core passes
 * `<state>/approvals`), one file per request, written atomically (temp file + rename) with mode 600 in a
 * folder of mode 700, on open and on every change of state, under the file's lock (`<id>.json.lock`,
 * instance/jsonStore.ts), so the startup reconcile of another Angelia process never writes over a newer
 * state with `abandoned`. The
 * same shape for every server request method: the `ApprovalView` as the UI shows it, plus Codex's
 * JSON-RPC id and thread/turn ids, and the state `abandoned` that the view has no name for.
 *
 * At startup `reconcileApprovalRecords` marks every record still `pending` as `abandoned`: its Codex
 * process went away with the previous Angelia, so nobody can answer it any more (the agent's turn died
 * with it). Records not changed for 30 days (`APPROVAL_RECORD_MAX_AGE_DAYS`) are deleted then; the audit
 * log (audit.ts) keeps the history for good.
 */
import { chmodSync, mkdirSync } from 'node:fs';
import { chmod, readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { ApprovalView } from '../../../shared/contract';
import { readJson, withLock, withLockSync, writeJson, writeJsonSync } from '../instance/jsonStore';
import type { AuditSink } from './audit';

/** Records whose `updatedAt` is older than this many days are deleted by `reconcileApprovalRecords`. */
export const APPROVAL_RECORD_MAX_AGE_DAYS = 30;

/** The states of a record: those of `ApprovalView` plus `abandoned` (pending when its Angelia went away). */
export const ApprovalRecordState = z.enum(['pending', 'answered', 'withdrawn', 'timedOut', 'abandoned']);
/** A record's state (see `ApprovalRecordState`). */
export type ApprovalRecordState = z.infer<typeof ApprovalRecordState>;

/**
 * One record file: `version: 1`, the `ApprovalView` fields (with `state` widened to
 * `ApprovalRecordState`), `rpcId` (Codex's JSON-RPC id of the server request), `threadId` / `turnId`
 * (Codex's, null when the request named none), and `updatedAt` (ISO time of the last write).
 */
export const ApprovalRecord = ApprovalView.extend({
  version: z.literal(1),
  state: ApprovalRecordState,
  rpcId: z.union([z.string(), z.number()]),
  threadId: z.string().nullable(),
  turnId: z.string().nullable(),
  updatedAt: z.string(),
});
/** One record file's content (see the `ApprovalRecord` schema). */
export type ApprovalRecord = z.infer<typeof ApprovalRecord>;

const ID = /^[0-9A-Za-z-]{1,100}$/;

/** `<recordDir>/<id>.json`. Throws an Error for an id that is not a plain UUID-like name (no path parts). */
export function approvalRecordFile(recordDir: string, id: string): string {
  if (!ID.test(id)) throw new Error(`not an approval id: ${JSON.stringify(id)}`);
  return join(recordDir, `${id}.json`);
}

const preparedDirs = new Set<string>();

/** Creates `recordDir` (mode 700) when missing; the first write of this process also tightens its mode to 700. */
function prepareDir(recordDir: string): void {
  mkdirSync(recordDir, { recursive: true, mode: 0o700 });
  if (preparedDirs.has(recordDir)) return;
  chmodSync(recordDir, 0o700);
  preparedDirs.add(recordDir);
}

/**
 * Writes one record synchronously and atomically (readers see the old file or the new one), mode 600;
 * synchronous so the writes of one request land in the order of its changes. Throws the fs error
 * (EACCES, ENOSPC, …) and an Error for a malformed record (checked against `ApprovalRecord`).
 * No fsync: the write sits on the relay path (before subscribers hear of a request, and before the
 * answer reaches Codex), where an fsync costs ~10 ms on a virtual disk (docs/benchmarks.md, approval
 * relay). The rename stays atomic, so a crash of Angelia never leaves a torn record; only an OS crash
 * may lose the last state, like the audit log's unsynced appends, and startup reconciles what is left.
 */
export function writeApprovalRecord(recordDir: string, record: ApprovalRecord): void {
  const checked = ApprovalRecord.parse(record);
  prepareDir(recordDir);
  const file = approvalRecordFile(recordDir, checked.id);
  withLockSync(file, () => writeJsonSync(file, checked, { fsync: false, mkdir: false }));
}

/**
 * Reads every well-formed record of `recordDir` (files `<id>.json`); files that are not JSON or not an
 * `ApprovalRecord` are skipped. A missing folder reads as no records. Throws other fs errors.
 */
export async function readApprovalRecords(recordDir: string): Promise<ApprovalRecord[]> {
  const out: ApprovalRecord[] = [];
  for (const name of await listRecordFiles(recordDir)) {
    const r = await readRecord(join(recordDir, name));
    if (r) out.push(r);
  }
  return out;
}

/** Options of `reconcileApprovalRecords`. */
export interface ReconcileOptions {
  /** The clock (tests). */
  now?: () => Date;
  /** Age in days after which a record that is no longer pending is deleted (default 30). */
  maxAgeDays?: number;
}

/**
 * Run at startup, before any broker writes into `recordDir`. Every record still `pending` is rewritten
 * (atomically, mode 600) with state `abandoned`, after one audit line `{event: 'abandoned', approvalId,
 * chatId, profile, kind, title, rpcId}` (audited first, so a failed rewrite is retried by the next start
 * rather than lost). Then every record not `pending` whose `updatedAt` is older than `maxAgeDays`
 * (default `APPROVAL_RECORD_MAX_AGE_DAYS`, 30) is deleted. Files that do not parse are left alone.
 * Returns the number of records marked abandoned (0 when the folder does not exist). Throws fs errors
 * and the audit sink's errors.
 */
export async function reconcileApprovalRecords(recordDir: string, audit: AuditSink, opts: ReconcileOptions = {}): Promise<number> {
  const names = await listRecordFiles(recordDir);
  if (names.length === 0) return 0;
  await chmod(recordDir, 0o700);
  const now = (opts.now ?? (() => new Date()))();
  const maxAgeMs = (opts.maxAgeDays ?? APPROVAL_RECORD_MAX_AGE_DAYS) * 24 * 60 * 60_000;
  let abandoned = 0;
  for (const name of names) {
    const file = join(recordDir, name);
    const r = await readRecord(file);
    if (!r) continue;
    if (r.state === 'pending') {
      // Re-read under the lock: a state written since the read above is not overwritten.
      const marked = await withLock(file, async () => {
        const again = await readRecord(file);
        if (again?.state !== 'pending') return false;
        audit.append({
          at: now.toISOString(),
          event: 'abandoned',
          approvalId: again.id,
          chatId: again.chatId,
          profile: again.profile,
          kind: again.kind,
          title: again.title,
          rpcId: again.rpcId,
        });
        const next: ApprovalRecord = { ...again, state: 'abandoned', updatedAt: now.toISOString() };
        await writeJson(file, next, { mkdir: false });
        return true;
      });
      if (marked) abandoned++;
      continue;
    }
    const t = Date.parse(r.updatedAt);
    if (Number.isFinite(t) && now.getTime() - t > maxAgeMs) await unlink(file).catch(ignoreMissing);
  }
  return abandoned;
}

async function listRecordFiles(recordDir: string): Promise<string[]> {
  try {
    return (await readdir(recordDir)).filter((n) => n.endsWith('.json') && ID.test(n.slice(0, -5))).sort();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
}

/** The record in `file`; null when it is missing, not JSON or not an `ApprovalRecord`. Throws other fs errors. */
async function readRecord(file: string): Promise<ApprovalRecord | null> {
  const read = await readJson(file, ApprovalRecord);
  if (read.kind === 'unreadable') throw read.error;
  return read.kind === 'ok' ? read.data : null;
}

function ignoreMissing(e: unknown): void {
  if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
}
