import { describe, expect, it } from 'vitest';
import type { AskRequest } from '../../src/main/core/codex/askRequest';
import { classifyServerRequest } from '../../src/main/core/codex/serverRequests';
import { answerFrom } from '../../src/main/electron/answers';
import { NotificationRouter } from '../../src/main/electron/notifications';
import { handleTrayAction, type TrayActionHandlers } from '../../src/main/electron/tray';
import { emptyTrayState, trayModel } from '../../src/main/electron/trayModel';
import { notificationFactory, realCore } from './fakes';

/** A single-choice agent question as Codex sends it (codex 0.169.0 ToolRequestUserInputParams). */
function questionAsk(): AskRequest {
  const c = classifyServerRequest(
    'item/tool/requestUserInput',
    {
      threadId: 't',
      turnId: 'u',
      itemId: 'call_q',
      isBlocking: true,
      autoResolutionMs: null,
      questions: [
        {
          id: 'env',
          header: 'Env',
          question: 'Deploy where?',
          isOther: false,
          isSecret: false,
          options: [
            { label: 'staging', description: '' },
            { label: 'prod', description: '' },
          ],
        },
      ],
    },
    { fileChanges: new Map(), onRequest: true },
  );
  if (c.type !== 'ask') throw new Error('expected an ask');
  return c;
}

const handlers = (answer: TrayActionHandlers['answer'], notices: string[]): TrayActionHandlers => ({
  answer,
  openWindow: () => undefined,
  openChat: () => undefined,
  reviewTable: () => undefined,
  signIn: () => undefined,
  toggleLogin: () => undefined,
  quit: () => undefined,
  notice: (t) => notices.push(t),
});

describe('questions through the real broker', () => {
  it("the tray's option row answers the question with source tray; its notification is then closed", () => {
    const core = realCore();
    const factory = notificationFactory();
    const router = new NotificationRouter({
      create: factory.create,
      isSupported: () => true,
      platform: 'linux',
      answer: answerFrom(core, 'notification'),
      openChat: () => undefined,
    });
    core.hub.subscribe((e) => router.handle(e));
    const id = core.open(questionAsk());
    expect(factory.made[0]!.options.title).toBe('demo asks');
    const sub = trayModel({ ...emptyTrayState, approvals: core.pendingApprovals() }).items.find((i) => i.kind === 'submenu');
    const prod = sub?.kind === 'submenu' ? sub.items.find((i) => i.kind === 'action' && i.label === 'Answer: prod') : undefined;
    if (prod?.kind !== 'action') throw new Error('no "prod" row');
    const notices: string[] = [];
    handleTrayAction(prod.action, handlers(answerFrom(core, 'tray'), notices));
    core.broker.flushDeferred();
    expect(core.broker.all().find((v) => v.id === id)).toMatchObject({ state: 'answered', answer: 'allow', by: 'tray', given: { env: ['prod'] } });
    expect(notices).toEqual([]);
    expect(factory.made[0]!.closed).toBe(true);
  });

  it('a macOS option button answers it with source notification', () => {
    const core = realCore();
    const factory = notificationFactory();
    const router = new NotificationRouter({
      create: factory.create,
      isSupported: () => true,
      platform: 'darwin',
      answer: answerFrom(core, 'notification'),
      openChat: () => undefined,
    });
    core.hub.subscribe((e) => router.handle(e));
    const id = core.open(questionAsk());
    expect(factory.made[0]!.options.actions?.map((a) => a.text)).toEqual(['Answer: staging', 'Answer: prod']);
    factory.made[0]!.press(0);
    expect(core.broker.all().find((v) => v.id === id)).toMatchObject({ state: 'answered', answer: 'allow', by: 'notification', given: { env: ['staging'] } });
  });
});
