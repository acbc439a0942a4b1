/**
 * How a request that names paths Angelia never grants reads on each surface: the window's card lines
 * (features/approvals/describe.ts `refusedLines`) and the notification's detail (electron/text.ts
 * `askDetail`). The rule itself: test/core/approvals/privateReach.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { ApprovalView } from '../../src/shared/contract';
import { askDetail } from '../../src/main/electron/text';
import { refusedLines } from '../../src/renderer/src/features/approvals/describe';

const view = (over: Partial<ApprovalView>): ApprovalView => ({
  id: 'p',
  chatId: 'demo',
  profile: 'demo',
  kind: 'permissions',
  title: 'More access: write /out — never granted: read /h/.angelia',
  command: null,
  cwd: null,
  reason: null,
  changes: [],
  requested: { read: [], write: ['/out'], network: false },
  answers: ['allow', 'allowForSession', 'deny'],
  createdAt: '2025-01-01T00:00:00Z',
  state: 'pending',
  answer: null,
  by: null,
  granted: null,
  denyReason: null,
  ...over,
});

describe('refused paths on the approval surfaces', () => {
  it('the card lists each refused path with the reason; nothing when none was refused', () => {
    const refused = [
      { access: 'read' as const, path: '/h/.angelia', why: "Angelia's private state" },
      { access: 'write' as const, path: '/', why: "it holds /h/.angelia (Angelia's private state)" },
    ];
    expect(refusedLines(view({ refused }))).toEqual([
      "✗ read /h/.angelia — never granted: Angelia's private state",
      "✗ write / — never granted: it holds /h/.angelia (Angelia's private state)",
    ]);
    expect(refusedLines(view({}))).toEqual([]);
    expect(refusedLines(view({ refused: [] }))).toEqual([]);
  });

  it('a path the agent can already write is shown with "=", not as never granted', () => {
    const refused = [
      {
        access: 'write' as const,
        path: '/w/cache-dir',
        why: "already writable, not granted again: it lies in /w (the profile's folder)",
        already: true as const,
      },
    ];
    expect(refusedLines(view({ refused }))).toEqual(["= write /w/cache-dir — already writable, not granted again: it lies in /w (the profile's folder)"]);
    expect(askDetail(view({ refused }))).toBe("+ write /out\n= write /w/cache-dir (already writable, not granted again: it lies in /w (the profile's folder))");
  });

  it('the notification detail shows what can be granted, then what never is', () => {
    expect(askDetail(view({ refused: [{ access: 'read', path: '/h/.angelia', why: "Angelia's private state" }] }))).toBe(
      "+ write /out\n✗ read /h/.angelia (never granted: Angelia's private state)",
    );
  });
});
