import { describe, expect, it } from '@jest/globals';
import { join } from 'node:path';
import { GpuExecutor } from '../../../../plugins/gpu-executor/index.js';
import { packageRoot } from '../../../../src/package-files/package-root.js';
import { SluiceError } from '../../../../src/sdk/index.js';
import { OnnxRuntime } from '../../../../src/runtime/onnx/index.js';
import { loadContext } from './support/load-context.js';
import { RecordingRuntime } from './support/recording-runtime.js';

const modelPath = join(packageRoot(), 'model-store', 'mlp', 'model.onnx');

describe('GpuExecutor options', () => {
  it('is called gpu', () => {
    expect(new GpuExecutor().name).toBe('gpu');
  });

  it('asks the runtime for sessions on the session thread by default', async () => {
    const runtime = new RecordingRuntime();
    const model = await new GpuExecutor({ warmUp: false }).load(loadContext(modelPath, runtime));
    await model.createInstance(0);
    await model.release();
    expect(runtime.loads.map((options) => options.dedicatedThread)).toEqual([true]);
  });

  it('keeps sessions on the calling thread with sessionThread: false', async () => {
    const runtime = new RecordingRuntime();
    const model = await new GpuExecutor({ warmUp: false }).load(loadContext(modelPath, runtime, { executorOptions: { sessionThread: false } }));
    await model.createInstance(0);
    await model.release();
    expect(runtime.loads.map((options) => options.dedicatedThread)).toEqual([false]);
  });

  it('refuses bad server-wide options with SLUICE_CONFIG_INVALID', () => {
    expect(() => new GpuExecutor({ maxInFlightBatchesPerDevice: 0 })).toThrow(
      new SluiceError('SLUICE_CONFIG_INVALID', 'gpu executor options: `maxInFlightBatchesPerDevice` must be an integer ≥ 1'),
    );
  });

  it('refuses a model’s bad executor options with SLUICE_MANIFEST_INVALID before loading anything', async () => {
    const context = loadContext('/nonexistent/model.onnx', new OnnxRuntime(), { executorOptions: { warmUp: 'no' } });
    await expect(new GpuExecutor().load(context)).rejects.toThrow(
      new SluiceError('SLUICE_MANIFEST_INVALID', 'executorOptions of /nonexistent/model.onnx: `warmUp` must be true or false'),
    );
  });
});
