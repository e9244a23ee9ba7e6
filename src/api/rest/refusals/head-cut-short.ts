import type { Socket } from 'node:net';

/**
 * What Node's native HTTP parser tells of the message it is reading: how long ago it began (0 when none
 * has begun since the last one ended) and whether its head is whole. Node's HTTP server reads the same two
 * for its headers timeout.
 */
interface ParserProgress {
  duration(): number;
  headersCompleted(): boolean;
}

function parserOf(socket: Socket): Partial<ParserProgress> | undefined {
  const parser = (socket as Socket & { parser?: unknown }).parser;
  return typeof parser === 'object' && parser !== null ? parser : undefined;
}

/**
 * True when `socket`'s HTTP parser had begun a request whose head it had not read whole: a client that
 * leaves then leaves no request object behind, so nothing else can tell it had begun one. Read only when
 * a connection fails, never per request.
 */
export function headCutShort(socket: Socket): boolean {
  const parser = parserOf(socket);
  if (typeof parser?.duration !== 'function' || typeof parser.headersCompleted !== 'function') return false;
  return parser.duration() > 0 && !parser.headersCompleted();
}
