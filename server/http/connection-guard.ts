/**
 * Bounds on what one connection, one client and all clients together may hold
 * (docs/decisions/020): a client has CLIENT_TIMEOUT_MS to send its headers; a connection whose
 * client stops reading an answer (data waiting for it, none taken) is closed after as long, and
 * so is one left idle between requests, which its Keep-Alive header says (a trusted proxy's stay
 * open for the usual keep-alive, as a proxy reuses them); at most MAX_CONNECTIONS connections are open, and
 * MAX_CONNECTIONS_PER_CLIENT per client address (a trusted proxy is many clients, and is not
 * limited). Every connection closed for stalling or past a limit is counted and logged once per
 * client and burst.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Config } from '../settings/config.js';
import { BurstLog } from '../observability/burst-log.js';
import { contextOf } from '../observability/response-context.js';
import type { Logger } from '../observability/logger.js';
import type { Metrics } from '../observability/metrics.js';
import { clientKey, type TrustedProxies } from './trusted-proxies.js';

export type GuardConfig = Pick<Config, 'CLIENT_TIMEOUT_MS' | 'MAX_CONNECTIONS' | 'MAX_CONNECTIONS_PER_CLIENT'>;

/** The options node:http takes at creation: the header and request deadlines, checked every second. */
export function serverTimeouts(config: GuardConfig) {
  return {
    headersTimeout: config.CLIENT_TIMEOUT_MS,
    // The whole request (headers and body); node:http wants it at least the headers' deadline.
    requestTimeout: config.CLIENT_TIMEOUT_MS * 3,
    connectionsCheckingInterval: 1_000,
  };
}

const SWEEP_MS = 250;

/**
 * The idle time a visitor's Keep-Alive header promises: a second under CLIENT_TIMEOUT_MS, for the
 * answer's time on the way (the server's clock starts when it has sent it, the client's when it has it).
 */
const visitorIdleSeconds = (config: Pick<GuardConfig, 'CLIENT_TIMEOUT_MS'>) => Math.max(1, Math.floor(config.CLIENT_TIMEOUT_MS / 1000) - 1);

interface Progress {
  /** Bytes the kernel has taken so far. */
  sent: number;
  /** Since when nothing has been taken while something waited. */
  since: number;
}

export function guardConnections(
  server: Server,
  { config, trusted, metrics, log }: { config: GuardConfig; trusted: TrustedProxies; metrics: Metrics; log: Logger },
): { stop(): void } {
  const bursts = new BurstLog(60_000);
  const perClient = new Map<string, number>();
  const open = new Map<Socket, Progress>();
  server.maxConnections = config.MAX_CONNECTIONS;

  const closed = (reason: 'stalled' | 'per_client' | 'total', client: string, detail: Record<string, unknown>) => {
    metrics.connectionsClosed(reason).inc();
    if (bursts.first(`${reason} ${client}`)) log.warn({ client, reason, ...detail }, 'client connection closed by a limit');
  };

  server.on('drop', (data?: { remoteAddress?: string }) =>
    closed('total', data?.remoteAddress ?? 'unknown', { limit: config.MAX_CONNECTIONS }),
  );
  server.on('connection', (socket: Socket) => {
    const peer = socket.remoteAddress ?? '';
    if (!trusted.trusts(peer)) {
      const client = clientKey(peer);
      const count = (perClient.get(client) ?? 0) + 1;
      if (count > config.MAX_CONNECTIONS_PER_CLIENT) {
        closed('per_client', client, { limit: config.MAX_CONNECTIONS_PER_CLIENT });
        socket.destroy();
        return;
      }
      perClient.set(client, count);
      socket.once('close', () => {
        const left = (perClient.get(client) ?? 1) - 1;
        if (left === 0) perClient.delete(client);
        else perClient.set(client, left);
      });
    }
    open.set(socket, { sent: 0, since: 0 });
    socket.once('close', () => open.delete(socket));
  });

  // An answer sent in full into the socket's buffers leaves the connection idle, whether or not the
  // client reads it; node:http then keeps it for keepAliveTimeout, which only a proxy needs. A
  // visitor is told how long its idle connection really lasts: a client that believed node's
  // keepAliveTimeout would send its next request on a connection being closed (ECONNRESET).
  // Before the app's own listener, which may answer at once. The header goes out with the
  // answer's own (base-headers.ts): one set here would make node:http merge every header of it.
  const visitorKeepAlive = `timeout=${visitorIdleSeconds(config)}`;
  // After node:http's own listener, which has set the socket's timeout to keepAliveTimeout.
  function idleAsPromised(this: ServerResponse) {
    this.req.socket.setTimeout(config.CLIENT_TIMEOUT_MS);
  }
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    if (trusted.trusts(req.socket.remoteAddress)) return;
    contextOf(res).keepAlive = visitorKeepAlive;
    res.on('finish', idleAsPromised);
  });

  // A reader stalls when data waits for it and the kernel takes none of it for CLIENT_TIMEOUT_MS.
  const sweep = setInterval(() => {
    const now = performance.now();
    for (const [socket, progress] of open) {
      const waiting = socket.writableLength;
      const sent = socket.bytesWritten - waiting;
      if (waiting === 0 || sent !== progress.sent) {
        progress.sent = sent;
        progress.since = now;
      } else if (now - progress.since >= config.CLIENT_TIMEOUT_MS) {
        closed('stalled', clientKey(socket.remoteAddress ?? ''), { waitingBytes: waiting, timeoutMs: config.CLIENT_TIMEOUT_MS });
        socket.destroy();
      }
    }
  }, SWEEP_MS);
  sweep.unref();
  return { stop: () => clearInterval(sweep) };
}
