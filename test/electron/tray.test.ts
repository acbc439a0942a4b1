import { describe, expect, it } from 'vitest';
import { answerFrom } from '../../src/main/electron/answers';
import { bindTray, handleTrayAction, menuTemplate, TrayController, type MenuItemTemplate, type TrayActionHandlers } from '../../src/main/electron/tray';
import { emptyTrayState, trayModel, type TrayAction } from '../../src/main/electron/trayModel';
import { approvalView, chatView, commandAsk, FakeTray, menuFactory, realCore, type FakeImage } from './fakes';

const images = {
  normal: { path: 'tray.png', template: true },
  attention: { path: 'trayAttention.png', template: true },
  danger: { path: 'danger.png', template: false },
};

/** Finds a menu item by label, searching submenus; throws when absent. */
function find(items: MenuItemTemplate<FakeImage>[], label: string): MenuItemTemplate<FakeImage> {
  for (const i of items) {
    if (i.label === label) return i;
    const inner = i.submenu ? findOrNull(i.submenu, label) : null;
    if (inner) return inner;
  }
  throw new Error(`no "${label}" in the menu`);
}
function findOrNull(items: MenuItemTemplate<FakeImage>[], label: string): MenuItemTemplate<FakeImage> | null {
  try {
    return find(items, label);
  } catch {
    return null;
  }
}

function handlers(over: Partial<TrayActionHandlers> = {}): TrayActionHandlers & { log: string[] } {
  const log: string[] = [];
  return {
    log,
    answer: () => {
      throw new Error('no answer expected');
    },
    openWindow: () => log.push('open'),
    openChat: (id) => log.push(`chat:${id}`),
    reviewTable: () => log.push('review'),
    signIn: () => log.push('sign-in'),
    toggleLogin: () => log.push('login'),
    quit: () => log.push('quit'),
    notice: (t) => log.push(`notice:${t}`),
    ...over,
  };
}

describe('menuTemplate', () => {
  it('turns rows into menu items: headers disabled, FULL ACCESS rows with the red mark, the login checkbox', () => {
    const actions: TrayAction[] = [];
    const model = trayModel({
      ...emptyTrayState,
      chats: [chatView('wild', { enforcement: 'disabled' }), chatView('safe', { enforcement: 'managed' })],
      startAtLogin: true,
    });
    const template = menuTemplate(model, (a) => actions.push(a), images.danger);
    expect(template[0]).toEqual({ label: 'Chats', enabled: false });
    expect(find(template, '⚠ wild — idle · FULL ACCESS').icon).toEqual(images.danger);
    expect(find(template, 'safe — idle · managed sandbox').icon).toBeUndefined();
    expect(find(template, 'Start at login')).toMatchObject({ type: 'checkbox', checked: true });
    expect(template.some((i) => i.type === 'separator')).toBe(true);
    find(template, 'safe — idle · managed sandbox').click?.();
    find(template, 'Quit').click?.();
    expect(actions).toEqual([{ type: 'open-chat', chatId: 'safe' }, { type: 'quit' }]);
  });
});

describe('bindTray', () => {
  it('macOS: badge as the title, template images swapped for attention, menu on right click, popover on click', () => {
    const tray = new FakeTray(images.normal);
    const menu = menuFactory();
    let clicks = 0;
    const view = bindTray({ tray, menu, images, platform: 'darwin', onAction: () => undefined, onClick: () => clicks++ });
    view.render(trayModel({ ...emptyTrayState, approvals: [approvalView('a')] }));
    expect(tray.title).toBe('1');
    expect(tray.image).toEqual(images.attention);
    expect(tray.contextMenu).toBeNull(); // a context menu would swallow the click that opens the popover
    tray.emit('right-click');
    expect(tray.poppedUp).toEqual([menu.built[0]]);
    tray.emit('click');
    expect(clicks).toBe(1);
    view.render(trayModel(emptyTrayState));
    expect(tray.title).toBe('');
    expect(tray.image).toEqual(images.normal);
    expect(tray.toolTip).toBe('Angelia');
  });

  it('Linux: the menu is the context menu, rebuilt on every render; the icon gets a dot while approvals wait', () => {
    const tray = new FakeTray(images.normal);
    const menu = menuFactory();
    const view = bindTray({ tray, menu, images, platform: 'linux', onAction: () => undefined, onClick: () => undefined });
    view.render(trayModel({ ...emptyTrayState, approvals: [approvalView('a'), approvalView('b')] }));
    expect(tray.contextMenu).toBe(menu.built[0]);
    expect(tray.titles).toEqual([]);
    expect(tray.image).toEqual(images.attention);
    expect(tray.toolTip).toBe('Angelia — 2 approvals waiting');
    view.render(trayModel(emptyTrayState));
    expect(tray.contextMenu).toBe(menu.built[1]);
    expect(tray.images).toEqual([images.attention, images.normal]);
  });
});

describe('Allow / Deny from the tray', () => {
  it('answers through the broker with source tray', () => {
    const core = realCore();
    const id = core.open();
    const tray = new FakeTray(images.normal);
    const menu = menuFactory();
    const h = handlers({ answer: answerFrom(core, 'tray') });
    const view = bindTray({ tray, menu, images, platform: 'linux', onAction: (a) => handleTrayAction(a, h), onClick: () => undefined });
    new TrayController({ view, initial: { ...emptyTrayState, approvals: core.broker.pending() }, subscribe: (l) => core.hub.subscribe(l) });
    expect(tray.contextMenu).toBe(menu.built.at(-1));
    find(menu.built.at(-1)!.template, 'Allow').click?.();
    core.broker.flushDeferred(); // the answer's event comes one macrotask after Codex's reply
    const [view0] = core.broker.all();
    expect(view0).toMatchObject({ id, state: 'answered', answer: 'allow', by: 'tray' });
    expect(core.audit.records.at(-1)).toMatchObject({ event: 'answered', by: 'tray', answer: 'allow' });
    expect(h.log).toEqual([]);
    // The tray follows the broker's event: the request is gone from the menu.
    expect(findOrNull(menu.built.at(-1)!.template, 'Allow')).toBeNull();
    expect(tray.image).toEqual(images.normal);
  });

  it('Deny is Codex decline (our `deny`), with source tray', () => {
    const core = realCore();
    const id = core.open();
    handleTrayAction({ type: 'answer', approvalId: id, answer: 'deny' }, handlers({ answer: answerFrom(core, 'tray') }));
    expect(core.broker.all()[0]).toMatchObject({ answer: 'deny', by: 'tray' });
  });

  it('offers only what the request offers: a request without Allow has no Allow row', () => {
    const core = realCore();
    core.open(commandAsk('make', ['decline', 'cancel']));
    const tray = new FakeTray(images.normal);
    const menu = menuFactory();
    const view = bindTray({ tray, menu, images, platform: 'linux', onAction: () => undefined, onClick: () => undefined });
    new TrayController({ view, initial: { ...emptyTrayState, approvals: core.broker.pending() }, subscribe: (l) => core.hub.subscribe(l) });
    const template = menu.built.at(-1)!.template;
    expect(findOrNull(template, 'Deny')).not.toBeNull();
    expect(findOrNull(template, 'Allow')).toBeNull();
  });

  it('a late click answers nothing and says who was first; a refused answer says why', () => {
    const core = realCore();
    const id = core.open();
    core.broker.answer(id, 'allow', 'window');
    const h = handlers({ answer: answerFrom(core, 'tray') });
    handleTrayAction({ type: 'answer', approvalId: id, answer: 'deny' }, h);
    expect(core.broker.all()[0]).toMatchObject({ answer: 'allow', by: 'window' });
    expect(h.log).toEqual(['notice:Already answered (Allowed, from the window)']);
    const other = core.open(commandAsk('make', ['decline', 'cancel']));
    const h2 = handlers({ answer: answerFrom(core, 'tray') });
    handleTrayAction({ type: 'answer', approvalId: other, answer: 'allow' }, h2);
    expect(h2.log[0]).toMatch(/^notice:Could not answer: "allow" was not offered/);
    expect(core.broker.pending().map((v) => v.id)).toEqual([other]);
  });

  it('routes the other rows: open, chat, table review, login, quit', () => {
    const h = handlers();
    for (const a of [
      { type: 'open-window' },
      { type: 'open-chat', chatId: 'demo' },
      { type: 'review-table' },
      { type: 'toggle-login' },
      { type: 'quit' },
    ] as TrayAction[])
      handleTrayAction(a, h);
    expect(h.log).toEqual(['open', 'chat:demo', 'review', 'login', 'quit']);
  });
});

describe('TrayController', () => {
  it('renders at once and again only when a core event changes what the tray shows', () => {
    const core = realCore();
    const rendered: number[] = [];
    const c = new TrayController({
      view: { render: (m) => rendered.push(m.badge) },
      initial: { ...emptyTrayState, chats: [chatView('demo')] },
      subscribe: (l) => core.hub.subscribe(l),
    });
    expect(rendered).toEqual([0]);
    core.hub.emit({ event: 'chat:delta', payload: { chatId: 'demo', itemId: 'i', field: 'text', delta: 'x' } });
    core.hub.emit({ event: 'chat:updated', payload: chatView('demo') });
    expect(rendered).toEqual([0]);
    const id = core.open();
    expect(rendered).toEqual([0, 1]);
    core.broker.answer(id, 'deny', 'window');
    core.broker.flushDeferred(); // the answer's event comes one macrotask after Codex's reply
    expect(rendered).toEqual([0, 1, 0]);
    c.setStartAtLogin(true);
    c.setStartAtLogin(true);
    expect(rendered).toHaveLength(4);
    expect(c.state.startAtLogin).toBe(true);
    c.stop();
    core.open();
    expect(rendered).toHaveLength(4);
  });

  it('reads the profiles again on profiles:changed (a profile switched to sandbox = false shows FULL ACCESS)', () => {
    const core = realCore();
    let sandboxed = true;
    const labels: string[][] = [];
    new TrayController({
      view: { render: (m) => labels.push(m.items.flatMap((i) => (i.kind === 'action' ? [i.label] : []))) },
      initial: { ...emptyTrayState, chats: [chatView('demo')], sandboxed: { demo: true } },
      subscribe: (l) => core.hub.subscribe(l),
      profiles: () => [{ name: 'demo', sandboxed }],
    });
    sandboxed = false;
    core.hub.emit({ event: 'profiles:changed', payload: { names: ['demo'] } });
    expect(labels.at(-1)).toContain('⚠ demo — idle · FULL ACCESS');
  });
});
