/**
 * Golden compile plans for the full fixture instance (test/fixtures/instance-full: four profiles,
 * every capability kind), reviewed by hand: the plan text of a first compile, the Codex argv of each
 * profile, and the plan after `--write` (every profile up to date). Paths show the test root as <root>.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileCodexLaunch } from '../../../src/main/core/compile/codexProfile';
import { planLinesText } from '../../../src/main/core/compile/planText';
import { compileWrite, planProfiles } from '../../../src/main/core/compile/write';
import { removeTestDir } from '../instance/testDir';
import { makeFullInstance, type FullInstance } from './fullInstance';

const golden = (name: string): string => readFileSync(new URL(`./${name}`, import.meta.url), 'utf8');
const NAMES = ['coder', 'writer', 'vault', 'planner'];

let inst: FullInstance;
beforeAll(async () => {
  inst = await makeFullInstance('golden');
});
afterAll(async () => removeTestDir(inst.root));

describe('golden plans of the full fixture', () => {
  it('a first compile plans exactly the reviewed lines for every profile', async () => {
    const plans = await planProfiles(inst.table, [], inst.facts, '2026-01-01T00:00:00.000Z');
    expect(plans.map((p) => p.profile)).toEqual(NAMES);
    expect(inst.normalize(plans.map(planLinesText).join('\n'))).toBe(golden('golden-plans.txt'));
    expect(plans.every((p) => p.conflicts.length === 0 && p.changed && !p.compiled)).toBe(true);
  });

  it('each profile compiles to exactly the reviewed codex argv', () => {
    const argv = Object.fromEntries(NAMES.map((n) => [n, compileCodexLaunch(inst.table, n, inst.facts).codexArgs]));
    expect(JSON.parse(inst.normalize(JSON.stringify(argv)))).toEqual(JSON.parse(golden('golden-full-codexArgs.json')));
  });

  it('after --write every profile is up to date, and the plan says so', async () => {
    await compileWrite(inst.table, NAMES, inst.facts);
    const plans = await planProfiles(inst.table, [], inst.facts);
    expect(plans.every((p) => !p.changed && p.conflicts.length === 0 && p.compiled)).toBe(true);
    expect(inst.normalize(plans.map(planLinesText).join('\n'))).toBe(golden('golden-plans-written.txt'));
  });
});
