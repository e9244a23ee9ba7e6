import { connect } from 'node:net';

/**
 * Sends `bytes` as they are to the HTTP port at `baseUrl` and resolves with everything the server sends
 * back until it closes the connection: for requests no HTTP client library would send.
 */
export async function rawExchange(baseUrl: string, bytes: string | Buffer): Promise<string> {
  const { hostname, port } = new URL(baseUrl);
  const socket = connect(Number(port), hostname);
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => {
      socket.write(bytes);
    });
    socket.once('close', () => {
      resolve();
    });
    socket.once('error', reject);
  });
  return Buffer.concat(chunks).toString('utf8');
}

/** The status line, headers (names in lower case) and body of one raw HTTP answer. */
export function parseRawAnswer(text: string): { status: number; headers: Record<string, string>; body: string } {
  const end = text.indexOf('\r\n\r\n');
  const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body: text.slice(end + 4) };
}
