/**
 * The export thread: receives encoded trace requests from the request thread and sends them with the
 * OTLP/HTTP transport, so that the sockets, retries and answers of the collector cost the request thread
 * nothing but a message.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { ExportResultCode } from '@opentelemetry/core';
import { OTLPExporterError } from '@opentelemetry/otlp-exporter-base';
import type { ExportThreadData, ExportThreadReply, ExportThreadRequest } from './export-thread-messages.js';
import { otlpHttpTraceSender } from './otlp-http-trace-sender.js';

const port = parentPort;
if (port === null) throw new Error('the OTLP export thread runs as a worker thread only');
const sender = otlpHttpTraceSender((workerData as ExportThreadData).url);
const slots: SharedArrayBuffer[] = [];

function reply(answer: ExportThreadReply): void {
  port?.postMessage(answer);
}

function failure(id: number, error: unknown): ExportThreadReply {
  if (error instanceof OTLPExporterError) return { id, ok: false, error: error.message, status: error.code, body: error.data };
  return { id, ok: false, error: error instanceof Error ? error.message : String(error) };
}

port.on('message', (request: ExportThreadRequest) => {
  switch (request.type) {
    case 'slot':
      slots[request.slot] = request.buffer;
      return;
    case 'send': {
      const slot = slots[request.slot];
      if (slot === undefined) {
        reply(failure(request.id, `no shared buffer ${request.slot}`));
        return;
      }
      // The request thread reuses the slot only after this send is answered, retries included.
      sender.send({ bytes: new Uint8Array(slot, 0, request.length), spanCount: request.spanCount }, (result) => {
        reply(result.code === ExportResultCode.SUCCESS ? { id: request.id, ok: true } : failure(request.id, result.error ?? 'the collector refused the spans'));
      });
      return;
    }
    case 'flush':
      sender.forceFlush().then(
        () => {
          reply({ id: request.id, ok: true });
        },
        (error: unknown) => {
          reply(failure(request.id, error));
        },
      );
      return;
    case 'shutdown':
      sender.shutdown().then(
        () => {
          reply({ id: request.id, ok: true });
        },
        (error: unknown) => {
          reply(failure(request.id, error));
        },
      );
      return;
  }
});
