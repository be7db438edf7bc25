import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A server of the test's own on 127.0.0.1 (a feed, a model server): its address and how to stop it. */
export interface LocalServer {
  /** `http://127.0.0.1:{port}`, no trailing slash. */
  base: string;
  close: () => Promise<void>;
}

/** Serves `handler` on 127.0.0.1 at a free port. */
export async function serveLocally(handler: RequestListener): Promise<LocalServer> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        // The fetcher keeps connections alive; without this, close() waits for them forever.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
