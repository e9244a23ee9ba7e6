import { describe, expect, it } from '@jest/globals';
import { exportFailureLog } from '../../../../../src/telemetry/tracing/otlp/export-failure-log.js';
import { RecordingLogger } from '../../../../support/recording-logger.js';

const ENDPOINT = 'http://collector:4318/v1/traces';

/** A failure log over a recording logger and a clock the test moves. */
function setUp(intervalMs = 1000): { logger: RecordingLogger; report: (error: Error) => void; clock: { now: number } } {
  const logger = new RecordingLogger();
  const clock = { now: 0 };
  return { logger, report: exportFailureLog(logger, ENDPOINT, intervalMs, () => clock.now), clock };
}

describe('exportFailureLog', () => {
  it('logs the first failure at once as a warning with the endpoint, the reason and what to check', () => {
    const { logger, report } = setUp();
    report(new Error('connect ECONNREFUSED 127.0.0.1:4318'));
    expect(logger.lines).toEqual([
      {
        level: 'warn',
        message: 'spans could not be exported',
        fields: expect.objectContaining({ endpoint: ENDPOINT, error: 'connect ECONNREFUSED 127.0.0.1:4318', failures: 1, hint: expect.stringContaining('OTEL_EXPORTER_OTLP_ENDPOINT') }),
      },
    ]);
  });

  it('writes no line for failures within the interval after a line', () => {
    const { logger, report, clock } = setUp(1000);
    report(new Error('first'));
    clock.now = 999;
    report(new Error('second'));
    expect(logger.lines.map((l) => l.fields['error'])).toEqual(['first']);
  });

  it('writes the next line once the interval has passed, counting the failures since the last line', () => {
    const { logger, report, clock } = setUp(1000);
    report(new Error('first'));
    clock.now = 500;
    report(new Error('second'));
    clock.now = 1000;
    report(new Error('third'));
    expect(logger.lines.map((l) => [l.fields['error'], l.fields['failures']])).toEqual([
      ['first', 1],
      ['third', 2],
    ]);
  });
});
