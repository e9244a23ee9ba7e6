import { messageOf } from './jwks-file.js';

/** The largest body read, in bytes: key sets and OpenID configurations are a few kilobytes. */
export const MAX_JSON_BYTES = 1024 * 1024;

/** The body of `response` as text, refused once it passes {@link MAX_JSON_BYTES}, so a wrong URL cannot fill the memory. */
async function boundedText(response: Response): Promise<string> {
  if (response.body === null) return '';
  const reader: ReadableStreamDefaultReader<Uint8Array> = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_JSON_BYTES) {
      await reader.cancel();
      throw new Error(`its body is larger than ${MAX_JSON_BYTES} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Why a fetch failed, as one line: Node's `fetch failed` carries the real reason (ECONNREFUSED…) in its cause. */
function fetchProblem(error: unknown, timeoutMs: number): string {
  const name = typeof error === 'object' && error !== null ? (error as { name?: unknown }).name : undefined;
  if (name === 'TimeoutError' || name === 'AbortError') return `no answer within ${timeoutMs} ms`;
  const cause = typeof error === 'object' && error !== null ? (error as { cause?: unknown }).cause : undefined;
  return cause === undefined ? messageOf(error) : `${messageOf(error)} (${messageOf(cause)})`;
}

/**
 * GETs `url` and parses its body as JSON, within `timeoutMs` for the whole exchange. Anything else than a
 * 200 with a JSON body of at most {@link MAX_JSON_BYTES} (a redirect included: a key set is fetched from where it was configured or
 * discovered, nowhere else) is thrown as an `Error` whose message says what went wrong, in words fit to
 * follow "cannot use <url>: ".
 */
export async function fetchJson(url: URL, timeoutMs: number): Promise<unknown> {
  const signal = AbortSignal.timeout(timeoutMs);
  let response: Response;
  try {
    response = await fetch(url, { method: 'GET', redirect: 'manual', headers: { accept: 'application/json' }, signal });
  } catch (error) {
    throw new Error(fetchProblem(error, timeoutMs), { cause: error });
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    const where = response.status >= 300 && response.status < 400 ? `, a redirect to ${response.headers.get('location') ?? 'nowhere'}, which is not followed` : '';
    throw new Error(`it answered HTTP ${response.status}${where}; expected 200 with a JSON body`);
  }
  let text: string;
  try {
    text = await boundedText(response);
  } catch (error) {
    if (error instanceof Error && error.message.startsWith('its body is larger')) throw error;
    throw new Error(fetchProblem(error, timeoutMs), { cause: error });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new Error(`its body is not JSON (${messageOf(error)})`, { cause: error });
  }
}
