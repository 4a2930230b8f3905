/**
 * The OpenAPI document states every limit the proxy enforces, as schema: each parameter an
 * integer with its bounds (or its values) and default. Checked against the running proxy: every
 * value the document allows is accepted, and every value it forbids is refused with 400. And
 * each path documents the 429 and 503 that carry Retry-After.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  paths: Record<string, { get: { parameters: Parameter[]; responses: Record<string, { headers?: Record<string, unknown> }> } }>;
}

let svc: RunningService;
let doc: Doc;

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
    const params = Object.values(doc.paths).flatMap((p) => p.get.parameters);
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

  it('documents 429 and 503 with Retry-After on every path', () => {
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const status of ['429', '503']) expect(item.get.responses[status]?.headers?.['Retry-After'], `${path} ${status}`).toBeDefined();
    }
  });

  it('accepts every value the document allows and refuses every value it forbids', async () => {
    const checked: string[] = [];
    for (const [template, item] of Object.entries(doc.paths)) {
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
