import { describe, expect, it } from '@jest/globals';
import { totalmem } from 'node:os';
import { HostReadings } from '../../../../src/telemetry/metrics/host-readings.js';

describe('HostReadings', () => {
  it('reads percentages within 0–100 and memory that adds up to the host’s', () => {
    const reading = new HostReadings().read();
    for (const percent of [reading.cpuUtilizationPercent, reading.memoryUtilizationPercent, reading.disk?.utilizationPercent ?? -1]) {
      expect(percent).toBeGreaterThanOrEqual(0);
      expect(percent).toBeLessThanOrEqual(100);
    }
    expect((reading.memoryUsedMb + reading.memoryAvailableMb) * 1024 * 1024).toBeCloseTo(totalmem(), -3);
  });

  it('reads the disk of the path it is given, and none for a path that does not exist', () => {
    expect(new HostReadings('/').read().disk?.usedGb).toBeGreaterThan(0);
    expect(new HostReadings('/no/such/path').read().disk).toBeUndefined();
  });
});
