/**
 * The service's HTTP listeners: the public one and, with METRICS_PORT, the operators' one, each
 * with the connection timeouts of CLIENT_TIMEOUT_MS; how they start listening and how the public
 * one closes without cutting off requests under way.
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from './settings/config.js';
import { serverTimeouts } from './http/connection-guard.js';
import type { TrustedProxies } from './http/trusted-proxies.js';
import type { UntrustedForwarders } from './http/untrusted-forwarders.js';
import type { Metrics } from './observability/metrics.js';
import { SiteResponse } from './observability/response-context.js';

/** The public listener; requests that carry X-Forwarded-For from a peer not trusted are counted and noted first. */
export function publicServer(
  config: Config,
  listener: RequestListener,
  deps: { trusted: TrustedProxies; metrics: Metrics; forwarders: UntrustedForwarders },
): Server {
  const server = createServer({ ...serverTimeouts(config), ServerResponse: SiteResponse }, (req, res) => {
    if (req.headers['x-forwarded-for'] !== undefined && !deps.trusted.trusts(req.socket.remoteAddress)) {
      deps.metrics.forwardedUntrusted().inc();
      deps.forwarders.note(deps.trusted.clientOf(req));
    }
    listener(req, res);
  });
  server.keepAliveTimeout = 65_000;
  return server;
}

/** The operators' listener (METRICS_PORT). */
export const operatorListener = (config: Config, listener: RequestListener): Server =>
  createServer({ ...serverTimeouts(config), ServerResponse: SiteResponse }, (req, res) => listener(req, res));

export function listenOn(server: Server, port: number | undefined, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
}

/** The address a listening server is reached at, as `http://host:port`. */
export function baseUrlOf(server: Server): string {
  const address = server.address() as AddressInfo;
  const shownHost = address.address.includes(':') ? `[${address.address}]` : address.address;
  return `http://${shownHost}:${address.port}`;
}

/** Stops accepting and resolves once the requests under way are answered. */
export function closeGracefully(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    if (!server.listening) return resolve();
    // Keep-alive connections whose last request finishes after this point are closed as
    // they fall idle; close() alone waits for clients to hang up.
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    server.close(() => {
      clearInterval(sweep);
      resolve();
    });
    server.closeIdleConnections();
  });
}

/** How this machine reaches a server listening at an address: over loopback when it listens on every address. */
export function reachableUrl(address: string, port: number): string {
  const host = ['0.0.0.0', '::', '[::]'].includes(address) ? '127.0.0.1' : address;
  return `http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}`;
}

/** The address this machine reaches a listening server at; undefined before it listens. */
export function selfUrl(server: Server): string | undefined {
  const address = server.address() as AddressInfo | null;
  return address ? reachableUrl(address.address, address.port) : undefined;
}
