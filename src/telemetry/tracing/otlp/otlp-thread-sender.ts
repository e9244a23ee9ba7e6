import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { packageRoot } from '../../../common/package-root.js';
import type { EncodedTraceRequest, TraceRequestSender } from './encoding-span-processor.js';
import type { ExportThreadData, ExportThreadReply, ExportThreadRequest } from './export-thread-messages.js';
import { otlpHttpTraceSender } from './otlp-http-trace-sender.js';

/**
 * The compiled export thread module. A build runs it beside this file; the test runner, which compiles
 * TypeScript on the fly, runs the build's copy when there is one (a worker thread cannot load
 * TypeScript by itself). Undefined when there is none.
 */
function exportThreadFile(): string | undefined {
  const here = fileURLToPath(new URL('./otlp-export-thread.js', import.meta.url));
  if (existsSync(here)) return here;
  const root = packageRoot();
  const compiled = join(root, 'dist', relative(root, here));
  return existsSync(compiled) ? compiled : undefined;
}

/** An array buffer holding exactly `bytes`, to hand to another thread without copying when it already is one. */
function ownBuffer(bytes: Uint8Array): ArrayBuffer {
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer) return bytes.buffer;
  return bytes.slice().buffer;
}

/**
 * Sends encoded trace requests from a worker thread of their own: the request thread only hands each
 * request's buffer over (transferred, not copied). The thread holds the process open only while it has
 * work, so an idle exporter never delays an exit.
 */
class ThreadTraceSender implements TraceRequestSender {
  private readonly worker: Worker;
  private readonly pending = new Map<number, (reply: ExportThreadReply) => void>();
  private nextId = 1;
  /** Why the thread is gone, once it is: later requests fail at once with it. */
  private gone: string | undefined;

  constructor(file: string, data: ExportThreadData) {
    this.worker = new Worker(file, { workerData: data });
    this.worker.unref();
    this.worker.on('message', (reply: ExportThreadReply) => {
      this.settle(reply);
    });
    this.worker.on('error', (error: Error) => {
      this.stopped(`the OTLP export thread failed: ${error.message}`);
    });
    this.worker.on('exit', (code) => {
      this.stopped(`the OTLP export thread stopped (exit code ${code})`);
    });
  }

  send(request: EncodedTraceRequest, done: (result: ExportResult) => void): void {
    const bytes = ownBuffer(request.bytes);
    this.ask({ type: 'send', id: this.nextId++, bytes, spanCount: request.spanCount }, [bytes], (reply) => {
      done(reply.ok ? { code: ExportResultCode.SUCCESS } : { code: ExportResultCode.FAILED, error: new Error(reply.error) });
    });
  }

  forceFlush(): Promise<void> {
    return new Promise((resolve) => {
      this.ask({ type: 'flush', id: this.nextId++ }, [], () => {
        resolve();
      });
    });
  }

  async shutdown(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.ask({ type: 'shutdown', id: this.nextId++ }, [], () => {
        resolve();
      });
    });
    await this.worker.terminate();
  }

  private ask(request: ExportThreadRequest, transfer: ArrayBuffer[], then: (reply: ExportThreadReply) => void): void {
    if (this.gone !== undefined) {
      then({ id: request.id, ok: false, error: this.gone });
      return;
    }
    this.pending.set(request.id, then);
    if (this.pending.size === 1) this.worker.ref();
    this.worker.postMessage(request, transfer);
  }

  private settle(reply: ExportThreadReply): void {
    const then = this.pending.get(reply.id);
    if (then === undefined) return;
    this.pending.delete(reply.id);
    if (this.pending.size === 0) this.worker.unref();
    then(reply);
  }

  private stopped(error: string): void {
    this.gone ??= error;
    for (const id of [...this.pending.keys()]) this.settle({ id, ok: false, error });
  }
}

/**
 * Where a server's encoded spans go: to `url` from the export thread, or, where its compiled module
 * cannot be found (tests run without a build), from this thread.
 */
export function otlpTraceSender(url: string): TraceRequestSender {
  const file = exportThreadFile();
  return file === undefined ? otlpHttpTraceSender(url) : new ThreadTraceSender(file, { url });
}
