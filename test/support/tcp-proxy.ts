/**
 * A TCP relay on loopback in front of one port, which a test can cut (every connection dropped,
 * new ones refused) and restore: one client cut off from a server that stays up for the others.
 */
import net, { type Socket } from 'node:net';
import { freePort } from './redis-server.js';

export interface TcpProxy {
  port: number;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  const port = await freePort();
  const sockets = new Set<Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.once('close', () => sockets.delete(s));
      s.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  const listen = () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const cut = async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const s of sockets) s.destroy();
    await closed;
  };
  await listen();
  return { port, cut, restore: listen, close: () => (server.listening ? cut() : Promise.resolve()) };
}
