import { createServer, request, type IncomingMessage } from 'node:http';

/** A loopback HTTP proxy in front of a store that can cut object bodies short, counting what it forwards. */
export interface CuttingProxy {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** Every request forwarded, as `METHOD path`. */
  readonly requests: string[];
  close(): Promise<void>;
}

/** S3's answer to a client sending too many requests. */
const SLOW_DOWN = '<?xml version="1.0" encoding="UTF-8"?><Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>';

/**
 * Forwards every request to `target`; for a GET whose path `cut` matches, sends the upstream status and
 * headers and half the body, then closes the socket (a download cut off mid-way). A request whose path
 * `throttle` answers true for (given how many such requests came before) is answered 503 SlowDown instead.
 */
export async function startCuttingProxy(
  target: string,
  cut: (path: string) => boolean,
  throttle: (path: string, before: number) => boolean = () => false,
): Promise<CuttingProxy> {
  const requests: string[] = [];
  const throttled = new Map<string, number>();
  const upstream = new URL(target);
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    requests.push(`${req.method ?? 'GET'} ${path}`);
    const before = throttled.get(path) ?? 0;
    if (throttle(path, before)) {
      throttled.set(path, before + 1);
      req.resume();
      res.writeHead(503, { 'content-type': 'application/xml' }).end(SLOW_DOWN);
      return;
    }
    const forward = request({ host: upstream.hostname, port: upstream.port, method: req.method, path, headers: req.headers }, (answer: IncomingMessage) => {
      if (req.method !== 'GET' || !cut(path)) {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        return;
      }
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        const body = Buffer.concat(chunks);
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        res.write(body.subarray(0, Math.floor(body.length / 2)), () => res.socket?.destroy());
      });
    });
    forward.on('error', () => res.socket?.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => { resolve(); });
      }),
  };
}
