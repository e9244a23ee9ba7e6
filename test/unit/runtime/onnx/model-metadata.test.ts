import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type LoadedModel } from '../../../../src/sdk/runtime/model-runtime.js';
import { OnnxRuntime } from '../../../../src/runtime/onnx/onnx-runtime.js';
import { readTensorSpecs } from '../../../../src/runtime/onnx/model-metadata.js';
import { writeIdentityModel, writeTwoInputTwoOutputModel } from '../../../support/onnx-models.js';
import { makeTempDir } from '../../../support/temp-dir.js';

describe('model metadata', () => {
  const runtime = new OnnxRuntime();
  let cleanup: () => Promise<void>;
  let twoInTwoOut: LoadedModel;
  let mixedDims: LoadedModel;

  beforeAll(async () => {
    let dir: string;
    ({ dir, cleanup } = await makeTempDir());
    twoInTwoOut = await runtime.load(await writeTwoInputTwoOutputModel(dir));
    mixedDims = await runtime.load(await writeIdentityModel(dir, 'UINT16', [-1, 'channels', 7, null]));
  });

  afterAll(async () => {
    await twoInTwoOut.release();
    await mixedDims.release();
    await cleanup();
  });

  it('reads input names, datatypes and shapes in declaration order', () => {
    expect(twoInTwoOut.inputs).toEqual([
      { name: 'x', datatype: 'FP32', shape: [-1, 3] },
      { name: 'ids', datatype: 'INT64', shape: [-1] },
    ]);
  });

  it('reads output names, datatypes and shapes in declaration order', () => {
    expect(twoInTwoOut.outputs).toEqual([
      { name: 'doubled', datatype: 'FP32', shape: [-1, 3] },
      { name: 'ids_plus_one', datatype: 'INT64', shape: [-1] },
    ]);
  });

  it('turns named and unnamed symbolic dimensions into -1 and keeps fixed ones', () => {
    expect(mixedDims.inputs).toEqual([{ name: 'input', datatype: 'UINT16', shape: [-1, -1, 7, -1] }]);
  });
});

describe('readTensorSpecs', () => {
  it('refuses a value that is not a tensor, naming it', () => {
    expect(() => readTensorSpecs([{ name: 'history', isTensor: false }])).toThrow('history');
  });

  it('refuses an element type Sluice cannot carry, naming the value and the type', () => {
    expect(() => readTensorSpecs([{ name: 'packed', isTensor: true, type: 'int4', shape: [2] }])).toThrow(/packed.*int4/);
  });
});
