import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { join } from 'node:path';
import { readFile } from 'node:fs/promises';
import { packageRoot } from '../../../src/package-files/package-root.js';
import { type Tensor } from '../../../src/sdk/tensor/index.js';
import { type LoadedModel } from '../../../src/sdk/runtime/model-runtime.js';
import { OnnxRuntime } from '../../../src/runtime/onnx/onnx-runtime.js';
import { IRIS_SPECIES, loadIrisDataset, type IrisDataset } from '../../../scripts/iris-dataset.js';
import { trainIris } from '../../../scripts/train-iris.js';

const irisDir = join(packageRoot(), 'model-store', 'iris');

describe('trainIris', () => {
  let dataset: IrisDataset;

  beforeAll(async () => {
    dataset = await loadIrisDataset();
  });

  it('classifies more than 90 % of the training rows correctly', () => {
    expect(trainIris(dataset).trainingAccuracy).toBeGreaterThan(0.9);
  });

  it('gives the same parameters every time', () => {
    const first = trainIris(dataset);
    const second = trainIris(dataset);
    expect(second.weights).toEqual(first.weights);
    expect(second.bias).toEqual(first.bias);
  });

  it('learns less with fewer steps', () => {
    expect(trainIris(dataset, { iterations: 1 }).trainingAccuracy).toBeLessThan(trainIris(dataset).trainingAccuracy);
  });
});

describe('the committed iris model', () => {
  let dataset: IrisDataset;
  let model: LoadedModel;
  let outputs: Tensor[];

  beforeAll(async () => {
    dataset = await loadIrisDataset();
    model = await new OnnxRuntime().load(join(irisDir, 'model.onnx'), {});
    outputs = await model.run([
      { name: 'input', datatype: 'FP32', shape: [dataset.rows, 4], data: Float32Array.from(dataset.features) },
    ]);
  });

  afterAll(async () => {
    await model.release();
  });

  it('declares raw measurements in and probabilities and a label out', () => {
    expect(model.inputs).toEqual([{ name: 'input', datatype: 'FP32', shape: [-1, 4] }]);
    expect(model.outputs).toEqual([
      { name: 'probabilities', datatype: 'FP32', shape: [-1, 3] },
      { name: 'label', datatype: 'INT64', shape: [-1] },
    ]);
  });

  it('classifies more than 90 % of the data set correctly from raw measurements', () => {
    const labels = outputs[1]!.data as BigInt64Array;
    const correct = dataset.classes.filter((expected, row) => labels[row] === BigInt(expected)).length;
    expect(correct / dataset.rows).toBeGreaterThan(0.9);
  });

  it('outputs probabilities that sum to one per row', () => {
    const probabilities = outputs[0]!.data as Float32Array;
    for (let row = 0; row < dataset.rows; row++) {
      expect(probabilities[row * 3]! + probabilities[row * 3 + 1]! + probabilities[row * 3 + 2]!).toBeCloseTo(1, 5);
    }
  });

  it('labels each row with its most probable class', () => {
    const probabilities = outputs[0]!.data as Float32Array;
    const labels = outputs[1]!.data as BigInt64Array;
    for (let row = 0; row < dataset.rows; row++) {
      const rowProbabilities = Array.from(probabilities.subarray(row * 3, row * 3 + 3));
      expect(Number(labels[row])).toBe(rowProbabilities.indexOf(Math.max(...rowProbabilities)));
    }
  });

  it('ships labels.txt with the species in class-index order', async () => {
    expect(await readFile(join(irisDir, 'labels.txt'), 'utf8')).toBe(IRIS_SPECIES.join('\n') + '\n');
  });
});
