import { describe, expect, it } from '@jest/globals';
import { deviceForInstance, executionDevices, resolveGpuIds } from '../../../../plugins/gpu-executor/device-assignment.js';
import { SluiceError } from '../../../../src/sdk/index.js';

describe('resolveGpuIds', () => {
  it('takes the one GPU gpu:<n> names', () => {
    expect(resolveGpuIds('gpu:3', undefined, 8)).toEqual([3]);
  });

  it('lets gpu:<n> win over configured ids', () => {
    expect(resolveGpuIds('gpu:1', [4, 5], 8)).toEqual([1]);
  });

  it('takes the configured ids for gpu', () => {
    expect(resolveGpuIds('gpu', [2, 0], 8)).toEqual([2, 0]);
  });

  it('takes every visible GPU for gpu when none are configured', () => {
    expect(resolveGpuIds('gpu', undefined, 3)).toEqual([0, 1, 2]);
  });

  it('takes GPU 0 for gpu when none is visible, so the provider fallback decides', () => {
    expect(resolveGpuIds('gpu', undefined, 0)).toEqual([0]);
  });

  it('takes id 0 for cpu', () => {
    expect(resolveGpuIds('cpu', [3], 2)).toEqual([0]);
  });

  it('refuses another device', () => {
    expect(() => resolveGpuIds('tpu', undefined, 1)).toThrow(new SluiceError('SLUICE_MANIFEST_INVALID', 'device `tpu` is not cpu, gpu or gpu:<n>'));
  });
});

describe('executionDevices', () => {
  it('gives CUDA one device per GPU id', () => {
    expect(executionDevices('cuda', [2, 0])).toEqual([
      { label: 'cuda:2', deviceId: 2 },
      { label: 'cuda:0', deviceId: 0 },
    ]);
  });

  it('gives WebGPU one device, since it picks its adapter itself', () => {
    expect(executionDevices('webgpu', [1, 2])).toEqual([{ label: 'webgpu', deviceId: 1 }]);
  });

  it('gives the CPU one device', () => {
    expect(executionDevices('cpu', [0, 1])).toEqual([{ label: 'cpu', deviceId: 0 }]);
  });
});

describe('deviceForInstance', () => {
  it('spreads instances round-robin over the devices', () => {
    expect([0, 1, 2, 3, 4].map((index) => deviceForInstance(index, ['cuda:0', 'cuda:1']))).toEqual(['cuda:0', 'cuda:1', 'cuda:0', 'cuda:1', 'cuda:0']);
  });

  it('refuses a negative index', () => {
    expect(() => deviceForInstance(-1, ['cuda:0'])).toThrow(new SluiceError('SLUICE_INTERNAL', 'instance index -1 is not an integer ≥ 0'));
  });

  it('refuses an empty device list', () => {
    expect(() => deviceForInstance(0, [])).toThrow(new SluiceError('SLUICE_INTERNAL', 'no device to place an instance on'));
  });
});
