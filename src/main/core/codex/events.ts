/**
 * The Codex notifications Angelia routes, decoded ONCE, with zod, into one typed event union
 * (`CodexEvent`); everything after this module reads events, never raw notification params.
 *
 * Protocol source: codex 0.169.0 generated `ServerNotification` (`generated/ServerNotification.ts`); the
 * allowlist `ROUTED_METHODS` is checked against its method names at compile time. A notification of any
 * other method becomes an `unrouted` event (counted by method): the chat still sees that Codex is
 * active (its stall watchdog, docs/architecture.md "Notifications") but reads nothing from it. A routed
 * method whose params fail its schema becomes an `unrouted` event too, counted and reported once per
 * method, never thrown into the chat. The schemas are lenient where Angelia's reading always was (a
 * mistyped optional field reads as absent) and strict only on what a handler cannot do without.
 */
import { z } from 'zod';
import type { ServerNotificationMethod } from './protocol';
import { idsOf, readItem, turnEndSchema, type ThreadItemView, type TurnEnd } from './items';

/** The notification methods Angelia routes (a subset of the generated `ServerNotification` methods). */
export const ROUTED_METHODS = [
  'turn/started',
  'turn/completed',
  'item/started',
  'item/completed',
  'item/agentMessage/delta',
  'item/reasoning/summaryTextDelta',
  'item/commandExecution/outputDelta',
  'thread/status/changed',
  'error',
  'mcpServer/startupStatus/updated',
  'serverRequest/resolved',
  'account/login/completed',
  'account/updated',
  'account/rateLimits/updated',
  'thread/tokenUsage/updated',
  'turn/diff/updated',
] as const satisfies readonly ServerNotificationMethod[];

/** A method Angelia routes. */
export type RoutedMethod = (typeof ROUTED_METHODS)[number];

const routed: ReadonlySet<string> = new Set(ROUTED_METHODS);

/** A string field, else null. */
const optStr = z.string().nullable().catch(null);
const item = z.unknown().transform((raw, ctx) => {
  const view = readItem(raw);
  if (!view) ctx.addIssue({ code: 'custom', message: 'item is not an object' });
  return view as ThreadItemView;
});
const delta = z.object({ itemId: z.string(), delta: z.string() });
/** A number field, else null. */
const optNum = z.number().nullable().catch(null);
/** `RateLimitWindow` (codex 0.169.0; `resetsAt` unix seconds); an unreadable window reads as not sent. */
const rateWindow = z.object({ usedPercent: z.number(), windowDurationMins: optNum, resetsAt: optNum }).nullable().catch(null);
/** `TokenUsageBreakdown`: the counts Angelia shows. */
const tokens = z.object({ totalTokens: z.number(), inputTokens: z.number(), outputTokens: z.number() });

/** The params schema of each routed method (codex 0.169.0 `*Notification` types, the fields Angelia reads). */
const PARAMS = {
  'turn/started': z.object({ turn: z.object({ id: z.string() }) }),
  'turn/completed': z.object({ turn: turnEndSchema }),
  'item/started': z.object({ item }),
  'item/completed': z.object({ item }),
  'item/agentMessage/delta': delta,
  'item/reasoning/summaryTextDelta': delta,
  'item/commandExecution/outputDelta': delta,
  // ThreadStatus: {type:"active", activeFlags} | {type:"idle"} | …; the flags only count while active.
  'thread/status/changed': z.object({ status: z.object({ type: z.unknown().optional(), activeFlags: z.unknown().optional() }) }).transform(({ status }) => ({
    activeFlags: status.type === 'active' && Array.isArray(status.activeFlags) ? status.activeFlags.filter((f): f is string => typeof f === 'string') : [],
  })),
  error: z
    .object({ willRetry: z.unknown().optional(), error: z.object({ message: optStr }).nullable().catch(null) })
    .transform((p) => ({ willRetry: p.willRetry === true, message: p.error?.message ?? null })),
  'mcpServer/startupStatus/updated': z.object({ name: optStr, status: optStr, error: optStr }),
  'serverRequest/resolved': z.object({ requestId: z.union([z.string(), z.number()]).nullable().catch(null) }),
  // AccountLoginCompletedNotification: `loginId` null for an API-key sign-in (core/account/login.ts).
  'account/login/completed': z.object({ loginId: optStr, success: z.boolean(), error: optStr }),
  // AccountUpdatedNotification: `authMode` "apikey" | "chatgpt" | … | null (signed out).
  'account/updated': z.object({ authMode: optStr, planType: optStr }),
  // AccountRateLimitsUpdatedNotification {rateLimits: RateLimitSnapshot}: a sparse update (null = not sent).
  'account/rateLimits/updated': z.object({ rateLimits: z.object({ primary: rateWindow, secondary: rateWindow, rateLimitReachedType: optStr }) }),
  // ThreadTokenUsageUpdatedNotification {threadId, turnId, tokenUsage: ThreadTokenUsage}, after each turn.
  'thread/tokenUsage/updated': z.object({ tokenUsage: z.object({ total: tokens, last: tokens, modelContextWindow: optNum }) }),
  // TurnDiffUpdatedNotification {threadId, turnId, diff}: the turn's whole aggregated unified diff, sent again after every step.
  'turn/diff/updated': z.object({ diff: z.string() }),
} satisfies Record<RoutedMethod, z.ZodType>;

/** Thread and turn ids a notification carries (items.ts `idsOf`: `threadId`; `turnId`, else `turn.id`), when present. */
export interface EventIds {
  threadId: string | null;
  turnId: string | null;
}

/** One routed notification, decoded: `{method, params}` plus the ids it carries. */
export type RoutedEvent = { [M in RoutedMethod]: EventIds & { method: M; params: z.output<(typeof PARAMS)[M]> } }[RoutedMethod];

/**
 * A notification Angelia does not route (`why: "unrouted"`), or a routed one whose params failed their
 * schema (`why: "malformed"`): `name` is its method as sent.
 */
export interface UnroutedEvent extends EventIds {
  method: 'unrouted';
  name: string;
  why: 'unrouted' | 'malformed';
}

/** Every notification, as Angelia reads it. */
export type CodexEvent = RoutedEvent | UnroutedEvent;

/** The method of `e` as Codex sent it (an unrouted event's `name`). */
export const wireMethod = (e: CodexEvent): string => (e.method === 'unrouted' ? e.name : e.method);

/** The params of routed method `M` after decoding. */
export type EventParams<M extends RoutedMethod> = Extract<RoutedEvent, { method: M }>['params'];

/** The end a `turn/completed` event reports. */
export const turnEndOf = (e: Extract<RoutedEvent, { method: 'turn/completed' }>): TurnEnd => e.params.turn;

/** The outcome of decoding one notification: the event, and for a malformed one the schema's complaint. */
export interface Decoded {
  event: CodexEvent;
  /** Set when a routed method's params failed their schema: one line naming the method and the fields. */
  problem: string | null;
}

/**
 * Decodes one notification (pure). A routed method with valid params gives its typed event; any other
 * method an `unrouted` event; a routed method with invalid params an `unrouted` event with `why:
 * "malformed"` and a `problem` line.
 */
export function decodeNotification(method: string, params: unknown): Decoded {
  const ids = idsOf(params);
  if (!routed.has(method)) return { event: { method: 'unrouted', name: method, why: 'unrouted', ...ids }, problem: null };
  const m = method as RoutedMethod;
  const r = PARAMS[m].safeParse(params);
  if (!r.success) {
    const fields = r.error.issues.map((i) => i.path.join('.') || '(params)').join(', ');
    return {
      event: { method: 'unrouted', name: method, why: 'malformed', ...ids },
      problem: `codex sent ${method} with params Angelia cannot read (${fields}); ignored`,
    };
  }
  return { event: { method: m, params: r.data, ...ids } as RoutedEvent, problem: null };
}

/** What a decoder has counted: notifications per method that were not routed, and malformed ones. */
export interface EventCounts {
  unrouted: Record<string, number>;
  malformed: Record<string, number>;
}

/**
 * Decodes notifications and counts the ones it does not route, per method (`counts()`, for diagnostics);
 * `report` is told one line for the first malformed notification of each method (later ones are counted).
 */
export class EventDecoder {
  private readonly unrouted = new Map<string, number>();
  private readonly malformed = new Map<string, number>();

  constructor(private readonly report: (line: string) => void = () => undefined) {}

  /** Decodes one notification (see `decodeNotification`), counting and reporting as above. */
  decode(method: string, params: unknown): CodexEvent {
    const { event, problem } = decodeNotification(method, params);
    if (event.method !== 'unrouted') return event;
    const counter = event.why === 'malformed' ? this.malformed : this.unrouted;
    const n = (counter.get(method) ?? 0) + 1;
    counter.set(method, n);
    if (problem && n === 1) this.report(problem);
    return event;
  }

  /** The counts so far. */
  counts(): EventCounts {
    return { unrouted: Object.fromEntries(this.unrouted), malformed: Object.fromEntries(this.malformed) };
  }
}
