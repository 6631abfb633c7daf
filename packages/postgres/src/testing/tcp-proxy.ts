import { createConnection, createServer, type Socket } from "node:net";

/** A TCP proxy on 127.0.0.1 in front of the test server, which a test can cut off. */
export interface TcpProxy {
  /** The proxy's port. */
  readonly port: number;
  /** `url` with its port replaced by the proxy's. */
  url(url: string): string;
  /** Drops every open connection and refuses new ones: the database is "unreachable". */
  cut(): void;
  /** Lets connections through again. */
  restore(): void;
  /** How many connections it has let through. */
  readonly connections: number;
  /** Stops the proxy. */
  close(): Promise<void>;
}

/**
 * Starts a proxy to `127.0.0.1:targetPort`: a network outage between a loop and its database
 * that a test switches on and off, without touching the server the other tests use.
 */
export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let open = true;
  let connections = 0;
  const server = createServer((client) => {
    if (!open) {
      client.destroy();
      return;
    }
    connections += 1;
    const upstream = createConnection({ host: "127.0.0.1", port: targetPort });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("proxy has no port");
  return {
    port: address.port,
    url(url: string) {
      const parsed = new URL(url);
      parsed.port = String(address.port);
      return parsed.toString();
    },
    cut() {
      open = false;
      for (const socket of sockets) socket.destroy();
    },
    restore() {
      open = true;
    },
    get connections() {
      return connections;
    },
    close() {
      open = false;
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
