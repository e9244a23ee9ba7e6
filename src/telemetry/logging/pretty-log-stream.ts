import { createRequire } from 'node:module';
import type { prettyFactory } from 'pino-pretty';
import type { LogStream } from './pino-logger.js';

/**
 * pino-pretty's line formatter, loaded when a pretty log is first asked for: loading it cost every
 * `sluice` command some 40 ms, and JSON logs never need it.
 */
function loadPrettyFactory(): typeof prettyFactory {
  const loaded = createRequire(import.meta.url)('pino-pretty') as { prettyFactory: typeof prettyFactory };
  return loaded.prettyFactory;
}

/**
 * The lines of a JSON stream made readable, written to `destination`: one line each, local time of day,
 * the level in capitals, the message, then the fields as JSON (colours when the terminal has them). The
 * lines are made as they are logged, on this thread, and go to the same destination as JSON lines, so
 * that the same flush writes them out (pino-pretty's own stream would add its stream buffers and
 * destination, which that flush cannot reach).
 */
export function prettyLogStream(destination: LogStream): LogStream {
  const pretty = loadPrettyFactory()({ singleLine: true, translateTime: 'SYS:HH:MM:ss.l', errorLikeObjectKeys: [] });
  return {
    write: (line) => {
      destination.write(pretty(line));
    },
  };
}
