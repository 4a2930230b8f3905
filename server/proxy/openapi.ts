/** The OpenAPI 3.1 document of the proxy API, generated from the shared contract. */
import { z } from 'zod';
import { API_PATHS, apiError, type ApiName } from '../../shared/contract/api-paths.js';
import { PARAM_DOCS, pathId } from '../../shared/contract/query-params.js';

const schemaOf = (schema: z.ZodType, io: 'input' | 'output' = 'output') => {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
};

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

const cacheHeaders = {
  'Cache-Control': {
    description:
      'max-age=0 (ask again each time), s-maxage (how long a shared cache may keep it), stale-while-revalidate and stale-if-error.',
    schema: { type: 'string' },
  },
  'Cache-Tag': { description: 'What the answer was made from, for purges (docs/product/publishing.md).', schema: { type: 'string' } },
  ETag: { description: 'Weak validator; send it back in If-None-Match for a 304.', schema: { type: 'string' } },
  Age: { description: 'Seconds since the answer was fetched from the content API.', schema: { type: 'integer' } },
  'X-Cache': {
    description:
      "HIT (fresh here), SHARED (fresh in the fleet's shared cache), MISS, STALE (served stale while refreshing or because the content API failed) or REFRESH.",
    schema: { type: 'string', enum: ['HIT', 'SHARED', 'MISS', 'STALE', 'REFRESH'] },
  },
};

const retryAfter = {
  'Retry-After': { description: 'Seconds after which asking again may succeed.', schema: { type: 'integer', minimum: 1 } },
};

/** A parameter's schema as the proxy enforces it: an integer with its bounds or its values, and its default. */
function parameterSchema(schema: z.ZodType): object {
  let inner = schema;
  let fallback: number | undefined;
  while (inner instanceof z.ZodDefault || inner instanceof z.ZodOptional) {
    if (inner instanceof z.ZodDefault) fallback = Number(inner.def.defaultValue);
    inner = inner.def.innerType as z.ZodType;
  }
  const doc = PARAM_DOCS.get(inner);
  if (!doc) return schemaOf(schema, 'input');
  return fallback === undefined ? doc : { ...doc, default: fallback };
}

function operation(name: ApiName) {
  const spec = API_PATHS[name];
  const parameters: unknown[] = [];
  if (spec.template.includes('{id}')) {
    parameters.push({ name: 'id', in: 'path', required: true, schema: parameterSchema(pathId) });
  }
  for (const [key, schema] of Object.entries(spec.query.shape as Record<string, z.ZodType>)) {
    parameters.push({ name: key, in: 'query', required: false, schema: parameterSchema(schema) });
  }
  return {
    get: {
      operationId: name,
      summary: spec.summary,
      parameters,
      responses: {
        200: {
          description: `OK. Fresh for ${spec.maxAge} s.`,
          headers: cacheHeaders,
          content: { 'application/json': { schema: schemaOf(spec.answer) } },
        },
        304: { description: 'Not modified (If-None-Match matched the ETag).' },
        400: errorResponse('A bad id or query parameter (each once at most; no others), and the message names it.'),
        404: errorResponse('Not found at the content API (cached briefly).'),
        405: errorResponse('Only GET and HEAD are allowed.'),
        429: {
          ...errorResponse(
            'This client asked for too much that is not cached (a per-client budget of requests that cost the content API); cached answers are never refused.',
          ),
          headers: retryAfter,
        },
        502: errorResponse('The content API answered with something that is not valid.'),
        503: {
          ...errorResponse(
            'The content API cannot be reached and nothing is cached, or the service is too busy to fetch it now (code `busy`, with Retry-After).',
          ),
          headers: retryAfter,
        },
        504: errorResponse('The content API did not answer in time and nothing is cached.'),
      },
    },
  };
}

export function buildOpenApi(): object {
  const paths = Object.fromEntries((Object.keys(API_PATHS) as ApiName[]).map((name) => [API_PATHS[name].template, operation(name)]));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Content API proxy',
      version: '1.0.0',
      description: "The content API's 21 GET paths, validated and cached. Every answer is an envelope whose `data` holds the payload.",
    },
    paths,
    components: { schemas: { Error: schemaOf(apiError) } },
  };
}
