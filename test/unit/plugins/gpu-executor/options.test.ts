import { describe, expect, it } from '@jest/globals';
import {
  DEFAULT_GPU_EXECUTOR_OPTIONS,
  parseGpuExecutorOptions,
  resolveGpuExecutorOptions,
} from '../../../../plugins/gpu-executor/options.js';
import { SluiceError } from '../../../../src/sdk/index.js';

describe('parseGpuExecutorOptions', () => {
  it('reads no options as none', () => {
    expect(parseGpuExecutorOptions(undefined, 'opts')).toEqual({});
  });

  it('returns valid options as given', () => {
    const raw = {
      executionProviders: ['webgpu', 'cpu'],
      deviceIds: [1, 0],
      maxInFlightBatchesPerDevice: 3,
      warmUp: false,
      warmUpShapes: { input: [3, 224, 224] },
      fp16OutputsAsFp32: true,
      inputBufferPoolBytes: 0,
      sessionThread: false,
    };
    expect(parseGpuExecutorOptions(raw, 'opts')).toEqual(raw);
  });

  it('refuses something that is not a mapping', () => {
    expect(() => parseGpuExecutorOptions([1], 'opts')).toThrow(new SluiceError('SLUICE_CONFIG_INVALID', 'opts: executor options must be a mapping'));
  });

  it('refuses an unknown key, naming the known ones', () => {
    expect(() => parseGpuExecutorOptions({ maxBatch: 8 }, 'opts')).toThrow(
      new SluiceError(
        'SLUICE_CONFIG_INVALID',
        'opts: `maxBatch` is not a GPU executor option (known: executionProviders, deviceIds, maxInFlightBatchesPerDevice, warmUp, warmUpShapes, fp16OutputsAsFp32, inputBufferPoolBytes, sessionThread)',
      ),
    );
  });

  it.each([
    [{ executionProviders: ['tensorrt'] }, '`executionProviders` must be a non-empty list of cpu, cuda, webgpu'],
    [{ executionProviders: [] }, '`executionProviders` must be a non-empty list of cpu, cuda, webgpu'],
    [{ executionProviders: ['cuda', 'cuda'] }, '`executionProviders` must not repeat a provider'],
    [{ deviceIds: [-1] }, '`deviceIds` must be a non-empty list of GPU ids (integers ≥ 0)'],
    [{ deviceIds: [0, 0] }, '`deviceIds` must not repeat a GPU id'],
    [{ maxInFlightBatchesPerDevice: 0 }, '`maxInFlightBatchesPerDevice` must be an integer ≥ 1'],
    [{ maxInFlightBatchesPerDevice: 1.5 }, '`maxInFlightBatchesPerDevice` must be an integer ≥ 1'],
    [{ inputBufferPoolBytes: -1 }, '`inputBufferPoolBytes` must be an integer ≥ 0 (bytes)'],
    [{ warmUp: 'yes' }, '`warmUp` must be true or false'],
    [{ fp16OutputsAsFp32: 1 }, '`fp16OutputsAsFp32` must be true or false'],
    [{ sessionThread: 'on' }, '`sessionThread` must be true or false'],
    [{ warmUpShapes: [3] }, '`warmUpShapes` must map input names to lists of dimensions'],
    [{ warmUpShapes: { input: [0] } }, '`warmUpShapes` must map input names to lists of dimensions (integers ≥ 1)'],
  ])('refuses %j', (raw, problem) => {
    expect(() => parseGpuExecutorOptions(raw, 'opts')).toThrow(new SluiceError('SLUICE_CONFIG_INVALID', `opts: ${problem}`));
  });

  it('names every bad key in one error', () => {
    expect(() => parseGpuExecutorOptions({ warmUp: 1, inputBufferPoolBytes: 'big' }, 'opts')).toThrow(
      'opts: `warmUp` must be true or false; `inputBufferPoolBytes` must be an integer ≥ 0 (bytes)',
    );
  });

  it('fails with the error code it is given', () => {
    expect(() => parseGpuExecutorOptions({ warmUp: 1 }, 'opts', 'SLUICE_MANIFEST_INVALID')).toThrow(
      expect.objectContaining({ code: 'SLUICE_MANIFEST_INVALID' }),
    );
  });
});

describe('resolveGpuExecutorOptions', () => {
  it('fills in the defaults', () => {
    expect(resolveGpuExecutorOptions({})).toEqual({
      maxInFlightBatchesPerDevice: 2,
      warmUp: true,
      warmUpShapes: {},
      fp16OutputsAsFp32: false,
      inputBufferPoolBytes: 268435456,
      sessionThread: true,
    });
  });

  it('lets the override win key by key over the base', () => {
    const resolved = resolveGpuExecutorOptions({ maxInFlightBatchesPerDevice: 4, warmUp: false }, { warmUp: true });
    expect(resolved).toEqual({ ...DEFAULT_GPU_EXECUTOR_OPTIONS, maxInFlightBatchesPerDevice: 4, warmUp: true });
  });

  it('keeps the base where the override leaves a key undefined', () => {
    expect(resolveGpuExecutorOptions({ deviceIds: [2] }, { deviceIds: undefined }).deviceIds).toEqual([2]);
  });
});
