import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { executionProviderOrder } from '../../../../src/runtime/onnx/execution-provider.js';
import { OnnxRuntime } from '../../../../src/runtime/onnx/onnx-runtime.js';
import { addOnce } from '../../../support/add-model-run.js';
import { writeAddModel } from '../../../support/onnx-models.js';
import { makeTempDir } from '../../../support/temp-dir.js';

describe('executionProviderOrder', () => {
  it('defaults to cpu alone', () => {
    expect(executionProviderOrder()).toEqual(['cpu']);
  });

  it('appends cpu as the last resort', () => {
    expect(executionProviderOrder(['cuda', 'webgpu'])).toEqual(['cuda', 'webgpu', 'cpu']);
  });

  it('drops duplicates and anything listed after cpu', () => {
    expect(executionProviderOrder(['webgpu', 'webgpu', 'cpu', 'cuda'])).toEqual(['webgpu', 'cpu']);
  });
});

// CI machines have neither the CUDA provider library nor a WebGPU adapter, so both must fall back.
describe('provider fallback on a machine without GPU providers', () => {
  const runtime = new OnnxRuntime();
  let modelPath: string;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    let dir: string;
    ({ dir, cleanup } = await makeTempDir());
    modelPath = await writeAddModel(dir);
  });

  afterAll(async () => {
    await cleanup();
  });

  it('ends on cpu and says why cuda and webgpu were not used', async () => {
    const model = await runtime.load(modelPath, { executionProviders: ['cuda', 'webgpu', 'cpu'] });
    try {
      expect(model.executionProvider).toBe('cpu');
      expect(model.providerSelection.active).toBe('cpu');
      expect(model.providerSelection.rejected.map((rejected) => rejected.provider)).toEqual(['cuda', 'webgpu']);
      for (const rejected of model.providerSelection.rejected) expect(rejected.reason).not.toBe('');
    } finally {
      await model.release();
    }
  });

  it('still runs the model after falling back', async () => {
    expect(await addOnce(runtime, modelPath, { executionProviders: ['cuda'] }, [1, 2, 3], [1, 2, 3])).toEqual(new Float32Array([2, 4, 6]));
  });
});
