import { SluiceError, isSluiceError } from '../errors/index.js';
import { NUMERIC_DATATYPE_INFO, type NumericTensorData, type Tensor } from '../tensor/index.js';
import { shapeText } from '../tensor/shape-text.js';
import type { Batch, BatchItem, JobResult } from './executor.js';
import type { LoadedModel } from '../runtime/model-runtime.js';

/** Supplies the typed array a concatenated input is written into (the GPU executor reuses them). */
export type InputAllocator = (name: string, datatype: Tensor['datatype'], length: number) => NumericTensorData | undefined;

function concatOne(parts: readonly Tensor[], allocate?: InputAllocator): Tensor {
  const [first] = parts;
  if (first === undefined) throw new SluiceError('SLUICE_INTERNAL', 'cannot concatenate an empty batch');
  if (parts.length === 1) return first;
  const rows = parts.reduce((sum, t) => sum + (t.shape[0] ?? 0), 0);
  const shape = [rows, ...first.shape.slice(1)];
  if (first.datatype === 'BYTES') {
    return { name: first.name, datatype: 'BYTES', shape, data: parts.flatMap((t) => t.data as readonly Uint8Array[]) };
  }
  const length = parts.reduce((sum, t) => sum + t.data.length, 0);
  const data = allocate?.(first.name, first.datatype, length) ?? new NUMERIC_DATATYPE_INFO[first.datatype].array(length);
  let offset = 0;
  for (const part of parts) {
    (data as Float32Array).set(part.data as Float32Array, offset);
    offset += part.data.length;
  }
  return { name: first.name, datatype: first.datatype, shape, data };
}

/**
 * The inputs of a whole batch: each input's items concatenated along the first dimension, in item order.
 * A batch of one is passed through untouched.
 */
export function concatBatchInputs(batch: Batch, allocate?: InputAllocator): Tensor[] {
  const [head] = batch.items;
  if (head === undefined) return [];
  if (batch.items.length === 1) return [...head.inputs];
  return head.inputs.map((input) =>
    concatOne(
      batch.items.map((item) => {
        const part = item.inputs.find((t) => t.name === input.name);
        if (part === undefined) throw new SluiceError('SLUICE_INTERNAL', `batch item lacks input \`${input.name}\``);
        return part;
      }),
      allocate,
    ),
  );
}

function sliceRows(tensor: Tensor, start: number, rows: number): Tensor {
  const total = tensor.shape[0] ?? 0;
  const perRow = total === 0 ? 0 : tensor.data.length / total;
  const shape = [rows, ...tensor.shape.slice(1)];
  const data =
    tensor.datatype === 'BYTES'
      ? (tensor.data as readonly Uint8Array[]).slice(start * perRow, (start + rows) * perRow)
      : (tensor.data as NumericTensorData).slice(start * perRow, (start + rows) * perRow);
  return { name: tensor.name, datatype: tensor.datatype, shape, data };
}

/**
 * Splits a batch's outputs back into one answer per item, by the rows each item brought. An output whose
 * first dimension is not the batch's row count cannot be split: every item then fails with that reason.
 */
export function splitBatchOutputs(batch: Batch, outputs: readonly Tensor[]): JobResult[] {
  if (batch.items.length === 1) return [{ ok: true, outputs }];
  const rows = batch.items.reduce((sum, item) => sum + item.rows, 0);
  const unsplittable = outputs.find((t) => t.shape[0] !== rows);
  if (unsplittable !== undefined) {
    const error = new SluiceError(
      'SLUICE_INFERENCE_FAILED',
      `output \`${unsplittable.name}\` has shape ${shapeText(unsplittable.shape)}, not ${rows} rows, so a batch cannot be split; set batching.maxBatchSize: 1 for this model`,
    );
    return batch.items.map(() => ({ ok: false, error }));
  }
  let start = 0;
  return batch.items.map((item) => {
    const answer = outputs.map((tensor) => sliceRows(tensor, start, item.rows));
    start += item.rows;
    return { ok: true, outputs: answer };
  });
}

/** A run's failure as a Sluice error: itself when it is one, else `SLUICE_INFERENCE_FAILED` with its reason. */
function inferenceFailure(error: unknown): SluiceError {
  if (isSluiceError(error)) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new SluiceError('SLUICE_INFERENCE_FAILED', `inference failed: ${reason}`, {}, { cause: error });
}

/**
 * The failure of a run of `item` alone, as its client gets it. A run that fails on an input holding no
 * values (zero rows, say) failed because of what the client sent, since the model runs inputs that hold
 * some: that is the client's to fix, a 400 naming the input, not the server's fault.
 */
function itemRunFailure(item: BatchItem, error: unknown): SluiceError {
  const failure = inferenceFailure(error);
  if (failure.code !== 'SLUICE_INFERENCE_FAILED') return failure;
  const empty = item.inputs.find((tensor) => tensor.data.length === 0);
  if (empty === undefined) return failure;
  return new SluiceError(
    'SLUICE_TENSOR_SHAPE_MISMATCH',
    `input \`${empty.name}\` has shape ${shapeText(empty.shape)}, which holds no values, and the model cannot run it (${failure.message}); send at least one row`,
    { input: empty.name, got: empty.shape },
    { cause: error },
  );
}

/**
 * Runs a batch as one session run: inputs concatenated (into `allocate`'s arrays when given), outputs
 * split back per item. When the run of a batch of several items fails, each item is run again on its own,
 * so a request whose values the model cannot take (an index out of range, say) fails alone and its
 * batch-mates get their answers; an item that fails alone gets the runtime's reason for its own run (as a
 * 400 when one of its inputs holds no values).
 * `SLUICE_INSTANCE_FAILED` is re-thrown, since it means the instance itself is unusable.
 */
export async function runBatchOnModel(model: LoadedModel, batch: Batch, allocate?: InputAllocator): Promise<JobResult[]> {
  try {
    const outputs = await model.run(concatBatchInputs(batch, allocate), batch.outputNames);
    return splitBatchOutputs(batch, outputs);
  } catch (error) {
    if (isSluiceError(error, 'SLUICE_INSTANCE_FAILED')) throw error;
    const [item] = batch.items;
    if (batch.items.length > 1 || item === undefined) return runItemsAlone(model, batch, allocate);
    return [{ ok: false, error: itemRunFailure(item, error) }];
  }
}

/** Each item of `batch` in a run of its own, one after another, so that every item gets its own result. */
async function runItemsAlone(model: LoadedModel, batch: Batch, allocate?: InputAllocator): Promise<JobResult[]> {
  const results: JobResult[] = [];
  for (const item of batch.items) {
    const [result] = await runBatchOnModel(model, { items: [item], ...(batch.outputNames ? { outputNames: batch.outputNames } : {}) }, allocate);
    if (result === undefined) throw new SluiceError('SLUICE_INTERNAL', 'a run of one item gave no result');
    results.push(result);
  }
  return results;
}
