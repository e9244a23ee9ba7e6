import { writeFileSync } from 'node:fs';
import { SluiceError, type Handler, type HandlerContext, type HandlerResult } from '../../../src/sdk/index.js';

/** What a request to a streaming test handler asks for. */
export interface StreamBody {
  /** Intermediate answers to send, `{part: i}` each, before the answer `{parts}`. */
  readonly parts: number;
  /** Pad each part with this many characters. */
  readonly padding?: number;
  /** Fail the request (400 `SLUICE_REQUEST_INVALID`) after this many parts. */
  readonly failAfter?: number;
  /** Write how the handler ended (`StreamEnd`) to this file. */
  readonly endFile?: string;
  /**
   * Before the first part, write this file and wait until the context's signal aborts (a minute at
   * most): for a client that leaves before anything was sent.
   */
  readonly waitFile?: string;
}

/** How a streaming handler's postprocess ended, as written to `endFile`. */
export interface StreamEnd {
  /** Parts the transport took. */
  readonly sent: number;
  /** The code `sendPartial` rejected with, when it did. */
  readonly code?: string;
  /** Whether the context's signal had aborted. */
  readonly aborted: boolean;
}

/** The longest a handler waits for its signal (`waitFile`). */
const WAIT_LIMIT_MS = 60_000;

/** Resolves when `signal` aborts, or after `ms`. */
function abortOf(signal: AbortSignal, ms: number): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve();
      return;
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', aborted);
      resolve();
    }, ms);
    const aborted = (): void => {
      clearTimeout(timer);
      resolve();
    };
    signal.addEventListener('abort', aborted, { once: true });
  });
}

function bodyOf(result: HandlerResult<StreamBody>): StreamBody {
  return result.state ?? { parts: 0 };
}

async function stream(body: StreamBody, context: HandlerContext): Promise<unknown> {
  const end = (record: StreamEnd): void => {
    if (body.endFile !== undefined) writeFileSync(body.endFile, JSON.stringify(record));
  };
  if (body.waitFile !== undefined) {
    writeFileSync(body.waitFile, '');
    await abortOf(context.signal, WAIT_LIMIT_MS);
    if (context.signal.aborted) {
      end({ sent: 0, aborted: true });
      throw new SluiceError('SLUICE_CLIENT_GONE', 'stopped waiting: the signal aborted');
    }
  }
  const pad = 'x'.repeat(body.padding ?? 0);
  for (let part = 0; part < body.parts; part++) {
    try {
      await context.sendPartial(pad === '' ? { part } : { part, pad });
    } catch (error) {
      end({ sent: part, code: String((error as { code?: unknown }).code), aborted: context.signal.aborted });
      throw error;
    }
    if (body.failAfter === part + 1) throw new SluiceError('SLUICE_REQUEST_INVALID', `failing on purpose after ${String(part + 1)} parts`);
  }
  end({ sent: body.parts, aborted: context.signal.aborted });
  return { parts: body.parts };
}

function streamingHandler(name: string, cpuHeavy?: Handler['cpuHeavy']): Handler<StreamBody> {
  return {
    name,
    ...(cpuHeavy !== undefined ? { cpuHeavy } : {}),
    preprocess: (requests) =>
      Promise.resolve(requests.map((request) => ({ inputs: [{ name: 'input', datatype: 'FP32', shape: [1, 1], data: new Float32Array([1]) }], state: request.body as StreamBody }))),
    postprocess: (results, context) => Promise.all(results.map((result) => stream(bodyOf(result), context))),
  };
}

/**
 * `test/stream`, on the event loop: sends `parts` intermediate answers (`{part: i}`), each awaited, then
 * answers `{parts}`, running an FP32 identity model (`input` → `output`) on one value meanwhile.
 */
export const STREAMING_HANDLER = streamingHandler('test/stream');

/** `test/stream-thread`: the same on a handler thread (needs `TYPESCRIPT_THREAD_ARGV`). */
export const THREAD_STREAMING_HANDLER = streamingHandler('test/stream-thread', { module: import.meta.url, exportName: 'THREAD_STREAMING_HANDLER' });
