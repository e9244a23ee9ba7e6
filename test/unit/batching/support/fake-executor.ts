import type { Tensor, TensorSpec } from '../../../../src/sdk/tensor/index.js';
import type { Batch, ExecutionInstance, ExecutorModel, JobResult } from '../../../../src/sdk/executor/executor.js';
import { concatBatchInputs, splitBatchOutputs } from '../../../../src/sdk/executor/batch-tensors.js';

/** A batch handed to a {@link FakeInstance}, held open until the test ends it. */
export interface HeldRun {
  readonly instance: FakeInstance;
  readonly batch: Batch;
  /** Resolves with what the fake model computes: output `y` = input `x` × 10, split back by rows. */
  succeed(): void;
  /** Resolves with the given results. */
  resolve(results: readonly JobResult[]): void;
  /** Rejects the run: the instance can no longer run anything. */
  reject(error: unknown): void;
}

/** A `createInstance` call of a {@link FakeExecutorModel} that starts instances by hand. */
export interface HeldStart {
  readonly index: number;
  /** Resolves with a new instance. */
  succeed(): FakeInstance;
  /** Rejects, as an instance that cannot start. */
  fail(error: unknown): void;
}

/** `x` × 10 for every item of `batch`, computed on the concatenated batch and split back, as an executor does. */
export function timesTen(batch: Batch): JobResult[] {
  const [x] = concatBatchInputs(batch);
  if (x === undefined) return [];
  const data = Float32Array.from(x.data as Float32Array, (v) => v * 10);
  return splitBatchOutputs(batch, [{ name: 'y', datatype: 'FP32', shape: x.shape, data }]);
}

/** An execution slot whose runs the test resolves by hand. */
export class FakeInstance implements ExecutionInstance {
  readonly device = 'fake';
  released = 0;

  constructor(
    private readonly model: FakeExecutorModel,
    /** The index the pool asked for. */
    readonly index: number,
    /** 1 for the first instance the model created, 2 for the next… */
    readonly serial: number,
  ) {}

  run(batch: Batch): Promise<readonly JobResult[]> {
    return new Promise<readonly JobResult[]>((resolve, reject) => {
      this.model.runs.push({
        instance: this,
        batch,
        succeed: () => {
          resolve(timesTen(batch));
        },
        resolve,
        reject,
      });
    });
  }

  release(): Promise<void> {
    this.released += 1;
    return Promise.resolve();
  }
}

/**
 * An executor model over {@link FakeInstance}s: one FP32 input `x` `[N, W]`, one output `y`. Instances
 * start at once, or, with `manualStart`, when the test settles the {@link HeldStart} in `starts`.
 */
export class FakeExecutorModel implements ExecutorModel {
  readonly inputs: readonly TensorSpec[] = [{ name: 'x', datatype: 'FP32', shape: [-1, -1] }];
  readonly outputs: readonly TensorSpec[] = [{ name: 'y', datatype: 'FP32', shape: [-1, -1] }];
  readonly executionProvider = 'cpu';
  readonly runs: HeldRun[] = [];
  readonly starts: HeldStart[] = [];
  readonly created: FakeInstance[] = [];
  released = 0;

  constructor(private readonly manualStart = false) {}

  createInstance(index: number): Promise<ExecutionInstance> {
    if (!this.manualStart) return Promise.resolve(this.newInstance(index));
    return new Promise<ExecutionInstance>((resolve, reject) => {
      this.starts.push({
        index,
        succeed: () => {
          const instance = this.newInstance(index);
          resolve(instance);
          return instance;
        },
        fail: reject,
      });
    });
  }

  release(): Promise<void> {
    this.released += 1;
    return Promise.resolve();
  }

  private newInstance(index: number): FakeInstance {
    const instance = new FakeInstance(this, index, this.created.length + 1);
    this.created.push(instance);
    return instance;
  }
}

/** Input `x` of `rows` × `width` whose values tell the request apart: `tag * 100 + position`. */
export function taggedInput(tag: number, rows = 1, width = 2): Tensor {
  const data = Float32Array.from({ length: rows * width }, (_, i) => tag * 100 + i);
  return { name: 'x', datatype: 'FP32', shape: [rows, width], data };
}

/** The tag of a tensor made by {@link taggedInput}. */
export function tagOf(tensor: Tensor | undefined): number {
  const first = (tensor?.data as Float32Array | undefined)?.[0];
  if (first === undefined) throw new Error('tensor has no data');
  return Math.floor(first / 100);
}
