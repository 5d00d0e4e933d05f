/**
 * A second loopback port that forwards raw TCP to the main fake, so one FakeServer (one request
 * log, one set of fault switches, one rate-limit budget) answers on two hosts. The shared plumbing
 * listens on one port per FakeServer; Gong needs two: `api.gong.io`/`app.gong.io` and the customer
 * API host named by `api_base_url_for_customer` (API-NOTES C.1). The handlers tell the hosts apart
 * by the `Host` header, as a virtual-hosting server does; bytes pass through untouched, so a
 * reset or truncated answer reaches the client exactly as on the main port.
 */
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

/** A listening alias. */
export interface HostAlias {
  /** The alias's port. */
  readonly port: number;
  /** `http://host:port` of the alias. */
  readonly baseUrl: string;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

/**
 * Listens on `port` (0: a free one) and pipes every connection to `target` (`http://host:port`).
 * A connection reset by the target is reset towards the client too; an end is passed on as an end.
 * Why: the customer host must share the main fake's state, faults included.
 */
export async function openHostAlias(target: string, port: number, host: string): Promise<HostAlias> {
  const targetUrl = new URL(target);
  const targetHost = targetUrl.hostname.replace(/^\[|\]$/g, '');
  const targetPort = Number(targetUrl.port);
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(targetPort, targetHost);
    sockets.add(client);
    sockets.add(upstream);
    client.on('close', () => {
      sockets.delete(client);
      upstream.destroy();
    });
    upstream.on('close', () => sockets.delete(upstream));
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => reset(client));
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = host === '0.0.0.0' || host === '' ? '127.0.0.1' : host === '::' ? '[::1]' : host.includes(':') ? `[${host}]` : host;
  return {
    port: address.port,
    baseUrl: `http://${shownHost}:${address.port}`,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
    },
  };
}

function reset(socket: Socket): void {
  const resettable = socket as Socket & { resetAndDestroy?: () => void };
  if (typeof resettable.resetAndDestroy === 'function' && !socket.destroyed) resettable.resetAndDestroy();
  else socket.destroy();
}
