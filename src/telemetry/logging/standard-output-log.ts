import { isatty } from 'node:tty';
import { pino } from 'pino';
import type { Logger, LogFormat, LogLevel } from '../../sdk/logging/logger.js';
import { createLogger, type LogStream } from './pino-logger.js';
import { prettyLogStream } from './pretty-log-stream.js';

/**
 * Bytes of lines gathered before they are written: a server under load answers many requests at once,
 * and a write per access-log line cost the event loop several microseconds. Each write is a trip through
 * libuv's thread pool, which still cost the event loop of a batching server under load 2 to 9 % of its
 * CPU per request at 4 KiB (`npm run bench:cpu`). Below SonicBoom's largest write (16 KiB), which its
 * `minLength` must stay under.
 */
const GATHERED_BYTES = 12 * 1024;
/** The longest a line waits for others to gather, in milliseconds: an idle server's lines still appear at once, to a person. */
const GATHER_WAIT_MS = 100;
/**
 * Bytes that may wait for a reader that does not keep up; lines beyond are dropped (and counted, see
 * {@link reportDrops}) rather than holding the server up or growing its memory without end.
 */
const MAX_WAITING_BYTES = 16 * 1024 * 1024;
/** How long {@link flushStandardOutput} waits for the lines still waiting; what is left is written at exit. */
const FLUSH_WAIT_MS = 5000;

/**
 * SonicBoom's content mode for the destination: lines are handed to it as bytes. With text, each write
 * measured the UTF-8 length of all the text gathered so far, which made V8 flatten it into a new string
 * every time: about 2 KiB allocated and copied per access-log line while 4 KiB gathered. With bytes it
 * adds up the lengths it is given.
 */
const BYTE_LINES = 'buffer';

type Destination = ReturnType<typeof pino.destination>;

/** Hands `bytes` to a destination in {@link BYTE_LINES} mode, whose `write` takes bytes (SonicBoom's typings know only text). */
function writeBytes(destination: Destination, bytes: Buffer): void {
  (destination as unknown as { write(bytes: Buffer): boolean }).write(bytes);
}

/** The process's standard output: its pino destination, and the stream loggers write to. */
interface StandardOutput {
  readonly destination: Destination;
  readonly stream: LogStream;
}

let shared: StandardOutput | undefined;
/** Lines dropped since the last report. */
let dropped = 0;
/** Who reports dropped lines: the first logger made for standard output. */
let dropReporter: Logger | undefined;

function reportDrops(): void {
  if (dropped === 0) return;
  const count = dropped;
  dropped = 0;
  dropReporter?.warn('log lines dropped: the log was not read as fast as it was written', { droppedLines: count, waitingBytesLimit: MAX_WAITING_BYTES });
}

/**
 * `destination` with each line written at most {@link GATHER_WAIT_MS} after it was logged: the first line
 * after a write sets one timer. SonicBoom's own `periodicFlush` writes every period whether lines wait or
 * not (an empty write when none do), which woke an idle server ten times a second.
 */
function writtenWithin(destination: Destination): LogStream {
  let timerSet = false;
  const flush = (): void => {
    timerSet = false;
    try {
      destination.flush();
    } catch {
      // Ended by pino as the process exits: what was waiting is written.
    }
  };
  return {
    write: (line) => {
      writeBytes(destination, Buffer.from(line, 'utf8'));
      if (timerSet) return;
      timerSet = true;
      setTimeout(flush, GATHER_WAIT_MS).unref();
    },
  };
}

/**
 * The process's one pino destination (SonicBoom) on standard output: every logger writing there shares
 * it, so that their lines keep one order. Lines are gathered ({@link GATHERED_BYTES}, at most
 * {@link GATHER_WAIT_MS}) and written asynchronously; pino writes what is waiting synchronously when the
 * process exits, whatever the reason. A write that fails (standard output closed) loses its lines, not
 * the server.
 */
function standardOutput(): StandardOutput {
  if (shared !== undefined) return shared;
  const destination = pino.destination({ dest: 1, sync: false, minLength: GATHERED_BYTES, maxLength: MAX_WAITING_BYTES, contentMode: BYTE_LINES });
  destination.on('error', () => undefined);
  destination.on('drop', () => {
    dropped += 1;
  });
  destination.on('drain', reportDrops);
  return (shared = { destination, stream: writtenWithin(destination) });
}

/** `json` or `pretty` for `format`: `auto` is pretty when standard output is a terminal. */
export function resolveLogFormat(format: LogFormat, toTerminal: boolean): 'json' | 'pretty' {
  if (format === 'auto') return toTerminal ? 'pretty' : 'json';
  return format;
}

/**
 * A logger writing to standard output (see {@link standardOutput}) at `level`, as JSON lines or, when
 * `format` says so, pretty ones (see {@link resolveLogFormat}).
 */
export function standardOutputLogger(level: LogLevel, format: LogFormat): Logger {
  const output = standardOutput().stream;
  // Not `process.stdout.isTTY`: making `process.stdout` would turn a pipe on descriptor 1 non-blocking.
  const stream = resolveLogFormat(format, isatty(1)) === 'pretty' ? prettyLogStream(output) : output;
  const logger = createLogger(level, stream);
  dropReporter ??= logger;
  return logger;
}

/**
 * Resolves once the lines logged to standard output so far are written (at most {@link FLUSH_WAIT_MS}):
 * for a clean stop, whose last lines would otherwise wait for the exit.
 */
export function flushStandardOutput(): Promise<void> {
  if (shared === undefined) return Promise.resolve();
  const { destination } = shared;
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, FLUSH_WAIT_MS).unref();
    // The callback's error, if any, is the sync to disk that a pipe or terminal cannot do: the lines are written.
    destination.flush(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
