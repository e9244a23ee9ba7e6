import { connect, type Socket } from 'node:net';

/** What {@link abandonMidBody} sends before it gives up. */
export interface AbandonedRequest {
  /** The request's path, e.g. `/predictions/iris`. */
  readonly path: string;
  /** Headers besides `Host`, `Content-Length` and `Expect`. */
  readonly headers: Readonly<Record<string, string>>;
  /** The `Content-Length` the request declares. */
  readonly declaredLength: number;
  /** The part of the body sent before the connection is closed: shorter than `declaredLength`. */
  readonly partialBody: string;
}

function waitForData(socket: Socket, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer): void => {
      seen += chunk.toString('latin1');
      if (!seen.includes(text)) return;
      socket.off('data', onData);
      socket.off('error', reject);
      resolve();
    };
    socket.on('data', onData);
    socket.once('error', reject);
  });
}

/**
 * A client that gives up part way through its body: sends the head of a POST to `baseUrl` with
 * `Expect: 100-continue`, waits for the server's `100 Continue` (so the server has taken the request),
 * sends `partialBody` and closes the connection.
 */
export async function abandonMidBody(baseUrl: string, request: AbandonedRequest): Promise<void> {
  const { hostname, port } = new URL(baseUrl);
  const socket = connect(Number(port), hostname);
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    const headers = Object.entries(request.headers).map(([name, value]) => `${name}: ${value}\r\n`);
    const continued = waitForData(socket, '100 Continue');
    socket.write(`POST ${request.path} HTTP/1.1\r\nHost: ${hostname}\r\n${headers.join('')}Content-Length: ${request.declaredLength}\r\nExpect: 100-continue\r\n\r\n`);
    await continued;
    await new Promise<void>((resolve) => {
      socket.write(request.partialBody, () => {
        resolve();
      });
    });
  } finally {
    socket.destroy();
  }
}
