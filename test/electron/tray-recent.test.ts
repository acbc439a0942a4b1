/**
 * The tray's recent chats (trayModel.ts `recentFirst`, `shownChats`, `trayStateOn`): most recently used
 * first, the quiet ones capped at `MAX_RECENT_CHATS` with "All chats…" opening the window, busy ones
 * always listed; and the desktop app seeding the order from each chat's sessions.
 */
import { describe, expect, it } from 'vitest';
import type { AgentState, AppEvent, ChatItem, SessionView } from '../../src/shared/contract';
import { startDesktop } from '../../src/main/electron/desktop';
import { rendererLocation } from '../../src/main/electron/renderer';
import {
  ALL_CHATS_LABEL,
  emptyTrayState,
  MAX_RECENT_CHATS,
  recentFirst,
  shownChats,
  trayModel,
  trayStateOn,
  type TrayAction,
  type TrayState,
} from '../../src/main/electron/trayModel';
import { chatView, FakeIpcMain, FakeTray, menuFactory, notificationFactory, realCore, windowFactory } from './fakes';

const chats = (spec: string): ReturnType<typeof chatView>[] =>
  spec
    .split(' ')
    .filter(Boolean)
    .map((s) => {
      const [id = '', state = 'idle'] = s.split(':');
      return chatView(id, { state: state as AgentState });
    });
const ids = (list: { id: string }[]): string[] => list.map((c) => c.id);

describe('recentFirst', () => {
  const table: Array<[string, Record<string, string | null>, string[]]> = [
    ['newest first', { a: '2025-06-01T09:00:00Z', b: '2025-06-03T09:00:00Z', c: '2025-06-02T09:00:00Z' }, ['b', 'c', 'a']],
    ['a chat without a time is left out', { a: '2025-06-01T09:00:00Z', b: null, c: '2025-06-02T09:00:00Z' }, ['c', 'a']],
    ['an unreadable time is left out', { a: 'yesterday', b: '2025-06-02T09:00:00Z', c: null }, ['b']],
    ['none known', { a: null, b: null, c: null }, []],
  ];
  it.each(table)('%s', (_name, times, expected) => {
    expect(recentFirst(chats('a b c'), (id) => times[id] ?? null)).toEqual(expected);
  });
});

describe('shownChats', () => {
  const many = 'a b c d e f g';
  const table: Array<[string, string, string[], string[], number]> = [
    ['every chat when few, in list order when none was used', 'a b c', [], ['a', 'b', 'c'], 0],
    ['most recently used first, the others after in list order', 'a b c d', ['c', 'a'], ['c', 'a', 'b', 'd'], 0],
    [`at most ${MAX_RECENT_CHATS} quiet chats: the most recently used`, many, ['g', 'f'], ['g', 'f', 'a', 'b', 'c'], 2],
    ['a busy chat is listed beyond the cap, in its place', 'a b c d e f g:working', ['a'], ['a', 'b', 'c', 'd', 'e', 'g'], 1],
    ['needs you, error, refused and starting count as busy', 'a:needs-you b:error c:refused d:starting e f g h i j', [], ids(chats('a b c d e f g h i')), 1],
    ['a stopped chat is quiet', 'a:stopped b c d e f', ['f'], ['f', 'a', 'b', 'c', 'd'], 1],
    ['an id in recent with no chat is ignored', 'a b', ['gone', 'b'], ['b', 'a'], 0],
  ];
  it.each(table)('%s', (_name, spec, recent, expected, hidden) => {
    const shown = shownChats({ chats: chats(spec), recent });
    expect(ids(shown.chats)).toEqual(expected);
    expect(shown.hidden).toBe(hidden);
  });
});

describe('trayStateOn keeps the recent order', () => {
  const user = (chatId: string, via?: 'steer'): AppEvent => ({
    event: 'chat:item',
    payload: { chatId, item: { type: 'user', id: `u-${chatId}`, text: 'hi', ...(via ? { via } : {}) } },
  });
  const notice = (chatId: string): AppEvent => ({ event: 'chat:item', payload: { chatId, item: { type: 'notice', id: 'n', text: 'x' } as ChatItem } });
  const base: TrayState = { ...emptyTrayState, chats: chats('a b c'), recent: ['b', 'a'] };
  const table: Array<[string, AppEvent, string[]]> = [
    ['a message sent moves its chat first', user('a'), ['a', 'b']],
    ['a steer too', user('c', 'steer'), ['c', 'b', 'a']],
    ['a new chat comes first', { event: 'chat:updated', payload: chatView('d') }, ['d', 'b', 'a']],
    ['an update of a known chat keeps the order', { event: 'chat:updated', payload: chatView('c', { state: 'working' }) }, ['b', 'a']],
    ['anything but a user item keeps the order', notice('a'), ['b', 'a']],
  ];
  it.each(table)('%s', (_name, event, expected) => {
    expect(trayStateOn(base, event).recent).toEqual(expected);
  });

  it('returns the same state when the chat already is the most recent, or the item is not the user’s', () => {
    expect(trayStateOn(base, user('b'))).toBe(base);
    expect(trayStateOn(base, notice('a'))).toBe(base);
  });
});

describe('trayModel lists the recent chats', () => {
  const chatRows = (state: TrayState) =>
    trayModel(state).items.flatMap((i) => (i.kind === 'action' && (i.action.type === 'open-chat' || i.label === ALL_CHATS_LABEL) ? [i] : []));

  it('lists the most recently used first and ends with "All chats…" (opens the window) when some are left out', () => {
    const rows = chatRows({ ...emptyTrayState, chats: chats('a b c d e f g'), recent: ['f', 'a'] });
    expect(rows.map((r) => r.action)).toEqual([
      ...['f', 'a', 'b', 'c', 'd'].map((chatId) => ({ type: 'open-chat', chatId })),
      { type: 'open-window' } satisfies TrayAction,
    ]);
    expect(rows.at(-1)?.label).toBe(ALL_CHATS_LABEL);
  });

  it('has no "All chats…" row when every chat is listed', () => {
    const rows = chatRows({ ...emptyTrayState, chats: chats('a b c'), recent: ['c'] });
    expect(rows.map((r) => r.action)).toEqual(['c', 'a', 'b'].map((chatId) => ({ type: 'open-chat', chatId })));
    expect(rows.map((r) => r.label)).not.toContain(ALL_CHATS_LABEL);
  });
});

describe('startDesktop seeds the tray order from the sessions', () => {
  function start(lastUsed: Record<string, string | Error>) {
    const core = {
      ...realCore(chats('a b c d e f g')),
      sessionViews: (chatId: string): SessionView[] => {
        const at = lastUsed[chatId];
        if (at instanceof Error) throw at;
        return at ? [{ id: `s-${chatId}`, threadId: null, label: '', turns: 1, lastUsedAt: at, active: true }] : [];
      },
    };
    const errors: unknown[] = [];
    const menu = menuFactory();
    const desktop = startDesktop({
      core,
      platform: 'linux',
      location: rendererLocation({ indexFile: '/app/out/renderer/index.html', isPackaged: true }),
      preload: '/app/out/preload/index.cjs',
      resources: '/app/resources',
      loginItem: { get: () => false, set: () => undefined },
      hidden: true,
      report: (e) => errors.push(e),
      electron: {
        ipcMain: new FakeIpcMain(),
        menu,
        createWindow: windowFactory().create,
        createTray: (image) => new FakeTray(image),
        image: (path, template) => ({ path, template }),
        createNotification: notificationFactory().create,
        notificationsSupported: () => true,
        workArea: () => ({ x: 0, y: 25, width: 1440, height: 875 }),
        quit: () => undefined,
        showOpenDialog: async () => ({ canceled: true, filePaths: [] }),
      },
    });
    return { core, desktop, errors };
  }

  it("orders by each chat's most recently used session, then follows the messages sent", () => {
    const { core, desktop, errors } = start({ c: '2025-06-02T09:00:00Z', e: '2025-06-03T09:00:00Z', a: '2025-06-01T09:00:00Z' });
    expect(desktop.tray.state.recent).toEqual(['e', 'c', 'a']);
    expect(ids(shownChats(desktop.tray.state).chats)).toEqual(['e', 'c', 'a', 'b', 'd']);
    core.hub.emit({ event: 'chat:item', payload: { chatId: 'g', item: { type: 'user', id: 'u1', text: 'hi' } } });
    expect(desktop.tray.state.recent).toEqual(['g', 'e', 'c', 'a']);
    expect(errors).toEqual([]);
    desktop.stop();
  });

  it('a chat whose sessions cannot be read is reported and listed after the others', () => {
    const broken = new Error('sessions.json unreadable');
    const { desktop, errors } = start({ b: broken, d: '2025-06-03T09:00:00Z' });
    expect(desktop.tray.state.recent).toEqual(['d']);
    expect(errors).toEqual([broken]);
    desktop.stop();
  });
});
