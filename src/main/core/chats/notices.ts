/**
 * The chat's notices about its queue and turns, one table: a notice is data (`Notice`, a code and its
 * facts), its sentence is made here only. The turn machine (turn/machine.ts) returns notices as effects;
 * the chat, its watchdogs and the loopback API (api/orchestratorCore.ts, the same `queue-full` refusal)
 * print them with `noticeText`. README "Chats" and docs/architecture.md flow (b) describe the rules.
 */

/** The most messages a chat holds (running + waiting), README "Chats". */
export const MAX_QUEUE = 10;

/** How a text is quoted in the chat's notices: one line, at most 60 characters. */
export function quote(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return `"${line.length > 60 ? `${line.slice(0, 59)}…` : line}"`;
}

/** A duration as the stall notices say it: "30 s" under a minute, else minutes to one decimal ("1.5 min"). */
export function minutesText(ms: number): string {
  return ms < 60_000 ? `${Math.round(ms / 1000)} s` : `${Math.round((ms / 60_000) * 10) / 10} min`;
}

/** An ISO 8601 time as the notices say it: "2026-05-01 14:05 UTC" (the same on every host). */
export function untilText(iso: string): string {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? iso : `${new Date(t).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/**
 * One notice as data. `dropped` is the tail naming the queue just dropped (` Dropped 2 queued: "a",
 * "b".`, or "" when nothing waited); `what` names the stopped work (`the message "…"`, `the compaction`).
 */
export type Notice =
  | { code: 'nothing-running'; dropped: string }
  | { code: 'already-stopping'; compact: boolean; dropped: string }
  | { code: 'stopped-unsent'; what: string; codexStarting: boolean; dropped: string }
  | { code: 'stopping-requested'; what: string; dropped: string }
  | { code: 'stopped'; stopped: boolean; dropped: string }
  | { code: 'deny-and-stop-dropped'; dropped: string }
  | { code: 'queue-full' }
  | { code: 'busy'; cmd: string; what: string; queued: number }
  | { code: 'stall-half'; ms: number }
  | { code: 'stall-stopped'; ms: number }
  | { code: 'ghost-approval'; what: string | null }
  | { code: 'not-delivered'; shown: string; how: 'stopped' | 'ended' }
  | { code: 'usage-paused'; until: string; queued: number }
  | { code: 'usage-resumed'; queued: number };

/** The notice codes. */
export type NoticeCode = Notice['code'];

type Texts = { [C in NoticeCode]: (n: Extract<Notice, { code: C }>) => string };

const TEXTS: Texts = {
  'nothing-running': (n) => (n.dropped ? `Nothing was running.${n.dropped}` : 'Nothing running.'),
  'already-stopping': (n) => `Already stopping the current ${n.compact ? 'compaction' : 'turn'}.${n.dropped}`,
  'stopped-unsent': (n) =>
    `Stopped: ${n.what} was not sent to the agent${n.codexStarting ? ' (Codex goes on starting, for the next message)' : ''}.${n.dropped}`,
  'stopping-requested': (n) => `Stopping: ${n.what} had just been handed to Codex; its turn is interrupted as soon as Codex confirms it started.${n.dropped}`,
  stopped: (n) => (n.stopped ? `Stopped.${n.dropped}` : `Nothing was running any more.${n.dropped}`),
  'deny-and-stop-dropped': (n) => `"Deny and stop" ends the turn; like /stop, it drops the queue.${n.dropped}`,
  'queue-full': () => `this chat already holds ${MAX_QUEUE} messages; wait for the agent to work through them`,
  busy: (n) =>
    `${n.what}${n.queued ? ` (and ${n.queued} queued)` : ''} in this chat, so ${n.cmd} did not run and nothing was dropped. Send /stop first (it stops the turn and drops the queue), or wait until it ends; then ${n.cmd} again.`,
  'stall-half': (n) =>
    `No output from the agent for ${minutesText(n.ms / 2)}; the turn is stopped at ${minutesText(n.ms)} (turn_stall_minutes) unless something arrives.`,
  'stall-stopped': (n) => `Stopped: no output from the agent for ${minutesText(n.ms)} (turn_stall_minutes).`,
  'ghost-approval': (n) =>
    `Codex says this turn waits for an approval, but Angelia never received that request${n.what ? ` (it waits on ${n.what})` : ' (Codex did not say what for)'}, so there is nothing to answer. /stop ends the turn.`,
  'usage-paused': (n) =>
    `Paused until ${untilText(n.until)}: the account's usage limit is reached, so no queued message is sent before then${n.queued ? ` (${n.queued} waiting)` : ''}. Messages still queue.`,
  'usage-resumed': (n) => `The usage limit is lifted: sending the ${n.queued} queued message${n.queued === 1 ? '' : 's'}.`,
  'not-delivered': (n) => `Not delivered: “${n.shown}” — the turn ${n.how} before the agent read it. Send it again if you still want it.`,
};

/** The sentence of a notice, as the chat shows it (and the API's refusals say it). */
export function noticeText(n: Notice): string {
  return (TEXTS[n.code] as (n: Notice) => string)(n);
}
