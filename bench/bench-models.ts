import { join } from 'node:path';
import { type BenchModelName } from './bench-options.js';
import {
  handRolledBinaryRequest,
  handRolledJsonRequest,
  oipBinaryRequest,
  predictionsRequest,
  type BenchRequest,
} from './request-bodies.js';

/** A model the benchmark serves, and the request each setup sends it. */
export interface BenchModel {
  readonly name: BenchModelName;
  /** What the model is, for headings. */
  readonly label: string;
  /** The model directory in the committed store. */
  readonly dir: string;
  readonly inputName: string;
  /** Shape of one instance, without the batch dimension. */
  readonly itemShape: readonly number[];
  /** Setup b's request to the hand-rolled server. */
  readonly handRolledRequest: BenchRequest;
  /** Setups c and d's request to Sluice. */
  readonly sluiceRequest: BenchRequest;
}

/** One deterministic instance of `size` values in [-1, 1]. */
export function sampleInstance(size: number): Float32Array {
  return Float32Array.from({ length: size }, (_, i) => Math.sin(i));
}

/**
 * The benchmark models, from the committed store under `repoRoot`. The MLP is sent as JSON everywhere
 * (the common case for small feature vectors); the CNN takes each server's fastest path: raw FP32
 * bytes to the hand-rolled route and the OIP binary tensor extension to Sluice.
 */
export function benchModels(repoRoot: string): Record<BenchModelName, BenchModel> {
  const mlp = sampleInstance(64);
  const cnn = sampleInstance(3 * 32 * 32);
  return {
    mlp: {
      name: 'mlp',
      label: 'MLP 64→256→256→10',
      dir: join(repoRoot, 'model-store', 'mlp'),
      inputName: 'input',
      itemShape: [64],
      handRolledRequest: handRolledJsonRequest(mlp),
      sluiceRequest: predictionsRequest('mlp', mlp),
    },
    cnn: {
      name: 'cnn',
      label: 'CNN 3×32×32 → conv 32, 64, 128 → 10',
      dir: join(repoRoot, 'model-store', 'cnn'),
      inputName: 'input',
      itemShape: [3, 32, 32],
      handRolledRequest: handRolledBinaryRequest(cnn),
      sluiceRequest: oipBinaryRequest('cnn', 'input', [1, 3, 32, 32], cnn),
    },
  };
}
