import { describe, expect, it } from '@jest/globals';
import type { InferenceJob } from '../../../src/batching/scheduler.js';
import { SluiceError } from '../../../src/common/errors/index.js';
import type { Tensor } from '../../../src/common/tensor/index.js';
import { CpuExecutor } from '../../../src/executors/cpu-executor.js';
import type { LoadedModel } from '../../../src/runtime/model-runtime.js';

const tensor = (name: string, value: number): Tensor => ({ name, datatype: 'FP32', shape: [1], data: new Float32Array([value]) });

/** A model that doubles its first input, or fails the way the input's value says. */
function fakeModel(): LoadedModel & { calls: { inputs: readonly Tensor[]; outputNames: readonly string[] | undefined }[] } {
  const calls: { inputs: readonly Tensor[]; outputNames: readonly string[] | undefined }[] = [];
  return {
    calls,
    inputs: [{ name: 'x', datatype: 'FP32', shape: [1] }],
    outputs: [{ name: 'y', datatype: 'FP32', shape: [1] }],
    executionProvider: 'cpu',
    run(inputs, outputNames) {
      calls.push({ inputs, outputNames });
      const value = (inputs[0]?.data as Float32Array)[0] ?? 0;
      if (value < 0) return Promise.reject(new Error(`negative input ${value}`));
      if (value === 13) return Promise.reject(new SluiceError('SLUICE_TENSOR_INVALID_VALUE', 'unlucky input'));
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- a runtime may reject with a non-Error value
      if (value === 99) return Promise.reject('plain failure');
      return Promise.resolve([tensor('y', value * 2)]);
    },
    release: () => Promise.resolve(),
  };
}

const job = (value: number, outputNames?: readonly string[]): InferenceJob => ({
  inputs: [tensor('x', value)],
  deadline: 0,
  ...(outputNames ? { outputNames } : {}),
});

describe('CpuExecutor', () => {
  it('is called cpu', () => {
    expect(new CpuExecutor().name).toBe('cpu');
  });

  it('answers one result per job, in job order', async () => {
    const results = await new CpuExecutor().execute(fakeModel(), [job(1), job(2), job(3)]);
    expect(results).toEqual([
      { ok: true, outputs: [tensor('y', 2)] },
      { ok: true, outputs: [tensor('y', 4)] },
      { ok: true, outputs: [tensor('y', 6)] },
    ]);
  });

  it('runs each job on its own with its inputs and output names', async () => {
    const model = fakeModel();
    await new CpuExecutor().execute(model, [job(1, ['y']), job(2)]);
    expect(model.calls).toEqual([
      { inputs: [tensor('x', 1)], outputNames: ['y'] },
      { inputs: [tensor('x', 2)], outputNames: undefined },
    ]);
  });

  it('keeps a failed job’s error to that job', async () => {
    const results = await new CpuExecutor().execute(fakeModel(), [job(1), job(-1), job(3)]);
    expect(results.map((r) => r.ok)).toEqual([true, false, true]);
  });

  it('wraps a runtime error as SLUICE_INFERENCE_FAILED with the cause', async () => {
    const [result] = await new CpuExecutor().execute(fakeModel(), [job(-1)]);
    expect(result).toMatchObject({ ok: false, error: { code: 'SLUICE_INFERENCE_FAILED', message: 'inference failed: negative input -1' } });
    expect(result?.ok === false && result.error.cause).toEqual(new Error('negative input -1'));
  });

  it('wraps a thrown non-error value too', async () => {
    const [result] = await new CpuExecutor().execute(fakeModel(), [job(99)]);
    expect(result).toMatchObject({ ok: false, error: { code: 'SLUICE_INFERENCE_FAILED', message: 'inference failed: plain failure' } });
  });

  it('passes a SluiceError through unchanged', async () => {
    const [result] = await new CpuExecutor().execute(fakeModel(), [job(13)]);
    expect(result).toMatchObject({ ok: false, error: { code: 'SLUICE_TENSOR_INVALID_VALUE', message: 'unlucky input' } });
  });

  it('answers an empty batch with no results', async () => {
    await expect(new CpuExecutor().execute(fakeModel(), [])).resolves.toEqual([]);
  });
});
