/**
 * Floods of requests (attack17 F7): the tray lists at most MAX_TRAY_REQUESTS and counts the rest; each
 * chat raises BURST_SIZE request notifications at once, then one per BURST_GAP_MS, the rest coalesced
 * into "K more requests from <profile>" (electron/notifyBurst.ts; a fake clock); on Linux an MCP
 * server's elicitation outside a turn is not critical.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NotificationRouter, requestNotification } from '../../src/main/electron/notifications';
import { BURST_GAP_MS, BURST_SIZE, RequestBurst } from '../../src/main/electron/notifyBurst';
import { emptyTrayState, MAX_TRAY_REQUESTS, trayModel } from '../../src/main/electron/trayModel';
import type { ApprovalView } from '../../src/shared/contract';
import { approvalView, chatView, notificationFactory } from './fakes';

const elicitation = (id: string, chatId = 'demo'): ApprovalView =>
  approvalView(id, {
    chatId,
    kind: 'elicitation',
    title: 'evil asks',
    command: null,
    cwd: null,
    answers: ['allow', 'deny', 'cancel'],
    elicitation: { serverName: 'evil', mode: 'form', message: `request ${id}`, fields: [], url: null, domain: null },
  });

describe('RequestBurst (pure)', () => {
  it('lets BURST_SIZE through at once, then one per gap; the held ones are taken together', () => {
    const b = new RequestBurst();
    const seen = Array.from({ length: BURST_SIZE + 2 }, (_, i) => b.admit('c', `r${i}`, 0));
    expect(seen).toEqual([...Array<string>(BURST_SIZE).fill('show'), 'hold', 'hold']);
    expect(b.admit('other', 'x', 0)).toBe('show');
    expect(b.dueIn('c', 0)).toBe(BURST_GAP_MS);
    expect(b.dueIn('c', BURST_GAP_MS)).toBe(0);
    b.drop(`r${BURST_SIZE}`);
    expect(b.take('c', BURST_GAP_MS)).toEqual([`r${BURST_SIZE + 1}`]);
    expect(b.take('c', BURST_GAP_MS)).toEqual([]);
    expect(b.admit('c', 'late', BURST_GAP_MS + 1)).toBe('hold');
    expect(b.admit('c', 'later', 3 * BURST_GAP_MS)).toBe('hold'); // held ones first: nothing jumps the queue
  });
});

describe('the router coalesces a burst of one chat (fake clock)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2025-01-01T12:00:00Z'));
  });
  afterEach(() => vi.useRealTimers());

  function setup(platform: NodeJS.Platform = 'linux') {
    const factory = notificationFactory();
    const opened: string[] = [];
    const router = new NotificationRouter({
      create: factory.create,
      isSupported: () => true,
      platform,
      answer: () => ({ ok: true, value: { outcome: 'answered', answer: 'deny', by: 'notification' } }),
      openChat: (id) => opened.push(id),
      chats: [chatView('demo', { state: 'idle' }), chatView('calm', { state: 'idle' })],
    });
    const pending = (v: ApprovalView): void => router.handle({ event: 'approval:updated', payload: v });
    const settle = (v: ApprovalView): void => router.handle({ event: 'approval:updated', payload: { ...v, state: 'answered', answer: 'deny', by: 'window' } });
    return { router, made: factory.made, opened, pending, settle };
  }

  it('20 spontaneous elicitations: BURST_SIZE notifications, then one "17 more requests from demo"; another chat is not held back', () => {
    const { made, opened, pending } = setup();
    const flood = Array.from({ length: 20 }, (_, i) => elicitation(`e${i}`));
    for (const v of flood) pending(v);
    pending(elicitation('c1', 'calm'));
    expect(made.map((n) => n.options.title)).toEqual([...Array<string>(BURST_SIZE).fill('evil (MCP, demo) asks'), 'evil (MCP, demo) asks']);
    vi.advanceTimersByTime(BURST_GAP_MS);
    expect(made).toHaveLength(BURST_SIZE + 2);
    expect(made.at(-1)?.options.title).toBe(`${20 - BURST_SIZE} more requests from demo`);
    made.at(-1)?.emit('click');
    expect(opened).toEqual(['demo']);
    vi.advanceTimersByTime(10 * BURST_GAP_MS);
    expect(made).toHaveLength(BURST_SIZE + 2); // nothing more to say
  });

  it('more arriving later replace the summary; it closes once none of its requests waits', () => {
    const { made, pending, settle } = setup();
    const first = Array.from({ length: BURST_SIZE + 2 }, (_, i) => elicitation(`e${i}`));
    for (const v of first) pending(v);
    vi.advanceTimersByTime(BURST_GAP_MS);
    const summary = made.at(-1)!;
    expect(summary.options.title).toBe('2 more requests from demo');
    pending(elicitation('e-late'));
    vi.advanceTimersByTime(BURST_GAP_MS);
    expect(summary.closed).toBe(true);
    const second = made.at(-1)!;
    expect(second.options.title).toBe('3 more requests from demo');
    for (const v of [...first.slice(BURST_SIZE), elicitation('e-late')]) settle(v);
    expect(second.closed).toBe(true);
  });

  it('a held request settled before the summary is left out of it', () => {
    const { made, pending, settle } = setup();
    const list = Array.from({ length: BURST_SIZE + 1 }, (_, i) => elicitation(`e${i}`));
    for (const v of list) pending(v);
    settle(list.at(-1)!);
    vi.advanceTimersByTime(BURST_GAP_MS);
    expect(made).toHaveLength(BURST_SIZE);
  });
});

describe('Linux urgency', () => {
  it('critical for an approval, a question and an elicitation in a turn; normal for an elicitation outside any turn', () => {
    expect(requestNotification(approvalView('a'), 'linux').options).toMatchObject({ urgency: 'critical', timeoutType: 'never' });
    expect(requestNotification(elicitation('e'), 'linux').options).toMatchObject({ urgency: 'critical', timeoutType: 'never' });
    const outside = requestNotification(elicitation('e'), 'linux', undefined, false).options;
    expect(outside.urgency).toBe('normal');
    expect(outside.timeoutType).toBeUndefined();
  });

  it('the router knows whether the chat is in a turn (needs-you alone does not say)', () => {
    vi.useRealTimers();
    const factory = notificationFactory();
    const router = new NotificationRouter({
      create: factory.create,
      isSupported: () => true,
      platform: 'linux',
      answer: () => ({ ok: true, value: { outcome: 'answered', answer: 'deny', by: 'notification' } }),
      openChat: () => undefined,
      chats: [chatView('demo', { state: 'idle' }), chatView('busy', { state: 'working' })],
    });
    router.handle({ event: 'chat:updated', payload: chatView('demo', { state: 'needs-you' }) });
    router.handle({ event: 'approval:updated', payload: elicitation('idle-1') });
    router.handle({ event: 'approval:updated', payload: elicitation('busy-1', 'busy') });
    expect(factory.made.map((n) => n.options.urgency)).toEqual(['normal', 'critical']);
  });
});

describe('the tray lists at most MAX_TRAY_REQUESTS', () => {
  it('then one row counting the rest, which opens the window; the badge counts all', () => {
    const approvals = Array.from({ length: MAX_TRAY_REQUESTS + 7 }, (_, i) => elicitation(`e${i}`));
    const model = trayModel({ ...emptyTrayState, approvals });
    expect(model.badge).toBe(MAX_TRAY_REQUESTS + 7);
    expect(model.items.filter((i) => i.kind === 'submenu')).toHaveLength(MAX_TRAY_REQUESTS);
    expect(model.items).toContainEqual({ kind: 'action', label: '… and 7 more — open the window', action: { type: 'open-window' } });
  });
});
