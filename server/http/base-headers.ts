/**
 * The headers every answer carries: the security headers of its layer (chosen by the front door),
 * its request id, and to a visitor the Keep-Alive its connection is promised (connection-guard.ts).
 * Layers that write their own head take them from here, as flat name/value pairs for one
 * writeHead; Express's answers get them set one by one. The Keep-Alive travels here rather than
 * being set on the response by the guard: a header set before writeHead makes node:http copy every
 * pair of the answer into its own table first.
 */
import type { ServerResponse } from 'node:http';
import { requestIdOf } from '../observability/request-observer.js';
import { contextOf } from '../observability/response-context.js';

/** Chooses an answer's security headers (the front door, by layer). */
export function useHeaderSet(res: ServerResponse, pairs: readonly string[]): void {
  contextOf(res).headerSet = pairs;
}

/** The headers every answer carries, as flat name/value pairs for one writeHead. */
export function baseHeaders(res: ServerResponse): string[] {
  const context = contextOf(res);
  const pairs = [...(context.headerSet ?? []), 'x-request-id', requestIdOf(res)];
  if (context.keepAlive !== undefined) pairs.push('keep-alive', context.keepAlive);
  return pairs;
}

/** The same headers set one by one, for layers that write their own (Express). */
export function applyBaseHeaders(res: ServerResponse): void {
  const pairs = baseHeaders(res);
  for (let i = 0; i < pairs.length; i += 2) res.setHeader(pairs[i]!, pairs[i + 1]!);
}
