/**
 * The OpenAPI 3.1 document of the loopback API, generated from the ONE route table (routes.ts): zod
 * schemas become JSON Schema 2020-12 with zod 4's `z.toJSONSchema` (request shapes as input, answers
 * as output), and each route's examples go in as they are. Served at `/openapi.json`.
 */
import { z } from 'zod';
import { ErrorBody } from './errors';
import { API_VERSION, routes as defaultRoutes, type Route, type RouteExample } from './routes';

type Json = Record<string, unknown>;

function schemaOf(s: z.ZodType, io: 'input' | 'output'): Json {
  const out = z.toJSONSchema(s, { io, target: 'draft-2020-12', unrepresentable: 'any' }) as Json;
  delete out.$schema;
  return out;
}

/** Query parameters of a route, one per property of its (object) query schema. */
function parameters(route: Route): Json[] {
  if (!route.query) return [];
  const js = schemaOf(route.query, 'input');
  const props = (js.properties ?? {}) as Record<string, Json>;
  const required = new Set((js.required ?? []) as string[]);
  return Object.entries(props).map(([name, schema]) => ({
    name,
    in: 'query',
    required: required.has(name),
    ...(typeof schema.description === 'string' ? { description: schema.description } : {}),
    schema,
  }));
}

function examplesAt(examples: readonly RouteExample[], pick: (e: RouteExample) => unknown): Json | undefined {
  const entries = examples.filter((e) => pick(e) !== undefined).map((e) => [e.name, { summary: e.summary, value: pick(e) }] as const);
  return entries.length ? Object.fromEntries(entries) : undefined;
}

const COMMON_ERRORS: Record<number, string> = {
  400: 'bad query or body (the message names the field)',
  401: 'no token, or a token that names nobody',
  403: 'this caller may not do this',
  404: 'no such chat',
  408: "the body did not arrive whole within 30 s of the request's head (`request-timeout`; the connection is closed)",
};

function responses(route: Route): Json {
  const out: Json = {};
  const media = route.kind === 'sse' ? 'text/event-stream' : 'application/json';
  const okExamples = route.examples.filter((e) => e.status < 300);
  out['200'] = {
    description: route.kind === 'sse' ? 'a stream of events; each `data:` line is one of these objects' : 'OK',
    content: { [media]: { schema: schemaOf(route.response, 'output'), ...(okExamples.length ? { examples: examplesAt(okExamples, (e) => e.response) } : {}) } },
  };
  const statuses = new Set<number>([
    ...(route.access === 'public' ? [] : [400, 401, 403, 404].filter((s) => route.body || route.query || s !== 400)),
    ...(route.body ? [408] : []),
    ...Object.keys(route.errors).map(Number),
    ...route.examples.filter((e) => e.status >= 300).map((e) => e.status),
  ]);
  for (const status of [...statuses].sort((a, b) => a - b)) {
    const errExamples = route.examples.filter((e) => e.status === status);
    out[String(status)] = {
      description: route.errors[status] ?? COMMON_ERRORS[status] ?? 'error',
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/Error' },
          ...(errExamples.length ? { examples: examplesAt(errExamples, (e) => e.response) } : {}),
        },
      },
    };
  }
  return out;
}

function operation(route: Route): Json {
  const op: Json = {
    operationId: route.id,
    summary: route.summary,
    description: route.description,
    'x-angelia-callers': route.access === 'public' ? [] : [...route.access],
    security: route.access === 'public' ? [] : [{ bearer: [] }],
  };
  const params = parameters(route);
  if (params.length) op.parameters = params;
  if (route.body) {
    const ex = examplesAt(route.examples, (e) => e.body);
    op.requestBody = { required: true, content: { 'application/json': { schema: schemaOf(route.body, 'input'), ...(ex ? { examples: ex } : {}) } } };
  }
  op.responses = responses(route);
  return op;
}

/** The OpenAPI 3.1 document of `routes` (default: the API's table). Pure. */
export function openApiDocument(routes: readonly Route[] = defaultRoutes): Json {
  const paths: Record<string, Json> = {};
  for (const route of routes) (paths[route.path] ??= {})[route.method.toLowerCase()] = operation(route);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Angelia local API',
      version: String(API_VERSION),
      description:
        'HTTP/1.1 over the Unix socket `<state>/api.sock` (mode 600; never a TCP port). Bearer tokens: the owner token ' +
        "in `<state>/private/api.token`, or a chat's agent token (`ANGELIA_API_TOKEN` in its agent's environment, and in the identity file of " +
        "the chat's mailbox); the scheme is matched in any case (`bearer` too). JSON bodies are objects of at most 256 KB, sent " +
        "within 30 s of the request's head (408 `request-timeout` otherwise; its head within 10 s). Errors are `{error, code}`. Agents whose sandbox refuses Unix " +
        "sockets (Linux) send the same requests as files through their chat's mailbox `<state>/mailbox/<hash>/` (`<uuid>.req.json` " +
        '`{api, token, from?, method, path, query?, body?}` → `<uuid>.res.json` `{api, id, status, body}`); `/events` is socket only.',
    },
    servers: [{ url: 'http://localhost', description: 'over the Unix socket <state>/api.sock' }],
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    paths,
    components: {
      schemas: { Error: schemaOf(ErrorBody, 'output') },
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: "the owner token, or a chat's agent token" } },
    },
  };
}
