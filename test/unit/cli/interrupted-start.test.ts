import { describe, expect, it } from '@jest/globals';
import { stopInterruptedStart, type StartResult } from '../../../src/cli/interrupted-start.js';
import type { SluiceServer } from '../../../src/server/sluice-server.js';
import { abandonableStages } from '../../../src/server/start-abandonment.js';
import { RecordingLogger } from '../../support/recording-logger.js';

const INTERRUPTED = { level: 'info', message: 'start-up interrupted by a signal: stopping what has started', fields: { signal: 'SIGTERM', timeoutMs: 200 } };

/** A started server that only counts its stops. */
function countingServer(): { server: SluiceServer; stops: () => number } {
  let stops = 0;
  const server = {
    stop: () => {
      stops += 1;
      return Promise.resolve({ drained: true });
    },
  } as unknown as SluiceServer;
  return { server, stops: () => stops };
}

/** A start-up that goes on as if it had not been given up. */
const neverAbandoned = (): void => undefined;

/** The error startServer rejects with once it has been given up. */
function abandonedStartError(): Promise<unknown> {
  const controller = new AbortController();
  controller.abort();
  return abandonableStages(controller.signal)(new Promise(() => undefined)).catch((error: unknown) => error);
}

const refuse = (): number => {
  throw new Error('not a failed start');
};

describe('a start-up interrupted by a signal', () => {
  it('stops the server once its start finishes, and exits 0', async () => {
    const logger = new RecordingLogger();
    const { server, stops } = countingServer();
    let finish: (result: StartResult) => void = () => undefined;
    const starting = new Promise<StartResult>((resolve) => (finish = resolve));
    const stopped = stopInterruptedStart(starting, 'SIGTERM', 200, logger, refuse, neverAbandoned);
    finish({ kind: 'started', server });
    expect(await stopped).toBe(0);
    expect(stops()).toBe(1);
    expect(logger.lines).toEqual([INTERRUPTED]);
  });

  it('reports a start that fails after the signal as a failed start', async () => {
    const logger = new RecordingLogger();
    const error = new Error('port taken');
    const seen: unknown[] = [];
    const failed = (e: unknown): number => {
      seen.push(e);
      return 1;
    };
    expect(await stopInterruptedStart(Promise.resolve({ kind: 'failed', error }), 'SIGTERM', 200, logger, failed, neverAbandoned)).toBe(1);
    expect(seen).toEqual([error]);
  });

  it('gives up a start that has not ended once the shutdown timeout passes, and exits 0 once it has stopped', async () => {
    const logger = new RecordingLogger();
    let settle: (result: StartResult) => void = () => undefined;
    const starting = new Promise<StartResult>((resolve) => (settle = resolve));
    const error = await abandonedStartError();
    let abandonedAfterMs: number | undefined;
    const began = Date.now();
    const abandon = (): void => {
      abandonedAfterMs = Date.now() - began;
      // What startServer does once abandoned: it stops what it had started, then rejects.
      settle({ kind: 'failed', error });
    };
    expect(await stopInterruptedStart(starting, 'SIGTERM', 200, logger, refuse, abandon)).toBe(0);
    expect(abandonedAfterMs).toBeGreaterThanOrEqual(190);
    expect(logger.lines).toEqual([
      INTERRUPTED,
      { level: 'warn', message: 'start-up did not end within shutdownTimeoutMs: giving it up, stopping what it had started', fields: { timeoutMs: 200 } },
      { level: 'info', message: 'stopped what the start-up had started', fields: {} },
    ]);
  }, 5_000);

  it('exits 0 without a given-up start whose stop does not end within the shutdown timeout either', async () => {
    const logger = new RecordingLogger();
    const began = Date.now();
    expect(await stopInterruptedStart(new Promise<StartResult>(() => undefined), 'SIGTERM', 200, logger, refuse, neverAbandoned)).toBe(0);
    expect(Date.now() - began).toBeGreaterThanOrEqual(390);
    expect(logger.lines.slice(2)).toEqual([
      { level: 'warn', message: 'what the start-up had started did not stop within shutdownTimeoutMs: exiting without waiting for it', fields: { timeoutMs: 200 } },
    ]);
  }, 5_000);

  it('bounds a stop that never ends by the shutdown timeout too', async () => {
    const logger = new RecordingLogger();
    const server = { stop: () => new Promise(() => undefined) } as unknown as SluiceServer;
    expect(await stopInterruptedStart(Promise.resolve({ kind: 'started', server }), 'SIGINT', 200, logger, refuse, neverAbandoned)).toBe(0);
    expect(logger.lines.slice(1)).toEqual([{ level: 'warn', message: 'the stop did not end within shutdownTimeoutMs: exiting without waiting for it', fields: { timeoutMs: 200 } }]);
  }, 5_000);
});
