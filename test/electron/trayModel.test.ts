import { describe, expect, it } from 'vitest';
import type { AgentState } from '../../src/shared/contract';
import { emptyTrayState, TABLE_CHANGED_LABEL, trayModel, trayStateOn, type TrayItem, type TrayState } from '../../src/main/electron/trayModel';
import { approvalView, chatView } from './fakes';

const labels = (items: TrayItem[]): string[] => items.flatMap((i) => ('label' in i ? [i.label] : []));
const row = (items: TrayItem[], start: string): TrayItem => {
  const found = items.find((i) => 'label' in i && i.label.includes(start));
  if (!found) throw new Error(`no row with "${start}" in ${JSON.stringify(labels(items))}`);
  return found;
};

describe('trayModel', () => {
  it('shows every agent state the way the window does', () => {
    const states: Array<[AgentState, string]> = [
      ['idle', 'idle'],
      ['working', 'working'],
      ['needs-you', 'needs you'],
      ['error', 'error'],
      ['refused', 'refused'],
      ['starting', 'starting'],
      ['stopped', 'stopped'],
    ];
    const state: TrayState = { ...emptyTrayState, chats: states.map(([s]) => chatView(`c-${s}`, { state: s, enforcement: 'managed' })) };
    const model = trayModel(state);
    for (const [s, text] of states) expect(labels(model.items)).toContain(`c-${s} — ${text} · managed sandbox`);
  });

  it('marks full access red with the warning glyph; a managed sandbox is not marked', () => {
    const state: TrayState = {
      ...emptyTrayState,
      chats: [
        chatView('safe', { enforcement: 'managed', state: 'working' }),
        chatView('wild', { enforcement: 'disabled' }),
        chatView('unstarted'),
        chatView('outside', { enforcement: 'external' }),
      ],
      sandboxed: { safe: true, wild: true, unstarted: false, outside: true },
    };
    const items = trayModel(state).items;
    expect(row(items, 'safe')).toMatchObject({ kind: 'action', label: 'safe — working · managed sandbox' });
    expect(row(items, 'safe')).not.toHaveProperty('danger');
    expect(row(items, 'wild')).toMatchObject({ label: '⚠ wild — idle · FULL ACCESS', danger: true });
    // sandbox = false in the table: full access from the first message, said before any start.
    expect(row(items, 'unstarted')).toMatchObject({ label: '⚠ unstarted — idle · FULL ACCESS', danger: true });
    expect(row(items, 'outside')).toMatchObject({ label: '⚠ outside — idle · external sandbox' });
    expect(row(items, 'outside')).not.toHaveProperty('danger');
  });

  it('counts pending approvals in the badge and the macOS title, and lists each with Allow and Deny', () => {
    const state: TrayState = {
      ...emptyTrayState,
      chats: [chatView('demo', { state: 'needs-you' })],
      approvals: [approvalView('a1'), approvalView('a2', { title: 'Change notes.txt', kind: 'fileChange' })],
    };
    const model = trayModel(state);
    expect(model.badge).toBe(2);
    expect(model.title).toBe('2');
    expect(model.attention).toBe(true);
    expect(model.tooltip).toContain('2 approvals waiting');
    expect(labels(model.items)[0]).toBe('Waiting for you (2)');
    const a1 = row(model.items, 'demo: Run OUTSIDE the sandbox');
    expect(a1.kind).toBe('submenu');
    if (a1.kind !== 'submenu') return;
    expect(labels(a1.items)).toEqual(['$ rm -rf build/', 'in /home/me/demo', 'Allow', 'Deny', 'Show in window…']);
    expect(a1.items.filter((i) => i.kind === 'action').map((i) => i.kind === 'action' && i.action)).toEqual([
      { type: 'answer', approvalId: 'a1', answer: 'allow' },
      { type: 'answer', approvalId: 'a1', answer: 'deny' },
      { type: 'open-chat', chatId: 'demo' },
    ]);
  });

  it('offers only the answers the request offers (Deny and stop is never in the menu)', () => {
    const onlyAllow = trayModel({ ...emptyTrayState, approvals: [approvalView('x', { answers: ['allow'] })] });
    const sub = row(onlyAllow.items, 'demo:');
    if (sub.kind !== 'submenu') throw new Error('submenu expected');
    expect(labels(sub.items)).toContain('Allow');
    expect(labels(sub.items)).not.toContain('Deny');
    const onlyDeny = trayModel({ ...emptyTrayState, approvals: [approvalView('y', { answers: ['deny', 'cancel'] })] });
    const sub2 = row(onlyDeny.items, 'demo:');
    if (sub2.kind !== 'submenu') throw new Error('submenu expected');
    expect(labels(sub2.items).filter((l) => ['Allow', 'Deny'].includes(l))).toEqual(['Deny']);
  });

  it('with nothing waiting: no badge, no title, the plain icon', () => {
    const model = trayModel({ ...emptyTrayState, chats: [chatView('demo')] });
    expect(model).toMatchObject({ badge: 0, title: '', attention: false, tooltip: 'Angelia' });
    expect(labels(model.items)).not.toContain('Waiting for you (0)');
  });

  it('ends with the table review (only when it differs), Open Angelia, Start at login and Quit', () => {
    const plain = trayModel({ ...emptyTrayState, chats: [chatView('demo')] });
    expect(labels(plain.items)).not.toContain(TABLE_CHANGED_LABEL);
    expect(labels(plain.items).slice(-3)).toEqual(['Open Angelia', 'Start at login', 'Quit']);
    const changed = trayModel({ ...emptyTrayState, chats: [chatView('demo')], table: { differs: true, changes: 3 }, startAtLogin: true });
    expect(labels(changed.items).slice(-4)).toEqual([TABLE_CHANGED_LABEL, 'Open Angelia', 'Start at login', 'Quit']);
    expect(row(changed.items, 'Start at login')).toMatchObject({ kind: 'checkbox', checked: true, action: { type: 'toggle-login' } });
    expect(row(changed.items, 'review')).toMatchObject({ action: { type: 'review-table' } });
    expect(changed.tooltip).toContain('the table changed');
  });

  it('keeps labels short and never splits a character', () => {
    const long = trayModel({
      ...emptyTrayState,
      approvals: [approvalView('l', { title: `Run OUTSIDE the sandbox: echo ${'🙂'.repeat(200)}`, command: `echo ${'🙂'.repeat(200)}` })],
    });
    for (const l of labels(long.items)) expect(l).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
    expect(Array.from(labels(long.items)[1] ?? '').length).toBeLessThanOrEqual(72);
  });
});

describe('trayStateOn', () => {
  it('upserts chats, adds pending approvals, drops settled ones and records table changes', () => {
    let s = trayStateOn(emptyTrayState, { event: 'chat:updated', payload: chatView('demo') });
    expect(s.chats.map((c) => c.id)).toEqual(['demo']);
    s = trayStateOn(s, { event: 'chat:updated', payload: chatView('demo', { state: 'working' }) });
    expect(s.chats).toHaveLength(1);
    expect(s.chats[0]?.state).toBe('working');
    s = trayStateOn(s, { event: 'approval:updated', payload: approvalView('a') });
    expect(trayModel(s).badge).toBe(1);
    s = trayStateOn(s, { event: 'approval:updated', payload: approvalView('a', { state: 'answered', answer: 'allow', by: 'window' }) });
    expect(trayModel(s).badge).toBe(0);
    s = trayStateOn(s, { event: 'approval:updated', payload: approvalView('b') });
    s = trayStateOn(s, { event: 'approval:updated', payload: approvalView('b', { state: 'withdrawn', by: 'codex' }) });
    expect(s.approvals).toEqual([]);
    s = trayStateOn(s, { event: 'table:changed', payload: { differs: true, changes: 2 } });
    expect(s.table).toEqual({ differs: true, changes: 2 });
  });

  it('returns the same object when nothing the tray shows changed', () => {
    const s = trayStateOn(emptyTrayState, { event: 'chat:updated', payload: chatView('demo') });
    expect(trayStateOn(s, { event: 'chat:updated', payload: chatView('demo') })).toBe(s);
    expect(trayStateOn(s, { event: 'chat:delta', payload: { chatId: 'demo', itemId: 'i', field: 'text', delta: 'x' } })).toBe(s);
    expect(trayStateOn(s, { event: 'approval:updated', payload: approvalView('never-seen', { state: 'answered' }) })).toBe(s);
    expect(trayStateOn(s, { event: 'table:changed', payload: { differs: false, changes: 0 } })).toBe(s);
  });
});
