/**
 * The one way Angelia opens a Codex thread it may run turns in: on a connection whose `initialize` is
 * done (`StartCodex`, codex/connection.ts), the version gate, the config-layer, MCP-server and managed
 * requirement checks (`config/read {includeLayers}` and `configRequirements/read`, asked together),
 * the sign-in gate (`account/read`, asked with them: signInGate.ts), then `thread/start`, `thread/resume` or `thread/fork`, and the thread attestation (attest.ts
 * `attestThread`) of Codex's answer. Fail-closed: any refusal throws and nothing runs
 * (docs/security-model.md, docs/architecture.md flow (a)). Used by a chat's start (chats/process.ts), by
 * `POST /ask` (chats/ask.ts, a fork); reading past turns opens no thread and passes the version gate
 * only (`gateVersion`). Protocol: codex 0.169.0, `ThreadStartParams`, `ThreadResumeParams`,
 * `ThreadForkParams`, their `*Response` (`thread`, `sandbox`, `approvalPolicy`, `model`).
 */
import type { Enforcement } from '../../../shared/contract';
import { AppFailure, toAppError } from '../../../shared/result';
import type { LaunchPlan } from '../launch/plan';
import { attestThread, checkConfigLayers, checkMcpServers, checkRequirements, checkVersion, type ExpectedThread } from './attest';
import type { CodexConnection } from './connection';
import { signInRefusal } from './signInGate';
import { isObj, str, type Obj } from './wire';

/** Which thread to open: a fresh one, the session's own (resume), or a copy of it (fork). */
export type SessionTarget = { kind: 'start' } | { kind: 'resume'; threadId: string } | { kind: 'fork'; threadId: string };

/** Codex's answer for a thread it does not have on disk (measured on 0.169.0: `-32600 no rollout found for thread id …`). */
export const NO_ROLLOUT = /no rollout|not found|unknown thread|does not exist/i;

/**
 * Codex's answer for a thread whose rollout is on disk but cannot be read, measured on 0.171.0 (-32603 to
 * `thread/resume`, `thread/read` and `thread/fork` alike): a file of 0 bytes or of no parsable line ("…
 * failed to read session metadata <file>: rollout at <file> is empty"), a first line that is not JSON
 * ("… failed to resume local thread recorder: failed to parse first rollout record at <file>: expected
 * value at line 1 column 1"), a first record that is not the session's metadata ("rollout at <file> does
 * not start with session metadata").
 */
export const UNREADABLE_ROLLOUT = /rollout at .+ is empty|failed to parse first rollout record|does not start with session metadata/i;

/**
 * Whether Codex's error `message` for a thread request says the thread's record is unavailable:
 * `missing` (NO_ROLLOUT), `unreadable` (UNREADABLE_ROLLOUT, with `why`: the clause of the message that
 * says so), or null for any other failure. Either way the thread cannot be opened again: a chat starts a
 * fresh session and says so (chats/process.ts), `/ask` answers on a fresh thread (chats/ask.ts).
 */
export function rolloutUnavailable(message: string): { kind: 'missing' } | { kind: 'unreadable'; why: string } | null {
  if (UNREADABLE_ROLLOUT.test(message)) {
    const clauses = message.split(/: (?=\S)/);
    return { kind: 'unreadable', why: clauses.find((s) => UNREADABLE_ROLLOUT.test(s)) ?? message };
  }
  return NO_ROLLOUT.test(message) ? { kind: 'missing' } : null;
}

/** How long a thread request may take (a resume loads the whole rollout), in ms. */
const THREAD_TIMEOUT_MS = 120_000;

/** The caller's say at each point of the sequence; every hook is optional. */
export interface OpenSessionOptions {
  /** Thread params over the plan's `threadParams` (a model override, `ephemeral`). */
  params?: Obj;
  /** The version gate passed (the version is `conn.version`). */
  versionOk?: () => void;
  /**
   * The process checks passed; `config` is Codex's effective config (`config/read`'s `config`). May throw
   * to refuse, or change the target and add params, before any thread request.
   */
  checked?: (config: Obj) => { target?: SessionTarget; params?: Obj } | void;
  /**
   * A resume or fork failed with `message`: return 'fresh' to open a fresh thread instead, or throw.
   * Without it, the failure throws AppFailure `resume-failed`.
   */
  threadError?: (message: string, target: SessionTarget) => 'fresh';
  /** Right before a `thread/start` (also one that replaces a failed resume or fork). */
  beforeStart?: () => void;
  /** What the attestation expects; default: the plan's sandbox, permissions profile and writable folders. */
  expect?: ExpectedThread;
  /** The attestation's verdict, before its refusals are thrown. */
  attested?: (enforcement: Enforcement | null) => void;
  /** More refusals of Codex's thread answer (a read-only copy must be read-only). */
  moreRefusals?: (answer: unknown) => string[];
  /** Said after "Codex did not return a thread id" (" for the read-only copy"). */
  what?: string;
  /** The thread id taken when Codex's answer names none (a chat: its session's thread); default none. */
  threadIdFallback?: () => string | null;
}

/** An attested thread: Codex's answer, the thread id, the enforcement in force, and what was asked. */
export interface AttestedSession {
  /** The `thread/start|resume|fork` response as Codex sent it. */
  answer: unknown;
  threadId: string;
  enforcement: Enforcement | null;
  /** Codex's effective config (`config/read`'s `config`; {} when absent). */
  config: Obj;
  /** The thread actually opened: `start` when a resume or fork fell back to a fresh thread. */
  target: SessionTarget;
}

/** Throws AppFailure `refused` when the Codex on `conn` is not a version Angelia supports (attest.ts `checkVersion`). */
export function gateVersion(conn: CodexConnection): void {
  const version = checkVersion(conn.version);
  if (version.length) throw new AppFailure({ code: 'refused', message: version.join(' ') });
}

/** The folders the plan makes writable (`filesystem` entries `write`), undefined when the plan lists none. */
function writableOf(plan: LaunchPlan): string[] | undefined {
  const fs = plan.filesystem;
  return fs ? Object.keys(fs).filter((p) => fs[p] === 'write') : undefined;
}

/**
 * Opens `target` on `conn` after every check (see the module comment) and returns the attested thread.
 * Throws AppFailure `refused` with the reasons (version, config layers, MCP servers, requirements,
 * attestation, no thread id), `resume-failed` (a resume or fork failed and `threadError` did not choose a
 * fresh thread), or what a hook throws; a failed request throws as `conn.request` does. Never kills `conn`:
 * the caller stops it.
 */
export async function openAttestedSession(
  conn: CodexConnection,
  plan: LaunchPlan,
  target: SessionTarget,
  opts: OpenSessionOptions = {},
): Promise<AttestedSession> {
  gateVersion(conn);
  opts.versionOk?.();
  // The reads are independent: asked together, they cost one round trip (docs/benchmarks.md, agent start).
  // A failed `account/read` refuses nothing (signInGate.ts): the start goes on as before the gate.
  const [configRead, requirements, account] = await Promise.all([
    conn.request('config/read', { includeLayers: true, cwd: plan.spawn.cwd }),
    conn.request('configRequirements/read', {}),
    conn.request('account/read', { refreshToken: false }).catch(() => null),
  ]);
  const refusals = [
    ...(plan.sandboxed ? checkConfigLayers(configRead) : []),
    ...checkMcpServers(configRead, plan.allowedMcpServers),
    ...checkRequirements(requirements, plan.expect, configRead),
  ];
  if (refusals.length) throw new AppFailure({ code: 'refused', message: refusals.join(' ') });
  const notSignedIn = signInRefusal(account);
  if (notSignedIn) throw notSignedIn;
  const config = isObj(configRead) && isObj(configRead.config) ? configRead.config : {};
  const more = opts.checked?.(config);
  let opened: SessionTarget = more?.target ?? target;
  const params: Obj = { ...plan.threadParams, ...opts.params, ...more?.params };
  let answer: unknown;
  if (opened.kind !== 'start') {
    try {
      answer =
        opened.kind === 'resume'
          ? await conn.request('thread/resume', { threadId: opened.threadId, ...params }, { timeoutMs: THREAD_TIMEOUT_MS })
          : // A fork keeps the parent's developerInstructions (Codex ignores the parameter on a fork).
            await conn.request(
              'thread/fork',
              { ...Object.fromEntries(Object.entries(params).filter(([k]) => k !== 'developerInstructions')), threadId: opened.threadId, excludeTurns: true },
              { timeoutMs: THREAD_TIMEOUT_MS },
            );
    } catch (e) {
      const message = toAppError(e).message;
      if (!opts.threadError) throw new AppFailure({ code: 'resume-failed', message: `the session ${opened.threadId} could not be resumed: ${message}` });
      opts.threadError(message, opened);
      opened = { kind: 'start' };
    }
  }
  if (opened.kind === 'start') {
    opts.beforeStart?.();
    answer = await conn.request('thread/start', params, { timeoutMs: THREAD_TIMEOUT_MS });
  }
  const writable = writableOf(plan);
  const verdict = attestThread(
    answer,
    opts.expect ?? { sandboxed: plan.sandboxed, permissionsExtends: plan.permissionsExtends, ...(writable ? { writable } : {}) },
  );
  opts.attested?.(verdict.enforcement);
  const all = [...verdict.refusals, ...(opts.moreRefusals?.(answer) ?? [])];
  if (all.length) throw new AppFailure({ code: 'refused', message: all.join(' ') });
  const thread = isObj(answer) && isObj(answer.thread) ? answer.thread : {};
  const threadId = str(thread.id) ?? opts.threadIdFallback?.() ?? null;
  if (!threadId) throw new AppFailure({ code: 'refused', message: `refused: Codex did not return a thread id${opts.what ?? ''}.` });
  return { answer, threadId, enforcement: verdict.enforcement, config, target: opened };
}
