/**
 * README.md's "Profile fields" table names every key of a profile (src/shared/profileFields.ts): a field
 * added to the list without a line for users fails here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIELD_KEYS } from '../../src/shared/profileFields';

const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
const section = readme.slice(readme.indexOf('### Profile fields'), readme.indexOf('### Chats'));

describe("README's profile fields", () => {
  it('has the section', () => {
    expect(section).toContain('| key | what it sets |');
  });

  it('names every key of a profile', () => {
    const missing = FIELD_KEYS.filter((k) => !section.includes(`\`${k}\``));
    expect(missing).toEqual([]);
  });
});
