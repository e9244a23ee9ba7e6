/**
 * The export thread: receives encoded trace requests from the request thread and sends them with the
 * OTLP/HTTP transport, so that the sockets, retries and answers of the collector cost the request thread
 * nothing but a message.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { ExportResultCode } from '@opentelemetry/core';
import { OTLPExporterError } from '@opentelemetry/otlp-exporter-base';
import { RingReader, type RingSend } from './export-ring.js';
import type { ExportThreadData, ExportThreadReply, ExportThreadRequest } from './export-thread-messages.js';
import { otlpHttpTraceSender } from './otlp-http-trace-sender.js';

const port = parentPort;
if (port === null) throw new Error('the OTLP export thread runs as a worker thread only');
const data = workerData as ExportThreadData;
const sender = otlpHttpTraceSender(data.url);
const ring = new RingReader(data.ring);
const slots: SharedArrayBuffer[] = [];
/** How often the ring is read: batches come every few milliseconds at most, and a little delay costs nothing. */
const POLL_MS = 5;

function reply(answer: ExportThreadReply): void {
  port?.postMessage(answer);
}

function failure(id: number, error: unknown): ExportThreadReply {
  if (error instanceof OTLPExporterError) return { id, ok: false, error: error.message, status: error.code, body: error.data };
  return { id, ok: false, error: error instanceof Error ? error.message : String(error) };
}

/** Batches whose shared buffer has not arrived yet: its message and the batch race each other. */
const awaitingSlot: RingSend[] = [];

function send(batch: RingSend): void {
  const slot = slots[batch.slot];
  if (slot === undefined) {
    awaitingSlot.push(batch);
    return;
  }
  // The request thread reuses the slot only after this batch is answered, retries included.
  sender.send({ bytes: new Uint8Array(slot, 0, batch.length), spanCount: batch.spanCount }, (result) => {
    if (result.code === ExportResultCode.SUCCESS) ring.ack(batch.id);
    else reply(failure(batch.id, result.error ?? 'the collector refused the spans'));
  });
}

/** Answers request `id` once `work` settles: ok, or why not. */
function replyWhenSettled(id: number, work: Promise<void>): void {
  work.then(
    () => {
      reply({ id, ok: true });
    },
    (error: unknown) => {
      reply(failure(id, error));
    },
  );
}

function readRing(): void {
  ring.takeSends(send);
}

const polling = setInterval(readRing, POLL_MS);

port.on('message', (request: ExportThreadRequest) => {
  if (request.type === 'slot') {
    slots[request.slot] = request.buffer;
    for (const batch of awaitingSlot.splice(0)) send(batch);
    return;
  }
  // Batches announced before a flush or shutdown belong to it.
  readRing();
  switch (request.type) {
    case 'flush':
      replyWhenSettled(request.id, sender.forceFlush());
      return;
    case 'shutdown':
      clearInterval(polling);
      replyWhenSettled(request.id, sender.shutdown());
      return;
  }
});
