/** The method and url of a request line, as an access-log line of a refused request shows them. */
export interface RefusedRequestLine {
  readonly method: string;
  readonly url: string;
}

/** The most characters of a refused request's url its access-log line shows; a longer one is cut, with `…`. */
export const REFUSED_URL_SHOWN = 256;
/** Methods are tokens; none Node's parser knows is longer. */
const METHOD = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,32}$/;
const SPACE = 0x20;

/** What Node's HTTP parser attaches to a parse error: the bytes of the read it failed in, and how far into them it got. */
interface ParseErrorBytes {
  readonly rawPacket?: unknown;
  readonly bytesParsed?: unknown;
}

/**
 * The method and url of the request whose head Node's HTTP parser refused, when the parser read both
 * (it got past the space after the url) and the request began the connection's first read: only then is
 * it known where the request starts among the bytes of the failed read. Undefined otherwise — a fault in
 * the method or the url, a request pipelined behind another, a head that came in several reads, or no
 * bytes at all (a head that did not arrive in time). The url is cut to {@link REFUSED_URL_SHOWN}
 * characters, and nothing but visible ASCII is taken: the rest of the head is never read.
 */
export function refusedRequestLine(error: ParseErrorBytes, bytesReadOnConnection: number): RefusedRequestLine | undefined {
  const { rawPacket, bytesParsed } = error;
  if (!Buffer.isBuffer(rawPacket) || typeof bytesParsed !== 'number' || rawPacket.length !== bytesReadOnConnection) return undefined;
  const head = rawPacket.subarray(0, Math.min(bytesParsed, rawPacket.length));
  const methodEnd = head.indexOf(SPACE);
  if (methodEnd < 1) return undefined;
  const method = head.toString('latin1', 0, methodEnd);
  if (!METHOD.test(method)) return undefined;
  const urlEnd = head.indexOf(SPACE, methodEnd + 1);
  if (urlEnd < 0) return undefined;
  for (let i = methodEnd + 1; i < urlEnd; i++) {
    const byte = head[i] ?? 0;
    if (byte < 0x21 || byte > 0x7e) return undefined;
  }
  // A blank line before the fault ends an earlier request's head: this request was pipelined behind it.
  if (head.includes('\n\n', urlEnd, 'latin1') || head.includes('\n\r\n', urlEnd, 'latin1')) return undefined;
  const urlLength = urlEnd - methodEnd - 1;
  if (urlLength < 1) return undefined;
  const shown = Math.min(urlLength, REFUSED_URL_SHOWN);
  const url = head.toString('latin1', methodEnd + 1, methodEnd + 1 + shown);
  return { method, url: urlLength > REFUSED_URL_SHOWN ? `${url}…` : url };
}
