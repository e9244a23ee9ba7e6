import { describe, expect, it } from '@jest/globals';
import { GpuExecutor } from '../../../../plugins/gpu-executor/index.js';
import { SluiceError } from '../../../../src/plugins/sdk/index.js';
import { OnnxRuntime } from '../../../../src/runtime/onnx/index.js';
import { loadContext } from './support/load-context.js';

describe('GpuExecutor options', () => {
  it('is called gpu', () => {
    expect(new GpuExecutor().name).toBe('gpu');
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
