/**
 * The one `~` rule (src/shared/homePath.ts) and `expandPath` over it: `~` and `~/…` are the home, `~user`
 * and a `~` elsewhere are left as written.
 */
import { describe, expect, it } from 'vitest';
import { expandHome, isHomePath } from '../../../src/shared/homePath';
import { expandPath } from '../../../src/main/core/instance/stateDir';

const HOME = '/home/u';

describe('expandHome', () => {
  it.each([
    ['~', '/home/u'],
    ['~/', '/home/u/'],
    ['~/x', '/home/u/x'],
    ['~/a/../b', '/home/u/a/../b'],
    ['~user', '~user'],
    ['~user/x', '~user/x'],
    ['a~b', 'a~b'],
    ['/x/~', '/x/~'],
    ['/abs', '/abs'],
    ['rel/x', 'rel/x'],
    ['', ''],
  ])('%j → %j', (p, out) => {
    expect(expandHome(p, HOME)).toBe(out);
  });

  it('a home given with a trailing slash gives no double slash', () => {
    expect(expandHome('~/x', '/home/u/')).toBe('/home/u/x');
  });
});

describe('isHomePath', () => {
  it.each([
    ['~', true],
    ['~/', true],
    ['~/x', true],
    ['~user', false],
    ['~user/x', false],
    ['a~b', false],
    ['/~', false],
    ['', false],
  ])('%j: %s', (p, yes) => {
    expect(isHomePath(p)).toBe(yes);
  });
});

describe('expandPath', () => {
  it.each([
    ['~', '/home/u'],
    ['~/', '/home/u'],
    ['~/x/../y', '/home/u/y'],
    ['~user/x', '/base/~user/x'],
    ['a~b', '/base/a~b'],
    ['/abs/./p', '/abs/p'],
    ['rel', '/base/rel'],
  ])('%j → %j (resolved against /base)', (p, out) => {
    expect(expandPath(p, HOME, '/base')).toBe(out);
  });
});
