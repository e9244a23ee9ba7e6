import { Worker } from 'node:worker_threads';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { OTLPExporterError } from '@opentelemetry/otlp-exporter-base';
import { compiledWorkerFile } from '../../../package-files/compiled-worker-file.js';
import type { EncodedTraceRequest, TraceRequestSender } from './encoding-span-processor.js';
import { RING_BYTES, RING_ENTRIES, RingWriter } from './export-ring.js';
import type { ExportThreadData, ExportThreadReply, ExportThreadRequest } from './export-thread-messages.js';
import { otlpHttpTraceSender } from './otlp-http-trace-sender.js';

/** The smallest shared buffer made for requests (a batch of 512 small spans is about 100 KiB). */
const MIN_SLOT_BYTES = 256 * 1024;
/** How often answers are read from the ring while batches are under way. */
const ACK_POLL_MS = 10;

/** The compiled export thread module, or undefined when there is none (see {@link compiledWorkerFile}). */
function exportThreadFile(): string | undefined {
  return compiledWorkerFile(new URL('./otlp-export-thread.js', import.meta.url));
}

/** The error of a failed reply: the transport's own kind, with the collector's status and body, where the collector answered. */
function failure(reply: ExportThreadReply): Error {
  return reply.status === undefined && reply.body === undefined ? new Error(reply.error) : new OTLPExporterError(reply.error, reply.status, reply.body);
}

/**
 * Sends encoded trace requests from a worker thread of their own: the request thread copies each request
 * into a free shared buffer and announces it in the shared ring (`export-ring.ts`), which never waits
 * for the thread; sent batches come back through the ring, failures as messages. While batches are
 * under way a timer reads the ring and holds the process open; an idle exporter never delays an exit.
 */
class ThreadTraceSender implements TraceRequestSender {
  private readonly worker: Worker;
  private readonly pending = new Map<number, (reply: ExportThreadReply) => void>();
  private nextId = 1;
  /** Why the thread is gone, once it is: later requests fail at once with it. */
  private gone: string | undefined;
  /** Shared buffers the thread knows, and which of them no send is using. */
  private readonly slots: SharedArrayBuffer[] = [];
  private readonly freeSlots: number[] = [];
  private readonly ring: RingWriter;
  private ackPolling: NodeJS.Timeout | undefined;

  constructor(file: string, data: Omit<ExportThreadData, 'ring'>) {
    // The thread runs compiled JavaScript of Sluice's own and needs none of the process's flags; some of
    // them would stop it from starting (`--input-type` is for the main entry only) or preload code into it.
    const ring = new SharedArrayBuffer(RING_BYTES);
    this.ring = new RingWriter(ring);
    this.worker = new Worker(file, { workerData: { ...data, ring } satisfies ExportThreadData, execArgv: [] });
    this.worker.on('message', (reply: ExportThreadReply) => {
      // Batches sent before a flush was answered are settled before it.
      this.readAcks();
      this.settle(reply);
    });
    this.worker.on('error', (error: Error) => {
      this.stopped(`the OTLP export thread failed: ${error.message}`);
    });
    this.worker.on('exit', (code) => {
      this.stopped(`the OTLP export thread stopped (exit code ${code})`);
    });
    // After the listeners: adding a 'message' listener refs the worker's port again.
    this.worker.unref();
  }

  send(request: EncodedTraceRequest, done: (result: ExportResult) => void): void {
    this.readAcks();
    const id = this.nextId++;
    const fail = (error: Error): void => {
      done({ code: ExportResultCode.FAILED, error });
    };
    if (this.gone !== undefined) {
      fail(new Error(this.gone));
      return;
    }
    if (this.pending.size >= RING_ENTRIES) {
      fail(new Error(`${RING_ENTRIES} span batches are already waiting for the collector`));
      return;
    }
    const length = request.bytes.length;
    const { slot, buffer } = this.slotFor(length);
    new Uint8Array(buffer, 0, length).set(request.bytes);
    this.expect(id, (reply) => {
      this.freeSlots.push(slot);
      if (reply.ok) done({ code: ExportResultCode.SUCCESS });
      else fail(failure(reply));
    });
    this.ring.write({ id, slot, length, spanCount: request.spanCount });
  }

  /** A free slot of at least `size` bytes: a free one that is large enough, else a new or larger one, made known to the thread. */
  private slotFor(size: number): { readonly slot: number; readonly buffer: SharedArrayBuffer } {
    for (let i = 0; i < this.freeSlots.length; i++) {
      const slot = this.freeSlots[i] ?? 0;
      const buffer = this.slots[slot];
      if (buffer !== undefined && buffer.byteLength >= size) {
        this.freeSlots.splice(i, 1);
        return { slot, buffer };
      }
    }
    // A new index, never a new buffer under an old one: the thread may still read the old one.
    const slot = this.slots.length;
    const buffer = new SharedArrayBuffer(Math.max(MIN_SLOT_BYTES, 2 ** Math.ceil(Math.log2(size))));
    this.slots[slot] = buffer;
    if (this.gone === undefined) this.worker.postMessage({ type: 'slot', slot, buffer } satisfies ExportThreadRequest);
    return { slot, buffer };
  }

  forceFlush(): Promise<void> {
    return new Promise((resolve) => {
      this.ask({ type: 'flush', id: this.nextId++ }, () => {
        resolve();
      });
    });
  }

  async shutdown(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.ask({ type: 'shutdown', id: this.nextId++ }, () => {
        resolve();
      });
    });
    await this.worker.terminate();
  }

  private ask(request: ExportThreadRequest & { readonly id: number }, then: (reply: ExportThreadReply) => void): void {
    if (this.gone !== undefined) {
      then({ id: request.id, ok: false, error: this.gone });
      return;
    }
    this.expect(request.id, then);
    this.worker.postMessage(request);
  }

  /** Waits for the answer to `id`, reading the ring meanwhile (which keeps the process open). */
  private expect(id: number, then: (reply: ExportThreadReply) => void): void {
    this.pending.set(id, then);
    this.ackPolling ??= setInterval(() => {
      this.readAcks();
    }, ACK_POLL_MS);
  }

  private readAcks(): void {
    this.ring.takeAcks((id) => {
      this.settle({ id, ok: true });
    });
  }

  private settle(reply: ExportThreadReply): void {
    const then = this.pending.get(reply.id);
    if (then === undefined) return;
    this.pending.delete(reply.id);
    if (this.pending.size === 0) {
      clearInterval(this.ackPolling);
      this.ackPolling = undefined;
    }
    then(reply);
  }

  private stopped(error: string): void {
    this.gone ??= error;
    for (const id of [...this.pending.keys()]) this.settle({ id, ok: false, error });
  }
}

/** `sender` given a copy of each request's bytes, which it sends (and retries) after `send` returns. */
function keepingCopies(sender: TraceRequestSender): TraceRequestSender {
  return {
    send: (request, done) => {
      sender.send({ bytes: request.bytes.slice(), spanCount: request.spanCount }, done);
    },
    forceFlush: () => sender.forceFlush(),
    shutdown: () => sender.shutdown(),
  };
}

/**
 * Where a server's encoded spans go: to `url` from the export thread (which copies each request into
 * memory shared with it), or, where its compiled module cannot be found (tests run without a build),
 * from this thread. `threadFile` finds that module; tests replace it to run without one or with a
 * thread of their own.
 */
export function otlpTraceSender(url: string, threadFile: () => string | undefined = exportThreadFile): TraceRequestSender {
  const file = threadFile();
  return file === undefined ? keepingCopies(otlpHttpTraceSender(url)) : new ThreadTraceSender(file, { url });
}
