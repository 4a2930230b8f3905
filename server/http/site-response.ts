/**
 * What the service knows of one answer while it is made lives on the response itself, in fields
 * the class declares: Node makes every response of the service's listeners as `SiteResponse`
 * (createServer's `ServerResponse` option). One shape per response, nothing patched on under a
 * Symbol, and no WeakMap entry per response for the collector to trace (docs/decisions/031).
 * Express swaps a response's prototype for its own; own fields stay, so they are read through
 * `contextOf`, which finds them unset on a response made elsewhere.
 */
import { ServerResponse } from 'node:http';
import type { RequestRecord } from '../observability/request-observer.js';

export interface ResponseContext {
  /** What the request observer notes of the request (request-observer.ts). */
  record?: RequestRecord | undefined;
  /** The security headers the front door chose for the answer's layer (base-headers.ts). */
  headerSet?: readonly string[] | undefined;
}

export class SiteResponse extends ServerResponse implements ResponseContext {
  record: RequestRecord | undefined = undefined;
  headerSet: readonly string[] | undefined = undefined;
}

/** The context of a response: the fields of a SiteResponse, unset on any other. */
export const contextOf = (res: ServerResponse): ResponseContext => res as ServerResponse & ResponseContext;
