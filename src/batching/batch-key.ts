import type { Tensor } from '../sdk/tensor/index.js';

/** How a job joins batches: the rows it brings, and which jobs it may share a batch with. */
export interface BatchPlacement {
  readonly rows: number;
  /** Jobs with equal keys may run together; `undefined` means the job always runs alone. */
  readonly key: string | undefined;
}

/**
 * Jobs share a batch only when every input has the same name, datatype and non-batch dimensions and they
 * ask for the same outputs. A job whose inputs disagree on the first dimension, a job of zero rows, or any
 * job of a model that cannot batch, runs alone.
 */
export function batchPlacement(inputs: readonly Tensor[], outputNames: readonly string[] | undefined, batchable: boolean): BatchPlacement {
  const rows = inputs[0]?.shape[0] ?? 1;
  // Zero rows run alone too: joined to a batch, such a request would get an empty answer whether or not
  // the model can run zero rows, so its answer would depend on whom it arrived with.
  if (!batchable || rows === 0 || inputs.length === 0 || inputs.some((t) => t.shape.length === 0 || t.shape[0] !== rows)) return { rows, key: undefined };
  const parts = inputs
    .map((t) => `${t.name}:${t.datatype}:${t.shape.slice(1).join('x')}`)
    .sort();
  return { rows, key: `${parts.join('|')}>${outputNames?.join(',') ?? '*'}` };
}
