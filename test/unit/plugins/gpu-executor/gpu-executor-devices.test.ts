import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { GpuExecutor } from '../../../../plugins/gpu-executor/index.js';
import type { Batch } from '../../../../src/sdk/index.js';
import { writeAddModel } from '../../../support/onnx-models.js';
import { makeTempDir } from '../../../support/temp-dir.js';
import { loadContext } from './support/load-context.js';
import { RecordingRuntime } from './support/recording-runtime.js';

const row = (value: number): Batch['items'][number] => ({
  rows: 1,
  inputs: [
    { name: 'a', datatype: 'FP32', shape: [1, 3], data: new Float32Array([value, value, value]) },
    { name: 'b', datatype: 'FP32', shape: [1, 3], data: new Float32Array([1, 1, 1]) },
  ],
});

// No GPU here: the runtime really runs on the CPU but reports `cuda`, so that sessions are placed per GPU
// as they would be on a CUDA machine.
const onCuda = (): RecordingRuntime => new RecordingRuntime(() => 'cuda');

describe('GpuExecutor devices', () => {
  let dir: { dir: string; cleanup: () => Promise<void> };
  let modelPath: string;

  beforeAll(async () => {
    dir = await makeTempDir();
    modelPath = await writeAddModel(dir.dir);
  });

  afterAll(() => dir.cleanup());

  it('spreads instances round-robin over the configured GPUs', async () => {
    const model = await new GpuExecutor({ deviceIds: [0, 1] }).load(loadContext(modelPath, onCuda(), { device: 'gpu' }));
    const instances = await Promise.all([0, 1, 2, 3].map((index) => model.createInstance(index)));
    await model.release();
    expect(instances.map((instance) => instance.device)).toEqual(['cuda:0', 'cuda:1', 'cuda:0', 'cuda:1']);
  });

  it('creates one session per GPU, on that GPU, shared by its instances', async () => {
    const runtime = onCuda();
    const model = await new GpuExecutor({ deviceIds: [2, 5] }).load(loadContext(modelPath, runtime, { device: 'gpu' }));
    await Promise.all([0, 1, 2, 3].map((index) => model.createInstance(index)));
    await model.release();
    expect(runtime.loads.map((options) => options.deviceId)).toEqual([2, 5]);
  });

  it('loads further GPUs on the provider the first one settled on', async () => {
    const runtime = onCuda();
    const model = await new GpuExecutor({ deviceIds: [0, 1], executionProviders: ['cuda', 'webgpu', 'cpu'] }).load(loadContext(modelPath, runtime, { device: 'gpu' }));
    await model.createInstance(1);
    await model.release();
    expect(runtime.loads.map((options) => options.executionProviders)).toEqual([
      ['cuda', 'webgpu', 'cpu'],
      ['cuda'],
    ]);
  });

  it('places every instance on the GPU gpu:<n> names', async () => {
    const runtime = onCuda();
    const model = await new GpuExecutor({ deviceIds: [0, 1] }).load(loadContext(modelPath, runtime, { device: 'gpu:3' }));
    const devices = [(await model.createInstance(0)).device, (await model.createInstance(1)).device];
    await model.release();
    expect({ devices, deviceIds: runtime.loads.map((options) => options.deviceId) }).toEqual({ devices: ['cuda:3', 'cuda:3'], deviceIds: [3] });
  });

  it('keeps every instance on one session when the model runs on the CPU', async () => {
    const runtime = new RecordingRuntime();
    const model = await new GpuExecutor({ deviceIds: [0, 1] }).load(loadContext(modelPath, runtime, { device: 'gpu' }));
    const instances = await Promise.all([0, 1].map((index) => model.createInstance(index)));
    await model.release();
    expect({ devices: instances.map((instance) => instance.device), loads: runtime.loads.length }).toEqual({ devices: ['cpu', 'cpu'], loads: 1 });
  });

  it('fails an instance on a GPU where the provider does not start, with the runtime’s reason', async () => {
    // GPU 0 claims CUDA; GPU 1 really tries CUDA, which cannot start here, and lands on the CPU.
    const runtime = new RecordingRuntime((options) => (options.deviceId === 0 ? 'cuda' : undefined));
    const model = await new GpuExecutor({ deviceIds: [0, 1] }).load(loadContext(modelPath, runtime, { device: 'gpu' }));
    await expect(model.createInstance(1)).rejects.toMatchObject({
      code: 'SLUICE_MODEL_LOAD_FAILED',
      message: expect.stringMatching(new RegExp(`^cannot load ${modelPath} on cuda:1: cuda did not start there \\(.*Failed to load shared library\\)$`)),
    });
    await model.release();
  });

  it('runs batches on the session of the instance’s GPU', async () => {
    const runtime = onCuda();
    const model = await new GpuExecutor({ deviceIds: [0, 1], warmUp: false }).load(loadContext(modelPath, runtime, { device: 'gpu' }));
    const second = await model.createInstance(1);
    await second.run({ items: [row(1)] });
    await model.release();
    expect(runtime.runs.map((run) => run.session)).toEqual([1]);
  });

  it('refuses new instances once released', async () => {
    const model = await new GpuExecutor().load(loadContext(modelPath, new RecordingRuntime()));
    await model.release();
    await expect(model.createInstance(0)).rejects.toMatchObject({
      code: 'SLUICE_MODEL_UNLOADING',
      message: `${modelPath} has been released; it takes no new instances`,
    });
  });

  it('frees the sessions of every device on release', async () => {
    const model = await new GpuExecutor({ deviceIds: [0, 1], warmUp: false }).load(loadContext(modelPath, onCuda(), { device: 'gpu' }));
    const instances = await Promise.all([0, 1].map((index) => model.createInstance(index)));
    await model.release();
    const results = await Promise.all(instances.map((instance) => instance.run({ items: [row(1)] })));
    expect(results.map(([result]) => result?.ok === false && result.error.code)).toEqual(['SLUICE_MODEL_UNLOADING', 'SLUICE_MODEL_UNLOADING']);
  });
});
