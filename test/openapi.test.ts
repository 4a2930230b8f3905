/**
 * The OpenAPI document states every limit the proxy enforces, as schema: each parameter an
 * integer with its bounds (or its values) and default. Checked against the running proxy: every
 * value the document allows is accepted, and every value it forbids is refused with 400. And
 * the document is complete (docs/decisions/024): its servers, its security, a tag for every
 * path, every status with its schema, example and headers, and examples that are what the API
 * answers.
 */
import { asSent } from './support/served-image.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { problem, type ProblemCode } from '../server/http/problem.js';
import { SEARCH_API_PATH } from '../shared/search.js';
import { startService, type RunningService } from './support/start-service.js';

interface ParamSchema {
  type: string;
  minimum?: number;
  maximum?: number;
  enum?: number[];
  default?: number;
}
interface Parameter {
  name: string;
  in: 'path' | 'query';
  schema: ParamSchema;
}
interface Doc {
  paths: Record<string, { get: { parameters: Parameter[] } }>;
}

let svc: RunningService;
let doc: Doc;
/** The 21 proxied paths (the search's own parameters and answers: test/search-api.test.ts). */
const proxied = () => Object.entries(doc.paths).filter(([path]) => path !== SEARCH_API_PATH);

beforeAll(async () => {
  svc = await startService();
  doc = (await (await fetch(`${svc.url}/api/openapi.json`)).json()) as Doc;
});
afterAll(() => svc.close());

/** Values the schema allows, and values it does not (wrong numbers and what is no integer at all). */
function valuesOf(schema: ParamSchema): { allowed: number[]; forbidden: string[] } {
  const notIntegers = ['0.5', '1.5', 'abc', '01', '+1', '-1', '1e2', ''];
  if (schema.enum) {
    const outside = Array.from({ length: 40 }, (_, i) => i + 1).filter((n) => !schema.enum!.includes(n));
    return { allowed: schema.enum, forbidden: [...outside.map(String), ...notIntegers] };
  }
  const { minimum: min, maximum: max } = schema;
  expect(min, 'every integer parameter has a minimum').toBeTypeOf('number');
  expect(max, 'every integer parameter has a maximum').toBeTypeOf('number');
  const allowed = [...new Set([min!, max!, Math.floor((min! + max!) / 2), ...(schema.default ? [schema.default] : [])])];
  return { allowed, forbidden: [String(min! - 1), String(max! + 1), String(max! * 10), ...notIntegers] };
}

describe('the OpenAPI document and the proxy agree', () => {
  it('states each parameter as an integer with its bounds or values', () => {
    const params = proxied().flatMap(([, p]) => p.get.parameters);
    expect(params.length).toBeGreaterThan(0);
    for (const p of params) {
      expect(p.schema.type, p.name).toBe('integer');
      expect(p.schema.enum !== undefined || (p.schema.minimum !== undefined && p.schema.maximum !== undefined), p.name).toBe(true);
    }
    expect(doc.paths['/api/news']!.get.parameters.find((p) => p.name === 'page')!.schema).toMatchObject({
      minimum: 1,
      maximum: 1000,
      default: 1,
    });
    expect(doc.paths['/api/news']!.get.parameters.find((p) => p.name === 'pageSize')!.schema).toMatchObject({ minimum: 1, maximum: 50 });
    expect(doc.paths['/api/news']!.get.parameters.find((p) => p.name === 'categoryId')!.schema.enum).toEqual([7, 19, 20, 21]);
    expect(doc.paths['/api/news/{id}']!.get.parameters[0]!.schema).toMatchObject({ minimum: 1, maximum: 2_147_483_647 });
  });

  it('accepts every value the document allows and refuses every value it forbids', async () => {
    const checked: string[] = [];
    for (const [template, item] of proxied()) {
      for (const param of item.get.parameters) {
        const { allowed, forbidden } = valuesOf(param.schema);
        const address = (value: string) => {
          if (param.in === 'path') return template.replace(`{${param.name}}`, encodeURIComponent(value));
          const base = template.replace('{id}', '1');
          return `${base}?${param.name}=${encodeURIComponent(value)}`;
        };
        for (const value of allowed) {
          const res = await fetch(svc.url + address(String(value)));
          await res.arrayBuffer();
          // Allowed: answered (a 404 is the content API's: no such item), never refused as bad input.
          expect([200, 404], `${address(String(value))}`).toContain(res.status);
          checked.push(address(String(value)));
        }
        for (const value of forbidden) {
          // An empty path segment is another path, not a bad id.
          if (param.in === 'path' && value === '') continue;
          const res = await fetch(svc.url + address(value));
          const body = (await res.json()) as { error: { code: string; message: string } };
          expect(res.status, `${address(value)}`).toBe(400);
          expect(body.error.message, address(value)).toContain(param.name);
          checked.push(address(value));
        }
      }
    }
    expect(checked.length).toBeGreaterThan(200);
  });
});

describe('the OpenAPI document is complete', () => {
  // The parsed document, walked by the paths the specification gives.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  type Json = Record<string, any>;
  let full: Json;
  let withOrigin: RunningService;
  beforeAll(async () => {
    full = (await (await fetch(`${svc.url}/api/openapi.json`)).json()) as Json;
    withOrigin = await startService({ PUBLIC_ORIGIN: 'https://eye.example' });
  });
  afterAll(() => withOrigin?.close());

  /** A response, its $ref followed. */
  const resolve = (value: Json): Json =>
    value.$ref ? resolve(full.components[value.$ref.split('/')[2]][value.$ref.split('/')[3]]) : value;

  it('names its server: PUBLIC_ORIGIN, else the service itself; and links the reference page', async () => {
    const port = new URL(svc.url).port;
    expect(full.servers).toEqual([{ url: `http://localhost:${port}`, description: 'This service' }]);
    const public_ = (await (await fetch(`${withOrigin.url}/api/openapi.json`)).json()) as Json;
    expect(public_.servers[0].url).toBe('https://eye.example');
    expect(public_.externalDocs.url).toBe('https://eye.example/api/docs');
    expect(public_.info.description).toContain('https://eye.example/api/docs');
  });

  it('declares its security as it is: open to all, or with an optional partner key in X-API-Key', () => {
    expect(full.security).toEqual([{}, { partnerKey: [] }]);
    const scheme = full.components.securitySchemes.partnerKey;
    expect(scheme).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    expect(scheme.description).toMatch(/budget of its own/);
    expect(scheme.description).toMatch(/unknown key is answered 401/);
  });

  it('puts every path in one of the sections, each tag named in Chinese and described in English', () => {
    const tags = full.tags as { name: string; description: string }[];
    expect(tags.map((t) => t.name)).toEqual(['集团', '患者服务', '医院', '专家', '学术研究', '新闻', '联系我们', '搜索']);
    for (const tag of tags) expect(tag.description, tag.name).toMatch(/^[A-Z][\x20-\x7e]+\.$/);
    for (const [path, item] of Object.entries(full.paths as Json)) {
      expect(item.get.tags, path).toHaveLength(1);
      expect(
        tags.map((t) => t.name),
        path,
      ).toContain(item.get.tags[0]);
    }
  });

  it('documents every status with its schema and an example, and the headers of each', () => {
    for (const [path, item] of Object.entries(full.paths as Json).filter(([p]) => p !== SEARCH_API_PATH)) {
      const responses = item.get.responses as Json;
      expect(Object.keys(responses).sort(), path).toEqual(['200', '304', '400', '401', '404', '405', '429', '502', '503', '504']);
      const ok = responses['200'];
      for (const header of ['ETag', 'Cache-Control', 'Age', 'X-Cache', 'Cache-Tag', 'Server-Timing', 'RateLimit', 'RateLimit-Policy']) {
        expect(resolve(ok.headers[header]).description, `${path} 200 ${header}`).toBeTruthy();
      }
      expect(ok.content['application/json'].examples.demo.value.data, path).toBeDefined();
      for (const status of ['400', '401', '404', '405', '429', '502', '503', '504']) {
        const error = resolve(responses[status]);
        expect(error.content['application/json'].schema, `${path} ${status}`).toEqual({ $ref: '#/components/schemas/Error' });
        const examples = Object.values(error.content['application/json'].examples as Json);
        expect(examples.length, `${path} ${status}`).toBeGreaterThan(0);
        for (const example of examples) {
          // Each example's code is one that this status carries (server/http/problem.ts).
          expect(problem(example.value.error.code as ProblemCode, '').status, `${status} ${example.value.error.code}`).toBe(Number(status));
        }
        const retry = error.headers['Retry-After'];
        expect(retry !== undefined, `${path} ${status} Retry-After`).toBe(status === '429' || status === '503');
      }
    }
    expect(full.components.headers.RateLimit.description).toMatch(/IETF httpapi draft/);
    expect(full.components.headers['RateLimit-Policy'].schema.examples[0]).toMatch(/^"[a-z]+";q=\d+;w=\d+$/);
  });

  it("every 200 example is what the API answers to the example's request", async () => {
    for (const [path, item] of Object.entries(full.paths as Json)) {
      const example = item.get.responses['200'].content['application/json'].examples.demo;
      const requested = /^GET (\S+) on the demo content$/.exec(example.summary)?.[1];
      expect(requested, path).toBeDefined();
      const live = await (await fetch(svc.url + requested)).json();
      // The same content; the example's images are named on another content API, their sizes not learnt.
      expect(asSent(example.value, true), `${path}: ${requested}`).toEqual(asSent(live, true));
    }
  });

  it('the error examples of a bad address and a wrong key are what the API answers to them', async () => {
    const examples = resolve({ $ref: '#/components/responses/BadRequest' }).content['application/json'].examples as Json;
    const live = await (await fetch(`${svc.url}/api/news?page=0`)).json();
    expect(examples.outOfRange.value).toEqual(live);
    const missing = resolve({ $ref: '#/components/responses/NotFound' }).content['application/json'].examples as Json;
    expect(missing.notAPath.value).toEqual(await (await fetch(`${svc.url}/api/doctors`)).json());
    expect(missing.noSuchItem.value).toEqual(await (await fetch(`${svc.url}/api/news/999999`)).json());
    const refused = resolve({ $ref: '#/components/responses/Unauthorized' }).content['application/json'].examples as Json;
    const unknown = await fetch(`${svc.url}/api/news`, { headers: { 'x-api-key': 'k'.repeat(32) } });
    expect(unknown.status).toBe(401);
    expect(refused.unknownKey.value).toEqual(await unknown.json());
    expect(refused.malformed.value).toEqual(await (await fetch(`${svc.url}/api/news`, { headers: { 'x-api-key': 'not a key' } })).json());
  });
});
