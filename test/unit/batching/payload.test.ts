import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { Payload } from '../../../src/batching/payload.js';
import type { InferenceJob, InferenceOutcome } from '../../../src/batching/scheduler.js';
import { SluiceError } from '../../../src/common/errors/index.js';

const outcome: InferenceOutcome = { outputs: [], queueUs: 0, computeUs: 0, instanceId: 'm-1-1' };

function makePayload(job: Partial<InferenceJob> = {}): {
  payload: Payload;
  resolved: InferenceOutcome[];
  rejected: SluiceError[];
} {
  const resolved: InferenceOutcome[] = [];
  const rejected: SluiceError[] = [];
  const payload = new Payload(
    { inputs: [], deadline: performance.now() + 1000, ...job },
    (o) => resolved.push(o),
    (e) => rejected.push(e),
  );
  return { payload, resolved, rejected };
}

beforeEach(() => {
  jest.useFakeTimers();
});

afterEach(() => {
  jest.useRealTimers();
});

describe('Payload', () => {
  it('starts queued and live', () => {
    const { payload } = makePayload();
    expect(payload.state).toBe('queued');
    expect(payload.live).toBe(true);
  });

  it('stays live while executing', () => {
    const { payload } = makePayload();
    payload.markExecuting();
    expect(payload.state).toBe('executing');
    expect(payload.live).toBe(true);
  });

  it('delivers an answer and becomes final', () => {
    const { payload, resolved } = makePayload();
    payload.answer(outcome);
    expect(resolved).toEqual([outcome]);
    expect(payload.state).toBe('answered');
    expect(payload.live).toBe(false);
  });

  it('delivers an error with the given final state', () => {
    const { payload, rejected } = makePayload();
    const error = new SluiceError('SLUICE_RESPONSE_TIMEOUT', 'late');
    payload.fail(error, 'expired');
    expect(rejected).toEqual([error]);
    expect(payload.state).toBe('expired');
  });

  it('answers failures as answered by default', () => {
    const { payload } = makePayload();
    payload.fail(new SluiceError('SLUICE_INFERENCE_FAILED', 'boom'));
    expect(payload.state).toBe('answered');
  });

  it('ignores everything after the first answer', () => {
    const { payload, resolved, rejected } = makePayload();
    payload.fail(new SluiceError('SLUICE_RESPONSE_TIMEOUT', 'late'), 'expired');
    payload.answer(outcome);
    payload.fail(new SluiceError('SLUICE_INFERENCE_FAILED', 'boom'));
    expect(resolved).toEqual([]);
    expect(rejected).toHaveLength(1);
    expect(payload.state).toBe('expired');
  });

  it('calls onExpire once the deadline passes', () => {
    const { payload } = makePayload({ deadline: performance.now() + 50 });
    const expired: Payload[] = [];
    payload.watch(
      (p) => expired.push(p),
      () => undefined,
    );
    jest.advanceTimersByTime(49);
    expect(expired).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(expired).toEqual([payload]);
  });

  it('expires at once when the deadline has already passed', () => {
    const { payload } = makePayload({ deadline: performance.now() - 10 });
    const expired: Payload[] = [];
    payload.watch(
      (p) => expired.push(p),
      () => undefined,
    );
    jest.advanceTimersByTime(0);
    expect(expired).toEqual([payload]);
  });

  it('waits for a deadline further away than the longest timer delay', () => {
    const far = 2 ** 31 + 1000;
    const { payload } = makePayload({ deadline: performance.now() + far });
    const expired: Payload[] = [];
    payload.watch(
      (p) => expired.push(p),
      () => undefined,
    );
    jest.advanceTimersByTime(10);
    expect(expired).toEqual([]);
    jest.advanceTimersByTime(far - 11);
    expect(expired).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(expired).toEqual([payload]);
  });

  it('disarms the deadline once answered', () => {
    const { payload } = makePayload({ deadline: performance.now() + 50 });
    const expired: Payload[] = [];
    payload.watch(
      (p) => expired.push(p),
      () => undefined,
    );
    payload.answer(outcome);
    jest.advanceTimersByTime(100);
    expect(expired).toEqual([]);
  });

  it('calls onCancel when the client aborts', () => {
    const controller = new AbortController();
    const { payload } = makePayload({ signal: controller.signal });
    const cancelled: Payload[] = [];
    payload.watch(
      () => undefined,
      (p) => cancelled.push(p),
    );
    controller.abort();
    expect(cancelled).toEqual([payload]);
  });

  it('stops listening for aborts once answered', () => {
    const controller = new AbortController();
    const { payload } = makePayload({ signal: controller.signal });
    const cancelled: Payload[] = [];
    payload.watch(
      () => undefined,
      (p) => cancelled.push(p),
    );
    payload.answer(outcome);
    controller.abort();
    expect(cancelled).toEqual([]);
  });

  it('records when execution started', () => {
    const { payload } = makePayload();
    jest.advanceTimersByTime(20);
    payload.markExecuting();
    expect(payload.startedAt - payload.enqueuedAt).toBe(20);
  });
});
