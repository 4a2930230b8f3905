/**
 * The OpenAPI document's examples. Each path's 200 is computed when the document is built, from
 * the embedded demo content through the proxy's own steps (the request parsed, the answer
 * read against the contract, its media made addresses on this site, its HTML sanitised), so an example can never drift from what
 * the API answers. The errors' are made with `problem()`, so each code has its own status.
 */
import type { IncomingMessage } from 'node:http';
import { API_PATHS, type ApiName } from '../../shared/contract/api-paths.js';
import type { ContentError } from '../../shared/content-api.js';
import { demoContent } from '../embedded-api/demo-content/index.js';
import { payloadFor } from '../embedded-api/embedded-api.js';
import { PartnerKeys } from '../http/partner-keys.js';
import { problem } from '../http/problem.js';
import { apiRequestFor, parseApiRequest, type ApiRequest } from '../proxy/api-request.js';
import { readPayload } from '../proxy/content-reader.js';
import { SourcePolicy } from '../media/media-address.js';

/** Lists in the examples are a page of this many items, to keep the document short. */
const EXAMPLE_PAGE_SIZE = 2;

/** Where the examples' content API is: its images are named on this origin. */
const EXAMPLE_CONTENT_API = 'https://content-api.example';

/** What the proxy answers to a request, on the demo content (its images' sizes not yet learnt); throws for an item it does not have. */
export function demoAnswer(request: ApiRequest): { data: unknown } {
  if (payloadFor(demoContent, request) === undefined) throw problem('not_found', `${request.key} does not exist`);
  const { data } = readPayload(request, { data: payloadFor(demoContent, request) }, new SourcePolicy(EXAMPLE_CONTENT_API), (field) => {
    throw new Error(`the demo content does not fit the contract at ${field}`);
  });
  return { data };
}

/** The id of the first item a list shows (`{ items: [{ id }] }`). */
function firstIdIn(list: 'experts' | 'news'): number {
  const { data } = demoAnswer(apiRequestFor(list, undefined, { pageSize: 1 })) as { data: { items: { id: number }[] } };
  return data.items[0]!.id;
}

/** The request each path's example answers: a short page of a list, the first item a list shows. */
function exampleRequest(name: ApiName): ApiRequest {
  if (name === 'expert') return apiRequestFor(name, firstIdIn('experts'));
  if (name === 'newsDetail') return apiRequestFor(name, firstIdIn('news'));
  const paged = Object.hasOwn(API_PATHS[name].query.shape, 'pageSize');
  return apiRequestFor(name, undefined, paged ? { pageSize: EXAMPLE_PAGE_SIZE } : {});
}

/** A path's 200 example (OpenAPI Example Object), named by the request it answers. */
export function successExample(name: ApiName): { summary: string; value: unknown } {
  const request = exampleRequest(name);
  return { summary: `GET ${request.key} on the demo content`, value: demoAnswer(request) };
}

const errorExample = (summary: string, error: ContentError) => ({
  summary,
  value: { error: { code: error.code, message: error.message } },
});

/** The problem a key is refused with (the partner keys' own message); no key is configured here. */
function keyRefusal(key: string): ContentError {
  const refused = new PartnerKeys([]).identify({ headers: { 'x-api-key': key } } as unknown as IncomingMessage);
  if (!refused || !('code' in refused)) throw new Error('a key was not refused');
  return refused;
}

/** The problem the proxy answers a bad address with (its own parser's message). */
function refusal(url: string): ContentError {
  const parsed = parseApiRequest(url);
  if ('key' in parsed) throw new Error(`${url} is not refused by the parser`);
  return parsed;
}

/** Examples of each error status, one per code it can carry (docs/product/errors.md). */
export const ERROR_EXAMPLES = {
  400: {
    outOfRange: errorExample('A parameter out of its range', refusal('/api/news?page=0')),
    unknownParameter: errorExample('A query parameter the path does not take', refusal('/api/news?sort=date')),
    badId: errorExample('An id that is not a plain positive integer', refusal('/api/news/01')),
  },
  401: {
    unknownKey: errorExample("A key that is not a partner's", keyRefusal('k'.repeat(32))),
    malformed: errorExample('A key that is not even well formed', keyRefusal('not a key')),
  },
  404: {
    notAPath: errorExample('A path that is not one of the 21', refusal('/api/doctors')),
    noSuchItem: errorExample('An item the content API does not have', problem('not_found', '/api/news/999999 does not exist')),
  },
  405: {
    method: errorExample('A method other than GET and HEAD', problem('method_not_allowed', 'POST is not allowed; use GET or HEAD')),
  },
  429: {
    overBudget: errorExample(
      "Past the client's budget of calls to the content API",
      problem('too_many_requests', 'too many requests for content that is not cached; try again in 7 s', 7),
    ),
  },
  502: {
    invalid: errorExample(
      'An answer that does not fit the contract',
      problem('upstream_invalid', 'the content API answered with malformed JSON'),
    ),
    status: errorExample('An unexpected status from the content API', problem('upstream_status', 'the content API answered 500')),
  },
  503: {
    unavailable: errorExample(
      'The content API cannot be reached and nothing is cached',
      problem('upstream_unavailable', 'the content API cannot be reached (ECONNREFUSED)'),
    ),
    busy: errorExample('The service sheds load', problem('busy', 'the service is overloaded; try again shortly', 1)),
  },
  504: {
    timeout: errorExample('The content API did not answer in time', problem('upstream_timeout', 'no answer within 3000 ms')),
  },
} as const;
