import { describe, expect, it } from '@jest/globals';
import { countCudaVisibleDevices, visibleGpuCount } from '../../../../plugins/gpu-executor/visible-gpus.js';

describe('countCudaVisibleDevices', () => {
  it('counts GPU indices', () => {
    expect(countCudaVisibleDevices('0,2,3')).toBe(3);
  });

  it('counts GPU UUIDs', () => {
    expect(countCudaVisibleDevices('GPU-8932f937-d72c-4106-c12f-20bd9faed9f6')).toBe(1);
  });

  it('stops at the first entry that is not a GPU, as CUDA does', () => {
    expect(countCudaVisibleDevices('0,-1,1')).toBe(1);
  });

  it('reads -1 as no GPU', () => {
    expect(countCudaVisibleDevices('-1')).toBe(0);
  });

  it('reads an empty value as no GPU', () => {
    expect(countCudaVisibleDevices('')).toBe(0);
  });
});

describe('visibleGpuCount', () => {
  it('follows CUDA_VISIBLE_DEVICES when it is set', async () => {
    await expect(visibleGpuCount({ CUDA_VISIBLE_DEVICES: '1, 0' })).resolves.toBe(2);
  });
});
