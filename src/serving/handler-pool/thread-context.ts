import type { MessagePort } from 'node:worker_threads';
import type { LogFields, Logger } from '../../sdk/logging/logger.js';
import type { HandlerContext } from '../../sdk/handler/handler.js';
import { requestTracer } from '../../telemetry/tracing/request-tracer.js';
import type { HandlerTask, ThreadLogLine } from './handler-task.js';

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
 * logger whose lines go to the main thread, and a signal that only flags an abort sent from there.
 */
export function threadContext(task: HandlerTask): HandlerContext {
  const controller = new AbortController();
  if (task.aborted) {
    controller.abort();
  } else {
    task.port.once('message', () => {
      controller.abort();
    });
  }
  // Spans cannot cross threads: a handler's own spans on a thread are not part of the request's trace.
  return { model: task.model, config: task.config, logger: forwardingLogger(task.port, {}), tracer: requestTracer, signal: controller.signal };
}
