import type { MessagePort } from 'node:worker_threads';
import type { LogFields, Logger } from '../../sdk/logging/logger.js';
import type { HandlerContext } from '../../sdk/handler/handler.js';
import { requestTracer } from '../../telemetry/tracing/request-tracer.js';
import type { HandlerTask, MainMessage, ThreadLogLine, ThreadPartial } from './handler-task.js';
import { fromThreadError } from './thread-error.js';

function forwardingLogger(port: MessagePort, bound: LogFields): Logger {
  const post = (level: ThreadLogLine['level'], message: string, fields?: LogFields): void => {
    const merged = fields === undefined ? bound : { ...bound, ...fields };
    const line: ThreadLogLine = { level, message, ...(Object.keys(merged).length > 0 ? { fields: merged } : {}) };
    try {
      port.postMessage(line);
    } catch {
      // Fields that cannot be cloned must not fail the handler: the line goes out without them.
      port.postMessage({ level, message, fields: { fieldsDropped: 'not structured-cloneable' } } satisfies ThreadLogLine);
    }
  };
  return {
    debug: (message, fields) => {
      post('debug', message, fields);
    },
    info: (message, fields) => {
      post('info', message, fields);
    },
    warn: (message, fields) => {
      post('warn', message, fields);
    },
    error: (message, fields) => {
      post('error', message, fields);
    },
    child: (fields) => forwardingLogger(port, { ...bound, ...fields }),
  };
}

/**
 * The reduced context a handler gets on a worker thread: copies of the model description and config, a
 * logger whose lines go to the main thread, a signal that only flags an abort sent from there, and
 * `sendPartial` posting each intermediate answer to the main thread and resolving once the main thread
 * says the transport took it.
 */
export function threadContext(task: HandlerTask): HandlerContext {
  const controller = new AbortController();
  if (task.aborted) controller.abort();
  const waiting = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  let sent = 0;
  task.port.on('message', (message: MainMessage) => {
    if ('ack' in message) {
      const waiter = waiting.get(message.ack);
      waiting.delete(message.ack);
      if (message.error === undefined) waiter?.resolve();
      else waiter?.reject(fromThreadError(message.error));
      return;
    }
    controller.abort();
  });
  const sendPartial = (answer: unknown): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      const seq = ++sent;
      try {
        task.port.postMessage({ partial: answer, seq } satisfies ThreadPartial);
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      waiting.set(seq, { resolve, reject });
    });
  // Spans cannot cross threads: a handler's own spans on a thread are not part of the request's trace.
  return { model: task.model, config: task.config, logger: forwardingLogger(task.port, {}), tracer: requestTracer, signal: controller.signal, sendPartial };
}
