import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { basename, join } from 'node:path';
import { isSluiceError } from '../../../../src/sdk/errors/index.js';
import { type Tensor } from '../../../../src/sdk/tensor/index.js';
import { OnnxRuntime } from '../../../../src/runtime/onnx/onnx-runtime.js';
import {
  writeAddModel,
  writeBf16InputModel,
  writeFixedShapeModel,
  writeGarbageModel,
  writeIdentityModel,
  writeTwoInputTwoOutputModel,
} from '../../../support/onnx-models.js';
import { rejection } from '../../../support/rejection.js';
import { makeTempDir } from '../../../support/temp-dir.js';


const twoInputs: Tensor[] = [
  { name: 'x', datatype: 'FP32', shape: [2, 3], data: new Float32Array([1, 2, 3, 4, 5, 6]) },
  { name: 'ids', datatype: 'INT64', shape: [2], data: new BigInt64Array([41n, 2n ** 62n]) },
];

describe('OnnxRuntime', () => {
  const runtime = new OnnxRuntime();
  let dir: string;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    ({ dir, cleanup } = await makeTempDir());
  });

  afterAll(async () => {
    await cleanup();
  });

  it('serves the manifest runtime name onnx', () => {
    expect(runtime.name).toBe('onnx');
  });

  describe('load errors', () => {
    it('reports a missing file as SLUICE_MODEL_LOAD_FAILED naming the file', async () => {
      const missing = join(dir, 'does-not-exist.onnx');
      const error = await rejection(runtime.load(missing, {}));
      expect(error.code).toBe('SLUICE_MODEL_LOAD_FAILED');
      expect(error.message).toContain(missing);
      expect(error.details).toMatchObject({ modelPath: missing });
    });

    it('reports a file that is not an ONNX model as SLUICE_MODEL_LOAD_FAILED naming the file and ORT reason', async () => {
      const garbage = await writeGarbageModel(dir);
      const error = await rejection(runtime.load(garbage, {}));
      expect(error.code).toBe('SLUICE_MODEL_LOAD_FAILED');
      expect(error.message).toContain(garbage);
      expect(error.message).toMatch(/protobuf/i);
    });

    it('reports a directory as SLUICE_MODEL_LOAD_FAILED', async () => {
      const error = await rejection(runtime.load(dir, {}));
      expect(error.code).toBe('SLUICE_MODEL_LOAD_FAILED');
      expect(error.message).toContain(dir);
    });

    it('reports a model with a BF16 input as SLUICE_MODEL_LOAD_FAILED', async () => {
      const bf16 = await writeBf16InputModel(dir);
      const error = await rejection(runtime.load(bf16, {}));
      expect(error.code).toBe('SLUICE_MODEL_LOAD_FAILED');
      expect(error.message).toContain(bf16);
    });
  });

  describe('run', () => {
    it('returns every output in declaration order when no names are given', async () => {
      const model = await runtime.load(await writeTwoInputTwoOutputModel(dir), {});
      try {
        const outputs = await model.run(twoInputs);
        expect(outputs).toEqual([
          { name: 'doubled', datatype: 'FP32', shape: [2, 3], data: new Float32Array([2, 4, 6, 8, 10, 12]) },
          { name: 'ids_plus_one', datatype: 'INT64', shape: [2], data: new BigInt64Array([42n, 2n ** 62n + 1n]) },
        ]);
      } finally {
        await model.release();
      }
    });

    it('returns only the requested outputs, in the requested order', async () => {
      const model = await runtime.load(await writeTwoInputTwoOutputModel(dir), {});
      try {
        const outputs = await model.run(twoInputs, ['ids_plus_one']);
        expect(outputs.map((output) => output.name)).toEqual(['ids_plus_one']);
      } finally {
        await model.release();
      }
    });

    it('runs a model with a fixed shape and no batch dimension', async () => {
      const model = await runtime.load(await writeFixedShapeModel(dir), {});
      try {
        expect(model.inputs).toEqual([{ name: 'input', datatype: 'FP32', shape: [2, 3] }]);
        const [output] = await model.run([
          { name: 'input', datatype: 'FP32', shape: [2, 3], data: new Float32Array([-1, 0, 1, -2, 2, -3]) },
        ]);
        expect(output?.data).toEqual(new Float32Array([0, 0, 1, 0, 2, 0]));
      } finally {
        await model.release();
      }
    });

    it('gives each of several concurrent runs its own result', async () => {
      const model = await runtime.load(await writeAddModel(dir), {});
      try {
        const runs = [1, 2, 3, 4].map((n) =>
          model.run([
            { name: 'a', datatype: 'FP32', shape: [1, 3], data: new Float32Array([n, n, n]) },
            { name: 'b', datatype: 'FP32', shape: [1, 3], data: new Float32Array([n, n, n]) },
          ]),
        );
        const sums = (await Promise.all(runs)).map(([sum]) => Array.from(sum!.data as Float32Array));
        expect(sums).toEqual([
          [2, 2, 2],
          [4, 4, 4],
          [6, 6, 6],
          [8, 8, 8],
        ]);
      } finally {
        await model.release();
      }
    });

    it('reports an ORT failure at run time as SLUICE_INFERENCE_FAILED with the reason, naming the model file without its folders', async () => {
      const modelPath = await writeAddModel(dir);
      const model = await runtime.load(modelPath, {});
      try {
        const error = await rejection(
          model.run([
            { name: 'a', datatype: 'FP32', shape: [2, 3], data: new Float32Array(6) },
            { name: 'b', datatype: 'FP32', shape: [3, 3], data: new Float32Array(9) },
          ]),
        );
        expect(error.code).toBe('SLUICE_INFERENCE_FAILED');
        expect(error.message).toContain(`ONNX Runtime failed to run model file \`${basename(modelPath)}\`: `);
        expect(error.message).not.toContain(dir);
        expect(error.details).toMatchObject({ modelPath, reason: expect.any(String) as unknown });
      } finally {
        await model.release();
      }
    });
  });

  describe('release', () => {
    it('can be called twice', async () => {
      const model = await runtime.load(await writeAddModel(dir), {});
      await model.release();
      await expect(model.release()).resolves.toBeUndefined();
    });

    it('makes later runs fail with SLUICE_MODEL_UNLOADING', async () => {
      const model = await runtime.load(await writeAddModel(dir), {});
      await model.release();
      const error = await rejection(model.run([]));
      expect(error.code).toBe('SLUICE_MODEL_UNLOADING');
      expect(error.message).toMatch(/released/);
    });

    it('lets a run that started before release finish', async () => {
      const model = await runtime.load(await writeAddModel(dir), {});
      const run = model.run([
        { name: 'a', datatype: 'FP32', shape: [1, 3], data: new Float32Array([1, 2, 3]) },
        { name: 'b', datatype: 'FP32', shape: [1, 3], data: new Float32Array([1, 1, 1]) },
      ]);
      const released = model.release();
      const [sum] = await run;
      await released;
      expect(sum?.data).toEqual(new Float32Array([2, 3, 4]));
    });

    it('resolves only once the runs under way have finished', async () => {
      const model = await runtime.load(await writeAddModel(dir), {});
      const order: string[] = [];
      const inputs = [
        { name: 'a', datatype: 'FP32', shape: [1, 3], data: new Float32Array([1, 2, 3]) },
        { name: 'b', datatype: 'FP32', shape: [1, 3], data: new Float32Array([1, 1, 1]) },
      ] as const;
      const runs = [model.run([...inputs]), model.run([...inputs])].map((run) => run.then(() => order.push('run')));
      await model.release().then(() => order.push('released'));
      await Promise.all(runs);
      expect(order).toEqual(['run', 'run', 'released']);
    });
  });

  it('passes tensor conversion errors through with their own code', async () => {
    const model = await runtime.load(await writeIdentityModel(dir, 'BYTES', [-1]), {});
    try {
      const error = await rejection(model.run([{ name: 'input', datatype: 'BYTES', shape: [1], data: [new Uint8Array([0xff])] }]));
      expect(isSluiceError(error, 'SLUICE_TENSOR_INVALID_VALUE')).toBe(true);
    } finally {
      await model.release();
    }
  });
});
