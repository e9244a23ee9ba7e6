import { describe, expect, it } from '@jest/globals';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { InferenceLane } from '../../../../../src/api/rest/inference/inference-lane.js';
import type { ConnectionTracker } from '../../../../../src/api/rest/connection-tracker.js';
import type { ServingCore } from '../../../../../src/serving/serving-core.js';
import { RecordingLogger } from '../../../../support/recording-logger.js';

describe('InferenceLane faults', () => {
  it("logs a fault of the lane itself and drops that request's connection, without a rejection escaping", async () => {
    const core = { registry: { has: () => true, resolve: () => ({ manifest: {} }) } } as unknown as ServingCore;
    const logger = new RecordingLogger();
    const connections = {
      requestStarted: () => {
        throw new Error('bookkeeping broke');
      },
    } as unknown as ConnectionTracker;
    const lane = new InferenceLane(core, { logger, observe: { accessLog: false, logRequestBodies: false }, maxRequestSizeBytes: 1000, connections, auth: undefined, closing: () => false });
    let destroyed = false;
    const request = { method: 'POST', url: '/predictions/mlp', headers: { 'content-type': 'application/json', 'content-length': '2' }, socket: {} } as unknown as IncomingMessage;
    const response = { destroy: () => (destroyed = true) } as unknown as ServerResponse;
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => {
      unhandled.push(reason);
    };
    process.on('unhandledRejection', onUnhandled);
    try {
      expect(lane.serve(request, response)).toBe(true);
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    expect({ destroyed, unhandled, logged: logger.lines.map((l) => [l.level, l.message, l.fields['url'], (l.fields['error'] as Error).message]) }).toEqual({
      destroyed: true,
      unhandled: [],
      logged: [['error', 'request failed', '/predictions/mlp', 'bookkeeping broke']],
    });
  });
});
