import { describe, expect, it } from 'vitest';
import { rendererLocation, shownChatOf } from '../../src/main/electron/renderer';
import { WindowManager } from '../../src/main/electron/windows';
import { windowFactory } from './fakes';

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

describe('shownChatOf', () => {
  it.each([
    ['file:///app/out/renderer/index.html#shown=coder', 'coder'],
    ['file:///app/out/renderer/index.html#token=x&shown=my%20chat', 'my chat'],
    ['file:///app/out/renderer/index.html#chat=coder', null],
    ['file:///app/out/renderer/index.html', null],
    ['not a url', null],
  ])('%s → %s', (url, chat) => {
    expect(shownChatOf(url)).toBe(chat);
  });
});

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

  it('a focused window naming no chat counts as showing every chat; one naming a chat, only that one', () => {
    const { m, made } = manager();
    m.openMain();
    const w = made[0]!;
    w.visible = true;
    w.focused = true;
    expect(m.isChatFocused('demo')).toBe(true);
    w.webContents.url = 'file:///app/out/renderer/index.html#shown=other';
    expect(m.isChatFocused('demo')).toBe(false);
    expect(m.isChatFocused('other')).toBe(true);
  });
});
