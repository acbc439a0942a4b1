import { describe, expect, it } from 'vitest';
import { rendererLocation } from '../../src/main/electron/renderer';
import { WindowManager } from '../../src/main/electron/windows';
import { bindShownChat, SHOWN_CHAT_CHANNEL } from '../../src/main/electron/ipc';
import { FakeIpcMain, windowFactory } from './fakes';

const loc = rendererLocation({ indexFile: '/app/out/renderer/index.html', isPackaged: true });

function manager() {
  const f = windowFactory();
  const m = new WindowManager({
    create: f.create,
    location: loc,
    preload: '/app/out/preload/index.cjs',
    platform: 'linux',
    trayBounds: () => null,
    workArea: () => ({ x: 0, y: 0, width: 1000, height: 800 }),
  });
  return { m, made: f.made };
}

describe('WindowManager.isChatFocused', () => {
  it('no window, or one not focused, hidden or minimized: no chat is seen', () => {
    const { m, made } = manager();
    expect(m.isChatFocused('demo')).toBe(false);
    m.openMain();
    const w = made[0]!;
    w.visible = true;
    expect(m.isChatFocused('demo')).toBe(false);
    w.focused = true;
    w.minimized = true;
    expect(m.isChatFocused('demo')).toBe(false);
    w.minimized = false;
    w.visible = false;
    expect(m.isChatFocused('demo')).toBe(false);
  });

  it('a focused window that reported no chat, or the list, counts as showing every chat; one that reported a chat, only that one', () => {
    const { m, made } = manager();
    m.openMain();
    const w = made[0]!;
    w.visible = true;
    w.focused = true;
    expect(m.isChatFocused('demo')).toBe(true);
    m.setShownChat(w.webContents.id, 'other');
    expect(m.isChatFocused('demo')).toBe(false);
    expect(m.isChatFocused('other')).toBe(true);
    m.setShownChat(w.webContents.id, null);
    expect(m.isChatFocused('demo')).toBe(true);
  });

  it('a report from a webContents that is not one of ours changes nothing', () => {
    const { m, made } = manager();
    m.openMain();
    const w = made[0]!;
    w.visible = true;
    w.focused = true;
    m.setShownChat(w.webContents.id + 1000, 'other');
    expect(m.isChatFocused('demo')).toBe(true);
  });
});

describe('the shown-chat report (bindShownChat)', () => {
  const OURS = 'file:///app/out/renderer/index.html';
  const trust = { isTrustedUrl: (u: string) => u.startsWith(OURS), isOurSender: (id: number) => id === 1 };
  const ours = { sender: { id: 1 }, senderFrame: { url: OURS, parent: null } };

  it('records a chat id or null from our window; refuses other values and foreign senders; unbind removes the channel', async () => {
    const ipc = new FakeIpcMain();
    const seen: [number, string | null][] = [];
    const unbind = bindShownChat(ipc, trust, (id, chat) => void seen.push([id, chat]));
    expect(await ipc.invokeOn(SHOWN_CHAT_CHANNEL, ours, 'coder')).toEqual({ ok: true, value: null });
    expect(await ipc.invokeOn(SHOWN_CHAT_CHANNEL, ours, null)).toEqual({ ok: true, value: null });
    for (const bad of [42, '', 'x'.repeat(301), { chat: 'coder' }]) {
      expect(await ipc.invokeOn(SHOWN_CHAT_CHANNEL, ours, bad)).toMatchObject({ ok: false, error: { code: 'bad-input' } });
    }
    expect(await ipc.invokeOn(SHOWN_CHAT_CHANNEL, { sender: { id: 9 }, senderFrame: { url: OURS, parent: null } }, 'coder')).toMatchObject({
      ok: false,
      error: { code: 'untrusted-sender' },
    });
    expect(seen).toEqual([
      [1, 'coder'],
      [1, null],
    ]);
    unbind();
    expect(ipc.handlers.has(SHOWN_CHAT_CHANNEL)).toBe(false);
  });
});
