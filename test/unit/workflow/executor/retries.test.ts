import { describe, expect, it } from '@jest/globals';
import { SluiceError } from '../../../../src/sdk/errors/index.js';
import { never } from '../support/gate.js';
import { flaky } from '../support/flaky-handler.js';
import { RecordingClock } from '../support/recording-clock.js';
import { WorkflowHarness } from '../support/workflow-harness.js';
import { workflow } from '../support/workflow-builder.js';

describe('retries', () => {
  /*
   *   flaky (fails twice; retry: 3 attempts, backoff 10 ms doubling) ──▶ out
   */
  it('tries again after a growing backoff until an attempt succeeds', async () => {
    const { harness, calls } = flaky(2, () => new Error('busy'));
    const clock = new RecordingClock();
    const plan = harness.plan(workflow('retry').handler('a', 't/flaky', {}, { retry: { attempts: 3, backoffMs: 10 } }).output('out', 'a.out'));
    const result = await harness.run(plan, {}, { clock, debug: true });
    expect(result.outputs).toEqual({ out: 'ok after 3' });
    expect(calls()).toBe(3);
    expect(clock.sleeps).toEqual([10, 20]);
    expect(result.debug?.nodes['a']).toMatchObject({ status: 'ok', attempts: 3 });
  });

  /*
   *   flaky (always fails; retry: 3 attempts) ──▶ out
   */
  it('fails the node with the last error once the attempts are spent', async () => {
    const { harness, calls } = flaky(10, () => new Error('busy'));
    const clock = new RecordingClock();
    const plan = harness.plan(workflow('retry').handler('a', 't/flaky', {}, { retry: { attempts: 3, backoffMs: 5 } }).output('out', 'a.out'));
    await expect(harness.run(plan, {}, { clock })).rejects.toMatchObject({
      code: 'SLUICE_WORKFLOW_NODE_FAILED',
      message: 'workflow `retry` node `a` (handler t/flaky) failed after 3 attempts: busy',
      details: { workflow: 'retry', node: 'a', attempts: 3 },
    });
    expect(calls()).toBe(3);
    expect(clock.sleeps).toEqual([5, 10]);
  });

  /*
   *   a (defaults: retry 2 attempts) ──▶ out
   */
  it('takes the retry policy from `defaults`', async () => {
    const { harness, calls } = flaky(1, () => new Error('busy'));
    const plan = harness.plan(workflow('retry').defaults({ retry: { attempts: 2 } }).handler('a', 't/flaky').output('out', 'a.out'));
    expect((await harness.run(plan, {}, { clock: new RecordingClock() })).outputs).toEqual({ out: 'ok after 2' });
    expect(calls()).toBe(2);
  });

  /*
   *   a (fails with bad data; retry: 3 attempts)        another attempt cannot fix bad data
   */
  it('does not retry an error about bad data', async () => {
    const { harness, calls } = flaky(10, () => new SluiceError('SLUICE_TENSOR_SHAPE_MISMATCH', 'shape [2] does not fit [3]'));
    const plan = harness.plan(workflow('retry').handler('a', 't/flaky', {}, { retry: { attempts: 3 } }).output('out', 'a.out'));
    await expect(harness.run(plan, {}, { clock: new RecordingClock() })).rejects.toMatchObject({
      code: 'SLUICE_WORKFLOW_NODE_FAILED',
      message: 'workflow `retry` node `a` (handler t/flaky) failed: shape [2] does not fit [3]',
      details: { causeCode: 'SLUICE_TENSOR_SHAPE_MISMATCH' },
    });
    expect(calls()).toBe(1);
  });

  /*
   *   a (fails with an error the caller must act on; retry: 3 attempts)        another attempt gets the same answer
   */
  it.each([
    ['UNAUTHENTICATED', 'SLUICE_AUTH_INVALID_CREDENTIALS'],
    ['PERMISSION_DENIED', 'SLUICE_AUTH_FORBIDDEN'],
    ['ALREADY_EXISTS', 'SLUICE_MODEL_ALREADY_REGISTERED'],
    ['FAILED_PRECONDITION', 'SLUICE_MODEL_IN_USE'],
  ] as const)('does not retry an error of category %s (%s)', async (_category, code) => {
    const { harness, calls } = flaky(10, () => new SluiceError(code, 'refused'));
    const plan = harness.plan(workflow('retry').handler('a', 't/flaky', {}, { retry: { attempts: 3 } }).output('out', 'a.out'));
    await expect(harness.run(plan, {}, { clock: new RecordingClock() })).rejects.toMatchObject({
      code: 'SLUICE_WORKFLOW_NODE_FAILED',
      message: 'workflow `retry` node `a` (handler t/flaky) failed: refused',
      details: { attempts: 1, causeCode: code },
    });
    expect(calls()).toBe(1);
  });

  /*
   *   a (fails with an internal error; retry: 3 attempts)        a fault of the moment: worth another attempt
   */
  it('retries an internal error', async () => {
    const { harness, calls } = flaky(2, () => new SluiceError('SLUICE_INFERENCE_FAILED', 'the run failed'));
    const plan = harness.plan(workflow('retry').handler('a', 't/flaky', {}, { retry: { attempts: 3 } }).output('out', 'a.out'));
    expect((await harness.run(plan, {}, { clock: new RecordingClock() })).outputs).toEqual({ out: 'ok after 3' });
    expect(calls()).toBe(3);
  });

  /*
   *   a (first attempt never answers; timeoutMs 20; retry: 2 attempts) ──▶ out
   */
  it('retries an attempt that timed out', async () => {
    let calls = 0;
    let firstSignal: AbortSignal | undefined;
    const harness = new WorkflowHarness().handler('t/stall-once', {
      inputs: [],
      outputs: { out: {} },
      run: (_v, context) => {
        calls += 1;
        if (calls > 1) return Promise.resolve({ out: 'second try' });
        firstSignal = context.signal;
        return never();
      },
    });
    const plan = harness.plan(workflow('retry').handler('a', 't/stall-once', {}, { timeoutMs: 20, retry: { attempts: 2 } }).output('out', 'a.out'));
    expect((await harness.run(plan, {}, { clock: new RecordingClock() })).outputs).toEqual({ out: 'second try' });
    expect(firstSignal?.aborted).toBe(true);
  });
});
