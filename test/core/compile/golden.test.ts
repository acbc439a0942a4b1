import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileCodexLaunch } from '../../../src/main/core/compile/codexProfile';
import { FACTS, fixtureTable, VARIANTS } from './fixture';

/** Reviewed by hand: the exact argv for the two-profile fixture in every mode and without sandbox. */
const GOLDEN = JSON.parse(readFileSync(new URL('./golden-codexArgs.json', import.meta.url), 'utf8')) as Record<string, string[]>;

describe('golden codexArgs', () => {
  for (const v of VARIANTS) {
    for (const name of ['coder', 'writer']) {
      it(`${v.key}: ${name}`, () => {
        const launch = compileCodexLaunch(fixtureTable(v.mode, v.sandbox), name, FACTS);
        expect(launch.codexArgs).toEqual(GOLDEN[`${v.key}/${name}`]);
      });
    }
  }

  it('the golden file covers exactly the variants', () => {
    expect(Object.keys(GOLDEN).sort()).toEqual(VARIANTS.flatMap((v) => [`${v.key}/coder`, `${v.key}/writer`]).sort());
  });
});
