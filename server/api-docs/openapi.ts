/**
 * The OpenAPI 3.1 document of the proxy API, generated from the shared contract: every path, its
 * parameters with the bounds the proxy enforces, its answer's schema with an example computed
 * from the demo content, every error, the headers, the servers and the optional partner key.
 * Its version is the one recorded with the contract's fingerprint (openapi-version.ts).
 */
import { z } from 'zod';
import { ROUTES } from '../../shared/site/route-table.js';
import { API_PATHS, apiError, type ApiName } from '../../shared/contract/api-paths.js';
import { fileSource, imageSource, mediaFile, mediaImage } from '../../shared/contract/entities.js';
import { PARAM_DOCS, pathId } from '../../shared/contract/query-params.js';
import { API_DOCS_PATH } from '../http/api-docs-paths.js';
import { answerHeaders, components, errorResponses, introduction, PARTNER_KEY, tagOf, tags } from './openapi-components.js';
import { successExample } from './openapi-examples.js';
import { OPENAPI_VERSION } from './openapi-version.js';
import { SEARCH_API_PATH } from '../../shared/search.js';
import { searchOperation } from './search-openapi.js';

/** The parts of the document the tests and tools read; the rest is plain JSON. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; [key: string]: unknown };
  servers: { url: string; description?: string }[];
  paths: Record<string, { get: Record<string, unknown> }>;
  [key: string]: unknown;
}

/** A media source of the content API is answered as the media endpoint's address (content-reader.ts). */
const MEDIA_REFS = new Map<unknown, string>([
  [imageSource, '#/components/schemas/MediaImage'],
  [fileSource, '#/components/schemas/MediaFile'],
]);

const schemaOf = (schema: z.ZodType, io: 'input' | 'output' = 'output') => {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema }) => {
      const ref = MEDIA_REFS.get(zodSchema);
      if (!ref) return;
      for (const key of Object.keys(jsonSchema)) delete (jsonSchema as Record<string, unknown>)[key];
      jsonSchema.$ref = ref;
    },
  }) as Record<string, unknown>;
  return rest;
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
  const paged = Object.hasOwn(spec.query.shape, 'pageSize');
  return {
    get: {
      operationId: name,
      summary: spec.summary,
      description: `Fresh for ${spec.maxAge} s, then served stale while it is refreshed.${paged ? ' A page of a list: `{ items, total, page, pageSize }`.' : ''}`,
      tags: [tagOf(name)],
      parameters,
      responses: {
        200: {
          description: `OK: the envelope \`{ data }\`. Fresh for ${spec.maxAge} s.`,
          headers: answerHeaders,
          content: { 'application/json': { schema: schemaOf(spec.answer), examples: { demo: successExample(name) } } },
        },
        ...errorResponses,
      },
    },
  };
}

/**
 * The document, its server the address the API is reached at (PUBLIC_ORIGIN, else the service's
 * own); `searchExample` is /api/search's example (server/api-docs/search-openapi.ts), computed apart
 * because it takes a moment.
 */
export function buildOpenApi({
  serverUrl,
  searchExample,
}: {
  serverUrl: string;
  searchExample?: { summary: string; value: unknown };
}): OpenApiDocument {
  const paths = {
    ...Object.fromEntries((Object.keys(API_PATHS) as ApiName[]).map((name) => [API_PATHS[name].template, operation(name)])),
    [SEARCH_API_PATH]: searchOperation(schemaOf, mediaImage, searchExample),
  };
  return {
    openapi: '3.1.0',
    info: {
      title: '明瞳眼科医疗集团内容接口',
      version: OPENAPI_VERSION.version,
      summary: "The public content of the group: 21 read-only GET paths, validated and cached, and the site's search.",
      description: introduction(serverUrl),
      contact: { name: '明瞳眼科医疗集团', url: `${serverUrl}${ROUTES.contact.path}` },
    },
    externalDocs: { description: '接口参考页面: this document, drawn, with a panel to send requests', url: `${serverUrl}${API_DOCS_PATH}` },
    servers: [{ url: serverUrl, description: 'This service' }],
    // No key is needed; a partner's key is optional (it gives the partner a budget of its own).
    security: [{}, { [PARTNER_KEY]: [] }],
    tags,
    paths,
    components: components(schemaOf(apiError), { MediaImage: schemaOf(mediaImage), MediaFile: schemaOf(mediaFile) }),
  };
}
