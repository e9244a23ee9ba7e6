import { describe, expect, it } from '@jest/globals';
import { GpuReadings, parseNvidiaSmi } from '../../../../src/telemetry/metrics/gpu-readings.js';

describe('GpuReadings', () => {
  it('reads nvidia-smi’s csv lines: utilisation, memory used and its share of the total', () => {
    expect(parseNvidiaSmi('0, 37, 8192, 81559\n1, 0, 0, 81559\n')).toEqual([
      { deviceId: 0, utilizationPercent: 37, memoryUsedMb: 8192, memoryUtilizationPercent: 10 },
      { deviceId: 1, utilizationPercent: 0, memoryUsedMb: 0, memoryUtilizationPercent: 0 },
    ]);
  });

  it('skips lines that are not four numbers ([N/A] fields of a GPU that cannot say)', () => {
    expect(parseNvidiaSmi('0, [N/A], 10, 100\nnot a line\n\n2, 5, 50, 100')).toEqual([{ deviceId: 2, utilizationPercent: 5, memoryUsedMb: 50, memoryUtilizationPercent: 50 }]);
  });

  it('keeps only the devices models run on', async () => {
    const readings = new GpuReadings(() => Promise.resolve('0, 1, 1, 10\n1, 2, 2, 10\n'));
    await readings.refresh([1]);
    expect(readings.readings().map((r) => r.deviceId)).toEqual([1]);
  });

  it('runs nothing while no model runs on a CUDA device', async () => {
    let asked = 0;
    const readings = new GpuReadings(() => {
      asked += 1;
      return Promise.resolve('0, 1, 1, 10');
    });
    await readings.refresh([]);
    expect({ asked, readings: readings.readings() }).toEqual({ asked: 0, readings: [] });
  });

  it('leaves the GPU figures off when nvidia-smi fails', async () => {
    const readings = new GpuReadings(() => Promise.resolve('0, 1, 1, 10'));
    await readings.refresh([0]);
    const failing = new GpuReadings(() => Promise.reject(new Error('spawn nvidia-smi ENOENT')));
    await failing.refresh([0]);
    expect({ before: readings.readings().length, failed: failing.readings() }).toEqual({ before: 1, failed: [] });
  });
});
