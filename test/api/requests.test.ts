/**
 * Two request rules of the API socket: the `Authorization` scheme is matched in any case (RFC 9110
 * §11.1: `bearer`, `BEARER` as `Bearer`), with one or more spaces before the token; and
 * `GET /history?limit=` takes 1–500 as documented, refusing anything else with 400 and the range (not
 * silently capped), the OpenAPI document's pattern saying exactly the same.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearerOf } from '../../src/main/api/auth';
import { openApiDocument } from '../../src/main/api/openapi';
import { routes } from '../../src/main/api/routes';
import { createFakeApiCore } from './fakeApiCore';
import { apiDirs, call, startTestApi, type ApiDirs, type TestApi } from './helpers';

let dirs: ApiDirs;
let t: TestApi;
beforeAll(async () => {
  dirs = await apiDirs();
  t = await startTestApi(createFakeApiCore().core, dirs);
});
afterAll(async () => {
  await t?.api.close();
  await dirs?.cleanup();
});

describe('the Authorization scheme is case-insensitive', () => {
  it('bearerOf takes Bearer in any case and any run of spaces; nothing else', () => {
    const token = 'A'.repeat(20);
    for (const h of [`Bearer ${token}`, `bearer ${token}`, `BEARER ${token}`, `bEaReR ${token}`, `Bearer   ${token}`, `  bearer ${token}  `]) {
      expect(bearerOf({ headers: { authorization: h } }), h).toBe(token);
    }
    for (const h of [`Basic ${token}`, `Bearer${token}`, `Bearer ${token} extra`, 'bearer short', `Token ${token}`]) {
      expect(bearerOf({ headers: { authorization: h } }), h).toBeNull();
    }
  });

  it('over the socket: a lower-case scheme is served, an unknown scheme is 401', async () => {
    for (const scheme of ['bearer', 'BEARER', 'Bearer']) {
      const res = await call(dirs.socket, 'GET', '/status', { headers: { authorization: `${scheme} ${t.owner}` } });
      expect(res.status, scheme).toBe(200);
    }
    const agent = await call(dirs.socket, 'POST', '/send', { headers: { authorization: `bearer ${t.tokenFor('coder')}` }, body: { key: 'coder', text: 'hi' } });
    expect(agent.status).toBe(200);
    const basic = await call(dirs.socket, 'GET', '/status', { headers: { authorization: `Basic ${t.owner}` } });
    expect(basic.status).toBe(401);
    expect(basic.body).toEqual({ error: 'a bearer token is needed', code: 'unauthorized' });
  });
});

describe('/history?limit= is 1–500, as documented', () => {
  it('500 is served; 0, 501, 9999, -1 and words are 400 naming the range', async () => {
    expect((await call(dirs.socket, 'GET', '/history?key=coder&limit=500', { token: t.owner })).status).toBe(200);
    expect((await call(dirs.socket, 'GET', '/history?key=coder&limit=1', { token: t.owner })).body).toMatchObject({
      items: [{ text: 'All 212 tests pass.' }],
      more: true,
    });
    for (const limit of ['0', '501', '9999', '-1', 'ten', '050', '']) {
      const res = await call(dirs.socket, 'GET', `/history?key=coder&limit=${limit}`, { token: t.owner });
      expect(res.status, limit).toBe(400);
      expect(res.body, limit).toEqual({ error: 'query.limit: must be a whole number from 1 to 500', code: 'bad-request' });
    }
  });

  it('the OpenAPI document says the same: its pattern takes exactly 1–500, its text names the range', () => {
    const doc = openApiDocument(routes) as {
      paths: Record<string, { get: { parameters: { name: string; description: string; schema: { pattern: string } }[] } }>;
    };
    const limit = doc.paths['/history']!.get.parameters.find((p) => p.name === 'limit')!;
    expect(limit.description).toMatch(/1–500/);
    const re = new RegExp(limit.schema.pattern);
    for (let n = 0; n <= 1000; n++) expect(re.test(String(n)), String(n)).toBe(n >= 1 && n <= 500);
  });
});
