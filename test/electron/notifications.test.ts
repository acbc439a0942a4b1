import { describe, expect, it } from 'vitest';
import { answerFrom } from '../../src/main/electron/answers';
import { actionIndexOf, approvalNotification, MAX_BODY, NotificationRouter } from '../../src/main/electron/notifications';
import { approvalView, commandAsk, notificationFactory, realCore } from './fakes';

/** A router on a real broker and hub, as desktop.ts wires it. */
function setup(platform: NodeJS.Platform = 'darwin', supported = true) {
  const core = realCore();
  const factory = notificationFactory();
  const opened: string[] = [];
  const router = new NotificationRouter({
    create: factory.create,
    isSupported: () => supported,
    platform,
    answer: answerFrom(core, 'notification'),
    openChat: (id) => opened.push(id),
  });
  core.hub.subscribe((e) => router.handle(e));
  return { core, made: factory.made, opened, router };
}

describe('approvalNotification', () => {
  it('macOS: profile and what is asked in the title, the command in the body, Allow / Deny buttons and a close button', () => {
    const n = approvalNotification(approvalView('a', { reason: 'clean up' }), 'darwin');
    expect(n.options).toEqual({
      title: 'demo wants to run a command',
      body: '$ rm -rf build/\nin /home/me/demo\nWhy: clean up',
      silent: false,
      actions: [
        { type: 'button', text: 'Allow' },
        { type: 'button', text: 'Deny' },
      ],
      closeButtonText: 'Later',
    });
    expect(n.buttons).toEqual(['allow', 'deny']);
  });

  it('macOS: only the buttons the request offers', () => {
    expect(approvalNotification(approvalView('a', { answers: ['deny', 'cancel'] }), 'darwin')).toMatchObject({
      buttons: ['deny'],
      options: { actions: [{ type: 'button', text: 'Deny' }] },
    });
    expect(approvalNotification(approvalView('a', { answers: ['allow', 'allowForSession', 'deny'] }), 'darwin').buttons).toEqual(['allow', 'deny']);
  });

  it('Linux: no buttons; click to open, waiting like the request (critical, no timeout)', () => {
    const n = approvalNotification(approvalView('a'), 'linux', '/res/icon.png');
    expect(n.buttons).toEqual([]);
    expect(n.options.actions).toBeUndefined();
    expect(n.options).toMatchObject({ urgency: 'critical', timeoutType: 'never', icon: '/res/icon.png' });
    expect(n.options.body).toMatch(/Click to review it in Angelia\.$/);
  });

  it('shows the folders or files asked for, and truncates a huge body by code point', () => {
    const perm = approvalNotification(
      approvalView('p', { kind: 'permissions', command: null, cwd: null, requested: { read: [], write: ['/home/me/other-repo'], network: false } }),
      'darwin',
    );
    expect(perm.options.title).toBe('demo asks for more access');
    expect(perm.options.body).toBe('+ write /home/me/other-repo');
    const huge = approvalNotification(approvalView('h', { command: `echo ${'😀'.repeat(3000)}` }), 'darwin');
    const points = Array.from(huge.options.body);
    expect(points).toHaveLength(MAX_BODY);
    expect(points.at(-1)).toBe('…');
    expect(points.at(-2)).toBe('😀');
    expect(huge.options.body).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });

  it('reads the button index from the details, or the older argument', () => {
    expect(actionIndexOf({ actionIndex: 1 }, 0)).toBe(1);
    expect(actionIndexOf(undefined, 0)).toBe(0);
    expect(actionIndexOf({}, undefined)).toBe(-1);
  });
});

describe('NotificationRouter', () => {
  it('shows one notification per request, however often the request is updated', () => {
    const { core, made } = setup();
    const id = core.open();
    const view = core.broker.pending()[0]!;
    core.hub.emit({ event: 'approval:updated', payload: view });
    core.hub.emit({ event: 'approval:updated', payload: view });
    expect(made).toHaveLength(1);
    expect(made[0]?.shown).toBe(true);
    core.open(commandAsk('make test'));
    expect(made).toHaveLength(2);
    expect(made[1]?.options.body).toContain('$ make test');
    expect(id).toBeTruthy();
  });

  it('a button answers through the broker with source notification and closes the notification', () => {
    const { core, made } = setup('darwin');
    const id = core.open();
    made[0]!.press(1); // Deny
    expect(core.broker.all()[0]).toMatchObject({ id, state: 'answered', answer: 'deny', by: 'notification' });
    expect(made[0]?.closed).toBe(true);
    expect(made).toHaveLength(1); // nothing else to say
  });

  it('closes the notification when the request is settled anywhere else (window, timeout, Codex)', () => {
    const { core, made } = setup();
    const a = core.open();
    const b = core.open();
    core.open();
    core.broker.answer(a, 'allow', 'window');
    core.broker.flushDeferred(); // the answer's event comes one macrotask after Codex's reply
    expect(made.map((n) => n.closed)).toEqual([true, false, false]);
    core.broker.withdraw((v) => v.id === b);
    expect(made.map((n) => n.closed)).toEqual([true, true, false]);
  });

  it('a stale button answers nothing and says "Already answered (Allowed, from the window)"', () => {
    const { core, made } = setup();
    const id = core.open();
    const n = made[0]!;
    core.broker.answer(id, 'allow', 'window');
    n.press(1); // Deny, too late
    expect(core.broker.all()[0]).toMatchObject({ answer: 'allow', by: 'window' });
    expect(core.audit.records.filter((r) => r.event === 'answered')).toHaveLength(1);
    expect(made).toHaveLength(2);
    expect(made[1]?.options.title).toBe('Already answered (Allowed, from the window)');
    expect(made[1]?.options.actions).toBeUndefined();
  });

  it('a double action answers once', () => {
    const { core, made } = setup();
    core.open();
    const n = made[0]!;
    n.press(0);
    n.press(1);
    expect(core.audit.records.filter((r) => r.event === 'answered')).toHaveLength(1);
    expect(core.broker.all()[0]).toMatchObject({ answer: 'allow', by: 'notification' });
    expect(made[1]?.options.title).toBe('Already answered (Allowed, from a notification)');
  });

  it('a double action answers once even when the broker event is late', () => {
    const factory = notificationFactory();
    const calls: string[] = [];
    const router = new NotificationRouter({
      create: factory.create,
      isSupported: () => true,
      platform: 'darwin',
      openChat: () => undefined,
      answer: (id, answer) => {
        calls.push(`${id}:${answer}`);
        return { ok: true, value: { outcome: 'answered', answer, by: 'notification' } };
      },
    });
    router.handle({ event: 'approval:updated', payload: approvalView('q') });
    factory.made[0]!.press(0);
    factory.made[0]!.press(0);
    expect(calls).toEqual(['q:allow']);
  });

  it('elsewhere a click opens the window on that chat and answers nothing', () => {
    const { core, made, opened } = setup('linux');
    core.open();
    expect(made[0]?.options.actions).toBeUndefined();
    made[0]!.click();
    expect(opened).toEqual(['demo']);
    expect(core.broker.pending()).toHaveLength(1);
  });

  it('a click on a settled request says so (and still opens the chat)', () => {
    const { core, made, opened } = setup('linux');
    const id = core.open();
    core.broker.answer(id, 'deny', 'tray');
    core.broker.flushDeferred(); // the answer's event comes one macrotask after Codex's reply
    made[0]!.click();
    expect(made[1]?.options.title).toBe('Already answered (Denied, from the tray menu)');
    expect(opened).toEqual(['demo']);
  });

  it('shows nothing where notifications are not supported', () => {
    const { core, made } = setup('linux', false);
    core.open();
    expect(made).toEqual([]);
  });

  it('closes everything on dispose', () => {
    const { core, made, router } = setup();
    core.open();
    router.notice('hello');
    router.dispose();
    expect(made.every((n) => n.closed)).toBe(true);
  });
});
