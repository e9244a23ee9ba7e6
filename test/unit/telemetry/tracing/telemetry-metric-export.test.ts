import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { TELEMETRY_OFF, Telemetry } from '../../../../src/telemetry/tracing/telemetry.js';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * OTLP metric pushes to a collector that reads each push and never answers: a push ends only when the
 * reader gives up on it (`OTEL_METRIC_EXPORT_TIMEOUT`), and the next one starts at the next interval.
 */
describe('OTLP metric pushes to a collector that never answers', () => {
  let collector: Server;
  let endpoint = '';
  const pushes: IncomingMessage[] = [];
  const sockets = new Set<Socket>();

  beforeEach(async () => {
    // The exporter's own wait for a push: longer than the interval, so only the reader's timeout ends a push
    // in time for the next; short enough to bound the shutdown. Read when the exporter is made.
    process.env['OTEL_EXPORTER_OTLP_METRICS_TIMEOUT'] = '1000';
    pushes.length = 0;
    collector = createServer((request) => {
      pushes.push(request);
      request.resume();
    });
    collector.on('connection', (socket: Socket) => {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}/v1/metrics`;
  });
  /** Ends the held pushes and stops listening. */
  const closeCollector = async (): Promise<void> => {
    if (!collector.listening) return;
    const closed = new Promise((resolve) => collector.close(resolve));
    for (const socket of sockets) socket.destroy();
    await closed;
  };
  afterEach(async () => {
    delete process.env['OTEL_EXPORTER_OTLP_METRICS_TIMEOUT'];
    await closeCollector();
  });

  const pushesWithin = async (metricExportTimeoutMs: number): Promise<number> => {
    const telemetry = new Telemetry({ ...TELEMETRY_OFF, metricsOtlp: true, metricsEndpoint: endpoint, metricExportIntervalMs: 400, metricExportTimeoutMs });
    telemetry.meter.createCounter('probe_total').add(1);
    try {
      // Pushes start at 400 and 800 ms when each is given up within 100 ms; a push held for the whole
      // interval makes the one at 800 ms skip its turn.
      await sleep(1100);
      return pushes.length;
    } finally {
      await telemetry.shutdown();
    }
  };

  it('gives up a push after the export timeout, so the next interval pushes again', async () => {
    expect(await pushesWithin(100)).toBe(2);
  });
});
