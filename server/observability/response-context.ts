/**
 * What the service knows of one answer while it is made lives on the response itself, in fields
 * the class declares: Node makes every response of the service's listeners as `SiteResponse`
 * (createServer's `ServerResponse` option). One shape per response, nothing patched on under a
 * Symbol, and no WeakMap entry per response for the collector to trace (docs/decisions/031).
 * Express swaps a response's prototype for its own; own fields stay, so they are read through
 * `contextOf`, which refuses a response made elsewhere.
 */
import { ServerResponse } from 'node:http';

export interface RequestFacts {
  /** A bounded label: an API path template, a page route, or a class such as `static`. */
  route?: string;
  cache?: string;
  upstreamMs?: number;
  /** The partner whose key the request carried. */
  partner?: string;
}

/** What is known of one request while it is answered; one object, one shape, per request. */
export class RequestRecord {
  route = 'other';
  cache: string | undefined = undefined;
  upstreamMs: number | undefined = undefined;
  partner: string | undefined = undefined;
  constructor(
    readonly reqId: string,
    readonly method: string,
    readonly url: string,
    readonly started: number,
  ) {}
}

export interface ResponseContext {
  /** What the request observer notes of the request (request-observer.ts). */
  record?: RequestRecord | undefined;
  /** The security headers the front door chose for the answer's layer (base-headers.ts). */
  headerSet?: readonly string[] | undefined;
  /** The Keep-Alive a visitor's connection is promised (http/connection-guard.ts); none for a trusted proxy. */
  keepAlive?: string | undefined;
}

export class SiteResponse extends ServerResponse implements ResponseContext {
  record: RequestRecord | undefined = undefined;
  headerSet: readonly string[] | undefined = undefined;
  keepAlive: string | undefined = undefined;
}

/**
 * The context of a response: the fields of a SiteResponse (own fields, which stay when Express
 * swaps the prototype). A response made elsewhere has none, and is refused rather than patched.
 */
export function contextOf(res: ServerResponse): ResponseContext {
  if (!Object.hasOwn(res, 'record'))
    throw new TypeError('not a SiteResponse: make the server with createServer({ ServerResponse: SiteResponse })');
  return res as ServerResponse & ResponseContext;
}
