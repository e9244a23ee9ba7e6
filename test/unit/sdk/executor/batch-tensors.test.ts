import { describe, expect, it } from '@jest/globals';
import { SluiceError } from '../../../../src/sdk/errors/index.js';
import type { Tensor, TensorSpec } from '../../../../src/sdk/tensor/index.js';
import type { Batch, BatchItem } from '../../../../src/sdk/executor/executor.js';
import { concatBatchInputs, runBatchOnModel, splitBatchOutputs, type InputAllocator } from '../../../../src/sdk/executor/batch-tensors.js';
import type { LoadedModel } from '../../../../src/sdk/runtime/model-runtime.js';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

function fp32(name: string, shape: readonly number[], values: readonly number[]): Tensor {
  return { name, datatype: 'FP32', shape, data: Float32Array.from(values) };
}

function item(...inputs: Tensor[]): BatchItem {
  return { inputs, rows: inputs[0]?.shape[0] ?? 1 };
}

/** A loaded model whose `run` does what the test says and remembers the inputs it got. */
class ScriptedModel implements LoadedModel {
  readonly inputs: readonly TensorSpec[] = [];
  readonly outputs: readonly TensorSpec[] = [];
  readonly executionProvider = 'cpu';
  readonly calls: (readonly Tensor[])[] = [];
  readonly outputNames: (readonly string[] | undefined)[] = [];

  constructor(private readonly behaviour: (inputs: readonly Tensor[]) => Tensor[]) {}

  run(inputs: readonly Tensor[], outputNames?: readonly string[]): Promise<Tensor[]> {
    this.calls.push(inputs);
    this.outputNames.push(outputNames);
    try {
      return Promise.resolve(this.behaviour(inputs));
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  release(): Promise<void> {
    return Promise.resolve();
  }
}

describe('concatBatchInputs', () => {
  it('concatenates numeric inputs along the first dimension, in item order', () => {
    const batch: Batch = { items: [item(fp32('x', [1, 2], [1, 2])), item(fp32('x', [2, 2], [3, 4, 5, 6]))] };
    expect(concatBatchInputs(batch)).toEqual([fp32('x', [3, 2], [1, 2, 3, 4, 5, 6])]);
  });

  it('concatenates INT64 inputs', () => {
    const a: Tensor = { name: 'ids', datatype: 'INT64', shape: [1], data: new BigInt64Array([1n]) };
    const b: Tensor = { name: 'ids', datatype: 'INT64', shape: [2], data: new BigInt64Array([2n, 3n]) };
    expect(concatBatchInputs({ items: [item(a), item(b)] })).toEqual([{ name: 'ids', datatype: 'INT64', shape: [3], data: new BigInt64Array([1n, 2n, 3n]) }]);
  });

  it('concatenates BYTES inputs', () => {
    const a: Tensor = { name: 's', datatype: 'BYTES', shape: [1, 1], data: [bytes('a')] };
    const b: Tensor = { name: 's', datatype: 'BYTES', shape: [2, 1], data: [bytes('b'), bytes('c')] };
    expect(concatBatchInputs({ items: [item(a), item(b)] })).toEqual([{ name: 's', datatype: 'BYTES', shape: [3, 1], data: [bytes('a'), bytes('b'), bytes('c')] }]);
  });

  it('matches inputs by name, not by position', () => {
    const batch: Batch = {
      items: [item(fp32('a', [1], [1]), fp32('b', [1], [10])), item(fp32('b', [1], [20]), fp32('a', [1], [2]))],
    };
    expect(concatBatchInputs(batch)).toEqual([fp32('a', [2], [1, 2]), fp32('b', [2], [10, 20])]);
  });

  it('writes into the array the allocator supplies', () => {
    const supplied = new Float32Array(4);
    const asked: unknown[] = [];
    const allocate: InputAllocator = (name, datatype, length) => {
      asked.push([name, datatype, length]);
      return supplied;
    };
    const [x] = concatBatchInputs({ items: [item(fp32('x', [1, 2], [1, 2])), item(fp32('x', [1, 2], [3, 4]))] }, allocate);
    expect([asked, x?.data === supplied, Array.from(supplied)]).toEqual([[['x', 'FP32', 4]], true, [1, 2, 3, 4]]);
  });

  it('falls back to a new array when the allocator supplies none', () => {
    const [x] = concatBatchInputs({ items: [item(fp32('x', [1], [1])), item(fp32('x', [1], [2]))] }, () => undefined);
    expect(x).toEqual(fp32('x', [2], [1, 2]));
  });

  it('passes a batch of one through untouched', () => {
    const input = fp32('x', [2, 2], [1, 2, 3, 4]);
    const [x] = concatBatchInputs({ items: [item(input)] });
    expect(x).toBe(input);
  });

  it('gives no inputs for an empty batch', () => {
    expect(concatBatchInputs({ items: [] })).toEqual([]);
  });

  it('refuses an item that lacks an input with SLUICE_INTERNAL', () => {
    const batch: Batch = { items: [item(fp32('a', [1], [1])), item(fp32('b', [1], [2]))] };
    let thrown: unknown;
    try {
      concatBatchInputs(batch);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: 'SLUICE_INTERNAL', message: 'batch item lacks input `a`' });
  });
});

describe('splitBatchOutputs', () => {
  it('gives each item its own rows of every output', () => {
    const batch: Batch = { items: [item(fp32('x', [1, 2], [0, 0])), item(fp32('x', [2, 2], [0, 0, 0, 0]))] };
    const outputs = [fp32('y', [3, 2], [1, 2, 3, 4, 5, 6]), fp32('z', [3], [7, 8, 9])];
    expect(splitBatchOutputs(batch, outputs)).toEqual([
      { ok: true, outputs: [fp32('y', [1, 2], [1, 2]), fp32('z', [1], [7])] },
      { ok: true, outputs: [fp32('y', [2, 2], [3, 4, 5, 6]), fp32('z', [2], [8, 9])] },
    ]);
  });

  it('splits BYTES outputs by rows', () => {
    const batch: Batch = { items: [item(fp32('x', [2], [0, 0])), item(fp32('x', [1], [0]))] };
    const output: Tensor = { name: 's', datatype: 'BYTES', shape: [3, 2], data: ['a', 'b', 'c', 'd', 'e', 'f'].map(bytes) };
    expect(splitBatchOutputs(batch, [output]).map((r) => (r.ok ? r.outputs[0] : undefined))).toEqual([
      { name: 's', datatype: 'BYTES', shape: [2, 2], data: ['a', 'b', 'c', 'd'].map(bytes) },
      { name: 's', datatype: 'BYTES', shape: [1, 2], data: ['e', 'f'].map(bytes) },
    ]);
  });

  it('passes the outputs of a batch of one through', () => {
    const outputs = [fp32('y', [5], [1, 2, 3, 4, 5])];
    expect(splitBatchOutputs({ items: [item(fp32('x', [2], [0, 0]))] }, outputs)).toEqual([{ ok: true, outputs }]);
  });

  it('fails every item when an output lacks the batch dimension', () => {
    const batch: Batch = { items: [item(fp32('x', [1], [0])), item(fp32('x', [2], [0, 0]))] };
    const error = new SluiceError(
      'SLUICE_INFERENCE_FAILED',
      'output `mean` has shape [1], not 3 rows, so a batch cannot be split; set batching.maxBatchSize: 1 for this model',
    );
    expect(splitBatchOutputs(batch, [fp32('y', [3], [1, 2, 3]), fp32('mean', [1], [2])])).toEqual([
      { ok: false, error },
      { ok: false, error },
    ]);
  });
});

describe('runBatchOnModel', () => {
  const batch: Batch = { items: [item(fp32('x', [1], [1])), item(fp32('x', [2], [2, 3]))] };

  it('runs the concatenated batch once and splits the outputs', async () => {
    const model = new ScriptedModel((inputs) => [{ ...inputs[0]!, name: 'y' }]);
    const results = await runBatchOnModel(model, batch);
    expect([model.calls, results]).toEqual([
      [[fp32('x', [3], [1, 2, 3])]],
      [
        { ok: true, outputs: [fp32('y', [1], [1])] },
        { ok: true, outputs: [fp32('y', [2], [2, 3])] },
      ],
    ]);
  });

  it('asks the model for the outputs the batch names', async () => {
    const model = new ScriptedModel((inputs) => [{ ...inputs[0]!, name: 'y' }]);
    await runBatchOnModel(model, { ...batch, outputNames: ['y'] });
    expect(model.outputNames).toEqual([['y']]);
  });

  it('hands the allocator to the concatenation', async () => {
    const supplied = new Float32Array(3);
    const model = new ScriptedModel((inputs) => [{ ...inputs[0]!, name: 'y' }]);
    await runBatchOnModel(model, batch, () => supplied);
    expect(model.calls[0]?.[0]?.data).toBe(supplied);
  });

  it('fails every item with the runtime’s reason when the run fails', async () => {
    const model = new ScriptedModel(() => {
      throw new Error('invalid dimensions for input x');
    });
    const results = await runBatchOnModel(model, batch);
    expect(results.map((r) => (r.ok ? undefined : [r.error.code, r.error.message]))).toEqual([
      ['SLUICE_INFERENCE_FAILED', 'inference failed: invalid dimensions for input x'],
      ['SLUICE_INFERENCE_FAILED', 'inference failed: invalid dimensions for input x'],
    ]);
  });

  it('runs each item alone after a failed batch run, so only the item the model refuses fails', async () => {
    const model = new ScriptedModel((inputs) => {
      if (Array.from(inputs[0]!.data as Float32Array).includes(2)) throw new Error('index 2 is out of range');
      return [{ ...inputs[0]!, name: 'y' }];
    });
    const results = await runBatchOnModel(model, { items: [item(fp32('x', [1], [1])), item(fp32('x', [1], [2])), item(fp32('x', [1], [3]))] });
    expect([model.calls.length, results.map((r) => (r.ok ? r.outputs[0]?.data : r.error.message))]).toEqual([
      4,
      [new Float32Array([1]), 'inference failed: index 2 is out of range', new Float32Array([3])],
    ]);
  });

  it('keeps each item’s outputs to the outputs the batch names when it runs items alone', async () => {
    let runs = 0;
    const model = new ScriptedModel((inputs) => {
      runs += 1;
      if (runs === 1) throw new Error('the batch fails');
      return [{ ...inputs[0]!, name: 'y' }];
    });
    await runBatchOnModel(model, { ...batch, outputNames: ['y'] });
    expect(model.outputNames).toEqual([['y'], ['y'], ['y']]);
  });

  it('re-throws SLUICE_INSTANCE_FAILED from an item run alone', async () => {
    const failure = new SluiceError('SLUICE_INSTANCE_FAILED', 'the device was lost');
    let runs = 0;
    const model = new ScriptedModel(() => {
      runs += 1;
      throw runs === 1 ? new Error('the batch fails') : failure;
    });
    await expect(runBatchOnModel(model, batch)).rejects.toBe(failure);
  });

  it('reports a rejection that is not an Error by its text', async () => {
    const model = new ScriptedModel((inputs) => [{ ...inputs[0]!, name: 'y' }]);
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- a runtime may reject with a non-Error value
    model.run = () => Promise.reject('plain failure');
    const results = await runBatchOnModel(model, batch);
    expect(results.map((r) => (r.ok ? undefined : r.error.message))).toEqual(['inference failed: plain failure', 'inference failed: plain failure']);
  });

  it('keeps a SluiceError from the run as every item’s error', async () => {
    const failure = new SluiceError('SLUICE_TENSOR_UNSUPPORTED_DATATYPE', 'the runtime cannot carry this output');
    const model = new ScriptedModel(() => {
      throw failure;
    });
    expect(await runBatchOnModel(model, batch)).toEqual([
      { ok: false, error: failure },
      { ok: false, error: failure },
    ]);
  });

  it('re-throws SLUICE_INSTANCE_FAILED', async () => {
    const failure = new SluiceError('SLUICE_INSTANCE_FAILED', 'the device was lost');
    const model = new ScriptedModel(() => {
      throw failure;
    });
    await expect(runBatchOnModel(model, batch)).rejects.toBe(failure);
  });

  it('answers an item whose input holds no values and which the model cannot run with a 400 naming the input', async () => {
    const model = new ScriptedModel(() => {
      throw new SluiceError('SLUICE_INFERENCE_FAILED', 'ONNX Runtime failed to run model file `m.onnx`: cannot reshape {0,2}');
    });
    const [result] = await runBatchOnModel(model, { items: [item(fp32('x', [0, 2], []))] });
    expect(result?.ok ? undefined : [result?.error.code, result?.error.message, result?.error.details]).toEqual([
      'SLUICE_TENSOR_SHAPE_MISMATCH',
      'input `x` has shape [0,2], which holds no values, and the model cannot run it (ONNX Runtime failed to run model file `m.onnx`: cannot reshape {0,2}); send at least one row',
      { input: 'x', got: [0, 2] },
    ]);
  });

  it('keeps SLUICE_INFERENCE_FAILED for an item whose inputs all hold values', async () => {
    const model = new ScriptedModel(() => {
      throw new SluiceError('SLUICE_INFERENCE_FAILED', 'ONNX Runtime failed to run model file `m.onnx`: index out of range');
    });
    const [result] = await runBatchOnModel(model, { items: [item(fp32('x', [1, 2], [1, 2]))] });
    expect(result?.ok ? undefined : result?.error.code).toBe('SLUICE_INFERENCE_FAILED');
  });

  it('keeps an error other than a failed run for an item whose input holds no values', async () => {
    const failure = new SluiceError('SLUICE_TENSOR_UNSUPPORTED_DATATYPE', 'the runtime cannot carry this output');
    const model = new ScriptedModel(() => {
      throw failure;
    });
    expect(await runBatchOnModel(model, { items: [item(fp32('x', [0, 2], []))] })).toEqual([{ ok: false, error: failure }]);
  });

  it('fails every item when the outputs cannot be split', async () => {
    const model = new ScriptedModel(() => [fp32('mean', [1], [2])]);
    const results = await runBatchOnModel(model, batch);
    expect(results.map((r) => (r.ok ? undefined : r.error.code))).toEqual(['SLUICE_INFERENCE_FAILED', 'SLUICE_INFERENCE_FAILED']);
  });
});
