/**
 * The OpenAPI document, the route table and the documented examples agree: the document lists exactly
 * the table's routes (and is what `/openapi.json` serves); every example is valid against its route's
 * schemas and appears in the document unchanged; and every example, replayed against the fake core
 * set up for it, gets exactly the documented answer.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiEventSchema, type ApiEvent } from '../../src/main/api/core';
import { ErrorBody } from '../../src/main/api/errors';
import { openApiDocument } from '../../src/main/api/openapi';
import { routes, type Route, type RouteExample } from '../../src/main/api/routes';
import { createFakeApiCore, type FakeApiCoreOptions } from './fakeApiCore';
import { apiDirs, call, startTestApi, type ApiDirs } from './helpers';

type Json = Record<string, unknown>;
const doc = openApiDocument() as { openapi: string; paths: Record<string, Record<string, Json>>; components: Json };

function operationOf(route: Route): Json {
  const op = doc.paths[route.path]?.[route.method.toLowerCase()];
  if (!op) throw new Error(`no operation for ${route.method} ${route.path}`);
  return op;
}

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 and lists exactly the routes of the table', () => {
    expect(doc.openapi).toBe('3.1.0');
    const inDoc = Object.entries(doc.paths)
      .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`))
      .sort();
    expect(inDoc).toEqual(routes.map((r) => `${r.method} ${r.path}`).sort());
    expect(new Set(routes.map((r) => r.id)).size).toBe(routes.length);
  });

  it('names who may call each route and which need a token', () => {
    for (const r of routes) {
      const op = operationOf(r);
      expect(op['x-angelia-callers'], r.path).toEqual(r.access === 'public' ? [] : [...r.access]);
      expect(op.security, r.path).toEqual(r.access === 'public' ? [] : [{ bearer: [] }]);
      expect(op.operationId).toBe(r.id);
    }
  });

  it('documents every status an example shows, with the error schema for errors', () => {
    for (const r of routes) {
      const responses = operationOf(r).responses as Record<string, Json>;
      for (const ex of r.examples) {
        const resp = responses[String(ex.status)];
        expect(resp, `${r.path} ${ex.name}`).toBeDefined();
        if (ex.status >= 300) expect(JSON.stringify(resp)).toContain('#/components/schemas/Error');
      }
      if (r.access !== 'public') expect(Object.keys(responses)).toEqual(expect.arrayContaining(['401', '403']));
    }
  });

  it('carries the query parameters of the table', () => {
    for (const r of routes.filter((x) => x.query)) {
      const names = ((operationOf(r).parameters ?? []) as { name: string; in: string }[]).map((p) => `${p.in}:${p.name}`).sort();
      const shape = (r.query as unknown as { shape: Record<string, unknown> }).shape;
      expect(names, r.path).toEqual(
        Object.keys(shape)
          .map((k) => `query:${k}`)
          .sort(),
      );
    }
  });
});

describe('the documented examples', () => {
  const all = routes.flatMap((r) => r.examples.map((ex) => ({ r, ex })));

  it('exist for every route but the document itself', () => {
    for (const r of routes.filter((x) => x.path !== '/openapi.json')) expect(r.examples.length, r.path).toBeGreaterThan(0);
  });

  for (const { r, ex } of all) {
    it(`${r.method} ${r.path} "${ex.name}" is valid against the schemas and shown unchanged in the document`, () => {
      if (ex.body !== undefined) expect(r.body?.safeParse(ex.body).success, 'body').toBe(true);
      else expect(r.method === 'GET' || r.body === null).toBe(true);
      if (ex.query !== undefined) expect(r.query?.safeParse(ex.query).success, 'query').toBe(true);
      const schema = ex.status < 300 ? r.response : ErrorBody;
      expect(schema.safeParse(ex.response).success, JSON.stringify(ex.response)).toBe(true);
      const op = operationOf(r);
      if (ex.body !== undefined) {
        const examples = ((op.requestBody as Json).content as Record<string, Json>)['application/json']!.examples as Record<string, { value: unknown }>;
        expect(examples[ex.name]?.value).toEqual(ex.body);
      }
      const content = (op.responses as Record<string, Json>)[String(ex.status)]!.content as Record<string, Json>;
      const media = Object.values(content)[0]!;
      expect((media.examples as Record<string, { value: unknown }>)[ex.name]?.value).toEqual(ex.response);
    });
  }
});

/** How the fake core is set up for an example (route id / example name); default: as seeded. */
const SETUPS: Record<string, FakeApiCoreOptions> = {
  'profiles/one': { only: ['coder'] },
  'status/running': { only: ['coder'] },
  'turn/full': { queueFull: ['coder'] },
  'turn/not-accepted': { acceptFrom: { coder: [] } },
  'ask/failed': { reply: () => ({ status: 'failed', reason: 'the launch guard refused the start' }) },
  'permission/late': { approval: { state: 'answered', answer: 'allow', by: 'window' } },
  'permissions/question': { question: true },
  'permission/answers': { question: true },
};

describe('replaying every documented example', () => {
  let dirs: ApiDirs;
  beforeAll(async () => {
    dirs = await apiDirs();
    await writeFile(join(dirs.outside, 'chart.png'), Buffer.alloc(48213, 1));
    await writeFile(join(dirs.outside, 'report.pdf'), Buffer.from('%PDF-1.4 report'));
    await writeFile(join(dirs.outside, 'screenshot.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]));
  });
  afterAll(() => dirs.cleanup());

  /** Paths of the examples that stand for files on this machine. */
  function localise(body: unknown): unknown {
    if (typeof body !== 'object' || body === null) return body;
    const b = { ...(body as Record<string, unknown>) };
    if (b.path === '/home/me/Pictures/chart.png') b.path = join(dirs.outside, 'chart.png');
    const local = (f: unknown): unknown =>
      f === '/home/me/Documents/report.pdf' ? join(dirs.outside, 'report.pdf') : f === '/home/me/research/chart.png' ? join(dirs.outside, 'chart.png') : f;
    if (Array.isArray(b.files))
      b.files = b.files.map((f) => (typeof f === 'object' && f !== null ? { ...f, path: local((f as { path: unknown }).path) } : local(f)));
    if (Array.isArray(b.images)) b.images = b.images.map((f) => (f === '/home/me/Pictures/screenshot.png' ? join(dirs.outside, 'screenshot.png') : f));
    return b;
  }

  function callerChat(ex: RouteExample): string {
    const b = ex.body as { key?: string; from?: string } | undefined;
    return ex.caller === 'peer' ? (b?.from ?? 'research') : (b?.key ?? ex.query?.key ?? 'coder');
  }

  for (const { r, ex } of routes.flatMap((route) => route.examples.map((e) => ({ r: route, ex: e })))) {
    it(`${r.method} ${r.path} "${ex.name}" answers as documented`, async () => {
      const fake = createFakeApiCore(SETUPS[`${r.id}/${ex.name}`] ?? {});
      const t = await startTestApi(fake.core, dirs);
      try {
        const token = ex.caller === 'none' ? null : ex.caller === 'owner' ? t.owner : t.tokenFor(callerChat(ex));
        const path = ex.query ? `${r.path}?${new URLSearchParams(ex.query).toString()}` : r.path;
        if (r.kind === 'sse') {
          // Once the head is in, the documented event is emitted and must come through as it is.
          const res = await call(dirs.socket, r.method, path, {
            token,
            sse: true,
            until: /\ndata: .*\n\n/,
            onHead: () => setImmediate(() => fake.emit(ex.response as ApiEvent)),
          });
          expect(res.status).toBe(200);
          expect(ApiEventSchema.safeParse(ex.response).success).toBe(true);
          const m = /event: (\S+)\ndata: (.*)\n\n/.exec(res.text);
          expect(m?.[1]).toBe((ex.response as ApiEvent).event);
          expect(JSON.parse(m?.[2] ?? 'null')).toEqual(ex.response);
          return;
        }
        const res = await call(dirs.socket, r.method, path, { token, ...(ex.body !== undefined ? { body: localise(ex.body) } : {}) });
        expect(res.status, res.text).toBe(ex.status);
        const got = r.path === '/status' ? { ...(res.body as Json), socket: '/home/me/.angelia/api.sock' } : res.body;
        expect(got).toEqual(ex.response);
      } finally {
        await t.api.close();
      }
    });
  }

  it('serves the document at /openapi.json without a token', async () => {
    const t = await startTestApi(createFakeApiCore().core, dirs);
    try {
      const res = await call(dirs.socket, 'GET', '/openapi.json');
      expect(res.status).toBe(200);
      expect(res.body).toEqual(JSON.parse(JSON.stringify(doc)));
    } finally {
      await t.api.close();
    }
  });
});
