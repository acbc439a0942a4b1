/**
 * Fake Electron objects for the desktop modules' unit tests: Tray, Menu, Notification, BrowserWindow,
 * ipcMain, webContents/session. Each records what was done to it and lets a test fire its events.
 * Plus a small real core: the real approval broker and event hub, with command requests opened on it.
 */
import type { AppEvent, ApprovalAnswer, ApprovalView, ChatView, CoreApi } from '../../src/shared/contract';
import { ApprovalBroker } from '../../src/main/core/approvals/broker';
import { memoryAudit } from '../../src/main/core/approvals/audit';
import { EventHub } from '../../src/main/core/chats/eventHub';
import { classifyServerRequest, type AskRequest } from '../../src/main/core/codex/serverRequests';
import type { AnswerExtra } from '../../src/main/electron/answers';
import type { MenuItemTemplate } from '../../src/main/electron/tray';
import type { InvokeEvent } from '../../src/main/electron/ipc';
import type { NotificationOptionsLike } from '../../src/main/electron/notifications';
import type { Rect, WindowOptions } from '../../src/main/electron/windows';
import { chatView } from '../fixtures/fakeCore/types';

/** Any listener (typed `never[]` so every Electron-shaped listener fits; called through `call`). */
type Listener = (...args: never[]) => void;
const call = (l: Listener, args: unknown[]): void => (l as (...a: unknown[]) => void)(...args);

/** A minimal event emitter the fakes share. */
class Emitter {
  readonly listeners = new Map<string, Listener[]>();
  on(event: string, listener: Listener): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }
  once(event: string, listener: Listener): this {
    const wrapped = (...args: unknown[]): void => {
      this.listeners.set(
        event,
        (this.listeners.get(event) ?? []).filter((l) => l !== wrapped),
      );
      call(listener, args);
    };
    return this.on(event, wrapped);
  }
  emit(event: string, ...args: unknown[]): void {
    for (const l of [...(this.listeners.get(event) ?? [])]) call(l, args);
  }
  count(event: string): number {
    return this.listeners.get(event)?.length ?? 0;
  }
}

/** A built menu: the template it was built from. */
export interface FakeMenu {
  template: MenuItemTemplate<FakeImage>[];
}

/** A fresh `Menu` factory. */
export function menuFactory() {
  const built: FakeMenu[] = [];
  return {
    built,
    buildFromTemplate: (template: MenuItemTemplate<FakeImage>[]): FakeMenu => {
      const m = { template };
      built.push(m);
      return m;
    },
  };
}

/** A native image: its file and whether it is a template image. */
export interface FakeImage {
  path: string;
  template: boolean;
}

/** `Tray`. */
export class FakeTray extends Emitter {
  image: FakeImage | null;
  images: FakeImage[] = [];
  toolTip = '';
  title = '';
  titles: string[] = [];
  contextMenu: FakeMenu | null = null;
  poppedUp: Array<FakeMenu | undefined> = [];
  destroyed = false;
  bounds: Rect = { x: 1000, y: 0, width: 24, height: 24 };
  constructor(image: FakeImage) {
    super();
    this.image = image;
  }
  setImage(image: FakeImage): void {
    this.image = image;
    this.images.push(image);
  }
  setToolTip(t: string): void {
    this.toolTip = t;
  }
  setTitle(t: string): void {
    this.title = t;
    this.titles.push(t);
  }
  setContextMenu(m: FakeMenu | null): void {
    this.contextMenu = m;
  }
  popUpContextMenu(m?: FakeMenu): void {
    this.poppedUp.push(m);
  }
  getBounds(): Rect {
    return this.bounds;
  }
  destroy(): void {
    this.destroyed = true;
  }
}

/** `Notification`. */
export class FakeNotification extends Emitter {
  shown = false;
  closed = false;
  constructor(readonly options: NotificationOptionsLike) {
    super();
  }
  show(): void {
    this.shown = true;
  }
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.emit('close', { reason: 'unknown' });
  }
  /** A click on a macOS button (Electron ≥ 35 passes the index in the details, and as a deprecated argument). */
  press(index: number): void {
    this.emit('action', { actionIndex: index, preventDefault() {} }, index);
  }
  click(): void {
    this.emit('click', { preventDefault() {} });
  }
}

/** A `Notification` constructor-like factory that keeps every notification made. */
export function notificationFactory() {
  const made: FakeNotification[] = [];
  return {
    made,
    create: (o: NotificationOptionsLike): FakeNotification => {
      const n = new FakeNotification(o);
      made.push(n);
      return n;
    },
  };
}

let nextId = 1;

/** `webContents` of a window. */
export class FakeWebContents extends Emitter {
  readonly id = nextId++;
  url = '';
  destroyed = false;
  sent: Array<{ channel: string; payload: unknown }> = [];
  send(channel: string, payload: unknown): void {
    this.sent.push({ channel, payload });
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  getURL(): string {
    return this.url;
  }
}

/** `BrowserWindow`. */
export class FakeWindow extends Emitter {
  readonly webContents = new FakeWebContents();
  visible = false;
  focused = false;
  destroyed = false;
  minimized = false;
  position: [number, number] | null = null;
  loaded: string[] = [];
  constructor(readonly options: WindowOptions) {
    super();
  }
  async loadURL(url: string): Promise<void> {
    this.loaded.push(url);
    this.webContents.url = url;
  }
  show(): void {
    this.visible = true;
  }
  hide(): void {
    this.visible = false;
  }
  focus(): void {
    this.focused = true;
  }
  isVisible(): boolean {
    return this.visible;
  }
  isFocused(): boolean {
    return this.focused;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  isMinimized(): boolean {
    return this.minimized;
  }
  restore(): void {
    this.minimized = false;
  }
  setPosition(x: number, y: number): void {
    this.position = [x, y];
  }
  destroy(): void {
    this.destroyed = true;
    this.webContents.destroyed = true;
    this.emit('closed');
  }
}

/** A `BrowserWindow` constructor-like factory that keeps every window made. */
export function windowFactory() {
  const made: FakeWindow[] = [];
  return {
    made,
    create: (o: WindowOptions): FakeWindow => {
      const w = new FakeWindow(o);
      made.push(w);
      return w;
    },
  };
}

/** `ipcMain`: one handler per channel; `invoke` plays a renderer's `ipcRenderer.invoke`. */
export class FakeIpcMain {
  readonly handlers = new Map<string, (event: InvokeEvent, ...args: unknown[]) => Promise<unknown>>();
  handle(channel: string, listener: (event: InvokeEvent, ...args: unknown[]) => Promise<unknown>): void {
    if (this.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    this.handlers.set(channel, listener);
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }
  async invoke(event: InvokeEvent, ...args: unknown[]): Promise<unknown> {
    return this.invokeOn('angelia:invoke', event, ...args);
  }
  /** `ipcRenderer.invoke(channel, …args)` as it reaches main. */
  async invokeOn(channel: string, event: InvokeEvent, ...args: unknown[]): Promise<unknown> {
    const h = this.handlers.get(channel);
    if (!h) throw new Error(`No handler registered for '${channel}'`);
    return h(event, ...args);
  }
}

/** An Electron `Event`. */
export function preventable(extra: Record<string, unknown> = {}) {
  const e = {
    defaultPrevented: false,
    preventDefault() {
      e.defaultPrevented = true;
    },
    ...extra,
  };
  return e;
}

/** A chat view with defaults (the fake core's, test/fixtures/fakeCore/types.ts). */
export { chatView };

/** An approval view with defaults (a pending command request offering allow, deny and cancel). */
export function approvalView(id: string, over: Partial<ApprovalView> = {}): ApprovalView {
  return {
    id,
    chatId: 'demo',
    profile: 'demo',
    kind: 'command',
    title: 'Run OUTSIDE the sandbox: rm -rf build/',
    command: 'rm -rf build/',
    cwd: '/home/me/demo',
    reason: null,
    changes: [],
    requested: null,
    answers: ['allow', 'deny', 'cancel'],
    createdAt: '2025-01-01T00:00:00.000Z',
    state: 'pending',
    answer: null,
    by: null,
    granted: null,
    denyReason: null,
    ...over,
  };
}

/** A Codex command request, classified as the chat does; `available` are Codex's `availableDecisions`. */
export function commandAsk(command = 'rm -rf build/', available: unknown[] = ['accept', 'decline', 'cancel']): AskRequest {
  const c = classifyServerRequest(
    'item/commandExecution/requestApproval',
    { threadId: 't', turnId: 'u', itemId: 'i', command, cwd: '/home/me/demo', availableDecisions: available },
    { fileChanges: new Map(), onRequest: true },
  );
  if (c.type !== 'ask') throw new Error('expected an ask');
  return c;
}

/**
 * A small real core: the real broker (audit in memory) and event hub, like the orchestrator wires them
 * (every broker update becomes `approval:updated`). `open` opens a request on chat "demo".
 */
export function realCore(chats: ChatView[] = [chatView('demo')]) {
  const hub = new EventHub();
  const audit = memoryAudit();
  const broker = new ApprovalBroker({ timeoutMs: 600_000, audit, onUpdate: (view) => hub.emit({ event: 'approval:updated', payload: view }) });
  const invoked: string[] = [];
  const api = (): CoreApi => ({
    handlers: new Proxy(
      {},
      {
        get: (_t, channel: string) => async () => {
          invoked.push(channel);
          return channel === 'chats:list' ? chats : [];
        },
      },
    ) as CoreApi['handlers'],
    subscribe: (l) => hub.subscribe(l),
  });
  const events: AppEvent[] = [];
  hub.subscribe((e) => events.push(e));
  return {
    hub,
    broker,
    audit,
    events,
    invoked,
    api,
    subscribe: (l: (e: AppEvent) => void) => hub.subscribe(l),
    pendingApprovals: () => broker.pending(),
    answerApproval: (id: string, answer: ApprovalAnswer, by: 'tray' | 'notification', opts?: AnswerExtra) => broker.answer(id, answer, by, opts),
    chatViews: () => chats,
    profileViews: () =>
      chats.map((c) => ({
        name: c.profile,
        cwd: '/home/me/' + c.profile,
        permissionMode: 'default' as const,
        sandboxed: true,
        addDirs: [],
        model: null,
        effort: null,
      })),
    tableChanges: async () => ({ differs: false, changes: [] as unknown[] }),
    open(ask: AskRequest = commandAsk(), chatId = 'demo'): string {
      return broker.open({ chatId, profile: chatId, ask, rpcId: Math.floor(Math.random() * 1e6) }).id;
    },
  };
}
