import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

/** An HTTP server on a free loopback port, standing in for a model or workflow host. */
export interface LoopbackFileServer {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  close(): Promise<void>;
}

/** Starts `handle` on a free loopback port. */
export async function startLoopbackFileServer(handle: (request: IncomingMessage, response: ServerResponse) => void): Promise<LoopbackFileServer> {
  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
      }),
  };
}
