/**
 * Every table problem's fix is text (core/table/errors.ts `fixOf`): a key a table names the way an
 * Object.prototype member is named (`constructor`, `toString`) gets the generic fix, never that member.
 * Found by the property test test/properties/table.property.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { fixOf, TableFailure } from '../../../src/main/core/table/errors';
import { parseTableText } from '../../../src/main/core/table/load';

function failureOf(text: string): TableFailure {
  try {
    parseTableText(text, '/w/angelia.toml');
  } catch (e) {
    if (e instanceof TableFailure) return e;
    throw e;
  }
  throw new Error('the table loaded');
}

describe('fixOf', () => {
  it.each([
    ['cwd', 'set cwd to the profile\'s folder, e.g. cwd = "~/assistants/coder"'],
    ['constructor', 'correct the value'],
    ['toString', 'correct the value'],
    ['__proto__', 'correct the value'],
    ['hasOwnProperty', 'correct the value'],
    ['', 'correct the value'],
  ])('%s', (key, fix) => {
    expect(fixOf(key)).toBe(fix);
  });
});

describe('a profile named like an Object.prototype member', () => {
  it.each(['constructor', 'toString', 'valueOf'])('[profiles] %s = 1: the fix is text', (name) => {
    const e = failureOf(`[profiles]\n${name} = 1\n`);
    expect(e.problems[0]).toEqual({ path: ['profiles', name], message: 'must be a table, not 1', fix: 'correct the value' });
    expect(e.app.fix).toBe('correct the value');
  });
});

describe('the warm-agent budget keys name their range in the fix', () => {
  it.each([
    ['warm_agents', '101', 'use a whole number from 0 (never start an agent before the first message) to 100'],
    ['warm_agents', '-1', 'use a whole number from 0 (never start an agent before the first message) to 100'],
    ['warm_memory_mb', '1.5', 'use a whole number of megabytes from 0 (never start an agent before the first message) to 1000000'],
    ['warm_memory_mb', '2000000', 'use a whole number of megabytes from 0 (never start an agent before the first message) to 1000000'],
  ])('[defaults] %s = %s', (key, value, fix) => {
    const e = failureOf(`[defaults]\n${key} = ${value}\n[profiles.coder]\ncwd = "/w"\n`);
    expect(e.problems[0]).toMatchObject({ path: ['defaults', key], fix });
  });
});
