/**
 * The README's table of who may call which route (owner / chat / peer × route) says what the route
 * table (api/routes.ts `access`, which the server enforces) says: every route that takes a token is in
 * it exactly once, and each cell's "yes" or "no" is the route's. The README once said a chat token may
 * post only into its own chat, while the route table (and so the server) lets a peer `/send` into any
 * chat that is not isolated.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CALLER_CLASSES } from '../../src/main/api/auth';
import { routes } from '../../src/main/api/routes';

const README = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');

/** The table's rows: the routes a row names (`METHOD /path`; a bare `/path` takes the method before it) and its three cells. */
function tableRows(): { routes: string[]; cells: string[] }[] {
  const lines = README.split('\n');
  const start = lines.findIndex((l) => /^\| route \| owner \| chat \| peer \|$/.test(l));
  expect(start, 'the README has the table "| route | owner | chat | peer |"').toBeGreaterThan(-1);
  const rows: { routes: string[]; cells: string[] }[] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    const [first = '', ...cells] = line
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim());
    let method = '';
    const named = [...first.matchAll(/`(?:(GET|POST) )?(\/[^`]*)`/g)].map((m) => {
      method = m[1] ?? method;
      return `${method} ${m[2]}`;
    });
    rows.push({ routes: named, cells });
  }
  return rows;
}

describe('README: who may do what', () => {
  it("names every route that takes a token once, with the route table's yes and no", () => {
    const rows = tableRows();
    const guarded = routes.filter((r) => r.access !== 'public');
    const named = rows.flatMap((r) => r.routes);
    expect([...named].sort()).toEqual(guarded.map((r) => `${r.method} ${r.path}`).sort());
    for (const route of guarded) {
      const row = rows.find((r) => r.routes.includes(`${route.method} ${route.path}`))!;
      CALLER_CLASSES.forEach((cls, i) => {
        const allowed = (route.access as readonly string[]).includes(cls);
        expect(row.cells[i], `${route.method} ${route.path} for ${cls}`).toMatch(allowed ? /^yes\b/ : /^no\b/);
      });
    }
  });

  it('says what every peer message is subject to: isolation and 30 an hour', () => {
    expect(README).toMatch(/For a peer, always: neither profile may be `isolated`, and at most 30 messages an hour/);
  });
});
