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

/** What {@link rawExchangeWritingBody} got back: every byte until the server closed, and the first socket error. */
export interface RawBodyExchange {
  readonly text: string;
  /** The first error of the connection (`EPIPE`, `ECONNRESET`), when it had one. */
  readonly socketError: string | undefined;
}

/**
 * Sends `head` to the HTTP port at `baseUrl`, then `bodyBytes` bytes of body as fast as the connection
 * takes them, without waiting for an answer (as clients that send their whole request before they read do),
 * and resolves with everything the server sends back until it closes the connection.
 */
export function rawExchangeWritingBody(baseUrl: string, head: string, bodyBytes: number): Promise<RawBodyExchange> {
  return rawExchangeWritingBodyLater(baseUrl, '', () => Promise.resolve(), head, bodyBytes);
}

/**
 * As {@link rawExchangeWritingBody}, in two steps: `firstBytes` (the start of a head, say) go out at once,
 * and `rest` and the body once `ready`, called when the first bytes are written, has resolved.
 */
export function rawExchangeWritingBodyLater(baseUrl: string, firstBytes: string, ready: () => Promise<void>, rest: string, bodyBytes: number): Promise<RawBodyExchange> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    let socketError: string | undefined;
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      socketError ??= error.code ?? error.message;
    });
    socket.once('close', () => {
      resolve({ text: Buffer.concat(chunks).toString('utf8'), socketError });
    });
    const piece = Buffer.alloc(64 * 1024, 0x20);
    let written = 0;
    const pump = (): void => {
      while (written < bodyBytes && !socket.destroyed) {
        const next = piece.subarray(0, Math.min(piece.length, bodyBytes - written));
        written += next.length;
        if (!socket.write(next)) {
          socket.once('drain', pump);
          return;
        }
      }
    };
    const sendRest = (): void => {
      if (socket.destroyed) return;
      socket.write(rest);
      pump();
    };
    if (firstBytes === '') {
      sendRest();
      return;
    }
    socket.write(firstBytes, () => {
      ready().then(sendRest, (error: unknown) => socket.destroy(error instanceof Error ? error : new Error(String(error))));
    });
  });
}

/**
 * Every answer in `text` (what a connection received), in order, parsed as {@link parseRawAnswer} does; a
 * pipelined answer's status line may follow the answer before it directly, with no line break.
 */
export function parseRawAnswers(text: string): ReturnType<typeof parseRawAnswer>[] {
  return text
    .split(/(?=HTTP\/1\.1 \d{3} )/)
    .filter((answer) => answer !== '')
    .map(parseRawAnswer);
}

/** The status of every answer in `text` (what a connection received), in order. */
export function rawAnswerStatuses(text: string): number[] {
  return parseRawAnswers(text).map((answer) => answer.status);
}
