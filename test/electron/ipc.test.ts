import { describe, expect, it } from 'vitest';
import {
  bindContract,
  bindFolderPicker,
  checkSender,
  EVENT_CHANNEL,
  FOLDER_DIALOG,
  INVOKE_CHANNEL,
  PICK_FOLDER_CHANNEL,
  type EventTarget,
  type OpenDialogResult,
} from '../../src/main/electron/ipc';
import { isRendererUrl, rendererLocation } from '../../src/main/electron/renderer';
import { EVENT_CHANNEL as PRELOAD_EVENT, INVOKE_CHANNEL as PRELOAD_INVOKE, PICK_FOLDER_CHANNEL as PRELOAD_PICK } from '../../src/preload/channels';
import { chatView, FakeIpcMain, FakeWebContents, realCore } from './fakes';

const prod = rendererLocation({ indexFile: '/Applications/Angelia.app/Contents/Resources/app.asar/out/renderer/index.html', isPackaged: true });
const OURS = prod.url;

function setup() {
  const core = realCore([chatView('demo')]);
  const ipc = new FakeIpcMain();
  const ours = new FakeWebContents();
  ours.url = OURS;
  const targets: EventTarget[] = [ours];
  const unbind = bindContract(ipc, core.api(), { isTrustedUrl: (u) => isRendererUrl(u, prod), isOurSender: (id) => id === ours.id, targets: () => targets });
  return { core, ipc, ours, targets, unbind };
}

describe('bindContract', () => {
  it('serves our renderer: the input is parsed and the handler answers a Result', async () => {
    const { core, ipc, ours } = setup();
    const r = await ipc.invoke({ sender: { id: ours.id }, senderFrame: { url: `${OURS}#chat=demo`, parent: null } }, 'chats:list', {});
    expect(r).toEqual({ ok: true, value: [chatView('demo')] });
    expect(core.invoked).toEqual(['chats:list']);
    const bad = await ipc.invoke({ sender: { id: ours.id }, senderFrame: { url: OURS, parent: null } }, 'chats:items', { chatId: 5 });
    expect(bad).toMatchObject({ ok: false, error: { code: 'bad-input' } });
  });

  it('rejects a foreign frame with a Result error and never reaches the core', async () => {
    const { core, ipc, ours } = setup();
    const foreign = [
      { sender: { id: ours.id }, senderFrame: { url: 'https://evil.example/index.html', parent: null } },
      { sender: { id: ours.id }, senderFrame: { url: 'file:///tmp/out/renderer/index.html', parent: null } },
      { sender: { id: ours.id }, senderFrame: { url: 'about:blank', parent: null } },
      { sender: { id: ours.id }, senderFrame: { url: 'data:text/html,<script>1</script>', parent: null } },
      { sender: { id: ours.id }, senderFrame: null },
      // our page in a subframe (e.g. framed by something else)
      { sender: { id: ours.id }, senderFrame: { url: OURS, parent: { url: 'https://evil.example/' } } },
      // our URL, but not one of our windows
      { sender: { id: 9999 }, senderFrame: { url: OURS, parent: null } },
    ];
    for (const event of foreign) {
      const r = await ipc.invoke(event, 'approvals:answer', { id: 'x', answer: 'allow' });
      expect(r).toMatchObject({ ok: false, error: { code: 'untrusted-sender' } });
    }
    expect(core.invoked).toEqual([]);
  });

  it('sends events only to our windows while they show our renderer', () => {
    const { core, ours, targets } = setup();
    const navigatedAway = new FakeWebContents();
    navigatedAway.url = 'https://evil.example/';
    const dead = new FakeWebContents();
    dead.url = OURS;
    dead.destroyed = true;
    targets.push(navigatedAway, dead);
    core.open();
    expect(ours.sent).toHaveLength(1);
    expect(ours.sent[0]).toMatchObject({ channel: EVENT_CHANNEL, payload: { event: 'approval:updated' } });
    expect(navigatedAway.sent).toEqual([]);
    expect(dead.sent).toEqual([]);
  });

  it('unbinds: no handler, no more events', () => {
    const { core, ipc, ours, unbind } = setup();
    unbind();
    expect(ipc.handlers.has(INVOKE_CHANNEL)).toBe(false);
    core.open();
    expect(ours.sent).toEqual([]);
  });

  it('uses the same channels as the preload bridge', () => {
    expect([INVOKE_CHANNEL, EVENT_CHANNEL, PICK_FOLDER_CHANNEL]).toEqual([PRELOAD_INVOKE, PRELOAD_EVENT, PRELOAD_PICK]);
  });
});

describe('checkSender and the renderer URL', () => {
  it('accepts the built index.html whatever its fragment or query; nothing else on file://', () => {
    expect(isRendererUrl(`${OURS}#review=table`, prod)).toBe(true);
    expect(isRendererUrl(`${OURS}?x=1`, prod)).toBe(true);
    expect(isRendererUrl(OURS.replace('index.html', 'other.html'), prod)).toBe(false);
    expect(isRendererUrl('file:///etc/passwd', prod)).toBe(false);
    expect(isRendererUrl('not a url', prod)).toBe(false);
  });

  it('in development accepts the electron-vite dev server, and only it', () => {
    const dev = rendererLocation({ indexFile: '/repo/out/renderer/index.html', isPackaged: false, devServerUrl: 'http://localhost:5173' });
    expect(dev.url).toBe('http://localhost:5173/');
    expect(isRendererUrl('http://localhost:5173/', dev)).toBe(true);
    expect(isRendererUrl('http://localhost:5173/index.html#chat=a', dev)).toBe(true);
    expect(isRendererUrl('http://localhost:5174/', dev)).toBe(false);
    expect(isRendererUrl('http://localhost:5173/@fs/etc/passwd', dev)).toBe(false);
    expect(isRendererUrl('file:///repo/out/renderer/index.html', dev)).toBe(false);
  });

  it('a packaged app ignores ELECTRON_RENDERER_URL (nobody can point it at a remote page)', () => {
    const loc = rendererLocation({ indexFile: '/app/out/renderer/index.html', isPackaged: true, devServerUrl: 'https://evil.example/' });
    expect(loc).toEqual({ url: 'file:///app/out/renderer/index.html', devServerUrl: null });
    expect(rendererLocation({ indexFile: '/app/out/renderer/index.html', isPackaged: false, devServerUrl: 'javascript:alert(1)' }).devServerUrl).toBeNull();
  });

  it('explains a refusal', () => {
    const r = checkSender({ senderFrame: { url: 'https://evil.example/', parent: null } }, { isTrustedUrl: () => false });
    expect(r).toMatchObject({ ok: false, error: { code: 'untrusted-sender', message: expect.stringContaining('https://evil.example/') } });
    expect(checkSender({ senderFrame: { url: OURS, parent: null } }, { isTrustedUrl: () => true })).toEqual({ ok: true, value: null });
  });
});

describe("bindFolderPicker (the preload's pickFolder)", () => {
  function picker(answer: () => Promise<OpenDialogResult>) {
    const ipc = new FakeIpcMain();
    const ours = new FakeWebContents();
    ours.url = OURS;
    const shown: Array<{ senderId: number; options: unknown }> = [];
    const reported: unknown[] = [];
    const unbind = bindFolderPicker(
      ipc,
      { isTrustedUrl: (u) => isRendererUrl(u, prod), isOurSender: (id) => id === ours.id },
      (senderId, options) => {
        shown.push({ senderId, options });
        return answer();
      },
      (e) => reported.push(e),
    );
    const ask = (event: Parameters<FakeIpcMain['invokeOn']>[1] = { sender: { id: ours.id }, senderFrame: { url: `${OURS}#chat=demo`, parent: null } }) =>
      ipc.invokeOn(PICK_FOLDER_CHANNEL, event);
    return { ipc, ours, shown, reported, unbind, ask };
  }

  it('answers the folder chosen in the dialog, opened for the window that asked', async () => {
    const { ours, shown, ask } = picker(async () => ({ canceled: false, filePaths: ['/home/user/projects/research'] }));
    expect(await ask()).toEqual({ ok: true, value: '/home/user/projects/research' });
    expect(shown).toEqual([{ senderId: ours.id, options: FOLDER_DIALOG }]);
    expect(FOLDER_DIALOG.properties).toContain('openDirectory');
  });

  it('answers null when the dialog is cancelled', async () => {
    expect(await picker(async () => ({ canceled: true, filePaths: [] })).ask()).toEqual({ ok: true, value: null });
    expect(await picker(async () => ({ canceled: false, filePaths: [] })).ask()).toEqual({ ok: true, value: null });
  });

  it('never opens a dialog for a foreign page or window', async () => {
    const { shown, ask } = picker(async () => ({ canceled: false, filePaths: ['/etc'] }));
    expect(await ask({ sender: { id: 9999 }, senderFrame: { url: OURS, parent: null } })).toMatchObject({ ok: false, error: { code: 'untrusted-sender' } });
    expect(await ask({ sender: { id: 1 }, senderFrame: { url: 'https://evil.example/', parent: null } })).toMatchObject({
      ok: false,
      error: { code: 'untrusted-sender' },
    });
    expect(shown).toEqual([]);
  });

  it('turns a dialog failure or a relative answer into an error the window can show', async () => {
    const failing = picker(async () => {
      throw new Error('no display');
    });
    expect(await failing.ask()).toMatchObject({
      ok: false,
      error: { code: 'dialog-failed', message: 'the folder dialog did not open: no display', fix: 'type the folder instead' },
    });
    expect(failing.reported).toEqual([new Error('no display')]);
    expect(await picker(async () => ({ canceled: false, filePaths: ['relative/dir'] })).ask()).toMatchObject({ ok: false, error: { code: 'bad-folder' } });
  });

  it('unbinds', () => {
    const { ipc, unbind } = picker(async () => ({ canceled: true, filePaths: [] }));
    expect(ipc.handlers.has(PICK_FOLDER_CHANNEL)).toBe(true);
    unbind();
    expect(ipc.handlers.has(PICK_FOLDER_CHANNEL)).toBe(false);
  });
});
