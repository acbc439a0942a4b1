import { describe, expect, it } from 'vitest';
import { needsInput, policyAnswer } from '../../src/main/cli/commands/run';
import type { ElicitationView } from '../../src/shared/contract';

const form = (fields: number): ElicitationView => ({
  serverName: 's',
  mode: 'form',
  message: 'm',
  fields: Array.from({ length: fields }, (_, i) => ({
    name: `f${i}`,
    type: 'string' as const,
    title: null,
    description: null,
    required: true,
    choices: null,
    multiple: false,
    format: null,
    minLength: null,
    maxLength: null,
    minimum: null,
    maximum: null,
    default: null,
  })),
  url: null,
  domain: null,
});

describe('angelia run skips what only typed input can allow', () => {
  const cases: [string, Parameters<typeof needsInput>[0], boolean][] = [
    ['an agent question', { kind: 'userInput' }, true],
    ['an MCP form with fields', { kind: 'elicitation', elicitation: form(1) }, true],
    ["Codex's MCP tool approval (a form without fields)", { kind: 'elicitation', elicitation: form(0) }, false],
    ['a command approval', { kind: 'command' }, false],
  ];
  for (const [what, v, out] of cases) it(what, () => expect(needsInput(v)).toBe(out));
  it('skipping a question is its deny (the empty answer)', () => expect(policyAnswer('deny', ['allow', 'deny'])).toBe('deny'));
});
